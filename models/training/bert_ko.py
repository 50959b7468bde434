"""bert-ko: a small Korean BERT (MLM + NSP) trained here, with a syllable-level WordPiece.

Why syllables: a WordPiece learned on Korean eojeol keeps 배가 and 배를 as whole pieces, so the particle,
not the sense, decides a word's vector (a calibration run with 16k pieces separated 배's senses at chance).
Here every Hangul syllable is one piece (`배`, `##가`), as in character-level Korean BERTs (KR-BERT's
character vocabulary, Lee et al. 2020): 배 is always its own token, and the model must read its sense from
the words around it. Masking is whole-word (every piece of a chosen eojeol), so a masked syllable cannot
be read off its neighbours in the same word.

Data (../shared/data, see docs/data.md): korean-text (77k sentences of running text, consecutive lines as
documents for NSP), korean-nsmc/train.tsv (reviews, single sentences; a seeded part is held out for the
sentiment task and never seen here), the Korean side of Tatoeba en-ko. 2% of the documents are held out
for the MLM/NSP figures in metrics.json.

    python -m models.training.bert_ko --data-dir ../shared/data --out runs/bert-ko --max-minutes 60
    python -m models.training.bert_ko --smoke --out /tmp/bert-ko-smoke          # seconds, no data needed
"""
from __future__ import annotations

import argparse
import csv
import json
import math
import random
import sys
import time
from collections import Counter
from pathlib import Path

import torch
from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, processors

from models import checkpoint
from models.bert import Bert, BertConfig
from models.training.data import file_sha256

SPECIALS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]  # ids 0..4, as the English BERT's
TEXT_FOLDERS = ("chatbot_data", "koconovel", "unesco_ko", "nanet_bookreviews", "ko_wikinews", "ko_fairytales")
NSMC = "korean-nsmc/train.tsv"
TATOEBA_KO = "tatoeba-eng-kor/kor.txt"
DOC_LINES = 24  # consecutive lines of a text.txt make one document (NSP's "next sentence")
NSMC_HELD = 10_000  # reviews held out for the sentiment task (valid + test halves), never pre-trained on

SMOKE_TEXT = ["배가 아파서 병원에 갔어요.", "배를 타고 섬에 갔어요.", "저는 학생이에요.", "고양이가 침대 위에서 자요.",
              "오늘은 날씨가 좋네요.", "이 영화 정말 재미있어요!", "배가 고파요.", "바다에 배가 떠 있어요."]


# ----------------------------------------------------------------------------- data


