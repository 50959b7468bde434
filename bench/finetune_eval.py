"""Recompute each shipped task's validation metrics from its files (assets/bert + assets/finetune/<task>) on
this machine, in fp32, beside what its training run recorded (bf16 autocast on the GPU) in metrics.json.

    python3 -m bench.finetune_eval --data-dir ../shared/data [--tasks sentiment nli] [--limit N]
"""
from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from models import checkpoint
from models.lora import load_task
from models.training import task_data
from models.training.finetune import evaluate_task

ROOT = Path(__file__).resolve().parent.parent


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data-dir", type=Path, default=Path("../shared/data"))
    ap.add_argument("--tasks", nargs="+", default=list(task_data.TASKS))
    ap.add_argument("--limit", type=int, default=0, help="first N validation examples (0: all)")
    args = ap.parse_args(argv)
    base = checkpoint.load(ROOT / "assets" / "bert")
    for task in args.tasks:
        folder = ROOT / "assets" / "finetune" / task
        model, metrics = load_task(folder, base.model)
        split_seed = metrics["data"]["split_seed"]
        valid = task_data.read_task(task, args.data_dir, split_seed)["valid"][:args.limit or None]
        tok = task_data.task_tokenizer(base.tokenizer, model.config.max_len)
        t0 = time.time()
        got = evaluate_task(model, tok, task, valid)
        print(json.dumps({"task": task, "n": len(valid), "cpu_fp32": {k: round(v, 4) for k, v in got.items()
                                                                      if isinstance(v, float)},
                          "recorded": round(metrics["valid"]["score"], 4), "seconds": round(time.time() - t0, 1)}),
              flush=True)


if __name__ == "__main__":
    main()
