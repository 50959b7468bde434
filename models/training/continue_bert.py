"""Continued pre-training of a BERT checkpoint with single-sentence pairs mixed into its long segments,
on a wall-clock budget, with the single-sentence and long-segment metrics before and after (BERT
pre-trains on segments of up to max_len tokens, and a student types one sentence A and one sentence B).

    python -m models.training.continue_bert assets/bert --data-dir ../shared/data --out runs/bert-single --minutes 2.5
    python -m models.training.continue_bert CKPT --data-dir tests/fixtures/data --out /tmp/x --minutes 0.05  # seconds, CPU

The data are the checkpoint's own split (`data.split_docs` and `data.halves` with its recorded seed): the
model trains on training documents only, and the before/after figures read the test half of the held-out
documents with `models.training.evaluate`'s functions and seed, so they compare with `python -m models.training.evaluate
assets/bert --single-vs-long`. Of each corpus only a seeded share of the training documents is tokenised
(--train-frac): a run of minutes reads a small part of them, and tokenising all took ~23 s on one core.
The whole run (data, both evaluations, training, int8 save) keeps within --budget-seconds when given:
training gets what the rest leaves, at most --minutes. The checkpoint is stored int8 in OUT/bert (the
way assets/bert is), its metrics.json with the lineage, and OUT/before_after.json holds the comparison.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import random
import shlex
import sys
import time
from pathlib import Path

import torch

from models import checkpoint
from models.tokenizers import special_ids
from models.training import data
from models.training.evaluate import TEST_DRAW, VALID_DRAW, bert_heldout_eval, bert_single_vs_long
from models.training.trainer import SplitBatch, Trainer, warmup_cosine, with_cooldown


def _tokenised(tok, docs: list) -> list:
    """Documents of sentences -> documents of token-id lists."""
    flat = [s for d in docs for s in d]
    ids = iter([e.ids for e in tok.encode_batch(flat, add_special_tokens=False)] if flat else [])
    return [[next(ids) for _ in d] for d in docs]


def split_data(tok, data_dir: Path, meta: dict, train_frac: float, seed: int):
    """(training documents per corpus, held-out halves {"valid", "test"} per corpus, Tatoeba singles
    {"train", "valid", "test"}, corpus names missing from data_dir), tokenised, on the checkpoint's own
    split; of the training documents (and training singles) a seeded train_frac only."""
    raw = data.load_bert_corpora(data_dir, required=False)
    missing = sorted(set(data.BERT_CORPORA) - set(raw))
    rng = random.Random(seed)
    train, held = {}, {"valid": {}, "test": {}}
    for name, docs in raw.items():
        tr, he = ([], docs) if name == "wikitext2-valid" else data.split_docs(docs, meta["split_seed"],
                                                                               meta["heldout_frac"])
        valid, test = data.halves(he, meta["split_seed"])
        if tr and train_frac < 1:
            tr = rng.sample(tr, max(2, int(len(tr) * train_frac))) if len(tr) > 2 else tr
        train[name], held["valid"][name], held["test"][name] = _tokenised(tok, tr), _tokenised(tok, valid), \
            _tokenised(tok, test)
    split = data.split_by_source(data.read_pairs(data_dir, "en-fr"), meta["split_seed"], data.VALID_FRAC,
                                 data.TEST_FRAC)
    singles = {}
    for k in ("train", "valid", "test"):
        sents = sorted({en for en, _ in split[k]})
        if k == "train" and train_frac < 1:
            sents = rng.sample(sents, max(1, int(len(sents) * train_frac)))
        singles[k] = [e.ids for e in tok.encode_batch(sents, add_special_tokens=False)]
    return train, held, singles, missing


def evaluate_all(model, tok, held: dict, short: list, max_len: int, device: str, n_batches: int, seed: int) -> dict:
    """`bert_heldout_eval`'s figures (fill-mask on long Wikipedia segments and on short Tatoeba sentences,
    NSP on long segments) and `bert_single_vs_long`'s, on one held-out half."""
    t0 = time.time()
    res = bert_heldout_eval(model, tok, held, short, max_len, device=device, n_batches=n_batches, seed=seed)
    res["single_vs_long"] = bert_single_vs_long(model, tok, held, max_len, device, n_batches, seed=seed)
    res["seconds"] = round(time.time() - t0, 1)
    return res


def headline(r: dict) -> dict:
    """The five figures the issue's targets name, flat."""
    return {"nsp_single_wiki": r["single_vs_long"]["nsp"]["single_wiki"],
            "nsp_single_all": r["single_vs_long"]["nsp"]["single_all"],
            "nsp_long_all": r["nsp_acc"],
            "fill_mask_single_wiki": r["single_vs_long"]["fill_mask_top1"]["single_wiki"],
            "fill_mask_long_wiki": r["fill_mask_top1_wiki"],
            "fill_mask_short": r["fill_mask_top1_short"]}


