"""A paragraph sent to each API endpoint: seconds per call through gradio_client, the response's
size, and the app's resident memory afterwards; then, in-process, the BERT tab and the rollout view
on the same paragraph: seconds and the size of the figures' JSON that Gradio sends to the browser.

    python3 -m bench.long_input [--words 500] [--runs 2] [--url URL]

The paragraph is cut by the app to 2,000 characters and then to the model's tokens (BERT: 256;
translation: 64 source subwords), so it is the largest input any user can send. A call that holds
a worker for tens of seconds holds up everyone queued behind it (2 workers, docs/performance.md).
"""
from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from bench._server import start_app, stop

# Written for this benchmark; repeated to the word count asked for.
SENTENCE = "The quick brown fox jumps over the lazy dog while the old cat sleeps by the warm kitchen fire ."


def paragraph(words: int) -> str:
    base = SENTENCE.split()
    return " ".join(base[i % len(base)] for i in range(words))


def rss_mib(pid: int) -> float:
    """Resident memory of a process (Linux /proc), MiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--words", type=int, default=500)
    ap.add_argument("--runs", type=int, default=2, help="timed calls per endpoint (after one warm-up)")
    ap.add_argument("--url", help="an app that is already running (default: start one; memory is read only then)")
    args = ap.parse_args()
    from gradio_client import Client

    text = paragraph(args.words)
    proc = None
    if args.url:
        url = args.url
    else:
        proc, url, seconds = start_app()
        print(f"app started in {seconds:.1f} s at {url}")
    client = Client(url, verbose=False)
    calls = [("/translate transformer-en-fr", "/translate", (text, "transformer-en-fr", 1)),
             ("/fill_mask", "/fill_mask", ("[MASK] " + text, 5)),
             ("/nsp", "/nsp", (text, text))]
    try:
        if proc:
            print(f"app RSS before: {rss_mib(proc.pid):.0f} MiB")
        print(f"{args.words} words; {args.runs} timed calls each after a warm-up")
        print(f"{'endpoint':30} {'p50 s':>8} {'max s':>8} {'JSON kB':>9} {'per-head trace':>15} {'RSS MiB':>8}")
        for label, api, params in calls:
            client.predict(*params, api_name=api)
            times = []
            for _ in range(args.runs):
                t0 = time.perf_counter()
                out = client.predict(*params, api_name=api)
                times.append(time.perf_counter() - t0)
            record = out[-1]
            kb = len(json.dumps(record)) / 1024
            att = record.get("attention") or {}
            sent = "yes" if any(v is not None for v in att.values()) else "left out"
            rss = f"{rss_mib(proc.pid):.0f}" if proc else "-"
            print(f"{label:30} {statistics.median(times):8.2f} {max(times):8.2f} {kb:9.0f} {sent:>15} {rss:>8}",
                  flush=True)
    finally:
        if proc:
            stop(proc)
    views(text, args.runs)


def views(text: str, runs: int):
    """The UI side, in-process (one torch thread, as the app): what a press of the button costs."""
    import plotly.graph_objects as go
    import torch

    from explorer.views import bert as bert_views
    from explorer.views import rollout as v_rollout

    torch.set_num_threads(1)
    cases = [("BERT tab, Fill [MASK]", lambda: bert_views.bert_fill_view("[MASK] " + text, "", 5)),
             ("Inside attention: rollout", lambda: v_rollout.rollout_view(text, "bert"))]
    print(f"\n{'view (in-process)':30} {'p50 s':>8} {'figures MB':>11}")
    for label, call in cases:
        call()
        times = []
        for _ in range(runs):
            t0 = time.perf_counter()
            v = call()
            times.append(time.perf_counter() - t0)
        figs = [x for x in vars(v).values() if isinstance(x, go.Figure)]
        figs += [x for sub in vars(v).values() if hasattr(sub, "__dataclass_fields__")
                 for x in vars(sub).values() if isinstance(x, go.Figure)]
        mb = sum(len(f.to_json()) for f in figs) / 1e6
        print(f"{label:30} {statistics.median(times):8.2f} {mb:11.1f}", flush=True)


if __name__ == "__main__":
    main()
