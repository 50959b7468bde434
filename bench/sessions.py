"""Server memory of many sessions against `python app.py` over real HTTP (what a visitor's records cost it).

    python3 -m bench.sessions                              # both parts; records kept the app's 600 s
    python3 -m bench.sessions --pages 0                    # only the plain-HTTP /fill_mask calls
    python3 -m bench.sessions --calls 0 --ttl 120 --wait 300   # 8 pages, records' time to live shortened to 120 s

1. `--calls` plain-HTTP /fill_mask calls (POST /gradio_api/call/fill_mask, then its event stream: each call is
   its own session) on a 253-word paragraph (cut to BERT's 256 tokens), one after the other. Target: the server
   grows <= 50 MB.
2. `--pages` pages at once, each a session with its heartbeat stream open (what a browser tab keeps), pressing
   the BERT tab's "Fill [MASK]" and then the rollout tab's "Show rollout" on that paragraph (the page's route,
   /gradio_api/queue/join by fn_index, and its /queue/data stream; no browser), then closed (heartbeats end).
   The server's resident memory is printed every `--every` seconds for `--wait` seconds after. Target: back
   within 100 MB of the start in 5 minutes. The records live in explorer/serve/cache.py's caches, dropped `ttl`
   after their last use (ATTN_EXPLORER_RECORD_TTL_S, 600 s by default; `--ttl` sets it for this app).

The start is measured after one warm-up of each event on a short sentence (models are read at their first use).
Prints figures; asserts nothing.
"""
from __future__ import annotations

import argparse
import os
import threading
import time

from bench._page import Page, event, get_config, inputs
from bench._server import start_app, stop


PARAGRAPH = (
    "The old harbour town wakes slowly in the early morning , when the fishing boats come back with the night's "
    "catch and the gulls circle above the market . Traders open their stalls along the stone quay , and the smell "
    "of fresh bread drifts from the small bakery near the church . Children walk to school in pairs , carrying "
    "heavy bags and talking about the football match of the evening before . By nine o'clock the streets are full "
    "of visitors who came on the first train from the city , looking for a quiet day by the sea . Some of them "
    "climb the hill to the lighthouse , where an old keeper still tells stories about the great storm that broke "
    "the pier many years ago . Others sit in the cafes and watch the water change colour as the clouds move across "
    "the bay . At noon the church bell rings and the market closes , and the fishermen mend their nets in the shade "
    "of the warehouses . In the afternoon the wind rises , and small sailing boats race between the rocks at the "
    "mouth of the harbour while their families cheer from the beach . When the sun goes down the visitors return to "
    "the station , and the town grows quiet again . Nobody who lives here would ever want to live anywhere else , "
    "they say , and most of them never leave . Only the sound of the waves and a few voices from the harbour "
    "remain , until the boats go out once more before dawn and the whole day begins again .")
MASKED = PARAGRAPH.replace("the market closes", "the [MASK] closes")
SHORT = "The old man walked to the [MASK] after work ."


def words(text: str) -> int:
    return sum(any(c.isalnum() for c in w) for w in text.split())


def load() -> str:
    return ", ".join(f"{x:.1f}" for x in os.getloadavg())


def fill_mask_calls(url: str, n: int, rss) -> None:
    from bench.latency import session_call

    for _ in range(2):
        session_call(url, "/fill_mask", (MASKED, 5))
    time.sleep(1.0)
    start = rss()
    t0 = time.perf_counter()
    for _ in range(n):
        session_call(url, "/fill_mask", (MASKED, 5))
    seconds = time.perf_counter() - t0
    time.sleep(1.0)
    end = rss()
    print(f"{n} plain-HTTP /fill_mask calls ({words(MASKED)} words, each its own session) in {seconds:.1f} s: "
          f"server {start:.0f} -> {end:.0f} MiB ({end - start:+.1f} MiB; target <= 50 MB); load {load()}")


def pages(url: str, n: int, wait: float, every: float, rss) -> None:
    config = get_config(url)
    fill, rollout = event(config, "Fill [MASK]"), event(config, "Show rollout")

    def visit(text: str, masked: str, out: list | None = None) -> Page:
        page = Page(url)
        page.run(fill, inputs(config, fill, {"Sentence A": masked, "Sentence B (optional for fill-mask)": ""}))
        page.run(rollout, inputs(config, rollout, {"Sentence": text}))
        if out is not None:
            out.append(page)
        return page

    visit(SHORT.replace("[MASK]", "station"), SHORT).close()  # models read, first-call buffers made
    time.sleep(2.0)
    start = rss()
    opened: list[Page] = []
    errors: list[str] = []

    def one():
        try:
            visit(PARAGRAPH, MASKED, opened)
        except Exception as e:  # noqa: BLE001 - counted and printed
            errors.append(f"{type(e).__name__}: {str(e)[:160]}")

    t0 = time.perf_counter()
    threads = [threading.Thread(target=one) for _ in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print(f"{n} pages, each Fill [MASK] then Show rollout on {words(PARAGRAPH)} words (256 tokens), at once: "
          f"{time.perf_counter() - t0:.1f} s, {len(errors)} errors{': ' + errors[0] if errors else ''}; "
          f"server {start:.0f} -> {rss():.0f} MiB ({rss() - start:+.0f}); load {load()}")
    for page in opened:
        page.close()
    t_closed = time.perf_counter()
    print(f"{'s after closing':>16}{'server MiB':>12}{'vs start':>10}  load")
    while True:
        now = time.perf_counter() - t_closed
        print(f"{now:16.0f}{rss():12.0f}{rss() - start:+10.0f}  {load()}", flush=True)
        if now >= wait:
            break
        time.sleep(min(every, max(0.0, wait - now)))
    print(f"after {wait:.0f} s: {rss() - start:+.0f} MiB against the start (target: within 100 MB in 300 s)")


def main(argv=None) -> None:
    import psutil

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--calls", type=int, default=40, help="plain-HTTP /fill_mask calls (0: none)")
    ap.add_argument("--pages", type=int, default=8, help="pages running BERT + rollout at once (0: none)")
    ap.add_argument("--ttl", type=float, help="the records' time to live in the app, seconds "
                                              "(ATTN_EXPLORER_RECORD_TTL_S; default: the app's 600)")
    ap.add_argument("--wait", type=float, default=720.0, help="seconds to follow memory after the pages close")
    ap.add_argument("--every", type=float, default=30.0, help="seconds between two readings")
    args = ap.parse_args(argv)
    env = {"ATTN_EXPLORER_RECORD_TTL_S": str(int(args.ttl))} if args.ttl else None
    proc, url, seconds = start_app(env=env)
    try:
        server = psutil.Process(proc.pid)
        rss = lambda: server.memory_info().rss / 2**20  # noqa: E731
        print(f"app started in {seconds:.1f} s ({rss():.0f} MiB); records' time to live: "
              f"{int(args.ttl) if args.ttl else 'the default 600'} s; {os.cpu_count()} CPUs, load {load()}")
        if args.calls:
            fill_mask_calls(url, args.calls, rss)
        if args.pages:
            pages(url, args.pages, args.wait, args.every, rss)
    finally:
        stop(proc)


if __name__ == "__main__":
    main()
