"""Evaluation on a checkpoint's own test split (recreated from the seed in its metrics.json).

    python -m models.training.evaluate assets/transformer-en-fr --data-dir ../shared/data [--beam 4] [--write]
    python -m models.training.evaluate assets/seq2seq-dot --choose --write   # beam and alpha chosen on the validation split

Translation: sacreBLEU BLEU and chrF, and BLEU by source-length bucket (the figure of
Bahdanau et al. 2015, fig. 2, that shows the fixed-vector bottleneck hurting long sentences);
for context, multi-reference BLEU, and what another of a source's human translations reads
against each reference (`bleu_other_reference`); for a checkpoint trained on a split by pair
(`--split-by pair`), BLEU apart on the pairs whose source is also a training source (`bleu_by_seen_source`).
BERT: masked-LM top-1 accuracy on masked positions (15% of tokens, all replaced by [MASK])
and NSP accuracy with negatives from other documents of the same corpus.
GPT: held-out perplexity per token and per word beside an interpolated Kneser-Ney trigram counted on
the same training tokens (models/training/lm_data.py, models/training/ngram.py).
"""
from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path

import torch
from tqdm import tqdm

from models.checkpoint import load
from models.decoding import beam_search, greedy
from models.tokenizers import special_ids
from models.training import data

LENGTH_BUCKETS = [(1, 4), (5, 7), (8, 10), (11, 13), (14, 1000)]  # source words; Tatoeba is short, so 14+ is "long"


@torch.inference_mode()
def translate(model, tok, sentences: list[str], beam: int = 1, batch_size: int = 64, max_len: int = 128,
              device="cpu", progress: bool = False, alpha: float = 0.6, nbest: bool = False) -> list:
    """Each sentence's best output; with nbest (beam > 1), each sentence's whole beam instead, best
    first, as (text, logprob, score) tuples."""
    if nbest and beam < 2:
        raise ValueError("nbest needs a beam of 2 or more")
    sp = special_ids(tok)
    model.eval()
    positions = getattr(getattr(model, "config", None), "max_len", None)  # the Transformer's positional table
    if positions:  # a source of max_len tokens, and <s> + max_len outputs, must fit it
        max_len = min(max_len, positions - 1)
    order = sorted(range(len(sentences)), key=lambda i: len(sentences[i]))
    out = [""] * len(sentences)
    chunks = range(0, len(order), batch_size)
    for start in tqdm(chunks, disable=not progress, desc=f"translate (beam {beam})"):
        idx = order[start:start + batch_size]
        enc = tok.encode_batch([sentences[i] for i in idx], add_special_tokens=False)
        rows = [e.ids[: max_len - 1] + [sp["eos"]] for e in enc]
        src = data.pad(rows, sp["pad"]).to(device)
        limit = min(max_len, int(src.size(1) * 1.5) + 10)
        if beam > 1:
            beams = beam_search(model, src, sp["bos"], sp["eos"], limit, beam, alpha)
            for i, hyps in zip(idx, beams):
                out[i] = ([(tok.decode(list(h.tokens)), h.logprob, h.score) for h in hyps] if nbest
                          else tok.decode(list(hyps[0].tokens)))
        else:
            for i, row in zip(idx, greedy(model, src, sp["bos"], sp["eos"], limit)):
                out[i] = tok.decode(list(row))
    return out


def bleu_chrf(hyps, refs) -> dict:
    import sacrebleu  # here, not at import: training BERT (which never scores BLEU) needs no sacrebleu
    return {"bleu": round(sacrebleu.corpus_bleu(hyps, [refs]).score, 2),
            "chrf": round(sacrebleu.corpus_chrf(hyps, [refs]).score, 2)}


def bleu_by_length(srcs, hyps, refs) -> list[dict]:
    import sacrebleu
    rows = []
    for lo, hi in LENGTH_BUCKETS:
        idx = [i for i, s in enumerate(srcs) if lo <= len(s.split()) <= hi]
        if idx:
            b = sacrebleu.corpus_bleu([hyps[i] for i in idx], [[refs[i] for i in idx]]).score
            rows.append({"bucket": f"{lo}-{hi}" if hi < 1000 else f"{lo}+", "n": len(idx), "bleu": round(b, 2)})
    return rows


def references_by_source(srcs, refs) -> dict[str, list[str]]:
    """Each distinct source's references, in the split's order (Tatoeba gives many sources several)."""
    grouped: dict[str, list[str]] = {}
    for s, r in zip(srcs, refs):
        grouped.setdefault(s, []).append(r)
    return grouped


