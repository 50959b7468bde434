"""Training runs for the four architectures, on CPU or CUDA: data, model and evaluation per task, one Trainer.

    python -m models.training.train transformer --pair en-fr --data-dir ../shared/data --out runs/transformer-en-fr
    python -m models.training.train seq2seq --attention additive --pair en-fr ...
    python -m models.training.train bert --data-dir ../shared/data --out runs/bert
    python -m models.training.train {transformer,seq2seq,bert} --smoke --out /tmp/smoke   # seconds, on CPU, no corpora needed
    python -m models.training.train finetune --task sentiment --init assets/bert --lora 16 ...   # models/training/finetune_cli.py

(`python -m models.train ...`, the command every shipped checkpoint records, runs this module.)
The `setup_*` functions below build, per task, what `models.training.trainer.Trainer` needs (a model
whose forward(**batch) returns `.loss`, a stream of batches, an LR schedule, an evaluation callback).
Each run writes `log.jsonl` (metrics per step), `snapshots.json` (attention on fixed probe sentences
over training) and a checkpoint folder whose metrics.json records the exact command, git commit,
data file hashes, split seed, wall time, device and final metrics.

Several GPUs of one host (data parallel, each GPU its own batches, gradients averaged):

    torchrun --standalone --nproc_per_node 4 -m models.training.train bert ...
"""
from __future__ import annotations

import argparse
import dataclasses
import gc
import json
import os
import platform
import random
import shlex
import sys
import time
from pathlib import Path

import torch
import torch.distributed as dist
from tokenizers import Tokenizer

from models import checkpoint
from models.tokenizers import special_ids, train_bpe, train_wordpiece
from models.trace import COLLAPSED_TOP_WEIGHT, head_sharpness
from models.training import data, guide
from models.training.data import TEST_FRAC, VALID_FRAC
from models.training.evaluate import VALID_DRAW, bert_heldout_eval, bleu_chrf, translate
from models.training.trainer import (Bound, RDrop, SplitBatch, Trainer, agree_tokenizer, forever, noam, rank,
                                     warmup_cosine, with_cooldown)

FIXTURES = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "data"
STARTED = time.time()  # for --budget-from-start


# ============================================================================ translation tasks

PROBES = {  # fixed sentences whose attention is recorded during training (source, reference)
    "en-fr": [("I am a student.", "Je suis étudiant."),
              ("The animal didn't cross the street because it was too tired.",
               "L'animal n'a pas traversé la rue parce qu'il était trop fatigué."),
              ("Let's stick to the plan.", "Tenons-nous-en au plan.")],
    "ko-en": [("나는 학생 입니다", "I am a student."), ("나는 배가 고파요.", "I'm hungry.")],
    "en-ko": [("I am a student.", "나는 학생 입니다"), ("I'm hungry.", "나는 배가 고파요.")],
}


def training_variants(tok, train, args) -> list:
    """Encodings of the training pairs that the epochs cycle through: the canonical one first, then
    `bpe_variants - 1` noised ones when --bpe-dropout or --space-noise is on (each encoded once up
    front; the saved tokenizer and every evaluation use the canonical, noise-free encoding).
    BPE-dropout (Provilkov et al. 2020): each merge is skipped with probability p, so a word is seen
    in several segmentations ("▁st ud ent" as well as "▁student"), a regulariser for small data; the
    `tokenizers` library draws these with its own unseeded random generator. --space-noise respaces
    Korean sources (data.respace), seeded."""
    canonical = data.encode_pairs(tok, train, args.max_len)
    if not args.bpe_dropout and not args.space_noise:
        return [canonical]
    noised = tok
    if args.bpe_dropout:
        noised = Tokenizer.from_str(tok.to_str())
        noised.model.dropout = args.bpe_dropout
    rng = random.Random(args.seed + 7)
    out = [canonical]
    for _ in range(max(0, args.bpe_variants - 1)):
        pairs = [(data.respace(s, args.space_noise, rng), t) for s, t in train] if args.space_noise else train
        out.append(data.encode_pairs(noised, pairs, args.max_len))
    return out


def aux_training_pairs(args, split: dict) -> tuple[list, dict]:
    """--aux-pairs: a second corpus into the same target language, English (many-to-one: no language
    tag, the source script tells), e.g. French -> English beside Korean -> English, so that the
    decoder learns English from 160k pairs instead of 4.7k (Zoph et al. 2016; Johnson et al. 2017).
    Tatoeba's corpora share English sentences, so every aux pair whose English (data.english_key)
    is in the main task's validation or test split is dropped: the decoder never sees a held-out
    reference. Returns (pairs oriented into English, metadata)."""
    if not args.aux_pairs:
        return [], {}
    if not args.direction.endswith("-en"):
        raise SystemExit("--aux-pairs needs a direction into English (ko-en or fr-en)")
    if args.aux_pairs == "en-" + args.direction.split("-")[0]:
        raise SystemExit(f"--aux-pairs {args.aux_pairs} is the main task's own corpus")
    held = {data.english_key(en) for en, _ in split["valid"] + split["test"]}
    pairs = data.read_pairs(args.data_dir, args.aux_pairs)
    kept = [p for p in pairs if data.english_key(p[0]) not in held]
    aux_dir = args.aux_pairs.split("-")[1] + "-en"
    file = data.TRANSLATION_FILES[args.aux_pairs]
    meta = {"pair": args.aux_pairs, "direction": aux_dir, "n_pairs": len(kept),
            "n_dropped_held_out": len(pairs) - len(kept), "ratio": args.aux_ratio, "file": file,
            "sha256": data.file_sha256(data.find(args.data_dir, file))}
    return data.orient(kept, aux_dir), meta


