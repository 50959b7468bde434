"""Oversized requests against `python app.py` over real HTTP (what a public Space must survive).

    python3 -m bench.limits                 # 20 MB /translate body (declared and chunked), 5 MB upload, a flood
    python3 -m bench.limits --mb 100        # a 100 MB body
    python3 -m bench.limits --clients 20    # 20 pages pressing Show rollout; another visitor's /translate timed

Prints, per request: the status, the seconds until the answer (for a body that was accepted: until its
event's result), how much of the body was sent before the server answered, and the server's resident memory
before and after. Target: a 20 MB body refused in <= 1 s with the server growing <= 10 MB; a 5 MB upload
refused. Then a flood: one session joins /translate --flood times at once (40 words, beam 8), and another
visitor's 12-word /translate is timed against one such event alone (target: delayed by at most about one
event). No timed asserts: the figures are for docs/reliability.md.

It starts the app as a process (bench/_server.py) and never imports the UI, so the queue's limits are measured
only with the app's own events. The queue alone, a Blocks of 0.5 s events served without and with ui/limits.py,
is a test's to build (tests/e2e/test_cheap_first.py serves such a Blocks over HTTP): a bench serving one would
import gradio and ui/.
"""
from __future__ import annotations

import argparse
import functools
import json
import select
import socket
import time
from pathlib import Path
from urllib.parse import urlsplit


CHUNK = 64 * 1024


def post_raw(url: str, path: str, nbytes: int, chunked: bool = False, prefix: bytes = b'{"data": ["',
             suffix: bytes = b'", "transformer-en-fr", 1, ""]}', content_type: str = "application/json",
             timeout: float = 120.0) -> dict:
    """POST a body of about `nbytes` (prefix + filler + suffix) over a plain socket, as a client that keeps
    sending until the server answers or closes. Returns status, body (text), seconds until the answer and
    the bytes of body sent by then. A server that answers before reading the body stops the upload early."""
    u = urlsplit(url)
    filler = nbytes - len(prefix) - len(suffix)
    s = socket.create_connection((u.hostname, u.port), timeout=timeout)
    head = (f"POST {path} HTTP/1.1\r\nHost: {u.hostname}:{u.port}\r\nContent-Type: {content_type}\r\n"
            + ("Transfer-Encoding: chunked\r\n" if chunked else f"Content-Length: {nbytes}\r\n")
            + "Connection: close\r\n\r\n").encode()
    t0 = time.perf_counter()
    s.sendall(head)
    sent, answered = 0, False
    pieces = [prefix] + [b"a" * min(CHUNK, filler - i) for i in range(0, filler, CHUNK)] + [suffix]
    try:
        for piece in pieces:
            if select.select([s], [], [], 0)[0]:  # the server answered already
                answered = True
                break
            s.sendall(b"%x\r\n%s\r\n" % (len(piece), piece) if chunked else piece)
            sent += len(piece)
        if chunked and not answered:
            s.sendall(b"0\r\n\r\n")
    except (BrokenPipeError, ConnectionResetError):
        pass
    data = b""
    try:
        while True:
            part = s.recv(65536)
            if not part:
                break
            data += part
            if b"\r\n\r\n" in data and _complete(data):
                break
    except (ConnectionResetError, socket.timeout):
        pass
    seconds = time.perf_counter() - t0
    s.close()
    head_text, _, body = data.partition(b"\r\n\r\n")
    status = int(head_text.split(b" ")[1]) if head_text.startswith(b"HTTP/") else 0
    if b"transfer-encoding: chunked" in head_text.lower():
        body = _unchunk(body)
    return {"status": status, "body": body.decode("utf-8", "replace"), "seconds": seconds, "sent": sent}


def _complete(data: bytes) -> bool:
    head, _, body = data.partition(b"\r\n\r\n")
    for line in head.lower().split(b"\r\n"):
        if line.startswith(b"content-length:"):
            return len(body) >= int(line.split(b":")[1])
    return head.lower().find(b"transfer-encoding: chunked") >= 0 and body.endswith(b"0\r\n\r\n")


def _unchunk(body: bytes) -> bytes:
    out = b""
    while body:
        size, _, rest = body.partition(b"\r\n")
        n = int(size.split(b";")[0] or b"0", 16)
        if n == 0:
            break
        out, body = out + rest[:n], rest[n + 2:]
    return out


