"""What the first screens cost once the app is up: time and resident memory, in-process (ui/first_screen.py).

    python3 -m bench.first_screens [--langs en ko]

Builds the app as `python app.py` does (its models are read when first used), then has the app's own
background thread compute the first screen of the tab the page opens on (a first visit: its model read and
run), then every tab's in each language (the warming a first visit starts), and prints the resident memory
after each stage, its peak (sampled every 20 ms), the seconds and which checkpoints were read by then. One
torch thread, as the app runs. Prints figures; asserts nothing.
"""
from __future__ import annotations

import argparse
import ctypes
import gc
import os
import threading
import time

import psutil

from ui.boot import lean_gradio


class Peak(threading.Thread):
    def __init__(self):
        super().__init__(daemon=True)
        self.peak, self.done = 0, threading.Event()

    def run(self):
        p = psutil.Process()
        while not self.done.is_set():
            self.peak = max(self.peak, p.memory_info().rss)
            time.sleep(0.02)


def mib() -> float:
    return psutil.Process().memory_info().rss / 2**20


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--langs", nargs="+", default=["en", "ko"], choices=["en", "ko"])
    args = ap.parse_args()
    os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")
    lean_gradio()  # as app.py's main guard does, before any thread starts
    peak = Peak()
    peak.start()
    t0 = time.perf_counter()
    import torch
    torch.set_num_threads(1)
    import app
    from explorer.compute import inference as inf

    first = app.demo.first_screens
    reg = inf.registry()

    def loaded():
        return [n for n, c in reg.models.items() if getattr(c, "loaded", True)]

    def stage(label, t):
        print(f"{label:<34} {time.perf_counter() - t:7.2f} s {mib():7.0f} MiB  models read: "
              f"{', '.join(loaded()) or 'none'}", flush=True)

    def wait():  # every screen asked for so far, computed by the app's own background thread
        while not all(f.done() for f in list(first._done.values())):
            time.sleep(0.01)
        time.sleep(0.2)  # its clean-up once the queue is empty (gc, malloc_trim)

    stage("app built (import app)", t0)
    t = time.perf_counter()
    for entry in (e for e in first.entries if e.block is first.opening):
        first._future(entry, "en", priority=0)  # what a first visit's page load asks for
    wait()
    stage("first screen of the opening tab (en)", t)
    for lang in args.langs:
        t = time.perf_counter()
        first.warm([lang])  # what the first visit then starts: every tab, in page order
        wait()
        stage(f"every first screen ({lang})", t)
    empty = [f"{e.tab} ({lang})" for (i, lang), f in first._done.items() for e in [first.entries[i]]
             if not f.result()]
    print(f"screens computed: {sum(1 for f in first._done.values() if f.result())}; empty: {', '.join(empty) or 'none'}")
    gc.collect()
    ctypes.CDLL("libc.so.6").malloc_trim(0)
    stage("gc + malloc_trim", time.perf_counter())
    peak.done.set()
    peak.join()
    print(f"peak RSS {peak.peak / 2**20:.0f} MiB over {time.perf_counter() - t0:.1f} s")


if __name__ == "__main__":
    main()
