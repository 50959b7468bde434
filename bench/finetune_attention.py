"""What fine-tuning changed in attention: for each shipped task (assets/finetune/<task>), the mean over N
validation inputs of each head's change (explorer.views.finetune.head_change: the mean total variation
distance between the fine-tuned and the pre-trained model's attention rows, 0 = unchanged, 1 = disjoint),
printed per layer (mean over heads, and the most-changed head), plus how much of [CLS]'s attention in the
last layer sits on [CLS]/[SEP] before and after.

    python3 -m bench.finetune_attention --data-dir ../shared/data --n 50
"""
from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from explorer.views import finetune as views
from models.training import task_data

ROOT = Path(__file__).resolve().parent.parent


def inputs(task: str, data_dir: Path, n: int) -> list[tuple[str, str]]:
    valid = task_data.read_task(task, data_dir)["valid"][:n]
    if task == "sentiment":
        return [(x, "") for x, _ in valid]
    if task == "nli":
        return [x for x, _ in valid]
    if task in ("pos", "ner"):
        return [(" ".join(w), "") for w, _ in valid]
    return [(x["question"], x["context"]) for x in valid]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data-dir", type=Path, default=Path("../shared/data"))
    ap.add_argument("--n", type=int, default=50)
    ap.add_argument("--tasks", nargs="+", default=list(views.TASKS))
    args = ap.parse_args(argv)
    for task in args.tasks:
        if not (ROOT / "assets" / "finetune" / task).is_dir():
            print(f"{task}: not installed")
            continue
        changes, special = [], []
        for a, b in inputs(task, args.data_dir, args.n):
            r = views.run_task(task, a, b)
            changes.append(views.head_change(r.trace.enc_self, r.base_trace.enc_self))
            edge = [i for i, t in enumerate(r.tokens) if t in ("[CLS]", "[SEP]")]
            cls_rows = [t.enc_self[-1][:, 0] for t in (r.trace, r.base_trace)]  # (H, T): [CLS]'s row in every head
            special.append([row[:, edge].sum(-1).mean() for row in cls_rows])
        c = np.mean(changes, 0)  # (L, H)
        s = np.mean(special, 0)
        print(f"{task} ({len(changes)} inputs): mean change {c.mean():.3f}; by layer "
              + " ".join(f"{v:.2f}" for v in c.mean(1)) + f"; most changed L{np.unravel_index(c.argmax(), c.shape)[0] + 1}"
              f"H{np.unravel_index(c.argmax(), c.shape)[1] + 1} {c.max():.2f}; last layer [CLS] -> [CLS]/[SEP] "
              f"{s[0]:.2f} fine-tuned vs {s[1]:.2f} pre-trained")


if __name__ == "__main__":
    main()