def extra_training_pairs(args, pair: str, oriented: dict) -> tuple[list, dict]:
    """--extra-pairs ntrex pud: Korean-English pairs beside Tatoeba's (data.EXTRA_KO_EN), training only,
    English at most --extra-max-words words, any pair whose English is a held-out Tatoeba sentence
    dropped. Returns (pairs oriented as the task, metadata)."""
    if not args.extra_pairs:
        return [], {}
    if pair != "en-ko":
        raise SystemExit("--extra-pairs are Korean-English: they need --direction ko-en or en-ko")
    held = {data.english_key(p[0] if args.direction == "en-ko" else p[1]) for p in oriented["valid"] + oriented["test"]}
    out, meta = [], {"max_words": args.extra_max_words, "repeat": args.extra_repeat, "files": {}, "n_pairs": {}}
    for name in args.extra_pairs:
        kept = [p for p in data.read_extra_pairs(args.data_dir, name, args.extra_max_words)
                if data.english_key(p[0]) not in held]
        out += data.orient(kept, args.direction)
        meta["n_pairs"][name] = len(kept)
        for rel in data.EXTRA_KO_EN[name]:
            meta["files"][rel] = data.file_sha256(data.find(args.data_dir, rel))
    return out, meta


BT_TAG = "<bt>"  # marks a back-translated source (Caswell et al. 2019, tagged back-translation)


def synthetic_training_pairs(args, held_english: set) -> tuple[list, dict]:
    """--synthetic-pairs FILE...: back-translated pairs (models/training/backtranslate.py writes them: real English,
    a model's Korean), oriented ko-en, the synthetic source tagged with BT_TAG unless --no-bt-tag, and
    every pair whose English is a held-out sentence dropped. Returns (pairs, metadata)."""
    if not args.synthetic_pairs:
        return [], {}
    if args.direction != "ko-en":
        raise SystemExit("--synthetic-pairs hold back-translated Korean sources: they need --direction ko-en")
    pairs, files = [], {}
    for path in args.synthetic_pairs:
        with open(path, encoding="utf-8") as f:
            header = f.readline().rstrip("\n").split("\t")
            if "en" not in header or "ko" not in header:
                raise SystemExit(f"--synthetic-pairs {path}: the header must name the columns en and ko")
            en, ko = header.index("en"), header.index("ko")
            rows = [line.rstrip("\n").split("\t") for line in f]
        pairs += [(r[ko].strip(), r[en].strip()) for r in rows if len(r) > max(en, ko) and r[en].strip() and r[ko].strip()]
        files[str(path)] = data.file_sha256(Path(path))
    kept = [(f"{BT_TAG} {s}" if args.bt_tag else s, t) for s, t in pairs if data.english_key(t) not in held_english]
    return kept, {"files": files, "n_pairs": len(kept), "n_dropped_held_out": len(pairs) - len(kept),
                  "ratio": args.synthetic_ratio, "tagged": bool(args.bt_tag)}


def translation_tokenizer(args, train, aux, n_aux, synth, n_synth):
    """The shared BPE vocabulary, learnt from one epoch's mix, so the small corpus keeps its share of the
    merges (back-translated sources without their tag; the tag is one special token of its own)."""
    rng = random.Random(args.split_seed)
    bpe_text = (train + rng.sample(aux, min(n_aux, len(aux)))
                + [(s.removeprefix(BT_TAG + " "), t) for s, t in rng.sample(synth, n_synth)])
    return train_bpe((s for p in bpe_text for s in p), args.vocab, split_punct=args.split_punct, elision=args.elision,
                     byte_fallback=args.byte_fallback, extra_specials=(BT_TAG,) if synth and args.bt_tag else ())