def nsmc_split(data_dir: Path, seed: int = 0) -> dict[str, list[tuple[str, int]]]:
    """NSMC's training file -> {"train", "valid", "test"} lists of (review, label 0/1), by a seeded shuffle
    of the review ids: the same split for pre-training (which leaves valid and test out) and fine-tuning."""
    rows = []
    with open(data_dir / NSMC, encoding="utf-8", newline="") as f:
        for r in csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE):
            text = (r.get("text") or "").strip()
            if text and r.get("label") in ("0", "1"):
                rows.append((r["id"], text, int(r["label"])))
    rows.sort()
    random.Random(seed).shuffle(rows)
    held = min(NSMC_HELD, len(rows) // 5)  # 10,000 of the real file; a fifth of a small fixture
    half = held // 2
    pick = lambda part: [(t, y) for _, t, y in part]  # noqa: E731
    return {"valid": pick(rows[:half]), "test": pick(rows[half:held]), "train": pick(rows[held:])}


def read_corpus(data_dir: Path, seed: int = 0, held_frac: float = 0.02) -> dict:
    """{"docs": [[sentence, ...], ...], "held_docs": [...], "singles": [sentence, ...], "files": {rel: sha256}}."""
    docs, files = [], {}
    for name in TEXT_FOLDERS:
        rel = f"korean-text/{name}/text.txt"
        lines = [s.strip() for s in (data_dir / rel).read_text(encoding="utf-8").splitlines() if s.strip()]
        docs += [lines[i:i + DOC_LINES] for i in range(0, len(lines), DOC_LINES) if len(lines[i:i + DOC_LINES]) > 1]
        files[rel] = file_sha256(data_dir / rel)
    rng = random.Random(seed)
    rng.shuffle(docs)
    n_held = max(1, int(len(docs) * held_frac))
    singles = [t for t, _ in nsmc_split(data_dir, seed)["train"]]
    files[NSMC] = file_sha256(data_dir / NSMC)
    tatoeba = data_dir / TATOEBA_KO
    if tatoeba.is_file():
        singles += [ln.split("\t")[1].strip() for ln in tatoeba.read_text(encoding="utf-8").splitlines()
                    if ln.count("\t") >= 1 and ln.split("\t")[1].strip()]
        files[TATOEBA_KO] = file_sha256(tatoeba)
    return {"docs": docs[n_held:], "held_docs": docs[:n_held], "singles": singles, "files": files}


# ----------------------------------------------------------------------------- tokenizer


def _normalizer():
    # NFC, not NFD: BERT's accent stripping decomposes Hangul syllables into jamo, so it stays off
    return normalizers.Sequence([normalizers.NFC(), normalizers.BertNormalizer(
        clean_text=True, handle_chinese_chars=True, strip_accents=False, lowercase=False)])


def syllable_tokenizer(texts, min_count: int = 3) -> Tokenizer:
    """A WordPiece whose pieces are single characters: `c` at a word's start, `##c` inside one. Characters
    seen fewer than `min_count` times in a position become [UNK]."""
    pre, norm = pre_tokenizers.BertPreTokenizer(), _normalizer()
    first, inner = Counter(), Counter()
    for text in texts:
        for word, _ in pre.pre_tokenize_str(norm.normalize_str(text)):
            first[word[0]] += 1
            inner.update(word[1:])
    vocab = list(SPECIALS)
    vocab += sorted(c for c, n in first.items() if n >= min_count)
    vocab += sorted("##" + c for c, n in inner.items() if n >= min_count)
    tok = Tokenizer(models.WordPiece({p: i for i, p in enumerate(vocab)}, unk_token="[UNK]",
                                     max_input_chars_per_word=100))
    tok.normalizer, tok.pre_tokenizer, tok.decoder = norm, pre, decoders.WordPiece(prefix="##")
    tok.add_special_tokens(SPECIALS)  # "[MASK]" typed in a sentence stays one token (ids unchanged)
    cls, sep = vocab.index("[CLS]"), vocab.index("[SEP]")
    tok.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", pair="[CLS] $A [SEP] $B:1 [SEP]:1",
        special_tokens=[("[CLS]", cls), ("[SEP]", sep)])
    return tok


def encode(tok: Tokenizer, sentences: list[str]) -> list[tuple[list[int], list[int]]]:
    """Each sentence -> (piece ids, word index of each piece), without [CLS]/[SEP]."""
    out = []
    for enc in tok.encode_batch(sentences, add_special_tokens=False):
        out.append((enc.ids, [w if w is not None else -1 for w in enc.word_ids]))
    return out


# ----------------------------------------------------------------------------- batches


