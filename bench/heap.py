"""Does the server's memory follow the calls? `python app.py`'s resident memory over plain-HTTP /fill_mask calls.

    python3 -m bench.heap                   # 120 calls on bench/sessions.py's 253-word paragraph, a line every 40
    python3 -m bench.heap --calls 20 --every 10 --short

Starts the app as a process (bench/_server.py), makes two warm-up calls, then, every `--every` calls (each its own
session, one after another), reads the server's /proc/<pid>/status (VmRSS: resident; VmHWM: its peak) and
/proc/<pid>/smaps_rollup (Anonymous: the heap and the other private memory, what a leak grows; Rss less
Anonymous: mapped files, the libraries). A leak grows the resident memory by about the same amount a call without
end; glibc's cache of freed memory grows it for a while and plateaus. Linux only. Prints figures; asserts nothing.

What it no longer sees, from outside: malloc's own books (mallinfo2's bytes in use against the freed bytes glibc
keeps for reuse) and the resident memory after a `malloc_trim(0)`, which only the app's process can read or call.
That split told a leak (bytes in use growing) from the allocator's cache (kept bytes, handed back by a trim) while
a leak was being looked for; the leak is fixed and pinned by tests/ui/test_plot_residue.py, the app now trims
itself after warming its first screens (ui/first_screen.py), and the figure a deployment cares about is the one a
host's memory limit counts: resident memory, read here as `free`, a container or a Space would. A plateau over
more calls still tells the cache from a leak; a growth per call that does not fall as the calls go on is the sign
to look inside the process again.
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path

from bench._server import start_app, stop
from bench.latency import session_call
from bench.sessions import MASKED, SHORT, load, words


def memory(pid: int) -> dict[str, float]:
    """The process's resident, peak-resident and anonymous memory and its mapped files' resident part, MiB."""
    def fields(name: str) -> dict[str, str]:
        return {k: v for k, _, v in (line.partition(":") for line in Path(f"/proc/{pid}/{name}").read_text()
                                     .splitlines())}
    status, rollup = fields("status"), fields("smaps_rollup")  # (the rollup's first line, its range: unread)
    kib = lambda d, key: int(d[key].split()[0]) / 1024  # noqa: E731 - "123456 kB"
    return {"rss": kib(status, "VmRSS"), "peak": kib(status, "VmHWM"), "anon": kib(rollup, "Anonymous"),
            "files": kib(rollup, "Rss") - kib(rollup, "Anonymous")}


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--calls", type=int, default=120, help="plain-HTTP /fill_mask calls after two warm-ups")
    ap.add_argument("--every", type=int, default=40, help="calls between two readings")
    ap.add_argument("--short", action="store_true", help="a 9-word sentence instead of the 253-word paragraph")
    ap.add_argument("--root", type=Path, help="another checkout's app.py (e.g. `git archive` of a commit before)")
    args = ap.parse_args(argv)
    if not Path("/proc/self/smaps_rollup").exists():
        raise SystemExit("needs Linux >= 4.14 (/proc/<pid>/smaps_rollup)")
    text = SHORT if args.short else MASKED
    proc, url, up = start_app(cwd=args.root)
    try:
        for _ in range(2):
            session_call(url, "/fill_mask", (text, 5))
        time.sleep(1.0)
        start = memory(proc.pid)
        print(f"{words(text)} words, each call its own session; server up in {up:.1f} s; load {load()}")
        print(f"{'calls':>6}{'resident MiB':>14}{'grown':>9}{'a call':>8}{'anonymous':>11}{'files':>7}{'peak':>7}")
        print(f"{0:6d}{start['rss']:14.1f}{0:+9.1f}{'':>8}{start['anon']:11.1f}{start['files']:7.0f}"
              f"{start['peak']:7.0f}")
        t0 = time.perf_counter()
        for i in range(1, args.calls + 1):  # each call its own text: identical requests would be one shared run
            session_call(url, "/fill_mask", (f"{text} Call {i}.", 5))
            if i % args.every == 0 or i == args.calls:
                time.sleep(0.5)  # the event's clean-up after its result
                m = memory(proc.pid)
                grown = m["rss"] - start["rss"]
                print(f"{i:6d}{m['rss']:14.1f}{grown:+9.1f}{grown / i:8.3f}{m['anon']:11.1f}{m['files']:7.0f}"
                      f"{m['peak']:7.0f}", flush=True)
        print(f"{args.calls} calls in {time.perf_counter() - t0:.1f} s; load {load()}")
    finally:
        stop(proc)


if __name__ == "__main__":
    main()
