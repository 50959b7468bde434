"""The hostile-traffic review replayed against `python app.py` on a free local port, bounded in count and time.

For each attack: how the server answered (status codes counted), a victim's 12-word /translate meanwhile (plain
HTTP from another loopback address, 127.0.0.2, so the per-address caps see two visitors), and the server's
resident memory, CPU time and log growth. At the end, each target of the public-Space review as "held" or
"NOT HELD" with the figure it was judged by (docs/reliability.md reads from that table). Figures and verdicts
only: nothing here asserts (tests/ui/test_hostile_http.py pins the behaviour).

    python3 -m bench.hostile                        # every attack, then the targets
    python3 -m bench.hostile --only unread,rollout  # some of them (names, gets, loop, uploads, caps, unread, rollout)
    python3 -m bench.hostile --root <checkout>      # the same against another checkout's app.py (before/after)
"""
from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from pathlib import Path

import httpx

from bench._server import ROOT, free_port, stop, wait_until_up

SENTENCE = "The old man said that the children would walk to the school by the river tomorrow."  # 12+ words
# one connection looping GETs on a URL for some seconds; prints the status codes it got, counted, as JSON
LOOPER = """import httpx, json, sys, time
url, stop_at, codes = sys.argv[1], time.monotonic() + float(sys.argv[2]), {}
with httpx.Client(timeout=30) as c:
    while time.monotonic() < stop_at:
        try:
            k = str(c.get(url).status_code)
        except httpx.HTTPError:
            k = "error"
        codes[k] = codes.get(k, 0) + 1
print(json.dumps(codes))
"""
SECTIONS = ("names", "gets", "loop", "uploads", "caps", "unread", "rollout")
VICTIM_PER_S = 4.0  # the victim's calls during the GET loops: a visitor's pace, under the per-address call rate
# what a generic error looks like: nothing in it names the bad value (Gradio's and Starlette's defaults)
GENERIC = re.compile(r"Traceback|Internal Server Error|"
                     r"^\s*\{?\s*\"?(detail|error)\"?\s*:\s*\"?(Error|null)?\"?\s*\}?\s*$")


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def folder_bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file()) if folder.is_dir() else 0


class Peak:
    """The highest resident memory of a process, sampled every `every` seconds in a thread while it runs."""

    def __init__(self, pid: int, every: float = 0.5):
        self.pid, self.every, self.peak = pid, every, rss_mib(pid)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()

    def _sample(self) -> None:
        while not self._stop.wait(self.every):
            self.peak = max(self.peak, rss_mib(self.pid))

    def done(self) -> float:
        self._stop.set()
        self._thread.join()
        return max(self.peak, rss_mib(self.pid))


class Victim:
    """Another visitor: /translate over plain HTTP from 127.0.0.2, its result stream read to the end. `log` keeps
    (status, seconds, finished) of every call made during an attack."""

    def __init__(self, url: str, n_inputs: int):
        self.url, self.n = url, n_inputs
        self.http = httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.2"), timeout=120)
        self.alone: float = float("nan")
        self.log: list[tuple[str, int, float, bool]] = []

    def call(self, during: str = "") -> tuple[int, float, bool]:
        t0 = time.perf_counter()
        data = [SENTENCE, "transformer-en-fr", 1] + [""] * (self.n - 3)
        r = self.http.post(f"{self.url}gradio_api/call/translate", json={"data": data})
        if r.status_code != 200:
            out = (r.status_code, time.perf_counter() - t0, False)
        else:
            body = self.http.get(f"{self.url}gradio_api/call/translate/{r.json()['event_id']}").text
            out = (200, time.perf_counter() - t0, "event: complete" in body)
        if during:
            self.log.append((during, *out))
        return out

    @staticmethod
    def text(result) -> str:
        status, seconds, finished = result
        return f"{seconds:.2f} s" + ("" if finished else f" (HTTP {status}, no result)")