def setup_translation(args, device):
    pair = "en-ko" if "ko" in args.direction else "en-fr"
    pairs = data.read_pairs(args.data_dir, pair)
    if args.split_by == "pair" and args.aux_pairs:
        raise SystemExit("--split-by pair is for one corpus: --aux-pairs holds out by English sentence")
    oriented, seen_dropped = data.translation_split(pairs, args.direction, args.split_seed, args.valid_frac,
                                                    args.test_frac, args.split_by)
    train, valid = oriented["train"], oriented["valid"]
    if args.space_noise and not args.direction.startswith("ko"):
        raise SystemExit("--space-noise respaces Korean sources: it needs --direction ko-en")
    aux, aux_meta = aux_training_pairs(args, data.split_by_source(pairs, args.split_seed, args.valid_frac,
                                                                 args.test_frac) if args.aux_pairs else {})
    extra, extra_meta = extra_training_pairs(args, pair, oriented)
    held_english = {data.english_key(p[1] if args.direction.endswith("-en") else p[0])
                    for p in oriented["valid"] + oriented["test"]}
    synth, synth_meta = synthetic_training_pairs(args, held_english)
    if args.smoke:
        train, valid, aux, synth = train[:200], valid[:20], aux[:200], synth[:200]
    # --main-repeat: Tatoeba's short everyday pairs weigh more in the mix than the longer extras;
    # after the smoke cut, so a smoke run trains on the extras too
    train = train * args.main_repeat + extra * args.extra_repeat
    n_aux = int(args.aux_ratio * len(train)) if aux else 0  # aux pairs per epoch, a fresh draw each epoch
    n_synth = min(len(synth), int(args.synthetic_ratio * len(train))) if synth else 0
    tok = agree_tokenizer(translation_tokenizer(args, train, aux, n_aux, synth, n_synth), device)
    V = tok.get_vocab_size()
    sp = special_ids(tok)
    if args.guide_from:  # guided alignment (models/training/guide.py): spans of the teacher's linked words ride along
        variants, guide_meta = guided_variants(args, tok, train, device)
        make_batch = guide.guided_batch
    else:
        variants, guide_meta = training_variants(tok, train, args), {}
        make_batch = data.translation_batch
    aux_encoded = data.encode_pairs(tok, aux, args.max_len) if aux else []
    synth_encoded = data.encode_pairs(tok, synth, args.max_len) if synth else []
    # --bidir-frac (bidirectional training, Ding et al. 2021): for that first share of the time budget the
    # epochs also hold every training pair reversed (French -> English beside English -> French, the
    # source language telling the direction), then the task's own direction alone
    reverse_encoded = data.encode_pairs(tok, [(t, s) for s, t in train], args.max_len) if args.bidir_frac else []
    bidir_until = 0.0  # set at epoch 0, which the trainer asks for when its clock starts
    rng = random.Random(args.seed + 1000 * rank())  # each data-parallel process its own batches

    def epoch(e):
        nonlocal bidir_until
        enc = variants[e % len(variants)]
        if aux_encoded:
            enc = enc + rng.sample(aux_encoded, min(n_aux, len(aux_encoded)))
        if synth_encoded:  # a fresh draw of back-translated pairs each epoch
            enc = enc + rng.sample(synth_encoded, n_synth)
        if reverse_encoded:
            if e == 0:
                bidir_until = time.time() + 60 * min(args.max_minutes, 1e6) * args.bidir_frac
            if time.time() < bidir_until:
                enc = enc + reverse_encoded
        return (make_batch([enc[i] for i in b], sp["bos"], sp["eos"])
                for b in data.translation_batches(enc, args.max_tokens, rng))
    batches = forever(epoch)
    if args.arch == "transformer":
        from models.transformer import Transformer, TransformerConfig
        config = TransformerConfig(src_vocab_size=V, tgt_vocab_size=V, d_model=args.d_model, n_heads=args.n_heads,
                                   n_layers=args.n_layers, n_dec_layers=args.n_dec_layers, d_ff=args.d_ff,
                                   dropout=args.dropout, max_len=args.max_len + 2, pre_ln=args.pre_ln)
        model = Transformer(config)
        lr_at = with_cooldown(noam(args.d_model, args.warmup, args.lr_factor), args.cooldown)
    else:
        from models.seq2seq import Seq2Seq, Seq2SeqConfig
        config = Seq2SeqConfig(src_vocab_size=V, tgt_vocab_size=V, d_emb=args.d_model, d_hidden=args.d_hidden,
                               n_layers=args.n_layers, dropout=args.dropout, attention=args.attention,
                               bidirectional=args.attention != "none", reverse_source=args.attention == "none",
                               tie_embeddings=True)
        model = Seq2Seq(config)
        lr_at = with_cooldown(warmup_cosine(args.lr, args.warmup), args.cooldown)
    model.to(device)

    val_src, val_ref = [s for s, _ in valid[: args.valid_n]], [t for _, t in valid[: args.valid_n]]

    def evaluate(task):
        hyps = translate(task.m, tok, val_src, beam=1, batch_size=256, max_len=args.max_len, device=device)
        m = bleu_chrf(hyps, val_ref)
        return {"score": m["bleu"], "valid_bleu_greedy": m["bleu"], "valid_chrf_greedy": m["chrf"]}

    probes = PROBES.get(args.direction, [])

    @torch.inference_mode()
    def snapshot(task):
        task.m.eval()
        out = []
        for src_text, ref in probes:
            s = tok.encode(src_text, add_special_tokens=False).ids + [sp["eos"]]
            t = tok.encode(ref, add_special_tokens=False).ids
            o = task.m(torch.tensor([s], device=device), torch.tensor([[sp["bos"]] + t], device=device),
                       need_weights=True)
            cross = o.trace.cross[0].float().mean(1) if o.trace.cross is not None else None  # (L, T, S) head mean
            out.append(None if cross is None else cross.cpu().numpy().round(3).tolist())
        return {"cross_head_mean": out}

    meta = {"pair": pair, "direction": args.direction, "split_seed": args.split_seed, "valid_frac": args.valid_frac,
            **({"extra": extra_meta} if extra_meta else {}),
            **({"split_by": "pair"} if args.split_by == "pair" else {}),
            "test_frac": args.test_frac, "n_train": len(train), "n_valid": len(valid), "n_test": len(oriented["test"]),
            "dropped_seen_sources": seen_dropped,
            "files": {data.TRANSLATION_FILES[pair]: data.file_sha256(data.find(args.data_dir,
                                                                                 data.TRANSLATION_FILES[pair])),
                      **({aux_meta["file"]: aux_meta["sha256"]} if aux_meta else {}),
                      **{f: h for f, h in extra_meta.get("files", {}).items()},
                      **{Path(f).name: h for f, h in synth_meta.get("files", {}).items()}},
            **({"aux": aux_meta} if aux_meta else {}),
            **({"synthetic": synth_meta} if synth_meta else {}),
            "main_repeat": args.main_repeat, "byte_fallback": bool(args.byte_fallback),
            "probes": [{"source": s, "reference": r, "source_tokens": tok.encode(s, add_special_tokens=False).tokens
                        + ["</s>"], "target_tokens": ["<s>"] + tok.encode(r, add_special_tokens=False).tokens}
                       for s, r in probes]}
    kwargs = {"label_smoothing": args.label_smoothing} if args.arch == "transformer" else {}
    if guide_meta:
        meta["guide"] = guide_meta
        meta["files"].update(guide_meta.pop("files"))
    task = (guide.Guided(model, args.guide_weight) if args.guide_from else
            RDrop(model, args.rdrop, **kwargs) if args.rdrop else Bound(model, **kwargs))
    return task, model, tok, batches, evaluate, snapshot, lr_at, meta


