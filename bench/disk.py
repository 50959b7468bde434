"""What the app writes to disk, over real HTTP against `python app.py` (that it stays under its disk budget).

    python3 -m bench.disk                   # 100 slider moves, then 20 runs (and 20 download presses)
    python3 -m bench.disk --moves 200 --runs 40 --presses 40
    python3 -m bench.disk --root /tmp/old   # the same against another checkout (the numbers before a change)
    python3 -m bench.disk --presses 60 --disk-mb 20   # a small budget: the folders stay under it

The app runs with its own empty temporary folders (TMPDIR and GRADIO_TEMP_DIR), so every byte under them is the
app's. One session opens the Transformer tab and the BERT tab as the page does (the run button, then each slider
moved as a visitor drags it: one event at a time, each awaited), through the same routes the page uses
(/gradio_api/queue/join and the session's event stream). Printed: the bytes and files written under the temporary
folders by the slider moves (target: 0 bytes), then by runs of the tabs' buttons, then by presses of their download
buttons (none before downloads on demand), and the folders' size at the end against the budget
(explorer.serve.downloads.BUDGET_MB). No timed asserts: the figures are for docs/reliability.md.
"""
from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
import uuid
from pathlib import Path

from bench._server import start_app, stop

TEXTS = ["I am a student.", "The cat sat on the mat.", "She reads a book every evening.",
         "We are going to the market tomorrow.", "The old man walked slowly along the quiet river."]
MASKED = ["I am a [MASK].", "The cat sat on the [MASK].", "She reads a [MASK] every evening.",
          "We are going to the [MASK] tomorrow.", "The old man walked slowly along the quiet [MASK]."]


def folder_files(folders) -> dict[str, tuple[int, float]]:
    """path -> (size, mtime) of every file under `folders`."""
    out = {}
    for folder in folders:
        for root, _, names in os.walk(folder):
            for n in names:
                p = os.path.join(root, n)
                try:
                    st = os.stat(p)
                except OSError:
                    continue
                out[p] = (st.st_size, st.st_mtime)
    return out


def written(before: dict, after: dict) -> tuple[int, int]:
    """(bytes, files) new or rewritten between two `folder_files` snapshots (files deleted meanwhile: not seen)."""
    changed = [p for p, v in after.items() if before.get(p) != v]
    return sum(after[p][0] for p in changed), len(changed)


class Session:
    """One page's session: joins events by fn_index and waits for each on the session's event stream."""

    def __init__(self, url: str, config: dict):
        import httpx

        self.url, self.config, self.http = url, config, httpx.Client(timeout=300)
        self.hash = uuid.uuid4().hex[:11]
        self.waits = 0  # joins refused by the rate limit and sent again
        self.components = {c["id"]: c for c in config["components"]}

    def default(self, cid):
        c = self.components.get(cid, {})
        return None if c.get("type") == "state" else c.get("props", {}).get("value")

    def run(self, index: int, values: dict | None = None) -> dict:
        """Join dependency `index` with each input's shown value (a State: null, the server keeps it) or
        `values[id]`, and wait for its result; returns the completion message."""
        dep = self.config["dependencies"][index]
        data = [(values or {}).get(i, self.default(i)) for i in dep["inputs"]]
        body = {"data": data, "fn_index": index, "session_hash": self.hash, "event_data": None,
                "trigger_id": dep["targets"][0][0] if dep["targets"] else None}
        r = self.http.post(f"{self.url}gradio_api/queue/join", json=body)
        while r.status_code == 429:  # past the page's rate limit (ui/limits.py): wait as told, as a visitor would
            self.waits += 1
            time.sleep(float(r.headers.get("retry-after", 1)))
            r = self.http.post(f"{self.url}gradio_api/queue/join", json=body)
        if r.status_code != 200:
            raise RuntimeError(f"join of event {index} answered {r.status_code}: {r.text[:300]}")
        event = r.json()["event_id"]
        with self.http.stream("GET", f"{self.url}gradio_api/queue/data", params={"session_hash": self.hash}) as s:
            for line in s.iter_lines():
                if not line.startswith("data:"):
                    continue
                msg = json.loads(line[5:])
                if msg.get("event_id") == event and msg.get("msg") == "process_completed":
                    if not msg.get("success"):
                        raise RuntimeError(f"event {index} failed: {str(msg)[:300]}")
                    return msg
        raise RuntimeError(f"the stream ended before event {index} completed")