class Sampler:
    """BERT's examples from Korean documents and single sentences: half the document pairs are the next
    sentence (IsNext = 0, HF's convention), half a sentence of another document; single sentences carry no
    NSP label. Whole-word masking: 15% of the words, each piece 80% [MASK], 10% random, 10% kept."""

    def __init__(self, docs, singles, vocab_size: int, max_len: int, rng: random.Random, doc_share: float = 0.5):
        self.docs, self.singles, self.V, self.max_len, self.rng = docs, singles, vocab_size, max_len, rng
        self.doc_share = doc_share if singles else 1.0

    def example(self):
        rng, budget = self.rng, self.max_len - 3
        if rng.random() >= self.doc_share:
            ids, words = rng.choice(self.singles)
            return ids[: budget + 1], words[: budget + 1], None, None, -100
        doc = rng.choice(self.docs)
        i = rng.randrange(len(doc) - 1)
        a = doc[i]
        if rng.random() < 0.5:
            b, label = doc[i + 1], 0
        else:
            other = rng.choice(self.docs)
            b, label = rng.choice(other), 1
        (a_ids, a_w), (b_ids, b_w) = a, b
        half = budget // 2
        return a_ids[:half], a_w[:half], b_ids[: budget - min(len(a_ids), half)], b_w[: budget - min(len(a_ids), half)], label

    def batch(self, n: int) -> dict:
        rows, segs, labels, nsp = [], [], [], []
        for _ in range(n):
            a, aw, b, bw, label = self.example()
            ids, seg, words = [2] + a + [3], [0] * (len(a) + 2), [-1] + aw + [-1]
            if b is not None:
                ids, seg, words = ids + b + [3], seg + [1] * (len(b) + 1), words + [w + 10_000 for w in bw] + [-1]
            inputs, lab = self.mask(ids, words)
            rows.append(inputs), segs.append(seg), labels.append(lab), nsp.append(label)
        width = max(map(len, rows))
        pad = lambda xs, v: torch.tensor([x + [v] * (width - len(x)) for x in xs])  # noqa: E731
        return {"input_ids": pad(rows, 0), "segment_ids": pad(segs, 0), "mlm_labels": pad(labels, -100),
                "nsp_labels": torch.tensor(nsp)}

    def mask(self, ids, words, prob: float = 0.15):
        rng = self.rng
        chosen = {w for w in set(words) if w >= 0 and rng.random() < prob}
        inputs, labels = list(ids), [-100] * len(ids)
        for j, w in enumerate(words):
            if w in chosen:
                labels[j] = ids[j]
                r = rng.random()
                inputs[j] = 4 if r < 0.8 else (rng.randrange(len(SPECIALS), self.V) if r < 0.9 else ids[j])
        return inputs, labels


# ----------------------------------------------------------------------------- training


@torch.no_grad()
def evaluate(model: Bert, held: list[dict]) -> dict:
    """MLM top-1 accuracy over the masked pieces and NSP accuracy on fixed held-out batches."""
    model.eval()
    hit = n = nsp_hit = nsp_n = 0
    loss = 0.0
    for b in held:
        out = model(b["input_ids"], b["segment_ids"], mlm_labels=b["mlm_labels"], nsp_labels=None)
        lab = b["mlm_labels"]
        m = lab != -100
        hit += int((out.mlm_logits.argmax(-1)[m] == lab[m]).sum())
        n += int(m.sum())
        loss += float(torch.nn.functional.cross_entropy(out.mlm_logits[m], lab[m], reduction="sum"))
        k = b["nsp_labels"] != -100
        nsp_hit += int((out.nsp_logits.argmax(-1)[k] == b["nsp_labels"][k]).sum())
        nsp_n += int(k.sum())
    model.train()
    return {"mlm_accuracy": hit / max(n, 1), "mlm_loss": loss / max(n, 1), "mlm_pieces": n,
            "nsp_accuracy": nsp_hit / max(nsp_n, 1), "nsp_pairs": nsp_n}