def guided_variants(args, tok, train, device) -> tuple[list, dict]:
    """--guide-from TEACHER: the training pairs encoded with the span of each target token's linked
    source word, the links read from the teacher's attention (models/training/guide.py). Returns ([encoded], meta)."""
    if args.arch != "seq2seq" or args.attention == "none":
        raise SystemExit("--guide-from trains a seq2seq model's attention: it needs --attention other than none")
    if args.bpe_dropout or args.space_noise or args.aux_pairs or args.bidir_frac or args.rdrop:
        raise SystemExit("--guide-from links the canonical encoding of the task's own pairs: no --bpe-dropout, "
                         "--space-noise, --aux-pairs, --bidir-frac or --rdrop")
    try:
        teacher = checkpoint.load(args.guide_from)
    except checkpoint.CheckpointError as e:
        raise SystemExit(f"--guide-from {args.guide_from}: {e}") from None
    if teacher.metrics.get("data", {}).get("direction") != args.direction:
        raise SystemExit(f"--guide-from {args.guide_from}: the teacher translates "
                         f"{teacher.metrics.get('data', {}).get('direction')}, not {args.direction}")
    t0 = time.time()
    links = guide.teacher_links(teacher.model, teacher.tokenizer, train, device)
    encoded = guide.link_spans(tok, train, links, args.max_len)
    linked = sum(s != guide.NO_LINK for e in encoded for s in e[2])
    rows = sum(len(e[2]) - 1 for e in encoded)
    files = {f"{args.guide_from}/{f.name}": data.file_sha256(f) for f in sorted(Path(args.guide_from).iterdir())
             if f.suffix in (".safetensors", ".json")}
    meta = {"teacher": str(args.guide_from), "weight": args.guide_weight, "linked_target_tokens": linked,
            "target_tokens": rows, "seconds": round(time.time() - t0, 1), "files": files}
    print(f"guided alignment: {linked}/{rows} target tokens linked in {meta['seconds']} s", flush=True)
    del teacher
    return [encoded], meta


# ============================================================================ BERT


def collapsed_heads(model, batch: dict, pad_id: int, device="cpu") -> dict:
    """Attention entropy collapse on a fixed batch: the heads whose mean top weight exceeds
    COLLAPSED_TOP_WEIGHT, as [layer, head] from 0, and the largest mean top weight of any head.
    Logged at every BERT evaluation: continuing a checkpoint with such a head diverged (docs/training.md)."""
    model.eval()
    ids = batch["input_ids"].to(device)
    with torch.no_grad():
        out = model(ids, batch["segment_ids"].to(device), need_weights=True)
    _, top = head_sharpness(out.trace.enc_self, ids != pad_id)
    return {"collapsed_heads": [[int(l), int(h)] for l, h in torch.nonzero(top > COLLAPSED_TOP_WEIGHT).tolist()],
            "head_top_weight_max": round(top.max().item(), 4)}


