"""CPU time of fill-mask and NSP for two or more BERT checkpoints, interleaved run by run in one
process (so that load on a shared machine hits them alike): what swapping the shipped `bert`
for another costs a visitor.

    python3 -m bench.bert_compare assets/bert path/to/other/bert [--runs 30] [--threads 1]

Each call is explorer.compute.inference.fill_mask / nsp (tokenizing, the forward pass with every layer's
attention, the top-k), on the 12- and 40-word inputs of bench/latency.py. Prints p50 and min in
ms per checkpoint, and each one's parameters and whether it uses QK-LayerNorm; asserts nothing.
"""
from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import torch

from bench.latency import MASK_12, MASK_40, NSP_12, NSP_40
from explorer.compute import inference as inf
from models.checkpoint import load


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("checkpoints", nargs="+", type=Path, help="BERT checkpoint folders")
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--threads", type=int, default=1, help="torch threads (the app uses 1 per request)")
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    reg = inf.Registry()
    for i, folder in enumerate(args.checkpoints):
        reg.models[f"{i}:{folder}"] = load(folder)
    names = list(reg.models)
    for d in reg.describe():
        print(f"{d['name']}: {d['parameters']} parameters, qk_norm={d['qk_norm']}")
    cases = {"fill-mask 12 words": lambda n: inf.fill_mask(MASK_12, 5, name=n, reg=reg),
             "fill-mask 40 words": lambda n: inf.fill_mask(MASK_40, 5, name=n, reg=reg),
             "NSP 12 words": lambda n: inf.nsp(*NSP_12, name=n, reg=reg),
             "NSP 40 words": lambda n: inf.nsp(*NSP_40, name=n, reg=reg)}
    print(f"{'case':<20}" + "".join(f"{'p50 ' + str(i):>10}{'min ' + str(i):>10}" for i in range(len(names))))
    for case, call in cases.items():
        times = {n: [] for n in names}
        for n in names:
            for _ in range(args.warmup):
                call(n)
        for _ in range(args.runs):  # interleaved: every checkpoint once per round
            for n in names:
                t0 = time.perf_counter()
                call(n)
                times[n].append((time.perf_counter() - t0) * 1000)
        print(f"{case:<20}" + "".join(f"{statistics.median(times[n]):>10.1f}{min(times[n]):>10.1f}" for n in names))


if __name__ == "__main__":
    main()