def bleu_multi_ref(srcs, hyps, refs) -> dict:
    """Context for the pair-level score, not a replacement: Tatoeba gives many sources several
    translations, and the test split scores each pair, so one output meets each reference in
    turn. Here every distinct source counts once (with its first output: decoding is deterministic),
    against all of its references."""
    import sacrebleu
    grouped, output = references_by_source(srcs, refs), dict(zip(reversed(srcs), reversed(hyps)))  # the first
    outs = [output[s] for s in grouped]
    k = max(len(rs) for rs in grouped.values())
    streams = [[rs[i] if i < len(rs) else None for rs in grouped.values()] for i in range(k)]
    return {"n_sources": len(grouped), "max_refs": k, "bleu": round(sacrebleu.corpus_bleu(outs, streams).score, 2)}


def bleu_other_reference(srcs, hyps, refs) -> dict:
    """What a human translation reads on the pair-level score, for context: on the pairs whose source
    has another, different reference, that other reference (the next one of the source's, in order)
    is scored as if it were the output, beside the model's outputs on the same pairs. Tatoeba keeps
    no two identical translations of one sentence, so the human stand-in never matches by construction:
    likely an underestimate of an independent translator, who might."""
    import sacrebleu
    grouped = references_by_source(srcs, refs)
    human, model, kept = [], [], []
    for s, h, r in zip(srcs, hyps, refs):
        rs = grouped[s]
        j = rs.index(r)
        other = next((x for x in rs[j + 1:] + rs[:j] if x != r), None)
        if other is not None:
            human.append(other)
            model.append(h)
            kept.append(r)
    if not kept:
        return {"n_pairs": 0, "human_bleu": None, "model_bleu": None}
    return {"n_pairs": len(kept), "human_bleu": round(sacrebleu.corpus_bleu(human, [kept]).score, 2),
            "model_bleu": round(sacrebleu.corpus_bleu(model, [kept]).score, 2)}


@torch.inference_mode()
def bert_scores(model, tok, sampler: "data.BertSampler", n_batches: int, batch_size: int, device="cpu") -> dict:
    """MLM top-1 on masked positions and NSP accuracy over n_batches drawn from held-out text; every chosen
    position is [MASK] (what fill-mask reads), not training's 80/10/10."""
    model.eval()
    hit = total = nsp_hit = nsp_total = 0
    for _ in range(n_batches):
        b = sampler.batch(batch_size)
        clean = torch.where(b["mlm_labels"] >= 0, b["mlm_labels"], b["input_ids"])  # re-mask the chosen tokens
        b["input_ids"], b["mlm_labels"] = data.mask_tokens(clean, sampler.specials, sampler.vocab_size,
                                                           sampler.rng, all_mask=True)
        b = {k: v.to(device) for k, v in b.items()}
        out = model(b["input_ids"], b["segment_ids"])
        sel = b["mlm_labels"] >= 0
        hit += (out.mlm_logits.argmax(-1)[sel] == b["mlm_labels"][sel]).sum().item()
        total += sel.sum().item()
        nsel = b["nsp_labels"] >= 0
        nsp_hit += (out.nsp_logits.argmax(-1)[nsel] == b["nsp_labels"][nsel]).sum().item()
        nsp_total += nsel.sum().item()
    return {"mlm_top1": round(hit / max(total, 1), 4), "mlm_n": total,
            "nsp_acc": round(nsp_hit / max(nsp_total, 1), 4) if nsp_total else None, "nsp_n": nsp_total}


VALID_DRAW, TEST_DRAW = 1234, 5678  # seeds of the held-out draws: checkpoint selection never sees a test sequence


def _heldout_sampler(tok, corpora: dict, singles: list, single_weight: float, max_len: int, seed: int):
    """A seeded sampler over held-out documents (each corpus weighed equally) and sentences."""
    return data.BertSampler(corpora, {k: 1.0 for k in corpora}, singles, single_weight, special_ids(tok),
                            tok.get_vocab_size(), max_len, random.Random(seed))


