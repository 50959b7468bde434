"""The Transformer's cached decoding step against the full-prefix step it replaced, interleaved
in one process (so that load on a shared machine hits both alike).

    python3 -m bench.kv_cache [--runs 25] [--threads 1]

Both go through explorer.compute.inference.translate (encoder, decoding, then the teacher-forced pass
that returns the attention), greedy and beam 4, on the 12- and 40-word sentences of
bench/latency.py. Prints p50/min in ms and whether the two translations are the same; asserts
nothing.
"""
from __future__ import annotations

import argparse
import statistics
import time

import torch

from bench.latency import TEXT_12, TEXT_40
from explorer.compute import inference as inf
from models.attention import causal_mask
from models.transformer import Transformer


def full_prefix_step(self, memory, prefix, state):
    """The step before the cache: the decoder over the whole prefix, the vocabulary projection
    for its last position only."""
    memory, src_mask = memory
    T = prefix.size(1)
    tgt_mask = causal_mask(T, prefix.device)[None, None] & (prefix != self.config.pad_id)[:, None, None, :]
    y = self.embed(self.tgt_emb, prefix)
    for layer in self.decoder:
        y, _, _, _ = layer(y, memory, tgt_mask, src_mask, False)
    return self.out_proj(self.dec_norm(y[:, -1:]))[:, -1], state, None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=25)
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    reg = inf.load_registry(names=["transformer-en-fr"])
    steps = {"cached": Transformer.step, "full prefix": full_prefix_step}
    times, outputs = {}, {}
    try:
        for i in range(args.runs + 2):  # 2 warm-ups
            for words, text in ((12, TEXT_12), (40, TEXT_40)):
                for beam in (1, 4):
                    for name, step in steps.items():
                        Transformer.step = step
                        t = time.perf_counter()
                        r = inf.translate("transformer-en-fr", text, beam=beam, reg=reg)
                        if i >= 2:
                            times.setdefault((words, beam, name), []).append((time.perf_counter() - t) * 1000)
                        outputs.setdefault((words, beam), set()).add(r.translation)
    finally:
        Transformer.step = steps["cached"]
    print(f"transformer-en-fr, explorer.compute.inference.translate, {args.runs} runs, torch threads {args.threads}")
    print(f"{'words':>5} {'decoding':>8} {'step':>12} {'p50 ms':>8} {'min ms':>8}  same translation")
    for (words, beam, name), ts in times.items():
        same = "yes" if len(outputs[(words, beam)]) == 1 else "NO"
        print(f"{words:>5} {'greedy' if beam == 1 else f'beam {beam}':>8} {name:>12} "
              f"{statistics.median(ts):8.1f} {min(ts):8.1f}  {same}")


if __name__ == "__main__":
    main()
