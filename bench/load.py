"""Load test: many concurrent gradio_client users against one app on loopback, or against N replicas behind nginx.

    python3 -m bench.load [--clients 40] [--requests 10] [--timeout 300] [--threads N] [--url URL]
    python3 -m bench.load --replicas 2      # the same load through deploy/replicas.py's nginx

Each client (a thread with its own gradio_client.Client) sends `--requests` requests, a
seeded mix of /translate (transformer-en-fr greedy, seq2seq-additive), /fill_mask and /nsp,
one after the other; all clients start together. Every request's sentence is its own (12 words, bench/classroom.py's
own_sentence): identical requests would be answered from the shared results (explorer/serve/results.py) after the first,
and this bench measures the work. Reports errors (target 0), p50/p95/p99 latency per request, requests per second,
and the app's (or all replicas') peak resident memory. A global timeout bounds the run: when it
expires, what finished is reported and the process stops by itself (unfinished requests are
counted as such). Prints figures; asserts nothing.
"""
from __future__ import annotations

import argparse
import collections
import contextlib
import os
import random
import sys
import threading
import time

from bench._server import start_app, stop
from bench.classroom import PATIENCE, own_sentence, peak_rss_mib
from bench.latency import pct
from deploy.processes import free_port
from deploy.replicas import serve


def masked(rng: random.Random) -> str:
    """A 12-word sentence with one of its words (not the last, the full stop's) as [MASK]."""
    words = own_sentence(rng).split()
    words[rng.randrange(len(words) - 1)] = "[MASK]"
    return " ".join(words)


REQUESTS = [  # (label, api_name, args from a seeded generator): 12 words each, different every time
    ("translate transformer-en-fr", "/translate", lambda rng: (own_sentence(rng), "transformer-en-fr", 1)),
    ("translate seq2seq-additive", "/translate", lambda rng: (own_sentence(rng), "seq2seq-additive", 1)),
    ("fill_mask", "/fill_mask", lambda rng: (masked(rng), 5)),
    ("nsp", "/nsp", lambda rng: (own_sentence(rng), own_sentence(rng))),
]


class Run:
    """Shared, lock-protected results of every client thread."""

    def __init__(self):
        self.lock = threading.Lock()
        self.latencies: dict[str, list[float]] = collections.defaultdict(list)  # label -> seconds
        self.errors: collections.Counter = collections.Counter()

    def done(self, label, t0, t1, error=None):
        with self.lock:
            if error is None:
                self.latencies[label].append(t1 - t0)
            else:
                self.errors[f"{label}: {error}"] += 1


def client_thread(i, url, n, start, deadline, run: Run, ready: threading.Barrier):
    from gradio_client import Client
    try:
        client = Client(url, verbose=False, download_files=False, analytics_enabled=False,
                        httpx_kwargs=PATIENCE)
    except Exception as e:  # counted, and the barrier must not wait for this thread forever
        with run.lock:
            run.errors[f"client setup: {type(e).__name__}: {str(e)[:120]}"] += n
        ready.abort()
        return
    try:
        ready.wait(timeout=max(1.0, deadline - time.monotonic()))
    except threading.BrokenBarrierError:
        pass
    start.wait()
    rng = random.Random(i)
    for _ in range(n):
        left = deadline - time.monotonic()
        if left <= 0:
            return
        label, api_name, make = rng.choice(REQUESTS)
        args = make(rng)
        t0 = time.perf_counter()
        try:
            client.submit(*args, api_name=api_name).result(timeout=left)
            run.done(label, t0, time.perf_counter())
        except Exception as e:  # an error response, a timeout or a dropped connection
            if time.monotonic() >= deadline:
                return  # the run is over; unfinished requests are reported as such
            run.done(label, t0, time.perf_counter(), f"{type(e).__name__}: {str(e)[:120]}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--clients", type=int, default=40)
    ap.add_argument("--requests", type=int, default=10, help="requests per client")
    ap.add_argument("--timeout", type=float, default=300.0, help="global limit in seconds, setup included")
    ap.add_argument("--threads", type=int,
                    help="torch threads for the app (ATTN_EXPLORER_TORCH_THREADS; default: the app's 1)")
    ap.add_argument("--url", help="an app that is already running (default: start one)")
    ap.add_argument("--replicas", type=int, help="start this many replicas behind nginx (deploy/replicas.py)")
    args = ap.parse_args()
    env = {"ATTN_EXPLORER_TORCH_THREADS": str(args.threads)} if args.threads else None
    with contextlib.ExitStack() as stack:
        if args.url:
            url, procs = args.url, []
        elif args.replicas:
            t0 = time.perf_counter()
            d = stack.enter_context(serve(args.replicas, free_port(), env=env))
            url, procs, direct = d.url, d.procs, [f"http://{r}/" for r in d.replicas]
            print(f"{args.replicas} replicas behind nginx started in {time.perf_counter() - t0:.1f} s at {url}")
        else:
            proc, url, seconds = start_app(env=env)
            stack.callback(stop, proc)
            procs, direct = [proc], [url]
            print(f"app started in {seconds:.1f} s at {url}")
        for u in direct if not args.url else []:
            warm(u)
        timed_out = run_load(args, url, procs)
    if timed_out:
        os._exit(0)  # client threads still blocked in HTTP reads: don't wait for them