def bert_heldout_eval(model, tok, held: dict, short: list, max_len: int, device="cpu", n_batches=20,
                      batch=64, seed: int = VALID_DRAW) -> dict:
    """Fill-mask top-1 on held-out Wikipedia and short sentences, and NSP accuracy (seeded, deterministic).
    Validation (training's selection) and test (`main`) read disjoint halves of the held-out
    documents and sentences (`data.bert_split`), and draw with their own seeds (`seed`)."""
    mk = lambda corp, single, w: _heldout_sampler(tok, corp, single, w, max_len, seed)
    wiki = bert_scores(model, tok, mk({"w": held["wikitext2-valid"]}, [], 0), n_batches, batch, device)
    short = bert_scores(model, tok, mk({}, short[:4000], 1.0), n_batches, batch, device)
    nsp = bert_scores(model, tok, mk(data.pair_corpora(held), [], 0), n_batches, batch, device)
    return {"fill_mask_top1_wiki": wiki["mlm_top1"], "fill_mask_top1_short": short["mlm_top1"],
            "nsp_acc": nsp["nsp_acc"], "mlm_top1_mixed": nsp["mlm_top1"],
            "n": {"wiki_masked": wiki["mlm_n"], "short_masked": short["mlm_n"], "nsp_pairs": nsp["nsp_n"]}}


def nsp_by_corpus(model, tok, held: dict, max_len: int, device="cpu", n_batches=20, batch=64,
                  seed: int = TEST_DRAW) -> dict:
    """NSP accuracy of each held-out corpus alone (a diagnostic beside `bert_heldout_eval`, whose NSP
    number draws its pairs from these corpora with equal weight, however few documents each holds),
    with the number of documents and sentences the pairs come from."""
    out = {}
    for name, docs in data.pair_corpora(held).items():
        r = bert_scores(model, tok, _heldout_sampler(tok, {name: docs}, [], 0, max_len, seed), n_batches, batch,
                        device)
        out[name] = {"nsp_acc": r["nsp_acc"], "nsp_pairs": r["nsp_n"], "documents": len(docs),
                     "sentences": sum(len(d) for d in docs)}
    return out


def bert_single_vs_long(model, tok, held: dict, max_len: int, device="cpu", n_batches=20, batch=64,
                        seed: int = TEST_DRAW) -> dict:
    """What a student types against what BERT trained on: NSP where A and B are one sentence
    each (`BertSampler.single_pairs`; B the next sentence or one of another document) and where they are
    BERT's long segments, on held-out Wikipedia alone and on every held-out corpus (each weighed equally,
    as `bert_heldout_eval`'s nsp_acc); fill-mask top-1 on single held-out Wikipedia sentences ([CLS] s
    [SEP]) and on long Wikipedia segments (`bert_heldout_eval`'s fill_mask_top1_wiki, same draw)."""
    wiki = {"w": held["wikitext2-valid"]}
    sentences = [s for d in held["wikitext2-valid"] for s in d]

    def draw(corpora, singles=(), single_pairs=0.0):
        sampler = _heldout_sampler(tok, corpora, list(singles), 1.0 if singles else 0, max_len, seed)
        sampler.single_pairs = single_pairs
        return bert_scores(model, tok, sampler, n_batches, batch, device)

    nsp = {"single_wiki": draw(wiki, single_pairs=1.0), "long_wiki": draw(wiki),
           "single_all": draw(data.pair_corpora(held), single_pairs=1.0), "long_all": draw(data.pair_corpora(held))}
    fill = {"single_wiki": draw({}, sentences), "long_wiki": nsp["long_wiki"]}
    return {"nsp": {k: r["nsp_acc"] for k, r in nsp.items()}, "fill_mask_top1": {k: r["mlm_top1"] for k, r in fill.items()},
            "n": {"nsp_pairs": {k: r["nsp_n"] for k, r in nsp.items()},
                  "masked": {k: r["mlm_n"] for k, r in fill.items()}}}


def checkpoint_split(ckpt, data_dir: Path) -> dict:
    """The checkpoint's own train/valid/test pairs (recreated from its metrics.json), turned to its direction."""
    m = ckpt.metrics["data"]
    return data.translation_split(data.read_pairs(data_dir, m["pair"]), m["direction"], m["split_seed"],
                                  m["valid_frac"], m["test_frac"], m.get("split_by", "source"))[0]


def heldout_pairs(ckpt, data_dir: Path, split_name: str = "test") -> list[tuple[str, str]]:
    """The checkpoint's validation or test pairs: sources it never trained on, unless it was trained on a
    split by pair (--split-by pair)."""
    return checkpoint_split(ckpt, data_dir)[split_name]


def bleu_by_seen_source(srcs, hyps, refs, seen: set) -> dict:
    """A split by pair, read in two parts: the pairs whose source is also a training source (with another
    translation there) and the rest."""
    parts = {}
    for name, flag in (("seen", True), ("unseen", False)):
        idx = [i for i, s in enumerate(srcs) if (s in seen) == flag]
        parts[name] = {"n": len(idx), **bleu_chrf([hyps[i] for i in idx], [refs[i] for i in idx])} if idx else {"n": 0}
    return parts