def multipart(nbytes: int) -> tuple[bytes, bytes, str]:
    """(prefix, suffix, content type) of a one-file multipart upload of about nbytes."""
    boundary = "benchlimitsboundary"
    prefix = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"files\"; filename=\"big.txt\"\r\n"
              "Content-Type: text/plain\r\n\r\n").encode()
    return prefix, f"\r\n--{boundary}--\r\n".encode(), f"multipart/form-data; boundary={boundary}"


def result_seconds(url: str, api: str, answer: dict, t0: float) -> float | None:
    """For an accepted /call: wait for the event's result; the seconds since t0 (None if it had no event)."""
    import urllib.request

    try:
        event_id = json.loads(answer["body"])["event_id"]
    except (ValueError, KeyError, TypeError):
        return None
    with urllib.request.urlopen(f"{url}gradio_api/call/{api}/{event_id}", timeout=600) as r:
        r.read()
    return time.perf_counter() - t0


LONG = ("The old man walked slowly along the quiet river while the children played near the bridge, and the birds "
        "sang in the tall trees above them until the sun went down behind the hills and everyone went home.")
SHORT = "The animal didn't cross the street because it was too tired today."


def padded(url: str, data: list, api: str = "translate") -> list:
    """data with "" for the endpoint's trailing optional inputs (/translate's target), which /call requires."""
    return list(data) + [""] * (_n_inputs(url, api) - len(data))


@functools.lru_cache(maxsize=None)
def _n_inputs(url: str, api: str) -> int:
    """The endpoint's number of inputs, from the app's config (read once: it is ~1 MB, not part of a call)."""
    import httpx

    config = httpx.get(f"{url}config", timeout=60).json()
    return len(next(d for d in config["dependencies"] if d.get("api_name") == api)["inputs"])


def call(url: str, data: list, session: str | None = None) -> tuple[int, float]:
    """A /call/translate and its result: (HTTP status of the call, seconds until the result or the refusal); an
    event that ended in an error raises (a failed event would time nothing)."""
    import httpx

    t0 = time.perf_counter()
    body = {"data": padded(url, data), **({"session_hash": session} if session else {})}
    r = httpx.post(f"{url}gradio_api/call/translate", json=body, timeout=600)
    if r.status_code == 200:
        with httpx.stream("GET", f"{url}gradio_api/call/translate/{r.json()['event_id']}", timeout=600) as s:
            text = "".join(s.iter_text())
        if "event: complete" not in text:
            raise RuntimeError(f"/translate did not complete: {text[:300]}")
    return r.status_code, time.perf_counter() - t0


def send(url: str, data: list, session: str) -> int:
    """A /call/translate whose result nobody reads (a flood's; Gradio runs it anyway): its HTTP status. The
    results of one session's calls share one message queue on the server, so only one reader per session."""
    import httpx

    return httpx.post(f"{url}gradio_api/call/translate", json={"data": padded(url, data), "session_hash": session},
                      timeout=600).status_code


def flood(url: str, n: int) -> None:
    """One session joins /translate n times at once; another visitor's short /translate is timed meanwhile."""
    from concurrent.futures import ThreadPoolExecutor

    heavy = [LONG, "transformer-en-fr", 8]
    _, alone_heavy = call(url, heavy, "warm")
    _, alone_short = call(url, [SHORT, "transformer-en-fr", 1], "warm")
    with ThreadPoolExecutor(n + 1) as pool:
        codes = list(pool.map(lambda _: send(url, heavy, "flood"), range(n)))  # all in the queue first
        status, visitor = call(url, [SHORT, "transformer-en-fr", 1], "visitor")
    print(f"flood: one session sent {n} /translate (40 words, beam 8; alone {alone_heavy:.2f} s): "
          f"{codes.count(200)} accepted, {len(codes) - codes.count(200)} refused ({sorted(set(codes))}); "
          f"another visitor's 12-word /translate: HTTP {status} in {visitor:.2f} s (alone {alone_short:.2f} s)")