def main(argv=None) -> Path:
    ap = argparse.ArgumentParser(prog="python -m models.training.bert_ko", description=__doc__.split("\n\n")[0])
    ap.add_argument("--data-dir", type=Path, default=Path("../shared/data"))
    ap.add_argument("--out", type=Path, required=True, help="checkpoint folder to write")
    ap.add_argument("--d-model", type=int, default=256)
    ap.add_argument("--n-layers", type=int, default=4)
    ap.add_argument("--n-heads", type=int, default=4)
    ap.add_argument("--max-len", type=int, default=96)
    ap.add_argument("--batch-size", type=int, default=64)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--warmup", type=int, default=300)
    ap.add_argument("--max-minutes", type=float, default=60.0, help="training time budget (wall clock)")
    ap.add_argument("--max-steps", type=int, default=1_000_000)
    ap.add_argument("--eval-every", type=int, default=250)
    ap.add_argument("--threads", type=int, default=0, help="torch threads (0: torch's default)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--smoke", action="store_true", help="a tiny model on built-in sentences, seconds on CPU")
    args = ap.parse_args(argv)
    if args.threads:
        torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    rng = random.Random(args.seed)

    if args.smoke:
        docs_text, held_text, singles_text, files = [SMOKE_TEXT[:4], SMOKE_TEXT[4:]], [SMOKE_TEXT], SMOKE_TEXT, {}
        args.d_model, args.n_layers, args.n_heads, args.max_steps, args.eval_every = 32, 2, 2, 20, 10
        args.batch_size, args.warmup = 8, 5
    else:
        corpus = read_corpus(args.data_dir, args.seed)
        docs_text, held_text, singles_text, files = (corpus["docs"], corpus["held_docs"], corpus["singles"],
                                                     corpus["files"])
    tok = syllable_tokenizer([s for d in docs_text for s in d] + singles_text, min_count=1 if args.smoke else 3)
    V = tok.get_vocab_size()
    t0 = time.time()
    docs = [encode(tok, d) for d in docs_text]
    held = [encode(tok, d) for d in held_text]
    singles = encode(tok, singles_text)
    print(f"vocab {V}; {len(docs)} documents, {len(singles)} single sentences; encoded in {time.time() - t0:.0f} s",
          flush=True)

    config = BertConfig(vocab_size=V, d_model=args.d_model, n_layers=args.n_layers, n_heads=args.n_heads,
                        d_ff=4 * args.d_model, max_len=args.max_len, dropout=0.1, pre_ln=True, qk_norm=True)
    model = Bert(config)
    held_rng = random.Random(12345)
    held_batches = [Sampler(held, [], V, args.max_len, held_rng).batch(64) for _ in range(2 if args.smoke else 8)]
    sampler = Sampler(docs, singles, V, args.max_len, rng)
    decay = [p for n, p in model.named_parameters() if p.dim() >= 2]
    rest = [p for n, p in model.named_parameters() if p.dim() < 2]
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": 0.01}, {"params": rest, "weight_decay": 0.0}],
                            lr=args.lr, betas=(0.9, 0.98))
    budget = args.max_minutes * 60
    args.out.mkdir(parents=True, exist_ok=True)
    log_path = args.out / "train_log.jsonl"
    log = open(log_path, "w", encoding="utf-8")
    start, step, best = time.time(), 0, None
    model.train()
    while step < args.max_steps and time.time() - start < budget:
        frac = (time.time() - start) / budget if not args.smoke else step / args.max_steps
        lr = args.lr * min(1.0, (step + 1) / args.warmup) * max(0.05, 0.5 * (1 + math.cos(math.pi * min(frac, 1.0))))
        for g in opt.param_groups:
            g["lr"] = lr
        b = sampler.batch(args.batch_size)
        out = model(b["input_ids"], b["segment_ids"], mlm_labels=b["mlm_labels"], nsp_labels=b["nsp_labels"],
                    mlm_labelled_only=True)
        opt.zero_grad(set_to_none=True)
        out.loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        step += 1
        if step % args.eval_every == 0 or step == args.max_steps:
            row = {"step": step, "minutes": round((time.time() - start) / 60, 2), "lr": lr,
                   "train_loss": round(out.loss.item(), 4), **evaluate(model, held_batches)}
            print(json.dumps(row), flush=True)
            log.write(json.dumps(row) + "\n")
            log.flush()
            best = row
    log.close()
    metrics = {"name": "bert-ko", "arch": "bert", "command": "python -m models.training.bert_ko " + " ".join(
        sys.argv[1:] if argv is None else argv), "seed": args.seed, "smoke": args.smoke,
        "hyperparameters": {k: str(v) if isinstance(v, Path) else v for k, v in vars(args).items()},
        "tokenizer": "syllable WordPiece (one character per piece, ## inside a word), NFC, cased",
        "masking": "whole word (eojeol), 15%, 80/10/10", "steps": step,
        "minutes": round((time.time() - start) / 60, 2), "heldout": best, "language": "ko",
        "data": {"documents": len(docs), "held_documents": len(held), "single_sentences": len(singles),
                 "doc_lines": DOC_LINES, "nsmc_held_out": NSMC_HELD, "files": files}}
    model.eval()
    return checkpoint.save(args.out, model, tok, metrics)


if __name__ == "__main__":
    main()
