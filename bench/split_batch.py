"""BERT's split batches (`models.train --short-len`) against the same batch in one piece, on a
real checkpoint and real data: loss and gradient norm both ways, and of each part alone.

    python3 -m bench.split_batch [--checkpoint assets/bert] [--data-dir ../shared/data] [--sizes 64 128]

The two ways must agree (the split only crops padding); the parts alone show how noisy the
short-sentence part's gradient is. Prints figures; asserts nothing. CPU: about 4 minutes for both sizes
with the 12-layer assets/bert on 2 cores (40 s with 6 layers).
"""
from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

import torch

from models.checkpoint import load
from models.tokenizers import special_ids
from models.training import data, train


def loss_and_grad_norm(task, model, batch) -> tuple[float, float]:
    model.zero_grad()
    loss = task(**batch).loss
    loss.backward()
    return loss.item(), torch.sqrt(sum((p.grad ** 2).sum() for p in model.parameters() if p.grad is not None)).item()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--checkpoint", default="assets/bert")
    ap.add_argument("--data-dir", type=Path, default=Path("../shared/data"))
    ap.add_argument("--sizes", type=int, nargs="+", default=[64, 128])
    ap.add_argument("--short-len", type=int, default=64)
    ap.add_argument("--tatoeba-weight", type=float, default=8.0)
    args = ap.parse_args()
    ck = load(args.checkpoint)
    tok, model = ck.tokenizer, ck.model.eval()  # eval: no dropout, so both ways see the same function
    sampler = data.checkpoint_train_sampler(ck, args.data_dir, args.tatoeba_weight, random.Random(1))
    pad = special_ids(tok)["pad"]
    one, two = train.Bound(model, mlm_labelled_only=True), train.SplitBatch(model, mlm_labelled_only=True)
    for n in args.sizes:
        sampler.rng = random.Random(1)  # every size starts from the same draw
        whole = sampler.batch(n)
        parts = data.split_batch(whole, args.short_len, pad)
        t = time.time()
        a, b = loss_and_grad_norm(one, model, whole), loss_and_grad_norm(two, model, parts)
        long_alone = loss_and_grad_norm(one, model, {k: v for k, v in parts.items() if not k.startswith("short_")})
        short_alone = loss_and_grad_norm(one, model, {k[len("short_"):]: v for k, v in parts.items()
                                                      if k.startswith("short_") and k != "short_nsp_labels"})
        print(f"{n} sequences ({len(parts['short_input_ids'])} short): loss, gradient norm "
              f"one piece {a[0]:.4f}, {a[1]:.4f} | split {b[0]:.4f}, {b[1]:.4f} | "
              f"long part alone {long_alone[0]:.4f}, {long_alone[1]:.4f} | "
              f"short part alone (MLM) {short_alone[0]:.4f}, {short_alone[1]:.4f} | {time.time() - t:.1f} s")


if __name__ == "__main__":
    main()