def parse(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("init_from", type=Path, help="the BERT checkpoint folder to continue, e.g. assets/bert")
    ap.add_argument("--data-dir", type=Path, default=Path("../shared/data"))
    ap.add_argument("--out", type=Path, required=True, help="run folder: OUT/bert (int8 checkpoint), OUT/log.jsonl, "
                                                            "OUT/before_after.json")
    ap.add_argument("--minutes", type=float, default=2.5, help="training time at most")
    ap.add_argument("--budget-seconds", type=float, default=0,
                    help="the whole run's wall clock from --start (data, evaluations, training, save); training is "
                         "shortened to fit (0: no budget)")
    ap.add_argument("--start", type=float, default=None, help="epoch seconds the budget counts from (default: now)")
    ap.add_argument("--single-pairs", type=float, default=0.5,
                    help="share of the sentence pairs that are one sentence A and one sentence B (the rest: long segments)")
    ap.add_argument("--tatoeba-weight", type=float, default=None,
                    help="sampling weight of short Tatoeba sentences (default: the parent's)")
    ap.add_argument("--train-frac", type=float, default=0.25, help="share of each corpus's training documents tokenised")
    ap.add_argument("--lr", type=float, default=2e-4)
    ap.add_argument("--warmup", type=int, default=20)
    ap.add_argument("--cooldown", type=float, default=0.4)
    ap.add_argument("--batch-size", type=int, default=128)
    ap.add_argument("--short-len", type=int, default=64, help="rows of at most this many tokens padded apart (SplitBatch)")
    ap.add_argument("--nsp-weight", type=float, default=1.0)
    ap.add_argument("--eval-batches", type=int, default=40, help="batches of 64 per held-out test set, before and after")
    ap.add_argument("--valid-batches", type=int, default=4, help="batches of 64 per validation set at the end of training")
    ap.add_argument("--workers", type=int, default=None, help="batch-building processes (default 2 on CUDA, 0 on CPU)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    return ap.parse_args(argv)


def main(argv=None) -> Path:
    args = parse(argv)
    start = args.start or time.time()
    left = lambda: args.budget_seconds - (time.time() - start) if args.budget_seconds else float("inf")
    torch.manual_seed(args.seed)
    device = args.device
    if device.startswith("cuda"):
        torch.backends.cuda.matmul.allow_tf32 = torch.backends.cudnn.allow_tf32 = True
        torch.backends.cuda.enable_cudnn_sdp(False)  # models.training.train: a cuDNN plan per batch shape
    parent = checkpoint.load(args.init_from)
    if parent.config.arch != "bert":
        raise SystemExit(f"{args.init_from}: not a BERT checkpoint")
    tok, meta, max_len = parent.tokenizer, parent.metrics["data"], parent.metrics["data"]["max_len"]
    tatoeba_weight = args.tatoeba_weight if args.tatoeba_weight is not None else meta.get("tatoeba_weight",
                                                                                           data.TATOEBA_WEIGHT)
    t = time.time()
    train_docs, held, singles, missing = split_data(tok, args.data_dir, meta, args.train_frac, args.seed)
    print(f"data {time.time() - t:.1f} s; training documents {({k: len(v) for k, v in train_docs.items()})}; "
          f"missing corpora {missing}", flush=True)
    model = parent.model.to(device)
    before = evaluate_all(model, tok, held["test"], singles["test"], max_len, device, args.eval_batches, TEST_DRAW)
    print("before", json.dumps(headline(before)), f"({before['seconds']} s)", flush=True)

    corpora, weights = data.training_mix(train_docs)
    sp, V = special_ids(tok), tok.get_vocab_size()

    class Stream(torch.utils.data.IterableDataset):
        def __iter__(self):
            info = torch.utils.data.get_worker_info()
            rng = random.Random(args.seed * 1000 + (info.id if info else 0))
            s = data.BertSampler(corpora, weights, singles["train"], tatoeba_weight, sp, V, max_len, rng,
                                 single_pairs=args.single_pairs)
            while True:
                yield s.batch(args.batch_size, args.short_len)

    workers = args.workers if args.workers is not None else (2 if device.startswith("cuda") else 0)
    loader = torch.utils.data.DataLoader(Stream(), batch_size=None, num_workers=workers,
                                         pin_memory=device.startswith("cuda"))

    def evaluate(task):  # the Trainer passes the SplitBatch wrapper; the model is task.m
        r = evaluate_all(task.m, tok, held["valid"], singles["valid"], max_len, device, args.valid_batches, VALID_DRAW)
        h = headline(r)
        return {"score": h["nsp_single_all"] + h["nsp_long_all"] + h["fill_mask_long_wiki"] + h["fill_mask_short"], **h}

    # what the evaluation after training and the save will take: the one before, plus the validation's share
    reserve = before["seconds"] * (1 + args.valid_batches / max(1, args.eval_batches)) * 1.2 + 15
    minutes = max(0.02, min(args.minutes, (left() - reserve) / 60))
    print(f"training {minutes:.2f} min (budget left {left():.0f} s, kept back {reserve:.0f} s)", flush=True)
    task = SplitBatch(model, nsp_weight=args.nsp_weight, mlm_labelled_only=True)
    decay = [p for p in task.parameters() if p.dim() >= 2]
    no_decay = [p for p in task.parameters() if p.dim() < 2]
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": 0.01}, {"params": no_decay, "weight_decay": 0.0}],
                            lr=args.lr, fused=device.startswith("cuda"))
    trainer = Trainer(task, opt, with_cooldown(warmup_cosine(args.lr, args.warmup), args.cooldown), iter(loader),
                      evaluate, args.out, device, max_steps=10**9, max_minutes=minutes, eval_every=10**9, amp=True)
    result = trainer.run()
    print(f"trained {result['steps']} steps in {result['wall_seconds']} s", flush=True)

    model.cpu().float()
    parent_metrics = parent.metrics
    lineage = [*parent_metrics.get("continued_from", []),
               {k: parent_metrics.get(k) for k in ("command", "git_commit", "steps", "wall_seconds", "device", "valid")}]
    files = {rel: data.file_sha256(data.find(args.data_dir, rel))
             for k, (rel, _, _) in data.BERT_CORPORA.items() if k not in missing}
    files[data.TRANSLATION_FILES["en-fr"]] = data.file_sha256(data.find(args.data_dir, data.TRANSLATION_FILES["en-fr"]))
    metrics = {
        "name": "bert", "arch": "bert",
        "command": "python -m models.training.continue_bert " + " ".join(shlex.quote(a) for a in (argv or sys.argv[1:])),
        "git_commit": os.environ.get("GIT_COMMIT", ""), "seed": args.seed, "smoke": False,
        "hyperparameters": {k: (str(v) if isinstance(v, Path) else v) for k, v in vars(args).items()},
        "data": {**meta, "tatoeba_weight": tatoeba_weight, "single_pairs": args.single_pairs,
                 "train_frac": args.train_frac, "missing_corpora": missing, "files": files},
        "parameters": sum(p.numel() for p in model.parameters()), "steps": result["steps"],
        "wall_seconds": result["wall_seconds"],
        "device": torch.cuda.get_device_name(0) if device.startswith("cuda") else platform.processor() or "cpu",
        "processes": 1, "torch": torch.__version__, "valid": result["best"], "continued_from": lineage,
        "total_wall_seconds": round(result["wall_seconds"] + sum(p.get("wall_seconds") or 0 for p in lineage), 1),
        "storage": {"dtype": "int8", "from": "models.training.continue_bert, fp32 in memory"},
    }
    folder = checkpoint.save(args.out / "bert", model, tok, metrics, dtype=torch.int8)
    stored = checkpoint.load(folder)  # what ships is the int8 model: measure that one
    after = evaluate_all(stored.model.to(device), tok, held["test"], singles["test"], max_len, device,
                         args.eval_batches, TEST_DRAW)
    test = {k: v for k, v in after.items() if k != "seconds"}
    metrics["test"] = {"split": "test", "eval_batches": args.eval_batches, **test}
    (folder / "metrics.json").write_text(json.dumps(metrics, indent=2, ensure_ascii=False))
    if (args.out / "log.jsonl").is_file():
        (folder / "train_log_single.jsonl").write_text((args.out / "log.jsonl").read_text())
    comparison = {"before": before, "after": after, "headline": {"before": headline(before), "after": headline(after)},
                  "steps": result["steps"], "train_seconds": result["wall_seconds"],
                  "total_seconds": round(time.time() - start, 1), "eval_batches": args.eval_batches}
    (args.out / "before_after.json").write_text(json.dumps(comparison, indent=2))
    print("after ", json.dumps(headline(after)), f"({after['seconds']} s)")
    print(f"{'metric':24s} {'before':>8s} {'after':>8s}")
    for k, b in headline(before).items():
        print(f"{k:24s} {b:8.4f} {headline(after)[k]:8.4f}")
    size = sum(p.stat().st_size for p in folder.iterdir())
    print(f"saved {folder} ({size / 1e6:.1f} MB) in {time.time() - start:.0f} s from start", flush=True)
    return folder


if __name__ == "__main__":
    main()
