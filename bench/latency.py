"""Latency of each API endpoint through gradio_client against a running app, next to the bare
model call (the explorer.compute.inference function in-process, same inputs).

    python3 -m bench.latency [--runs 20] [--warmup 2] [--threads N] [--url http://127.0.0.1:7860/]

Starts `python app.py` on a free port (bench/_server.py) unless --url is given. For each
endpoint and a 12-word and a 40-word input: p50/p95 of the full API call through
gradio_client (client encode, HTTP, queue, handler, figures, JSON, SSE, client decode),
p50 of the same call as two plain HTTP requests (POST /gradio_api/call/<api>, then read its
event stream: the server's share without gradio_client's 50 ms polling), p50/p95 of the bare
forward (the explorer.compute.inference function in this process), the API/forward ratio and the
response size. The three are interleaved run by run, so a busy shared machine slows them
alike. Target: p50 <= 150 ms for the 12-word input on every endpoint on a 2-vCPU
machine (judged on the gradio_client p50). Prints figures; asserts nothing.
"""
from __future__ import annotations

import argparse
import json
import os
import secrets
import statistics
import time
import urllib.request

from bench._server import start_app, stop


TARGET_P50_MS = 150.0

# Sentences written for this benchmark: 12 and 40 words (whitespace-separated, punctuation apart).
TEXT_12 = "The young doctor walked to the old station after work every day ."
MASK_12 = TEXT_12.replace("old station", "old [MASK]")
TEXT_40 = ("When the long summer rain finally stopped , the three children ran out into the wet garden , laughing "
           "loudly as their tired mother called them back for dinner , but nobody listened because the evening "
           "sky was bright and clear once again .")
MASK_40 = TEXT_40.replace("wet garden", "wet [MASK]")
NSP_12 = ("The young doctor walked to the station .", "She took the evening train .")  # 7 + 5 words
NSP_40 = ("When the long summer rain finally stopped , the three children ran out into the wet garden , laughing "
          "loudly as their mother called them back .",
          "But nobody listened to her because the evening sky was bright again and the birds sang .")  # 24 + 16 words


def cases():
    """(endpoint label, words, api_name, api args, forward fn)."""
    from explorer.compute import inference as inf
    out = []
    for words, text, masked, pair in ((12, TEXT_12, MASK_12, NSP_12), (40, TEXT_40, MASK_40, NSP_40)):
        out += [
            ("/translate transformer-en-fr greedy", words, "/translate", (text, "transformer-en-fr", 1),
             lambda t=text: inf.translate("transformer-en-fr", t, 1)),
            ("/translate seq2seq-additive", words, "/translate", (text, "seq2seq-additive", 1),
             lambda t=text: inf.translate("seq2seq-additive", t, 1)),
            ("/fill_mask top-5", words, "/fill_mask", (masked, 5), lambda t=masked: inf.fill_mask(t, 5)),
            ("/nsp", words, "/nsp", pair, lambda p=pair: inf.nsp(*p)),
        ]
    return out


def check_word_counts():
    for text, n in ((TEXT_12, 12), (TEXT_40, 40), (MASK_12, 12), (MASK_40, 40),
                    (" ".join(NSP_12), 12), (" ".join(NSP_40), 40)):
        words = [w for w in text.split() if any(c.isalnum() or c == "[" for c in w)]
        assert len(words) == n, (len(words), n, text)


def pct(xs: list[float], p: float) -> float:
    """Nearest-rank percentile (p in 0..100) of a small sample."""
    s = sorted(xs)
    return s[min(len(s) - 1, max(0, round(p / 100 * len(s) + 0.5) - 1))]


def time_calls(fn, runs: int, warmup: int) -> list[float]:
    for _ in range(warmup):
        fn()
    out = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t0) * 1000)
    return out


def http_call(url: str, api_name: str, params, session: str | None = None) -> str:
    """The call as plain HTTP: POST the inputs, then read the event stream to its end. `session`: a session hash to
    send (none: Gradio counts the call by its address)."""
    body = {"data": list(params), **({"session_hash": session} if session else {})}
    req = urllib.request.Request(f"{url.rstrip('/')}/gradio_api/call{api_name}", method="POST",
                                 data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=60) as r:
        event_id = json.load(r)["event_id"]
    with urllib.request.urlopen(f"{url.rstrip('/')}/gradio_api/call{api_name}/{event_id}", timeout=60) as r:
        body = r.read().decode("utf-8")
    if "event: complete" not in body:
        raise RuntimeError(f"{api_name}: {body[:300]}")
    return body


