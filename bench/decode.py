"""CPU time of every shipped model on one sentence, in-process (no web server).

    python3 -m bench.decode [--runs 20] [--threads 1]

Translation models: greedy and beam-4 decoding of a 12-word sentence (explorer.compute.inference.translate,
which also runs the teacher-forced pass that returns the attention). BERT: fill-mask and NSP.
Prints p50/p95 in ms; asserts nothing. It shows what a bigger model costs a visitor
in time (the "size for speed" trade-off).
"""
from __future__ import annotations

import argparse
import statistics
import time

import torch

from explorer.compute import inference as inf

SENTENCE = "The little girl gave her old teacher a red apple after the long class."  # 14 words
KO_SENTENCE = "나는 어제 친구와 함께 학교 앞 식당에서 맛있는 저녁을 먹었어요."
MASKED = "The little girl gave her old teacher a red [MASK] after the long class."


def timed(fn, runs: int) -> tuple[float, float]:
    fn()  # warm-up
    ts = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        ts.append((time.perf_counter() - t0) * 1000)
    ts.sort()
    return statistics.median(ts), ts[min(len(ts) - 1, int(0.95 * len(ts)))]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    reg = inf.registry()
    print(f"ms per call, {args.runs} runs after a warm-up, torch threads {args.threads}")
    print(f"{'model':24} {'call':14} {'params':>8} {'p50':>8} {'p95':>8}")
    for name in reg.names(("transformer", "seq2seq")):
        text = KO_SENTENCE if name.endswith("ko-en") else SENTENCE
        params = sum(p.numel() for p in reg.models[name].model.parameters()) / 1e6
        for beam in (1, 4):
            p50, p95 = timed(lambda: inf.translate(name, text, beam=beam, reg=reg), args.runs)
            print(f"{name:24} {'greedy' if beam == 1 else 'beam 4':14} {params:7.1f}M {p50:8.1f} {p95:8.1f}")
    if "bert" in reg.models:
        params = sum(p.numel() for p in reg.models["bert"].model.parameters()) / 1e6
        for call, fn in (("fill-mask", lambda: inf.fill_mask(MASKED, 5, reg=reg)),
                         ("nsp", lambda: inf.nsp(SENTENCE, "She smiled and put it on the desk.", reg=reg))):
            p50, p95 = timed(fn, args.runs)
            print(f"{'bert':24} {call:14} {params:7.1f}M {p50:8.1f} {p95:8.1f}")


if __name__ == "__main__":
    main()