def translation_test(ckpt, data_dir: Path, beam: int, progress=True, alpha: float = 0.6, split_name="test",
                     device="cpu", pairs=None) -> dict:
    """BLEU, chrF, BLEU by length and multi-reference BLEU on `split_name` (or on `pairs`, that split's
    `heldout_pairs` read once by a caller that decodes it several times)."""
    by_pair = ckpt.metrics["data"].get("split_by") == "pair"
    split = checkpoint_split(ckpt, data_dir) if pairs is None or by_pair else None  # the corpus read once
    test = split[split_name] if pairs is None else pairs
    srcs, refs = [s for s, _ in test], [t for _, t in test]
    t0 = time.time()
    hyps = translate(ckpt.model.to(device), ckpt.tokenizer, srcs, beam=beam, progress=progress, alpha=alpha,
                     device=device, batch_size=64 if device == "cpu" else 512)
    res = {"split": split_name, "n": len(test), "beam": beam, "alpha": alpha, **bleu_chrf(hyps, refs),
           "bleu_by_length": bleu_by_length(srcs, hyps, refs), "bleu_multi_ref": bleu_multi_ref(srcs, hyps, refs),
           "bleu_other_reference": bleu_other_reference(srcs, hyps, refs)}
    res["seconds_cpu" if device == "cpu" else f"seconds_{device}"] = round(time.time() - t0, 1)
    if by_pair:
        res["bleu_by_seen_source"] = bleu_by_seen_source(srcs, hyps, refs, {s for s, _ in split["train"]})
    return res


ALIGNMENT_CHECKS = {d: Path(__file__).with_name(f"alignment_{d.replace('-', '_')}.tsv")  # hand-aligned, written for the repo
                    for d in ("en-fr", "ko-en")}


def read_alignment_check(path: Path) -> list[tuple[str, str, set]]:
    """(source, target, gold links) from a check file: tab-separated source, target and links "i-j"
    (source word i, target word j, words split at spaces, from 0); lines starting with # are comments."""
    out = []
    for n, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        src, tgt, links = line.split("\t")
        gold = {tuple(int(x) for x in link.split("-")) for link in links.split()}
        if not all(i < len(src.split()) and j < len(tgt.split()) for i, j in gold):
            raise ValueError(f"{path}:{n}: a link points past the last word")
        out.append((src, tgt, gold))
    return out


def token_words(text: str, offsets) -> list[int]:
    """The space-separated word of `text` each token belongs to (by its first non-space character; a
    token of spaces only, such as a lone "▁", goes with the next word)."""
    starts = [i for i in range(len(text)) if not text[i].isspace() and (i == 0 or text[i - 1].isspace())]
    word_of = [0] * (len(text) + 1)
    w = -1
    for i in range(len(text)):
        if i in starts:
            w += 1
        word_of[i] = max(w, 0)
    out = []
    for a, b in offsets:
        chars = [i for i in range(a, b) if not text[i].isspace()]
        if chars:
            out.append(word_of[chars[0]])
        else:  # spaces only: the word that starts next
            nxt = [k for k, st in enumerate(starts) if st >= b]
            out.append(nxt[0] if nxt else len(starts) - 1)
    return out


def pool_words(att, src_words: list[int], tgt_words: list[int], n_src: int, n_tgt: int):
    """Token attention (T, S) -> word attention (n_tgt, n_src): each target word's rows averaged (its
    subwords' steps), each source word's columns summed (a row still sums to 1). Words are indices
    into range(n_src) / range(n_tgt), one per column / row."""
    att = torch.as_tensor(att, dtype=torch.float64)
    cols = torch.zeros(att.shape[1], n_src, dtype=torch.float64)
    cols[torch.arange(att.shape[1]), torch.tensor(src_words)] = 1
    rows = torch.zeros(n_tgt, att.shape[0], dtype=torch.float64)
    rows[torch.tensor(tgt_words), torch.arange(att.shape[0])] = 1
    rows = rows / rows.sum(1, keepdim=True)
    return rows @ att @ cols


