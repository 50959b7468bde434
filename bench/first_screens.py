"""What the first screens cost once the app is up: time and the server's resident memory, from outside.

    python3 -m bench.first_screens [--langs en ko]

Starts `python app.py` as a process (bench/_server.py; its models are read when first used) with
ATTN_EXPLORER_WARM=0, so that the server computes a first screen only when a page asks for it and each stage below
is the bench's doing, not the warming thread's. Then, as pages do (bench/_page.py, no browser): a first visit's
page load in English (the first screen of the tab the page opens on: its model read and run), then, for each
language, a fresh page that loads and opens every tab in page order (each tab's first-screen event: what the
warming a first visit starts computes, one screen at a time). Prints after each stage the seconds, the server's
resident memory (/proc/<pid>/status VmRSS) and the screens' bytes as sent, then which screens came back empty and
the server's peak resident memory (VmHWM) over the run. With the default warming, the same screens are computed
by one background thread in the same order; the app gives freed memory back (malloc_trim) each time its queue
of screens is empty, here after every screen, there once at the end. One torch thread, as the app runs.

What it no longer sees, from outside: which checkpoints each stage read (the registry is in the app's process;
the weights are copied out of their files, so /proc/<pid>/maps does not name them either). The memory each stage
adds is the figure that matters for a host; which model it is for follows from the tabs opened. Prints figures;
asserts nothing.
"""
from __future__ import annotations

import argparse
import json
import time

from bench._page import Page, get_config
from bench._server import start_app, stop
from bench.heap import memory
from bench.sessions import load

FIRST_SCREEN = "first_screen"  # ui/first_screen.py's handler, for the page load and for a tab opened (api names first_screen_N)


def first_screen_events(config: dict) -> tuple[dict, list[tuple[str, dict]]]:
    """(the page load's first-screen event, [(tab label, the event opening that tab fills it)] in page order)."""
    labels = {c["id"]: c.get("props", {}).get("label") or f"#{c['id']}" for c in config["components"]}
    deps = [d for d in config["dependencies"] if str(d.get("api_name") or "").startswith(FIRST_SCREEN)]
    on_load = next(d for d in deps if d["targets"][0][1] == "load")
    return on_load, [(labels[d["targets"][0][0]], d) for d in deps if d["targets"][0][1] == "select"]


def empty(output: list) -> bool:
    """A screen the server skipped (nothing computed, or a model that did not load): only bare updates."""
    return all(isinstance(v, dict) and set(v) <= {"__type__"} for v in output)


def inputs(dep: dict, lang: str) -> list:
    """What a first-screen event takes: the language switch, then the tab's States (None: nothing drawn yet)."""
    return [lang] + [None] * (len(dep["inputs"]) - 1)


def sent_bytes(out) -> int:
    """The screen's size as UTF-8 JSON (Korean counted as its 3 bytes a syllable, not as a \\u escape)."""
    return len(json.dumps(out, ensure_ascii=False).encode())


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--langs", nargs="+", default=["en", "ko"], choices=["en", "ko"])
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    proc, url, up = start_app(env={"ATTN_EXPLORER_WARM": "0", "ATTN_EXPLORER_TORCH_THREADS": "1"})
    try:
        def stage(label, seconds, sent=None):
            m = memory(proc.pid)
            print(f"{label:<38} {seconds:7.2f} s {m['rss']:7.0f} MiB"
                  + (f"  {sent / 1e6:6.2f} MB sent" if sent is not None else ""), flush=True)

        stage("app up (python app.py, HTTP 200)", up)
        config = get_config(url)
        on_load, tabs = first_screen_events(config)
        page = Page(url)
        t = time.perf_counter()
        out = page.run(on_load, inputs(on_load, "en"))
        page.close()
        stage("first screen of the opening tab (en)", time.perf_counter() - t, sent_bytes(out))
        skipped, failed = [], []
        for lang in args.langs:
            page = Page(url)  # a fresh session: a tab whose first screen fills its States is not filled again
            t, sent = time.perf_counter(), 0
            for label, dep in [("opening tab", on_load)] + tabs:
                try:
                    out = page.run(dep, inputs(dep, lang))
                except RuntimeError as e:
                    failed.append(f"{label} ({lang}): {str(e)[:80]}")
                    continue
                sent += sent_bytes(out)
                if empty(out):
                    skipped.append(f"{label} ({lang})")
            page.close()
            stage(f"every first screen ({lang})", time.perf_counter() - t, sent)
        n = (1 + len(tabs)) * len(args.langs)
        print(f"screens asked for: {n} ({1 + len(tabs)} events a language); empty: {', '.join(skipped) or 'none'}; "
              f"failed: {'; '.join(failed) or 'none'}")
        time.sleep(1.0)
        stage("1 s later", 1.0)
        print(f"peak RSS {memory(proc.pid)['peak']:.0f} MiB over {time.perf_counter() - t0:.1f} s; load {load()}")
    finally:
        stop(proc)


if __name__ == "__main__":
    main()