class Review:
    """The app under attack, the victim, and what every response and the log showed."""

    def __init__(self, proc, url: str, log: Path, temp: Path, root: Path):
        self.proc, self.url, self.log, self.temp = proc, url, log, temp
        self.http = httpx.Client(timeout=120)
        config = self.http.get(f"{url}config").json()
        self.deps = {d.get("api_name"): d for d in config["dependencies"]}
        self.private = next(d["api_name"] for d in config["dependencies"]
                            if d.get("api_visibility") == "private" and d.get("api_name") and d.get("backend_fn"))
        self.victim = Victim(url, len(self.deps["translate"]["inputs"]))
        self.paths = {str(root.resolve()), str(temp), os.path.realpath(tempfile.gettempdir()) + "/gradio"}
        self.responses = self.with_path = self.generic = 0
        self.generic_seen: list[str] = []
        self.log_growth: dict[str, int] = {}
        self.targets: list[tuple[str, bool, str]] = []

    # --- what every response is checked for

    def seen(self, r: httpx.Response) -> httpx.Response:
        """Counts a response: one holding a server path, or an error that names nothing (a traceback, a bare 500)."""
        text = r.text
        self.responses += 1
        self.with_path += any(p in text for p in self.paths)
        if r.status_code >= 400 and (r.status_code >= 500 and r.status_code != 503 or GENERIC.search(text)):
            self.generic += 1
            self.generic_seen.append(f"{r.status_code} {text[:80]!r}")
        return r

    def mark(self):
        return cpu_s(self.proc.pid), self.log.stat().st_size, rss_mib(self.proc.pid)

    def row(self, name, codes, t0_cpu, t0_log, t0_rss, note="") -> tuple[int, float, bool]:
        grown = self.log.stat().st_size - t0_log
        self.log_growth[name] = grown
        victim = self.victim.call(name)
        rss = rss_mib(self.proc.pid)
        print(f"{name:<44} {dict(sorted(Counter(codes).items()))!s:<26} victim {Victim.text(victim):<12} "
              f"RSS {rss:7.1f} MiB ({rss - t0_rss:+.1f})  CPU +{cpu_s(self.proc.pid) - t0_cpu:5.2f} s"
              f"  log +{grown:,} B {note}", flush=True)
        return victim

    def target(self, name: str, held: bool, figure: str) -> None:
        self.targets.append((name, held, figure))

    # --- the attacks

    def names(self) -> None:
        """fn_index as a string or a float, unknown indexes and names, private events by name, /run/predict."""
        join, codes = f"{self.url}gradio_api/queue/join", []
        for name, body in [("fn_index \"74\"", '{"data": [], "fn_index": "74", "session_hash": "h1"}'),
                           ("fn_index 74.0", '{"data": [], "fn_index": 74.0, "session_hash": "h1"}'),
                           ("fn_index 99999", '{"data": [], "fn_index": 99999, "session_hash": "h1"}')]:
            m = self.mark()
            r = self.seen(self.http.post(join, content=body, headers={"content-type": "application/json"}))
            codes.append(r.status_code)
            self.row(name, [r.status_code], *m, note=r.text[:60])
        for name, path in [("/call/<unknown name>", "gradio_api/call/no_such_api"),
                           (f"/call/{self.private} (private)", f"gradio_api/call/{self.private}"),
                           ("/run/predict, /translate's fn_index", "gradio_api/run/predict")]:
            m = self.mark()
            r = self.seen(self.http.post(self.url + path, json={"data": [SENTENCE, "transformer-en-fr", 1, ""],
                                                                 "fn_index": self.deps["translate"]["id"]}))
            codes.append(r.status_code)
            self.row(name, [r.status_code], *m, note=r.text[:60])
        self.target("string/float fn_index, unknown ones, private names, /run/predict: refused",
                    all(400 <= c < 500 for c in codes), f"HTTP {codes}")

    def gets(self, n: int) -> None:
        """GETs one after another: the page, /config, closed routes, streams for nothing."""
        for path in ("", "config"):
            m = self.mark()
            codes = [self.http.get(self.url + path).status_code for _ in range(n)]
            self.row(f"GET /{path} x{n}", codes, *m)
        for name, path in [("GET /gradio_api/deep_link x20", "gradio_api/deep_link?session_hash=h1"),
                           ("GET /queue/data unknown session x20", "gradio_api/queue/data?session_hash=nobody"),
                           ("GET /monitoring x20", "monitoring")]:
            m = self.mark()
            codes = [self.seen(self.http.get(self.url + path)).status_code for _ in range(20)]
            self.row(name, codes, *m)
        m = self.mark()
        for _ in range(20):  # a result stream closed by the client before its result
            event = self.http.post(f"{self.url}gradio_api/call/translate",
                                   json={"data": [SENTENCE, "transformer-en-fr", 8, ""]})
            if event.status_code == 200:
                with self.http.stream("GET", f"{self.url}gradio_api/call/translate/{event.json()['event_id']}") as s:
                    next(s.iter_lines())
        self.row("a /call/ stream closed early x20", [200] * 20, *m)

    def loop(self, seconds: float, connections: int = 3) -> None:
        """`connections` clients looping GET / and GET /config for `seconds`, each a process of its own (threads
        here would slow the victim's client by sharing its interpreter); the victim calls meanwhile."""
        m = self.mark()
        loopers = [subprocess.Popen([sys.executable, "-c", LOOPER, self.url + ("" if i % 2 == 0 else "config"),
                                     str(seconds)], stdout=subprocess.PIPE, text=True) for i in range(connections)]
        time.sleep(1.0)  # the loopers start
        stop_at, times = time.monotonic() + seconds - 2, []
        while time.monotonic() < stop_at:
            started = time.monotonic()
            status, seconds_, finished = self.victim.call(f"{connections} connections looping GETs")
            times.append(seconds_ if finished else float("inf"))
            # a visitor, not a flood: at most VICTIM_PER_S calls a second, under the limits' 5 a second for calls
            # without a session from one address (unpaced, a 0.03 s call ran into its own address's cap, not the attack)
            time.sleep(max(0.0, 1 / VICTIM_PER_S - (time.monotonic() - started)))
        codes = Counter()
        for p in loopers:
            out, _ = p.communicate(timeout=seconds + 60)
            codes.update({int(k) if k.isdigit() else k: v for k, v in json.loads(out or "{}").items()})
        p50 = statistics.median(times)
        self.row(f"{connections} connections looping GETs {seconds:.0f} s", list(codes.elements()), *m,
                 note=f"victim x{len(times)} meanwhile: p50 {p50:.2f} s, max {max(times):.2f} s")
        self.target(f"{connections} connections looping GETs: the victim within 2x its time alone (p50)",
                    p50 <= 2 * self.victim.alone, f"p50 {p50:.2f} s, alone {self.victim.alone:.2f} s")

    def uploads(self, n: int) -> None:
        """n uploads of 60 KB as fast as one client sends them; Gradio's cache folder measured before and after."""
        m, before = self.mark(), folder_bytes(self.temp)
        codes = [self.seen(self.http.post(f"{self.url}gradio_api/upload",
                                          files={"files": ("a.txt", os.urandom(60_000))})).status_code
                 for _ in range(n)]
        grown = folder_bytes(self.temp) - before
        self.row(f"POST /gradio_api/upload (60 KB) x{n}", codes, *m, note=f"Gradio's cache folder {grown:+,} B")
        self.target(f"{n} uploads: refused, nothing written (no download can be evicted by them)",
                    all(c >= 400 for c in codes) and grown <= 0, f"{dict(Counter(codes))}, cache {grown:+,} B")

    def caps(self) -> None:
        """A fresh session hash per join from one address; sessionless calls with different sentences."""
        time.sleep(2)  # the per-address GET bucket refills a little; the queue empties
        m, join = self.mark(), f"{self.url}gradio_api/queue/join"
        translate = self.deps["translate"]["id"]
        codes = [self.seen(self.http.post(join, json={
            "data": [f"{SENTENCE} {i}", "transformer-en-fr", 8, ""], "fn_index": translate,
            "session_hash": uuid.uuid4().hex[:11], "trigger_id": None})).status_code for i in range(80)]
        rotating = self.row("80 joins, a fresh session hash each", codes, *m)
        time.sleep(10)
        m = self.mark()
        codes2 = [self.seen(self.http.post(f"{self.url}gradio_api/call/translate", json={
            "data": [f"{SENTENCE} {i}", "transformer-en-fr", 8, ""]})).status_code for i in range(60)]
        sessionless = self.row("60 sessionless /call/translate, different", codes2, *m)
        refused = sum(c == 429 for c in codes)
        self.target("rotating session_hash: refused past the address's cap", refused > 0,
                    f"{codes.count(200)} accepted, {refused} refused 429")
        for name, (status, seconds, finished) in [("rotating session_hash", rotating),
                                                  ("60 sessionless calls", sessionless)]:
            self.target(f"{name}: the victim answered within 2x its time alone",
                        finished and seconds <= 2 * self.victim.alone,
                        f"HTTP {status}, {seconds:.2f} s, alone {self.victim.alone:.2f} s")

    def unread(self, n: int, wait: float) -> None:
        """n /call/generate (100 tokens) whose results nobody reads; resident memory until `wait` s after them."""
        time.sleep(15)  # the caps' events finish
        # one call read first: GPT loads on its first call (lazily), which is not what this attack costs
        r = self.http.post(f"{self.url}gradio_api/call/generate", json={"data": [SENTENCE, 100, 1.0, 0, 1.0, 0, False]})
        if r.status_code == 200:
            self.http.get(f"{self.url}gradio_api/call/generate/{r.json()['event_id']}").read()
        m = self.mark()
        peak = Peak(self.proc.pid)
        codes = [self.http.post(f"{self.url}gradio_api/call/generate",
                                json={"data": [SENTENCE, 100, 1.0, 0, 1.0, i, False]}).status_code for i in range(n)]
        self.row(f"{n} /call/generate, never read", codes, *m)
        t0, after = time.monotonic(), rss_mib(self.proc.pid)
        while time.monotonic() - t0 < wait:
            time.sleep(min(15.0, wait - (time.monotonic() - t0)))
            after = rss_mib(self.proc.pid)
            print(f"    {time.monotonic() - t0:4.0f} s later: RSS {after:7.1f} MiB ({after - m[2]:+.1f})", flush=True)
        top = peak.done() - m[2]
        self.target(f"{n} unread /generate: RSS growth <= 100 MiB", top <= 100, f"peak {top:+.1f} MiB")
        self.target(f"{n} unread /generate: within 50 MiB of the start {wait:.0f} s later", after - m[2] <= 50,
                    f"{after - m[2]:+.1f} MiB")

    def rollout(self, pages: int, budget_mib: float) -> None:
        """`pages` pages one after another, each pressing Show rollout on a 256-token paragraph and closing."""
        from bench._page import Page, event, get_config, inputs
        from bench.sessions import PARAGRAPH

        config = get_config(self.url)
        dep = event(config, "Show rollout")
        data = inputs(config, dep, {"Sentence": PARAGRAPH})
        warm = Page(self.url)  # one page first: what loads on a first use is not what the pages cost
        try:
            warm.run(dep, data)
        finally:
            warm.close()
        m = self.mark()
        peak, codes = Peak(self.proc.pid), []
        for i in range(pages):
            page = Page(self.url)
            try:
                page.run(dep, data)
                codes.append(200)
            except RuntimeError as e:
                codes.append(str(e)[:60])
            finally:
                page.close()
            if (i + 1) % 10 == 0:
                print(f"    {i + 1} pages: RSS {rss_mib(self.proc.pid):7.1f} MiB "
                      f"({rss_mib(self.proc.pid) - m[2]:+.1f})", flush=True)
        self.row(f"{pages} rollout pages, one after another", codes, *m)
        top = peak.done() - m[2]
        self.target(f"{pages} rollout pages: RSS growth within the caches' budgets ({budget_mib:.0f} MiB)",
                    top <= budget_mib, f"peak {top:+.1f} MiB")

    def report(self) -> None:
        text = self.log.read_text(errors="replace")
        worst = max(self.log_growth.items(), key=lambda kv: kv[1], default=("-", 0))
        self.target("the log grows <= 1 MB under any attack", worst[1] <= 1_000_000,
                    f"largest +{worst[1]:,} B ({worst[0]}); {text.count('Traceback')} tracebacks in all")
        if self.victim.log:
            self.target("the victim never got 503", all(s != 503 for _, s, _, _ in self.victim.log),
                        f"{len(self.victim.log)} calls, {sum(s == 503 for _, s, _, _ in self.victim.log)} 503")
        self.target("0 responses with a server path", self.with_path == 0,
                    f"{self.with_path} of {self.responses} checked")
        self.target("0 generic errors (each names what was wrong)", self.generic == 0,
                    f"{self.generic} of {self.responses}" + (f": {self.generic_seen[0]}" if self.generic_seen else ""))
        print(f"\nlog: {self.log.stat().st_size:,} bytes in all, {text.count('Traceback')} tracebacks ({self.log})")
        print("\ntargets")
        for name, held, figure in self.targets:
            print(f"  {'held' if held else 'NOT HELD':<9} {name}: {figure}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", type=Path, default=ROOT, help="the checkout whose app.py to start")
    ap.add_argument("--only", default=",".join(SECTIONS), help=f"attacks to run, of {', '.join(SECTIONS)}")
    ap.add_argument("--unread", type=int, default=30, help="/generate calls whose results are never read")
    ap.add_argument("--wait", type=float, default=60, help="seconds to watch memory after them")
    ap.add_argument("--gets", type=int, default=100, help="GET / and GET /config each, one after another")
    ap.add_argument("--loop-s", type=float, default=20, help="seconds three connections loop GETs")
    ap.add_argument("--uploads", type=int, default=400, help="uploads of 60 KB")
    ap.add_argument("--pages", type=int, default=30, help="rollout pages one after another")
    args = ap.parse_args()
    only = [s.strip() for s in args.only.split(",") if s.strip()]
    unknown = sorted(set(only) - set(SECTIONS))
    if unknown:
        ap.error(f"unknown attack {', '.join(unknown)}: choose from {', '.join(SECTIONS)}")

    port = free_port()
    log = Path(tempfile.NamedTemporaryFile(prefix="hostile-", suffix=".log", delete=False).name)
    temp = Path(tempfile.mkdtemp(prefix="hostile-gradio-"))
    env = {**os.environ, "GRADIO_SERVER_PORT": str(port), "GRADIO_ANALYTICS_ENABLED": "False",
           "GRADIO_TEMP_DIR": str(temp)}
    with log.open("wb") as out:
        proc = subprocess.Popen([sys.executable, "app.py"], cwd=args.root, env=env, stdout=out, stderr=out)
    url = f"http://127.0.0.1:{port}/"
    try:
        wait_until_up(proc, url, 180, "app.py")
        review = Review(proc, url, log, temp, args.root)
        victim = review.victim
        alone = [victim.call()[1] for _ in range(5)]
        victim.alone = statistics.median(alone)
        print(f"app.py from {args.root}, port {port}; a victim alone x5: "
              f"{', '.join(f'{t:.2f}' for t in alone)} s (median {victim.alone:.2f} s); load "
              f"{', '.join(f'{x:.1f}' for x in os.getloadavg())}")
        budget = _budgets_mib()
        for section in only:
            {"names": review.names, "gets": lambda: review.gets(args.gets), "loop": lambda: review.loop(args.loop_s),
             "uploads": lambda: review.uploads(args.uploads), "caps": review.caps,
             "unread": lambda: review.unread(args.unread, args.wait),
             "rollout": lambda: review.rollout(args.pages, budget)}[section]()
        review.report()
    finally:
        stop(proc)


def _budgets_mib() -> float:
    """The caches' declared budgets, MiB: the records' (explorer/serve/cache.py) and the pending downloads'
    (explorer/serve/downloads.py), from the same environment variables the app reads."""
    from explorer.serve import cache
    from explorer.serve import downloads

    records = float(os.environ.get(cache.BUDGET_ENV, cache.DEFAULT_MB))
    pending = float(os.environ.get("ATTN_EXPLORER_PENDING_MB", downloads.PENDING_MB))
    return records + pending


if __name__ == "__main__":
    main()
