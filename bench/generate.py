"""GPT generation time on this machine: `explorer.compute.generate.generate_stream` (what the app, the API and the CLI
run) for a fixed number of new tokens, with the key/value cache and without it (every step recomputes the
whole prefix), p50 and p90 over repeated runs. Prints figures; asserts nothing.

    python3 -m bench.generate [--checkpoint assets/gpt] [--tokens 30] [--runs 7] [--threads 1]

Each run samples (temperature 0.7, top-k 50, seed = run) from "The students opened their" and reads on past
[SEP], so every run makes exactly --tokens tokens; its time includes the final pass that computes the
attention shown for the whole sequence. Without a checkpoint folder, a GPT of the shipped size with random
weights is timed (the time does not depend on the weights).
"""
from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

import torch

from explorer.compute.generate import generate_stream
from explorer.compute.inference import load_registry

ROOT = Path(__file__).resolve().parent.parent


def registry_for(folder: Path | None):
    if folder is not None and folder.is_dir():
        return load_registry(folder.parent, names={folder.name}), folder.name, str(folder)
    from tokenizers import Tokenizer
    from models import checkpoint
    from models.gpt import GPT, GPTConfig
    from models.training.lm_data import TOKENIZER
    tmp = Path(tempfile.mkdtemp()) / "gpt"
    torch.manual_seed(0)
    checkpoint.save(tmp, GPT(GPTConfig(vocab_size=16000)).eval(), Tokenizer.from_file(str(TOKENIZER)), {})
    return load_registry(tmp.parent), "gpt", "random weights, GPTConfig defaults"


def run_once(reg, name, tokens, seed, use_cache) -> tuple[float, int]:
    t = time.perf_counter()
    rec = None
    for rec in generate_stream("The students opened their", max_new_tokens=tokens, temperature=0.7, top_k=50,
                               seed=seed, name=name, reg=reg, use_cache=use_cache, stop_at_end=False):
        pass
    return time.perf_counter() - t, len(rec.steps)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--checkpoint", type=Path, default=ROOT / "assets" / "gpt")
    ap.add_argument("--tokens", type=int, default=30)
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--threads", type=int, default=1,
                    help="torch threads (1: on this shared 2-core machine two threads ran 7x slower under load)")
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    reg, name, what = registry_for(args.checkpoint)
    c = reg.get(name).config
    print(f"model: {what} ({c.n_layers} layers, d_model {c.d_model}, context {c.max_len}); "
          f"{args.tokens} new tokens, {args.runs} runs, {args.threads} threads")
    for use_cache in (True, False):
        run_once(reg, name, args.tokens, 0, use_cache)  # warm-up
        times = []
        for seed in range(args.runs):
            s, n = run_once(reg, name, args.tokens, seed, use_cache)
            assert n == args.tokens  # the run made what it should (a bug check, not a timing assert)
            times.append(s)
        times.sort()
        p90 = times[min(len(times) - 1, round(0.9 * (len(times) - 1)))]
        print(f"{'with' if use_cache else 'without'} KV cache: p50 {statistics.median(times):.3f} s, p90 {p90:.3f} s "
              f"({1000 * statistics.median(times) / args.tokens:.1f} ms a token)")


if __name__ == "__main__":
    main()
