"""The hostile-traffic review replayed against `python app.py` on a free local port, bounded in count and time.

For each attack: how the server answered (status codes counted), a victim's 12-word /translate meanwhile (plain
HTTP from another loopback address, 127.0.0.2, so the per-address caps see two visitors), and the server's
resident memory, CPU time and log growth. Figures only: nothing here asserts (tests/ui/test_hostile_http.py pins
the behaviour).

    python3 -m bench.hostile                  # every attack
    python3 -m bench.hostile --root <checkout>  # the same against another checkout's app.py (before/after)
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from pathlib import Path

import httpx

from bench._server import ROOT, free_port, stop, wait_until_up

SENTENCE = "The old man said that the children would walk to the school by the river tomorrow."  # 12+ words


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Victim:
    """Another visitor: /translate over plain HTTP from 127.0.0.2, its result stream read to the end."""

    def __init__(self, url: str, n_inputs: int):
        self.url, self.n = url, n_inputs
        self.http = httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.2"), timeout=120)

    def call(self) -> str:
        t0 = time.perf_counter()
        data = [SENTENCE, "transformer-en-fr", 1] + [""] * (self.n - 3)
        r = self.http.post(f"{self.url}gradio_api/call/translate", json={"data": data})
        if r.status_code != 200:
            return f"refused {r.status_code}"
        body = self.http.get(f"{self.url}gradio_api/call/translate/{r.json()['event_id']}").text
        return f"{time.perf_counter() - t0:.2f} s" + ("" if "event: complete" in body else " (error)")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", type=Path, default=ROOT, help="the checkout whose app.py to start")
    ap.add_argument("--unread", type=int, default=30, help="/generate calls whose results are never read")
    ap.add_argument("--wait", type=float, default=45, help="seconds to watch memory after them")
    ap.add_argument("--gets", type=int, default=200, help="GET / and GET /config each, at once")
    args = ap.parse_args()

    port = free_port()
    log = tempfile.NamedTemporaryFile(prefix="hostile-", suffix=".log", delete=False)
    env = {**os.environ, "GRADIO_SERVER_PORT": str(port), "GRADIO_ANALYTICS_ENABLED": "False"}
    proc = subprocess.Popen([sys.executable, "app.py"], cwd=args.root, env=env, stdout=log, stderr=log)
    url = f"http://127.0.0.1:{port}/"
    try:
        wait_until_up(proc, url, 180, "app.py")
        http = httpx.Client(timeout=120)
        config = http.get(f"{url}config").json()
        deps = {d.get("api_name"): d for d in config["dependencies"]}
        n_inputs = len(deps["translate"]["inputs"])
        private = next(d["api_name"] for d in config["dependencies"]
                       if d.get("api_visibility") == "private" and d.get("api_name") and d.get("backend_fn"))
        victim = Victim(url, n_inputs)
        print(f"app.py from {args.root}, port {port}; a victim alone: {victim.call()}, {victim.call()}")

        def row(name, codes, t0_cpu, t0_log, t0_rss, note=""):
            grown = Path(log.name).stat().st_size - t0_log
            print(f"{name:<44} {dict(sorted(Counter(codes).items()))!s:<26} victim {victim.call():<12} "
                  f"RSS {rss_mib(proc.pid):7.1f} MiB ({rss_mib(proc.pid) - t0_rss:+.1f})  CPU +{cpu_s(proc.pid) - t0_cpu:5.2f} s"
                  f"  log +{grown:,} B {note}", flush=True)

        def mark():
            return cpu_s(proc.pid), Path(log.name).stat().st_size, rss_mib(proc.pid)

        # 2. fn_index and names
        join = f"{url}gradio_api/queue/join"
        for name, body in [("fn_index \"74\"", '{"data": [], "fn_index": "74", "session_hash": "h1"}'),
                           ("fn_index 74.0", '{"data": [], "fn_index": 74.0, "session_hash": "h1"}'),
                           ("fn_index 99999", '{"data": [], "fn_index": 99999, "session_hash": "h1"}')]:
            m = mark()
            r = http.post(join, content=body, headers={"content-type": "application/json"})
            row(name, [r.status_code], *m, note=r.text[:60])
        for name, path in [("/call/<unknown name>", "gradio_api/call/no_such_api"),
                           (f"/call/{private} (private)", f"gradio_api/call/{private}"),
                           ("/run/predict, /translate's fn_index", "gradio_api/run/predict")]:
            m = mark()
            r = http.post(url + path, json={"data": [SENTENCE, "transformer-en-fr", 1, ""],
                                            "fn_index": deps["translate"]["id"]})
            row(name, [r.status_code], *m, note=r.text[:60])

        # 4. GETs
        for path in ("", "config"):
            m = mark()
            codes = [http.get(url + path).status_code for _ in range(args.gets)]
            row(f"GET /{path} x{args.gets}", codes, *m)
        for name, path in [("GET /gradio_api/deep_link x20", "gradio_api/deep_link?session_hash=h1"),
                           ("GET /queue/data unknown session x20", "gradio_api/queue/data?session_hash=nobody"),
                           ("GET /monitoring x20", "monitoring")]:
            m = mark()
            codes = [http.get(url + path).status_code for _ in range(20)]
            row(name, codes, *m)
        m = mark()
        codes = [http.post(f"{url}gradio_api/upload", files={"files": ("a.txt", b"hello")}).status_code
                 for _ in range(20)]
        row("POST /gradio_api/upload (5 B) x20", codes, *m)
        m = mark()
        for _ in range(20):  # a result stream closed by the client before its result
            event = http.post(f"{url}gradio_api/call/translate", json={"data": [SENTENCE, "transformer-en-fr", 8, ""]})
            if event.status_code == 200:
                with http.stream("GET", f"{url}gradio_api/call/translate/{event.json()['event_id']}") as s:
                    next(s.iter_lines())
        row("a /call/ stream closed early x20", [200] * 20, *m)

        # 3. caps: a fresh session hash per join; sessionless calls with different sentences
        time.sleep(2)  # the per-address GET bucket above refills a little; the queue empties
        m = mark()
        translate = deps["translate"]["id"]
        codes = [http.post(join, json={"data": [f"{SENTENCE} {i}", "transformer-en-fr", 8, ""], "fn_index": translate,
                                       "session_hash": uuid.uuid4().hex[:11], "trigger_id": None}).status_code
                 for i in range(80)]
        row("80 joins, a fresh session hash each", codes, *m)
        time.sleep(10)
        m = mark()
        codes = [http.post(f"{url}gradio_api/call/translate",
                           json={"data": [f"{SENTENCE} {i}", "transformer-en-fr", 8, ""]}).status_code
                 for i in range(60)]
        row("60 sessionless /call/translate, different", codes, *m)

        # 1. results nobody reads
        time.sleep(15)
        m = mark()
        codes = [http.post(f"{url}gradio_api/call/generate",
                           json={"data": [SENTENCE, 100, 1.0, 0, 1.0, i, False]}).status_code
                 for i in range(args.unread)]
        row(f"{args.unread} /call/generate, never read", codes, *m)
        t0 = time.monotonic()
        while time.monotonic() - t0 < args.wait:
            time.sleep(15)
            print(f"    {time.monotonic() - t0:4.0f} s later: RSS {rss_mib(proc.pid):7.1f} MiB "
                  f"({rss_mib(proc.pid) - m[2]:+.1f})", flush=True)
        print(f"log: {Path(log.name).stat().st_size:,} bytes in all, "
              f"{Path(log.name).read_text(errors='replace').count('Traceback')} tracebacks ({log.name})")
    finally:
        stop(proc)


if __name__ == "__main__":
    main()