def crowd(url: str, n: int, seconds: float) -> None:
    """n pages press the heaviest button (rollout on a 253-word paragraph, 256 tokens) again and again for
    `seconds`, each its own session over the page's route (bench/_page.py); meanwhile another visitor's 12-word
    /translate (plain HTTP, one after the other) is timed. Target: its p95 <= 2 s."""
    import os
    import threading

    from bench._page import Page, event, get_config, inputs
    from bench.latency import pct
    from bench.sessions import PARAGRAPH

    config = get_config(url)
    rollout = event(config, "Show rollout")
    data = inputs(config, rollout, {"Sentence": PARAGRAPH})
    short = [SHORT, "transformer-en-fr", 1]
    warm = Page(url)
    t0 = time.perf_counter()
    warm.run(rollout, data)
    alone_heavy = time.perf_counter() - t0
    warm.close()
    alone = sorted(call(url, short, "alone")[1] for _ in range(5))
    stop_at, done, errors = time.monotonic() + seconds, [], []

    def press():
        page = Page(url)
        try:
            while time.monotonic() < stop_at:
                try:
                    page.run(rollout, data)
                    done.append(1)
                except RuntimeError as e:  # a refusal (429/503) or an error: counted, and the page presses again
                    errors.append(str(e)[:120])
                    time.sleep(1.0)
        finally:
            page.close()

    threads = [threading.Thread(target=press, daemon=True) for _ in range(n)]
    for t in threads:
        t.start()
    time.sleep(min(5.0, seconds / 4))  # the queue fills
    waits = []
    while time.monotonic() < stop_at:
        waits.append(call(url, short, "visitor")[1])
    for t in threads:
        t.join()
    print(f"crowd: {n} pages pressing Show rollout (256 tokens; alone {alone_heavy:.2f} s) for {seconds:.0f} s: "
          f"{len(done)} done, {len(errors)} refused or failed{' (' + errors[0] + ')' if errors else ''}; another "
          f"visitor's 12-word /translate x{len(waits)}: p50 {pct(waits, 50):.2f} s, p95 {pct(waits, 95):.2f} s, "
          f"max {max(waits):.2f} s (alone p50 {alone[2]:.2f} s); target p95 <= 2 s; load "
          f"{', '.join(f'{x:.1f}' for x in os.getloadavg())}")


def main(argv=None) -> None:
    import psutil

    from bench._server import start_app, stop

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mb", type=float, default=20.0, help="size of the /translate body, MB (default 20)")
    ap.add_argument("--upload-mb", type=float, default=5.0, help="size of the upload, MB (default 5)")
    ap.add_argument("--flood", type=int, default=30, help="events one session sends at once (0: no flood)")
    ap.add_argument("--clients", type=int, default=0, help="pages pressing Show rollout at once (0: none; "
                                                            "e.g. 20); only this and the flood are run")
    ap.add_argument("--seconds", type=float, default=60.0, help="how long the --clients press (default 60)")
    ap.add_argument("--root", type=Path, help="another checkout's app.py (e.g. `git archive` of a commit before)")
    args = ap.parse_args(argv)
    proc, url = start_app(cwd=args.root)[:2]
    try:
        server = psutil.Process(proc.pid)
        rss = lambda: server.memory_info().rss / 2**20  # noqa: E731
        time.sleep(1.0)
        if args.clients:
            crowd(url, args.clients, args.seconds)
            if args.flood:
                flood(url, args.flood)
            return
        print(f"server at start: {rss():.0f} MiB")
        n = int(args.mb * 1e6)
        for chunked in (False, True):
            before = rss()
            t0 = time.perf_counter()
            a = post_raw(url, "/gradio_api/call/translate", n, chunked=chunked)
            done = result_seconds(url, "translate", a, t0) if a["status"] == 200 else None
            time.sleep(0.5)
            how = "chunked" if chunked else "Content-Length"
            print(f"{args.mb:g} MB /translate ({how}): HTTP {a['status']} in {a['seconds']:.3f} s"
                  + (f" (result after {done:.1f} s)" if done else "")
                  + f", {a['sent'] / 1e6:.2f} MB sent, server {before:.0f} -> {rss():.0f} MiB"
                  f" ({rss() - before:+.1f}); answer: {a['body'][:110]!r}")
        prefix, suffix, ctype = multipart(int(args.upload_mb * 1e6))
        before = rss()
        a = post_raw(url, "/gradio_api/upload", int(args.upload_mb * 1e6), prefix=prefix, suffix=suffix,
                     content_type=ctype)
        time.sleep(0.5)
        print(f"{args.upload_mb:g} MB upload: HTTP {a['status']} in {a['seconds']:.3f} s, {a['sent'] / 1e6:.2f} MB "
              f"sent, server {before:.0f} -> {rss():.0f} MiB; answer: {a['body'][:110]!r}")
        if args.flood:
            flood(url, args.flood)
    finally:
        stop(proc)


if __name__ == "__main__":
    main()