@torch.inference_mode()
def alignment_scores(model, tok, check: list, layer: int = -1) -> dict | None:
    """How well attention reads as a word alignment, teacher-forced on each gold target.
    Attention: the cross attention of `layer` (the Transformer's last by default), mean of its heads; the
    seq2seq model's one attention. Subwords pooled to words (`pool_words`), the source's </s> a column
    of its own; each target word that has a gold link "hits" when its most-attended source column is a
    linked word. Returns hit rate, the hit rate with </s> left out of the argmax, and the mean weight of a
    target word on </s>; None for a model without attention."""
    model.eval()
    sp = special_ids(tok)
    hits = hits_no_eos = n = 0
    eos_weight = []
    device = next(model.parameters()).device  # after a GPU reading the model is still there
    for src, tgt, gold in check:
        es, et = tok.encode(src, add_special_tokens=False), tok.encode(tgt, add_special_tokens=False)
        s_ids = torch.tensor([es.ids + [sp["eos"]]], device=device)
        t_ids = torch.tensor([[sp["bos"]] + et.ids], device=device)
        trace = model(s_ids, t_ids, need_weights=True).trace
        if trace is None or trace.cross is None:
            return None
        att = trace.cross[0, layer].float().mean(0)[:-1].cpu()  # (T, S): the rows that predict y (not the last, </s>)
        n_src, n_tgt = len(src.split()), len(tgt.split())
        w = pool_words(att, token_words(src, es.offsets) + [n_src], token_words(tgt, et.offsets), n_src + 1, n_tgt)
        for j in range(n_tgt):
            links = {i for i, jj in gold if jj == j}
            eos_weight.append(w[j, n_src].item())
            if links:
                n += 1
                hits += int(w[j].argmax().item() in links)
                hits_no_eos += int(w[j, :n_src].argmax().item() in links)
    return {"pairs": len(check), "scored_words": n, "hit_rate": round(hits / n, 4),
            "hit_rate_without_eos": round(hits_no_eos / n, 4),
            "eos_weight": round(sum(eos_weight) / len(eos_weight), 4)}


def alignment_check(ckpt, layer: int = -1) -> dict | None:
    """`alignment_scores` on the hand-aligned check of the checkpoint's direction; None where there is none."""
    path = ALIGNMENT_CHECKS.get(ckpt.metrics.get("data", {}).get("direction", ""))
    return alignment_scores(ckpt.model, ckpt.tokenizer, read_alignment_check(path), layer) if path else None


BEAM_GRID, ALPHA_GRID = (1, 4, 8), (0.6, 1.0)  # greedy, and beam 4 / 8 with Wu et al.'s default and 1.0