def setup_bert(args, device):
    from models.bert import Bert, BertConfig, deepen_state
    required = not args.smoke
    raw = data.load_bert_corpora(args.data_dir, required=required)
    parent = checkpoint.load(args.init_from) if args.init_from else None
    if parent is not None:  # continue pre-training: same tokenizer, same architecture, its weights
        if parent.config.__class__ is not BertConfig:
            raise SystemExit(f"--init-from {args.init_from}: not a BERT checkpoint")
        held_split = (parent.metrics["data"]["split_seed"], parent.metrics["data"]["heldout_frac"])
        if held_split != (args.split_seed, args.heldout_frac):
            raise SystemExit("--init-from: the parent used another held-out split; continuing would train on it")
        if args.max_len > parent.config.max_len and not args.extend_positions:
            raise SystemExit(f"--init-from: --max-len {args.max_len} exceeds the parent's {parent.config.max_len} "
                             "positions (--extend-positions copies its position table into a longer one)")
        if args.qk_norm is not None and args.qk_norm != parent.config.qk_norm:
            raise SystemExit(f"--init-from: the parent was trained {'with' if parent.config.qk_norm else 'without'} "
                             "QK-LayerNorm, and continuing keeps its architecture")
        if args.grow_layers and not (parent.config.pre_ln and args.grow_layers > parent.config.n_layers):
            raise SystemExit(f"--grow-layers {args.grow_layers}: needs a pre-LN parent with fewer layers "
                             f"(it has {parent.config.n_layers}, {'pre' if parent.config.pre_ln else 'post'}-LN)")
        tok = parent.tokenizer
        config = dataclasses.replace(parent.config, dropout=args.dropout,
                                     max_len=max(args.max_len, parent.config.max_len),
                                     n_layers=args.grow_layers or parent.config.n_layers)
    else:
        texts = data.wordpiece_texts(raw, data.read_pairs(args.data_dir, "en-fr"), args.split_seed, args.heldout_frac)
        tok = agree_tokenizer(train_wordpiece(texts, args.vocab), device)
        config = BertConfig(vocab_size=tok.get_vocab_size(), d_model=args.d_model, n_layers=args.n_layers,
                            n_heads=args.n_heads, d_ff=args.d_ff, max_len=args.max_len, dropout=args.dropout,
                            pre_ln=args.pre_ln, qk_norm=bool(args.qk_norm))
    V, sp = tok.get_vocab_size(), special_ids(tok)
    _, train, held, singles = data.bert_split(tok, args.data_dir, args.split_seed, args.heldout_frac, required, raw)
    train, weights = data.training_mix(train)
    model = Bert(config).to(device)
    if parent is not None:
        state = parent.model.state_dict()
        old = state["embeddings.pos.weight"]
        if config.max_len > len(old):  # the learned table, repeated (as Longformer extended RoBERTa's)
            state["embeddings.pos.weight"] = old.repeat(-(-config.max_len // len(old)), 1)[: config.max_len]
        if config.n_layers > parent.config.n_layers:  # deeper, computing the same function at step 0
            state = deepen_state(state, parent.config.n_layers, config.n_layers)
        model.load_state_dict(state)

    seed = args.seed * 1000 + 100_000 * rank()  # read here: a worker process may not know its rank

    class Stream(torch.utils.data.IterableDataset):
        def __iter__(self):
            info = torch.utils.data.get_worker_info()
            rng = random.Random(seed + (info.id if info else 0))
            s = data.BertSampler(train, weights, singles["train"], args.tatoeba_weight, sp, V, args.max_len, rng)
            while True:
                yield s.batch(args.batch_size, args.short_len)

    workers = 0 if args.smoke else min(8, os.cpu_count() or 1)
    loader = torch.utils.data.DataLoader(Stream(), batch_size=None, num_workers=workers,
                                         pin_memory=device.startswith("cuda"))
    meta = {"split_seed": args.split_seed, "heldout_frac": args.heldout_frac, "max_len": args.max_len,
            "required": required, "corpora": {k: len(v) for k, v in raw.items()}, "weights": weights,
            "tatoeba_weight": args.tatoeba_weight,
            "valid_test": "disjoint halves of the held-out documents; Tatoeba valid / test sentences",
            "files": {rel: data.file_sha256(data.find(args.data_dir, rel))
                      for k, (rel, _, _) in data.BERT_CORPORA.items() if k in raw}}
    meta["files"][data.TRANSLATION_FILES["en-fr"]] = data.file_sha256(data.find(args.data_dir,
                                                                               data.TRANSLATION_FILES["en-fr"]))

    pairs = data.pair_corpora(held["valid"])  # a fixed batch of sentence pairs for the collapse check
    probe = data.BertSampler(pairs, {k: 1.0 for k in pairs}, [], 0, sp, V, args.max_len,
                             random.Random(VALID_DRAW)).batch(16)

    def evaluate(task):
        n_batches = 4 if args.smoke else max(1, args.valid_n // 64)  # 64 sequences a batch, per held-out set
        r = bert_heldout_eval(task.m, tok, held["valid"], singles["valid"], args.max_len, device, n_batches=n_batches)
        return {"score": r["fill_mask_top1_wiki"] + r["fill_mask_top1_short"] + (r["nsp_acc"] or 0), **r,
                **collapsed_heads(task.m, probe, sp["pad"], device)}

    lr_at = with_cooldown(warmup_cosine(args.lr, args.warmup), args.cooldown)
    # training scores the MLM head on labelled positions only
    task = (SplitBatch(model, nsp_weight=args.nsp_weight, mlm_labelled_only=True)
            if args.short_len or args.nsp_weight != 1 else Bound(model, mlm_labelled_only=True))
    return task, model, tok, iter(loader), evaluate, None, lr_at, meta


# ============================================================================ GPT


def setup_gpt(args, device):
    """A decoder-only language model on English text (models.training.lm_data), read with the shipped BERT's WordPiece
    tokens; selection by validation perplexity, the test split read once after training (`evaluate(task, "test")`)
    beside a Kneser-Ney trigram counted on the same training tokens."""
    from models.gpt import GPT, GPTConfig
    from models.training.lm_data import (TOKENIZER, WindowSampler, encode_splits, files, heldout_eval,
                                         load_documents, training_stream)
    from models.training.ngram import KneserNeyTrigram
    t0 = time.time()
    tok = Tokenizer.from_file(str(TOKENIZER))
    docs = load_documents(args.data_dir, args.split_seed, args.heldout_frac, required=not args.smoke)
    streams = encode_splits(tok, docs)
    repeat = max(1, round(args.tatoeba_weight))
    train = training_stream(streams["train"], repeat)
    config = GPTConfig(vocab_size=tok.get_vocab_size(), max_len=args.max_len, d_model=args.d_model,
                       n_layers=args.n_layers, n_heads=args.n_heads, d_ff=args.d_ff, dropout=args.dropout)
    model = GPT(config).to(device)
    batches = WindowSampler(train, args.max_len, args.batch_size, device, args.seed * 1000 + 100_000 * rank())
    kn = None

    def evaluate(task, split="valid"):
        nonlocal kn
        if split == "valid":  # the first valid_n windows of each held-out corpus: selection only
            r = heldout_eval(task.m, tok, streams["valid"], args.max_len, device, max_windows=args.valid_n,
                             batch_size=128 if device.startswith("cuda") else 32)
            return {"score": -r["gpt"]["ppl_token"], "valid_ppl_token": r["gpt"]["ppl_token"],
                    "valid_ppl_word": r["gpt"]["ppl_word"], "valid_tokens": r["gpt"]["tokens"]}
        t = time.time()
        kn = kn or KneserNeyTrigram(training_stream(streams["train"]), tok.get_vocab_size())
        r = heldout_eval(task.m, tok, streams[split], args.max_len, device, kn=kn, max_windows=args.test_windows,
                         batch_size=128 if device.startswith("cuda") else 32)
        return {"split": split, **r, "device": device, "seconds": round(time.time() - t, 1)}

    meta = {"tokenizer": str(TOKENIZER.relative_to(TOKENIZER.parents[2])),
            "tokenizer_sha256": data.file_sha256(TOKENIZER), "split_seed": args.split_seed,
            "heldout_frac": args.heldout_frac, "max_len": args.max_len, "required": not args.smoke,
            "tatoeba_repeat": repeat, "train_tokens": int(len(train)),
            "tokens": {split: {k: int(len(v)) for k, v in s.items()} for split, s in streams.items()},
            "documents": {split: {k: len(v) for k, v in d.items()} for split, d in docs.items()},
            "files": files(args.data_dir), "prepare_seconds": round(time.time() - t0, 1)}
    lr_at = with_cooldown(warmup_cosine(args.lr, args.warmup), args.cooldown)
    return Bound(model), model, tok, batches, evaluate, None, lr_at, meta


# ============================================================================ command line

DEFAULTS = {  # per-arch defaults; --smoke shrinks everything
    "transformer": dict(d_model=256, n_heads=8, n_layers=3, d_ff=1024, dropout=0.1, vocab=10000, max_tokens=12000,
                        warmup=2000, lr_factor=1.0, label_smoothing=0.1, max_steps=100000, average_last=5),
    "seq2seq": dict(d_model=256, d_hidden=256, n_layers=1, dropout=0.2, vocab=6000, max_tokens=8000, lr=2e-3,
                    warmup=200, max_steps=100000, average_last=0),
    "bert": dict(d_model=384, n_heads=6, n_layers=6, d_ff=1536, dropout=0.1, vocab=16000, max_len=64,
                 batch_size=256, lr=1e-3, warmup=1000, max_steps=100000, pre_ln=True, average_last=0,
                 valid_n=640),
    "gpt": dict(d_model=256, n_heads=8, n_layers=6, d_ff=1024, dropout=0.1, max_len=128, batch_size=64, lr=1e-3,
                warmup=200, max_steps=100000, average_last=0, valid_n=400, heldout_frac=0.03, cooldown=0.2),
}
SMOKE = dict(d_model=32, d_hidden=32, n_heads=2, n_layers=1, d_ff=64, vocab=300, max_tokens=600, max_steps=30,
             warmup=10, eval_every=15, batch_size=8, max_len=64, valid_n=20)


def add_korean_data_args(ap):
    """The flags of the Korean data mix: Tatoeba's weight, back-translated pairs, byte-fallback BPE."""
    ap.add_argument("--main-repeat", type=int, default=1,
                    help="copies of the main corpus's (Tatoeba's) training pairs per epoch, to weigh short everyday pairs")
    ap.add_argument("--synthetic-pairs", nargs="+", default=None,
                    help="ko-en: back-translated pairs (TSV with columns en, ko; models.training.backtranslate writes them)")
    ap.add_argument("--synthetic-ratio", type=float, default=1e9,
                    help="--synthetic-pairs: synthetic pairs per real training pair in each epoch (default: all)")
    ap.add_argument("--bt-tag", action=argparse.BooleanOptionalAction, default=True,
                    help="--synthetic-pairs: prefix each synthetic source with the tag <bt> (Caswell et al. 2019)")
    ap.add_argument("--byte-fallback", action="store_true",
                    help="translation BPE with byte fallback: an unseen character becomes its UTF-8 bytes, never <unk>")


def parse(argv=None):
    ap = argparse.ArgumentParser(description="Train a model of this repo.")
    ap.add_argument("arch", choices=["transformer", "seq2seq", "bert", "gpt"])
    ap.add_argument("--data-dir", type=Path, default=None,
                    help="corpora folder (default ../shared/data; with --smoke, the test fixtures)")
    ap.add_argument("--out", type=Path, required=True, help="run folder; the checkpoint goes to OUT/checkpoint")
    ap.add_argument("--direction", default="en-fr", choices=["en-fr", "fr-en", "en-ko", "ko-en"])
    ap.add_argument("--attention", default="additive", choices=["none", "dot", "scaled_dot", "general", "additive"])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--split-seed", type=int, default=0)
    ap.add_argument("--split-by", choices=["source", "pair"], default="source",
                    help="translation: hold out English sources (default; every shipped model), or the pairs "
                         "themselves, so that a test source may have another translation in training (the kind "
                         "of split an outside calibration figure may have been read on; for comparison only)")
    ap.add_argument("--valid-frac", type=float, default=VALID_FRAC)
    ap.add_argument("--test-frac", type=float, default=TEST_FRAC)
    ap.add_argument("--heldout-frac", type=float, default=None,
                    help="BERT, GPT: documents held out per corpus (0.02; GPT 0.03)")
    ap.add_argument("--valid-n", type=int, default=None, help="validation pairs used for checkpoint selection (1000); BERT: sequences per held-out set (640)")
    ap.add_argument("--max-minutes", type=float, default=1e9)
    ap.add_argument("--budget-from-start", action="store_true",
                    help="--max-minutes counts from the process start, data preparation included (a shared "
                         "GPU slot with a hard end)")
    ap.add_argument("--test-windows", type=int, default=None,
                    help="GPT: windows per held-out corpus read for the test metrics after training (default all)")
    ap.add_argument("--eval-every", type=int, default=None, help="steps between evaluations (1000)")
    ap.add_argument("--max-len", type=int, default=None, help="tokens per sequence (default 64)")
    ap.add_argument("--pre-ln", action=argparse.BooleanOptionalAction, default=None)
    ap.add_argument("--qk-norm", action=argparse.BooleanOptionalAction, default=None,
                    help="bert: LayerNorm each head's queries and keys (QK-LayerNorm, Dehghani et al. 2023), "
                         "which bounds attention scores; off by default")
    weights = ap.add_mutually_exclusive_group()
    weights.add_argument("--fp16-weights", action="store_true", help="store the checkpoint in fp16")
    weights.add_argument("--int8-weights", action="store_true",
                         help="store the checkpoint as row-wise int8 (fp16 for small tensors)")
    ap.add_argument("--split-punct", action=argparse.BooleanOptionalAction, default=None,
                    help="translation BPE: punctuation as separate tokens (default off, as the shipped seq2seq)")
    ap.add_argument("--elision", action="store_true",
                    help="translation BPE: the word after an apostrophe is a word of its own "
                         "(l'animal -> ▁l ' ▁animal)")
    ap.add_argument("--init-from", type=Path, default=None,
                    help="BERT: continue pre-training from this checkpoint folder (its tokenizer and weights)")
    ap.add_argument("--grow-layers", type=int, default=0,
                    help="BERT --init-from: this many layers, each of the parent's repeated in place, the copies "
                         "starting as identities (models.bert.deepen_state)")
    ap.add_argument("--extend-positions", action="store_true",
                    help="BERT --init-from: allow a longer --max-len than the parent's, its position table repeated")
    ap.add_argument("--tatoeba-weight", type=float, default=data.TATOEBA_WEIGHT,
                    help=f"BERT: sampling weight of short Tatoeba sentences (default {data.TATOEBA_WEIGHT})")
    ap.add_argument("--bpe-dropout", type=float, default=0.0,
                    help="translation: BPE-dropout probability for training encodings (0.1 in Provilkov et al.)")
    ap.add_argument("--bpe-variants", type=int, default=8,
                    help="with --bpe-dropout or --space-noise: encodings of the training set the epochs cycle through")
    ap.add_argument("--space-noise", type=float, default=0.0,
                    help="ko-en: training sources respaced, each Hangul space dropped and each word split with "
                         "this probability (with --bpe-variants encodings)")
    ap.add_argument("--aux-pairs", choices=sorted(data.TRANSLATION_FILES), default=None,
                    help="into English: also train on this corpus's pairs (en-fr: French -> English), minus every "
                         "pair whose English is held out of the main task")
    ap.add_argument("--aux-ratio", type=float, default=4.0,
                    help="with --aux-pairs: aux pairs per main training pair in each epoch (default 4)")
    ap.add_argument("--bidir-frac", type=float, default=0.0,
                    help="translation: for this first fraction of --max-minutes, also train on every pair reversed "
                         "(bidirectional training, Ding et al. 2021; 0 = off)")
    ap.add_argument("--short-len", type=int, default=0,
                    help="BERT: examples of at most this many tokens form a second part of each batch, "
                         "padded to their own length (0: one part)")
    ap.add_argument("--nsp-weight", type=float, default=1.0,
                    help="BERT: weight of the NSP loss beside MLM's (default 1, the paper's sum)")
    ap.add_argument("--rdrop", type=float, default=0.0,
                    help="translation: R-Drop consistency weight alpha (Liang et al. 2021; 0 = off, 5 = the paper's)")
    ap.add_argument("--extra-pairs", nargs="+", choices=sorted(data.EXTRA_KO_EN), default=None,
                    help="Korean-English: add these corpora to training (never to valid/test)")
    ap.add_argument("--extra-max-words", type=int, default=25, help="--extra-pairs: longest English kept, in words")
    ap.add_argument("--extra-repeat", type=int, default=1, help="--extra-pairs: copies per epoch")
    add_korean_data_args(ap)
    ap.add_argument("--guide-from", type=Path, default=None,
                    help="seq2seq: guided alignment, attention trained toward this translation checkpoint's "
                         "word alignment (models/training/guide.py)")
    ap.add_argument("--guide-weight", type=float, default=1.0, help="weight of the guided-alignment loss")
    ap.add_argument("--cooldown", type=float, default=None,
                    help="decay the learning rate linearly to 0 over this last fraction of the run (default 0)")
    ap.add_argument("--commit", default=os.environ.get("GIT_COMMIT", ""), help="git commit of the code")
    ap.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    ap.add_argument("--smoke", action="store_true", help="tiny model, tiny data, seconds on CPU")
    ap.add_argument("--compile", action="store_true", help="torch.compile the training step's model (GPU speed)")
    ap.add_argument("--n-dec-layers", type=int, default=None, help="transformer: decoder layers (default --n-layers)")
    for k in ("d_model", "d_hidden", "n_heads", "n_layers", "d_ff", "vocab", "max_tokens", "warmup", "max_steps",
              "batch_size", "average_last"):
        ap.add_argument("--" + k.replace("_", "-"), type=int, default=None)
    for k in ("dropout", "lr", "lr_factor", "label_smoothing"):
        ap.add_argument("--" + k.replace("_", "-"), type=float, default=None)
    args = ap.parse_args(argv)
    if args.grow_layers and not (args.arch == "bert" and args.init_from):
        ap.error("--grow-layers deepens a BERT given by --init-from")
    if args.nsp_weight != 1 and args.arch != "bert":
        ap.error("--nsp-weight is a BERT option")
    if args.nsp_weight < 0:
        ap.error(f"--nsp-weight must be at least 0 (got {args.nsp_weight})")
    if args.split_by != "source" and args.arch == "bert":
        ap.error("--split-by is a translation option (BERT holds out the translation split's English sentences)")
    if args.qk_norm and args.arch != "bert":
        ap.error("--qk-norm is a BERT option")
    defaults = {"max_len": 64, "eval_every": 1000, "valid_n": 1000, "d_hidden": 0, "lr": 0.0, "lr_factor": 1.0, "label_smoothing": 0.0, "n_heads": 1, "d_ff": 0,
                "batch_size": 0, "average_last": 0, "pre_ln": False, "heldout_frac": 0.02,
                "split_punct": False, "cooldown": 0.0,
                **DEFAULTS[args.arch], **(SMOKE if args.smoke else {})}
    for k, v in defaults.items():  # explicit flags win over smoke values, which win over the arch defaults
        if getattr(args, k, None) is None:
            setattr(args, k, v)
    if args.data_dir is None:
        args.data_dir = FIXTURES if args.smoke else Path("../shared/data")
    return args


def main(argv=None):
    if (sys.argv[1:] if argv is None else list(argv))[:1] == ["finetune"]:  # task heads on BERT
        from models.training import finetune_cli  # imported here: a plain run never loads the fine-tuning code
        return finetune_cli.main((sys.argv[1:] if argv is None else list(argv))[1:])
    args = parse(argv)
    torch.manual_seed(args.seed)
    random.seed(args.seed)
    device = args.device
    world = int(os.environ.get("WORLD_SIZE", "1"))  # set by torchrun
    if world > 1:
        local = int(os.environ["LOCAL_RANK"])
        if device.startswith("cuda"):
            device = f"cuda:{local}"
            torch.cuda.set_device(local)
        dist.init_process_group("nccl" if device.startswith("cuda") else "gloo")
    lead = rank() == 0
    if device.startswith("cuda"):
        torch.backends.cuda.matmul.allow_tf32 = torch.backends.cudnn.allow_tf32 = True
        # cuDNN's SDPA backend builds a plan for every new (batch, length) shape; length-bucketed
        # translation batches change shape every step, which made training ~20x slower on H200.
        # The flash / memory-efficient kernels have no such cost.
        torch.backends.cuda.enable_cudnn_sdp(False)
    setup = {"bert": setup_bert, "gpt": setup_gpt}.get(args.arch, setup_translation)
    task, model, tok, batches, evaluate, snapshot, lr_at, meta = setup(args, device)
    if args.budget_from_start:  # what setup spent comes off the training budget
        args.max_minutes = max(0.05, args.max_minutes - (time.time() - STARTED) / 60)
    n_params = sum(p.numel() for p in model.parameters())
    if lead:
        print(f"{args.arch}: {n_params / 1e6:.2f}M parameters, vocab {tok.get_vocab_size()}, device {device}"
              + (f" x {world} processes" if world > 1 else ""))
    decay = [p for n, p in task.named_parameters() if p.dim() >= 2]
    no_decay = [p for n, p in task.named_parameters() if p.dim() < 2]
    betas = (0.9, 0.98) if args.arch == "transformer" else (0.9, 0.999)
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": 0.01}, {"params": no_decay, "weight_decay": 0.0}],
                            lr=1e-3, betas=betas, eps=1e-9 if args.arch == "transformer" else 1e-8,
                            fused=device.startswith("cuda"))
    if world > 1:  # after the optimizer holds the parameters; DDP broadcasts rank 0's weights
        task = torch.nn.parallel.DistributedDataParallel(task, device_ids=[local] if device.startswith("cuda")
                                                         else None)
    trainer = Trainer(task, opt, lr_at, batches, evaluate, args.out, device, args.max_steps, args.max_minutes,
                      args.eval_every, amp=args.arch != "seq2seq", average_last=args.average_last,
                      snapshot=snapshot, compile=args.compile)
    result = trainer.run()
    if world > 1:
        # Every process past its last collective, and the DDP wrapper (its reducer holds the process
        # group) gone, before the group itself: nothing may still hold it when it is destroyed. With
        # the group destroyed first, a CPU run's second process once aborted at exit in CI
        # ("terminate called without an active exception").
        dist.barrier()
        del trainer, task
        gc.collect()
        dist.destroy_process_group()
        if not lead:
            return None
    # GPT's test split, read once after training on the device that trained (models.training.evaluate re-reads it on CPU)
    test = evaluate(Bound(model), "test") if args.arch == "gpt" else None
    model.cpu().float()
    name = {"transformer": f"transformer-{args.direction}", "seq2seq": f"seq2seq-{args.attention}",
            "bert": "bert", "gpt": "gpt"}[args.arch]
    metrics = {
        "name": name, "arch": args.arch,
        "command": ("python -m models.training.train " if world == 1 else
                    f"torchrun --standalone --nproc_per_node {world} -m models.training.train ")
                   + " ".join(shlex.quote(a) for a in (argv or sys.argv[1:])),
        "git_commit": args.commit, "seed": args.seed, "smoke": args.smoke,
        "hyperparameters": {k: (str(v) if isinstance(v, Path) else v) for k, v in vars(args).items()},
        "data": meta, "parameters": n_params, "steps": result["steps"], "wall_seconds": result["wall_seconds"],
        "device": (f"{world} x " if world > 1 else "")
                  + (torch.cuda.get_device_name(0) if device.startswith("cuda") else platform.processor() or "cpu"),
        "processes": world,
        "torch": torch.__version__, "valid": result["best"],
    }
    if test is not None:
        metrics["test"] = test
    if args.init_from:  # the whole lineage: each earlier run's command, time and device
        parent = json.loads((Path(args.init_from) / "metrics.json").read_text())
        metrics["continued_from"] = [*parent.get("continued_from", []),
                                     {k: parent.get(k) for k in ("command", "git_commit", "steps", "wall_seconds",
                                                                 "device", "valid")}]
        metrics["total_wall_seconds"] = round(metrics["wall_seconds"] + sum(
            p["wall_seconds"] for p in metrics["continued_from"]), 1)
    folder = checkpoint.save(args.out / "checkpoint", model, tok, metrics,
                             dtype=torch.int8 if args.int8_weights else
                             torch.float16 if args.fp16_weights else torch.float32)
    print(f"saved {folder}: {json.dumps(result['best'])}")
    return folder


if __name__ == "__main__":
    main()