def find(config: dict) -> list[dict]:
    """Per tab with layer/head sliders (Transformer, BERT): its run button's event, its slider events and the
    download button's event (None before downloads on demand), found by what they read and write."""
    comps = {c["id"]: c for c in config["components"]}
    deps = config["dependencies"]
    kind = lambda cid: comps.get(cid, {}).get("type")  # noqa: E731
    label = lambda cid: comps.get(cid, {}).get("props", {}).get("value")  # noqa: E731 (a button's text)
    tabs = []
    for i, d in enumerate(deps):
        name = d.get("api_name") or ""
        if not name.startswith("show_heads") or not d["targets"] or kind(d["targets"][0][0]) != "slider":
            continue
        state = next((c for c in d["inputs"] if kind(c) == "state"), None)
        if state is None or any(state in t["sliders_state"] for t in tabs):
            continue
        run = next(j for j, e in enumerate(deps) if state in e["outputs"] and e["targets"]
                   and kind(e["targets"][0][0]) == "button")
        sliders = [j for j, e in enumerate(deps) if e.get("api_name", "").startswith("show_heads")
                   and state in e["inputs"] and kind(e["targets"][0][0]) == "slider"]
        files = [o for o in deps[run]["outputs"] if kind(o) in ("state", "file")]
        press = next((j for j, e in enumerate(deps) if e["targets"] and kind(e["targets"][0][0]) == "button"
                      and set(e["inputs"]) & set(files) and any(kind(o) == "file" for o in e["outputs"])), None)
        tabs.append({"run": run, "sliders": [(j, deps[j]["targets"][0][0]) for j in sliders], "press": press,
                     "sliders_state": {state}, "name": label(deps[run]["targets"][0][0]) or name})
    return tabs


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--moves", type=int, default=100, help="slider moves in all (split between the tabs)")
    ap.add_argument("--runs", type=int, default=20, help="runs of the tabs' buttons in all")
    ap.add_argument("--presses", type=int, default=20, help="presses of the download buttons in all")
    ap.add_argument("--root", type=Path, default=None, help="another checkout to run (its app.py and bench/)")
    ap.add_argument("--disk-mb", type=float, default=None,
                    help="the app's disk budget (ATTN_EXPLORER_DISK_MB; default explorer.serve.downloads.BUDGET_MB)")
    args = ap.parse_args()
    import httpx

    tmp = Path(tempfile.mkdtemp(prefix="disk-bench-"))
    folders = [tmp / "tmp", tmp / "gradio"]
    for f in folders:
        f.mkdir()
    env = {"TMPDIR": str(folders[0]), "GRADIO_TEMP_DIR": str(folders[1]), "OMP_NUM_THREADS": "1"}
    if args.root is not None:
        env["PYTHONPATH"] = str(args.root)
    if args.disk_mb is not None:
        env["ATTN_EXPLORER_DISK_MB"] = str(args.disk_mb)
    proc, url, up = start_app(env=env, cwd=args.root)
    try:
        config = httpx.get(f"{url}config", timeout=60).json()
        tabs = find(config)
        print(f"app up in {up:.1f} s; temporary folders {folders[0]} and {folders[1]}")
        print("tabs:", ", ".join(f"{t['name']} (run {t['run']}, sliders {[j for j, _ in t['sliders']]}, "
                                 f"download {t['press']})" for t in tabs))
        s = Session(url, config)
        for t in tabs:
            s.run(t["run"])  # the record the sliders redraw
        start = folder_files(folders)
        t0, moves = time.perf_counter(), 0
        while moves < args.moves:
            for t in tabs:
                for j, slider in t["sliders"]:
                    if moves >= args.moves:
                        break
                    top = config["components"][[c["id"] for c in config["components"]].index(slider)]["props"]
                    value = 1 + moves % int(top.get("maximum") or 1)
                    s.run(j, {slider: value})
                    moves += 1
        after_moves = folder_files(folders)
        b, n = written(start, after_moves)
        print(f"{moves} slider moves in {time.perf_counter() - t0:.1f} s: {b:,} bytes in {n} files written "
              "under the temporary folders")
        t0 = time.perf_counter()
        text_box = lambda dep: next((c for c in config["dependencies"][dep]["inputs"]  # noqa: E731
                                     if s.components.get(c, {}).get("type") == "textbox"), None)

        def new_text(t, k):  # the tab's text box given another sentence (BERT's: with its [MASK])
            box = text_box(t["run"])
            return None if box is None else {box: (MASKED if "[MASK]" in t["name"] else TEXTS)[k % len(TEXTS)]}
        for k in range(args.runs):
            t = tabs[k % len(tabs)]
            s.run(t["run"], new_text(t, k))
        after_runs = folder_files(folders)
        b, n = written(after_moves, after_runs)
        print(f"{args.runs} runs in {time.perf_counter() - t0:.1f} s: {b:,} bytes in {n} files written")
        presses = [t for t in tabs if t["press"] is not None]
        if presses:
            t0 = time.perf_counter()
            for k in range(args.presses):
                t = presses[k % len(presses)]
                s.run(t["run"], new_text(t, k))  # a new record
                s.run(t["press"])
            after_presses = folder_files(folders)
            b, n = written(after_runs, after_presses)
            print(f"{args.presses} download presses (each after a run) in {time.perf_counter() - t0:.1f} s: "
                  f"{b:,} bytes in {n} files written")
        else:
            print("no download button: the runs and slider moves above wrote the downloads")
        end = folder_files(folders)
        size = sum(v[0] for v in end.values())
        try:
            from explorer.serve.downloads import BUDGET_MB
            budget = f" (budget {args.disk_mb or BUDGET_MB:g} MB)"
        except ImportError:
            budget = ""
        if s.waits:
            print(f"({s.waits} joins waited for the page's rate limit, ui/limits.py)")
        print(f"temporary folders at the end: {size / 1e6:,.1f} MB in {len(end)} files{budget}")
    finally:
        stop(proc)


if __name__ == "__main__":
    main()