def choose_beam_alpha(ckpt, data_dir: Path, device="cpu", progress=False) -> dict:
    """Beam size and length penalty chosen on the validation split by BLEU (a tie keeps the smaller beam,
    then the smaller alpha): {"beam", "alpha", "grid": [{"beam", "alpha", "bleu"}, ...]}. Greedy has no alpha."""
    grid, valid = [], heldout_pairs(ckpt, data_dir, "valid")  # read once, decoded five times
    for beam in BEAM_GRID:
        for alpha in ALPHA_GRID if beam > 1 else ALPHA_GRID[:1]:
            r = translation_test(ckpt, data_dir, beam, progress=progress, alpha=alpha, split_name="valid",
                                 device=device, pairs=valid)
            grid.append({"beam": beam, "alpha": alpha, "bleu": r["bleu"]})
    best = max(grid, key=lambda g: (g["bleu"], -g["beam"], -g["alpha"]))
    return {"beam": best["beam"], "alpha": best["alpha"], "grid": grid}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("checkpoints", nargs="+", help="checkpoint folders, e.g. assets/transformer-en-fr")
    ap.add_argument("--data-dir", type=Path, default=Path("../shared/data"))
    ap.add_argument("--beam", type=int, default=None, help="beam size (default: the one in metrics.json)")
    ap.add_argument("--alpha", type=float, default=None, help="beam length penalty (default: metrics.json's, else 0.6)")
    ap.add_argument("--choose", action="store_true",
                    help=f"translation: choose beam {BEAM_GRID} and alpha {ALPHA_GRID} by BLEU on the validation "
                         "split, then read the test split with them (recorded under test.chosen_on_valid)")
    ap.add_argument("--split", default="test", choices=["test", "valid"],
                    help="valid: for choosing beam/alpha; BERT: the validation half of the held-out documents")
    ap.add_argument("--write", action="store_true", help="store the result in metrics.json under 'test'")
    ap.add_argument("--device", default="cpu", help="cpu (default; what metrics.json records) or cuda")
    ap.add_argument("--bert-batches", type=int, default=80,
                    help="BERT: batches of 64 sequences drawn per held-out set (default 80, what metrics.json "
                         "records: ~5,000 NSP pairs and short-sentence masks; 20 gave a +-1.5 point noise)")
    ap.add_argument("--nsp-by-corpus", type=int, default=0, metavar="N",
                    help="BERT: also NSP accuracy of each held-out corpus alone, N batches of 64 pairs each "
                         "(a diagnostic; the NSP number draws from every corpus with equal weight)")
    ap.add_argument("--single-vs-long", action="store_true",
                    help="BERT: also NSP and fill-mask on single sentences against long segments, "
                         "--bert-batches batches each")
    ap.add_argument("--gpt-windows", type=int, default=None, metavar="N",
                    help="GPT: read only the first N windows of 128 tokens per held-out corpus (default all: 13.5 "
                         "minutes on 2 busy CPU cores)")
    ap.add_argument("--alignment-only", action="store_true",
                    help="translation: only the hand-aligned check (attention read as a word alignment), no decoding")
    args = ap.parse_args(argv)
    if args.alignment_only and args.write:
        ap.error("--alignment-only prints the check alone; --write stores a whole test reading")
    if args.choose and (args.split != "test" or args.beam or args.alpha is not None):
        ap.error("--choose picks beam and alpha on the validation split itself and reads the test split")
    if args.write and args.split != "test":
        ap.error("--write stores test-split metrics; it cannot be combined with --split valid")
    if args.write and args.device != "cpu":
        ap.error("--write records CPU numbers (the ones this machine reproduces); drop --device")
    for folder in args.checkpoints:
        ckpt = load(folder)
        arch = ckpt.config.arch
        if args.alignment_only:
            print(json.dumps({"checkpoint": str(folder), "alignment": alignment_check(ckpt)}))
            continue
        if arch == "bert":
            meta = ckpt.metrics["data"]
            held, short = data.bert_heldout_data(ckpt.tokenizer, args.data_dir, meta, args.split)
            seed = TEST_DRAW if args.split == "test" else VALID_DRAW
            res = bert_heldout_eval(ckpt.model.to(args.device), ckpt.tokenizer, held, short, meta["max_len"],
                                    device=args.device, n_batches=args.bert_batches, seed=seed)
            res = {"split": args.split, **res}
            if args.nsp_by_corpus:
                res["nsp_by_corpus"] = nsp_by_corpus(ckpt.model, ckpt.tokenizer, held, meta["max_len"], args.device,
                                                     args.nsp_by_corpus, seed=seed)
            if args.single_vs_long:
                res["single_vs_long"] = bert_single_vs_long(ckpt.model, ckpt.tokenizer, held, meta["max_len"],
                                                            args.device, args.bert_batches, seed=seed)
        elif arch == "gpt":  # perplexity per token and per word beside a Kneser-Ney trigram: models/training/lm_data.py
            from models.training.lm_data import checkpoint_eval
            res = checkpoint_eval(ckpt, args.data_dir, args.split, args.device, args.gpt_windows)
        elif args.choose:
            chosen = choose_beam_alpha(ckpt, args.data_dir, device=args.device)
            print(json.dumps({"checkpoint": str(folder), "chosen_on_valid": chosen}))
            res = translation_test(ckpt, args.data_dir, chosen["beam"], alpha=chosen["alpha"], device=args.device)
            res["chosen_on_valid"] = chosen
        else:
            beam = args.beam or ckpt.metrics.get("test", {}).get("beam", 4)
            alpha = args.alpha if args.alpha is not None else ckpt.length_penalty
            res = translation_test(ckpt, args.data_dir, beam, alpha=alpha, split_name=args.split, device=args.device)
        if arch in ("seq2seq", "transformer") and ALIGNMENT_CHECKS.get(ckpt.metrics["data"].get("direction")):
            res["alignment"] = alignment_check(ckpt)  # beside BLEU: attention read as a word alignment
        print(json.dumps({"checkpoint": str(folder), **res}, ensure_ascii=False))
        recorded = ckpt.metrics.get("test") if args.split == "test" else None
        if recorded:
            keys = [k for k in res if isinstance(res[k], (int, float)) and k in recorded and not k.startswith("sec")]
            diff = {k: (recorded[k], res[k]) for k in keys if recorded[k] != res[k]}
            print(f"  vs metrics.json: {'identical' if not diff else diff}")
        if args.write:
            metrics = dict(ckpt.metrics, test=res)
            (Path(folder) / "metrics.json").write_text(json.dumps(metrics, indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()
