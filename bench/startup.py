"""Seconds from `python app.py` to the first HTTP 200, and peak RSS until `--settle` seconds later.

    python3 -m bench.startup [--runs 3]

By then every checkpoint under assets/ has been opened and checked (config, tokenizer, metrics, the weight
files' headers); a model's weights are read at its first use (explorer.compute.inference.registry). What the first
visit then costs (its tab's model and first screen, every other tab's, the memory once all are drawn):
bench/first_screens.py. Targets (issues 5, 33): <= 10 s and <= 700 MB on a 2-vCPU machine. Prints
figures; asserts nothing.
"""
from __future__ import annotations

import argparse
import statistics
import threading
import time

import psutil

from bench._server import start_app, stop


class PeakRSS(threading.Thread):
    """Samples the resident memory of a process (and its children) every 20 ms."""

    def __init__(self):
        super().__init__(daemon=True)
        self.pid, self.peak, self.done = None, 0, threading.Event()

    def run(self):
        while self.pid is None and not self.done.is_set():
            time.sleep(0.002)
        try:
            p = psutil.Process(self.pid)
            while not self.done.is_set():
                rss = p.memory_info().rss + sum(c.memory_info().rss for c in p.children(recursive=True))
                self.peak = max(self.peak, rss)
                time.sleep(0.02)
        except (psutil.NoSuchProcess, TypeError):
            pass


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--settle", type=float, default=2.0, help="seconds to keep sampling RSS after the first 200")
    args = ap.parse_args()
    times, peaks = [], []
    for i in range(args.runs):
        sampler = PeakRSS()
        sampler.start()
        proc, _, seconds = start_app(on_spawn=lambda pid: setattr(sampler, "pid", pid))
        time.sleep(args.settle)
        sampler.done.set()
        sampler.join()
        stop(proc)
        times.append(seconds)
        peaks.append(sampler.peak / 2**20)
        print(f"run {i + 1}: first HTTP 200 after {seconds:.2f} s, peak RSS {peaks[-1]:.0f} MiB")
    print(f"startup: median {statistics.median(times):.2f} s (target <= 10 s); "
          f"peak RSS: max {max(peaks):.0f} MiB (target <= 700 MB = 668 MiB)")


if __name__ == "__main__":
    main()