def warm(url: str) -> None:
    """Each kind of request once on its own inputs: every model is read at its first use, not at start."""
    from gradio_client import Client

    client = Client(url, verbose=False, download_files=False, analytics_enabled=False, httpx_kwargs=PATIENCE)
    rng = random.Random(-1)
    for _, api_name, make in REQUESTS:
        client.predict(*make(rng), api_name=api_name)


def run_load(args, url: str, procs: list) -> bool:
    """The clients against `url`, then the report; `procs`: the app's processes, for their peak memory. True when
    the global timeout cut the run short."""
    deadline = time.monotonic() + args.timeout
    run, start = Run(), threading.Event()
    ready = threading.Barrier(args.clients + 1)
    threads = [threading.Thread(target=client_thread, daemon=True,
                                args=(i, url, args.requests, start, deadline, run, ready))
               for i in range(args.clients)]
    try:
        t_setup = time.perf_counter()
        for t in threads:
            t.start()
        try:
            ready.wait(timeout=max(1.0, deadline - time.monotonic()))
        except threading.BrokenBarrierError:
            pass
        print(f"{args.clients} clients connected in {time.perf_counter() - t_setup:.1f} s; "
              f"{args.clients} x {args.requests} requests start now")
        t_start = time.perf_counter()
        start.set()
        for t in threads:
            t.join(timeout=max(0.0, deadline - time.monotonic()))
        t_end = time.perf_counter()  # the last client finished, or the deadline passed
        timed_out = any(t.is_alive() for t in threads)
    finally:
        rss = [peak_rss_mib(p.pid) for p in procs]

    ok = sum(len(v) for v in run.latencies.values())
    failed = sum(run.errors.values())
    total = args.clients * args.requests
    wall = t_end - t_start
    all_ms = [x * 1000 for v in run.latencies.values() for x in v]
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"\nload: {args.clients} concurrent clients x {args.requests} mixed requests on loopback "
          f"(global timeout {args.timeout:.0f} s{', HIT' if timed_out else ''}); {os.cpu_count()} CPUs, "
          f"load average {load}{f'; app torch threads {args.threads}' if args.threads else ''}")
    print(f"completed {ok}/{total}, errors {failed} (target 0), unfinished {total - ok - failed}; "
          f"{ok / wall:.2f} requests/s over {wall:.1f} s")
    if rss:
        print(f"peak resident memory: {' + '.join(f'{r:.0f}' for r in rss)} MiB"
              f"{f' = {sum(rss):.0f} MiB' if len(rss) > 1 else ''}")
    head = f"{'request':<30}{'n':>5}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}"
    print(head)
    print("-" * len(head))
    for label, *_ in REQUESTS + [("all", None, None)]:
        xs = all_ms if label == "all" else [x * 1000 for x in run.latencies.get(label, [])]
        if xs:
            print(f"{label:<30}{len(xs):>5}{pct(xs, 50):>9.0f}{pct(xs, 95):>9.0f}{pct(xs, 99):>9.0f}")
    for msg, n in run.errors.most_common(10):
        print(f"error x{n}: {msg}")
    sys.stdout.flush()
    return timed_out


if __name__ == "__main__":
    main()
