"""The command line of fine-tuning (models/training/finetune.py): its flags and their defaults.

    python -m models.training.train finetune --task sentiment --init assets/bert --lora 16 --data-dir ../shared/data --out runs/ft-sst
    python -m models.training.finetune_cli --task sentiment ...   # the same run
    python -m models.training.train finetune --task qa --smoke --out /tmp/ft   # seconds on CPU, tests/fixtures/finetune

(`python -m models.train finetune ...`, the command the shipped tasks record, runs this.)
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import torch

from models.training import finetune, task_data

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "finetune"


def parse(argv=None):
    ap = argparse.ArgumentParser(prog="python -m models.training.train finetune",
                                 description="Fine-tune the shipped BERT (or the same architecture from scratch) "
                                             "on one task.")
    ap.add_argument("--task", required=True, choices=task_data.TASKS)
    ap.add_argument("--init", default="assets/bert",
                    help="a BERT checkpoint folder to start from, or 'scratch' (same config and tokenizer as "
                         "--base, random weights)")
    ap.add_argument("--base", type=Path, default=ROOT / "assets" / "bert",
                    help="with --init scratch: the BERT whose config and tokenizer are used")
    how = ap.add_mutually_exclusive_group()
    how.add_argument("--lora", type=int, default=None, metavar="R", help="low-rank adapters of rank R (default 16)")
    how.add_argument("--full", action="store_true", help="train every weight")
    ap.add_argument("--lora-alpha", type=float, default=16.0)
    ap.add_argument("--data-dir", type=Path, default=None, help="the task folders (default ../shared/data; "
                                                                  "--smoke: tests/fixtures/finetune)")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--max-minutes", type=float, default=1e9, help="training time budget")
    ap.add_argument("--train-until", type=float, default=None,
                    help="unix time by which training stops, whatever --max-minutes says (a shared job's end)")
    ap.add_argument("--max-steps", type=int, default=100_000)
    ap.add_argument("--epochs", type=float, default=0, help="stop after this many passes over the training rows "
                                                             "(0: only the time and step budgets)")
    ap.add_argument("--eval-every", type=int, default=10**9, help="default: evaluate once, at the end")
    ap.add_argument("--lr", type=float, default=None, help="default 1e-3 lora, 1e-4 full, 3e-4 scratch")
    ap.add_argument("--warmup", type=int, default=100)
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--max-len", type=int, default=None, help="tokens per input (default 128; qa 256 per window)")
    ap.add_argument("--stride", type=int, default=128, help="qa: context tokens between window starts")
    ap.add_argument("--pooling", choices=["mean", "cls"], default="mean")
    ap.add_argument("--dropout", type=float, default=0.1, help="head dropout")
    ap.add_argument("--valid-limit", type=int, default=0, help="evaluate on the first N validation examples (0: all)")
    ap.add_argument("--train-limit", type=int, default=0, help="train on the first N training examples (0: all; "
                                                                "for rehearsing a job on CPU)")
    ap.add_argument("--no-save", action="store_true", help="lora: write metrics only, no adapter file")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--split-seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=0, help="torch CPU threads (0: torch's default)")
    ap.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    ap.add_argument("--commit", default="", help="git commit of the code")
    ap.add_argument("--smoke", action="store_true", help="tiny data, a few steps, seconds on CPU")
    args = ap.parse_args(argv)
    args.mode = "scratch" if args.init == "scratch" else "full" if args.full else "lora"
    if args.mode == "scratch" and args.lora is not None:
        ap.error("--lora adapts pre-trained weights; --init scratch trains every weight")
    args.lora_r = (args.lora or 16) if args.mode == "lora" else 0
    if args.lora_r < 0 or (args.mode == "lora" and args.lora_r == 0):
        ap.error("--lora R needs R >= 1")
    if args.lr is None:
        args.lr = {"lora": 1e-3, "full": 1e-4, "scratch": 3e-4}[args.mode]
    if args.max_len is None:
        args.max_len = 256 if args.task == "qa" else 128
    if args.data_dir is None:
        args.data_dir = FIXTURES if args.smoke else Path("../shared/data")
    if args.smoke:
        args.max_steps, args.batch_size = min(args.max_steps, 4), min(args.batch_size, 4)
        if args.task == "qa":
            args.max_len, args.stride = min(args.max_len, 96), min(args.stride, 32)
    return args


def main(argv=None) -> dict:
    """`python -m models.training.train finetune ARGS`: parse, then one run (its metrics)."""
    t_start = time.time()
    argv = list(sys.argv[1:] if argv is None else argv)
    return finetune.run(parse(argv), argv, t_start)


if __name__ == "__main__":
    main()