def session_call(url: str, api_name: str, params) -> str:
    """`http_call` as a session of its own, as a new visitor's call is: ui/limits.py rate-limits a session, and calls
    without one by their address (every call of a bench comes from 127.0.0.1), to 5 a second after a burst of 60."""
    return http_call(url, api_name, params, session=secrets.token_hex(8))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=20, help="timed repeats per row (after the warm-ups)")
    ap.add_argument("--warmup", type=int, default=2)
    ap.add_argument("--threads", type=int, help="torch threads for the app (ATTN_EXPLORER_TORCH_THREADS) and the bare "
                                                "forward (default: the app's 1, torch's default for the bare forward)")
    ap.add_argument("--url", help="an app that is already running (default: start one)")
    args = ap.parse_args()
    check_word_counts()

    import torch
    from gradio_client import Client

    from explorer.compute import inference as inf
    if args.threads:
        torch.set_num_threads(args.threads)
    inf.registry()  # load before the app starts, so the two never load at once
    proc = None
    if args.url:
        url = args.url
    else:
        env = {"ATTN_EXPLORER_TORCH_THREADS": str(args.threads)} if args.threads else None
        proc, url, seconds = start_app(env=env)
        print(f"app started in {seconds:.1f} s at {url}")
    rows = []
    try:
        client = Client(url, verbose=False, download_files=False, analytics_enabled=False)
        for label, words, name, params, forward in cases():
            def api_call():
                return client.predict(*params, api_name=name)
            def raw_call():
                return http_call(url, name, params)
            for _ in range(args.warmup):
                api_call(), raw_call(), forward()
            api, raw, fwd = [], [], []
            for _ in range(args.runs):  # interleaved, so that all three see the same load on a shared machine
                api += time_calls(api_call, 1, 0)
                raw += time_calls(raw_call, 1, 0)
                fwd += time_calls(forward, 1, 0)
            kb = len(raw_call().encode()) / 1024
            rows.append((label, words, pct(api, 50), pct(api, 95), pct(raw, 50), pct(fwd, 50), pct(fwd, 95), kb))
    finally:
        if proc is not None:
            stop(proc)

    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"\nlatency in ms, {args.runs} runs after {args.warmup} warm-ups; {os.cpu_count()} CPUs, load average "
          f"{load}; torch threads: {torch.get_num_threads()} (bare forward), "
          f"{'its own' if args.url else args.threads or 1} (app)")
    print("API = gradio_client.predict on loopback; HTTP = the same call as plain POST + event stream; "
          "fwd = explorer.compute.inference in-process; resp kB = the event stream's size")
    head = (f"{'endpoint':<38}{'words':>6}{'API p50':>9}{'API p95':>9}{'HTTP p50':>9}{'fwd p50':>9}{'fwd p95':>9}"
            f"{'API/fwd':>9}{'resp kB':>9}  API p50 <= {TARGET_P50_MS:.0f} ms?")
    print(head)
    print("-" * len(head))
    for label, words, a50, a95, h50, f50, f95, kb in rows:
        verdict = ("yes" if a50 <= TARGET_P50_MS else "NO") if words == 12 else "(40 words: no target)"
        print(f"{label:<38}{words:>6}{a50:>9.1f}{a95:>9.1f}{h50:>9.1f}{f50:>9.1f}{f95:>9.1f}{a50 / f50:>8.1f}x"
              f"{kb:>9.0f}  {verdict}")
    met = [a50 <= TARGET_P50_MS for _, w, a50, *_ in rows if w == 12]
    print(f"\ntarget p50 <= {TARGET_P50_MS:.0f} ms for 12 words: met on {sum(met)}/{len(met)} endpoints; "
          f"median API/forward ratio {statistics.median(r[2] / r[5] for r in rows):.1f}x")


if __name__ == "__main__":
    main()
