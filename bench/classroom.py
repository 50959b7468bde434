"""A class on one server: N students, each its own gradio_client session from 127.0.0.1, arriving within a window,
against `python app.py` and, in the same run, against a bare Gradio app with trivial handlers and the same endpoints
(so the figure is a ratio: what the models and the app add to what Gradio itself costs on this machine).

    python3 -m bench.classroom                          # 10 students arriving within 10 s
    python3 -m bench.classroom --students 40 --window 20
    python3 -m bench.classroom --unshared              # also a class against the app with sharing off
    python3 -m bench.classroom --replicas 2            # also the class through nginx and 2 replicas (deploy/)

Each student, at a random moment of the window:
1. opens the app: GET / (the page) and gradio_client's Client (its /config and /info),
2. runs the deck's example, the Transformer tab's default: /translate "I am a student.", transformer-en-fr, beam 4
   (identical for every student: computed once, explorer/serve/results.py),
3. translates a 12-word sentence of their own (/translate, beam 4; different for every student),
4. runs another tab's example: /fill_mask "the man went to the [MASK] ." with top-k 5 (the BERT tab's default),
5. presses Translate in the page's Transformer tab on the deck's example (the page's own event, as a browser sends
   it: bench/_page.py; identical for every student: computed once, ui/shared_runs.py).

Prints p50 and p95 per kind of event (seconds from the student's request to their result, waiting included),
the errors by kind, and each server's peak resident memory (VmHWM); the ratio app / bare per kind. Models are read
at their first use, so the app is warmed first with one call of each endpoint on other inputs (not the class's).
Prints figures; asserts nothing. Never imports ui/: the app is a process, measured over HTTP.
"""
from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections import Counter, defaultdict

import httpx

from bench._server import ROOT, free_port, start_app, stop, wait_until_up
from bench._page import Page, inputs
from deploy.replicas import serve

# gradio_client's own HTTP calls (/config, /info) give up after httpx's 5 s; a student's browser waits longer, and the
# time to open is measured ("open"), so a slow start counts as slow, not as an error
PATIENCE = {"timeout": 60}
DECK = ("I am a student.", "transformer-en-fr", 4)
BERT_EXAMPLE = ("the man went to the [MASK] .", 5)
KINDS = ("open", "example", "own sentence", "other tab", "page example")
PAGE_INPUTS = {"Sentence": DECK[0], "Model": DECK[1], "Beam size (1 = greedy)": DECK[2]}  # the Transformer tab's
NOUNS = ["the teacher", "my friend", "a student", "our class", "the man", "the dog", "her brother",
         "his sister", "the children", "my mother"]
VERBS = ["reads", "sees", "likes", "visits", "finds", "takes", "calls", "helps"]
OBJECTS = ["the new book", "a red car", "the big house", "the long letter", "a green apple", "the black cat"]
PLACES = ["in the garden", "at the station", "near the river", "after the lesson", "before the dinner"]

# The bare app: the same endpoints and inputs, handlers that return at once (Gradio's own cost on this machine).
BARE_APP = '''
import os
import gradio as gr

def translate(text, model, beam):
    return text.upper(), {"model": model, "beam": beam}

def fill_mask(text, k):
    return {"text": text, "k": k}

with gr.Blocks() as demo:
    text, model, n = gr.Textbox(), gr.Textbox(), gr.Number(precision=None)
    out, trace = gr.Textbox(), gr.JSON()
    gr.Button().click(translate, [text, model, n], [out, trace], api_name="translate", concurrency_id="models")
    gr.Button().click(fill_mask, [text, n], trace, api_name="fill_mask", concurrency_id="models")
    # the page's Translate (bench.classroom.press_translate finds it by its label and its beam-size input)
    page_inputs = [gr.Textbox(label="Sentence"), gr.Textbox(label="Model"), gr.Number(label="Beam size (1 = greedy)")]
    gr.Button("Translate").click(lambda s, m, b: "Je suis étudiant." if s == "I am a student." else s.upper(),
                                 page_inputs, gr.Textbox(), api_visibility="private", concurrency_id="models")
demo.queue(default_concurrency_limit=2)  # as the app's (2 vCPUs)
demo.launch(server_name="127.0.0.1", server_port=int(os.environ["GRADIO_SERVER_PORT"]), quiet=True)
'''


def own_sentence(rng: random.Random) -> str:
    """A 12-word English sentence of the student's own, e.g. "The teacher reads the new book in the garden with my
    friend."."""
    words = (f"{rng.choice(NOUNS)} {rng.choice(VERBS)} {rng.choice(OBJECTS)} {rng.choice(PLACES)} with "
             f"{rng.choice(NOUNS)}").split()  # 2 + 1 + 3 + 3 + 1 + 2 words
    return " ".join(words).capitalize() + "."


def peak_rss_mib(pid: int) -> float:
    """The process's peak resident memory (VmHWM), MiB."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def start_bare() -> tuple[subprocess.Popen, str]:
    port = free_port()
    script = tempfile.NamedTemporaryFile("w", suffix="_bare_app.py", delete=False)
    script.write(BARE_APP)
    script.close()
    env = {**os.environ, "GRADIO_SERVER_PORT": str(port), "GRADIO_ANALYTICS_ENABLED": "False"}
    proc = subprocess.Popen([sys.executable, script.name], env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}/"
    try:
        wait_until_up(proc, url, 120, "the bare app")
    finally:
        os.unlink(script.name)
    return proc, url


def student(url: str, i: int, at: float, t0: float, seed: int, times: dict, errors: Counter, lock) -> None:
    """One student: waits for their moment of the window, then the four steps, each timed."""
    from gradio_client import Client

    rng = random.Random(seed * 1000 + i)
    time.sleep(max(0.0, t0 + at - time.monotonic()))  # the arrival the class was given, not waiting for work
    client = None

    def step(kind, fn):
        start = time.perf_counter()
        try:
            out = fn()
        except Exception as e:  # noqa: BLE001 - counted and printed, the class goes on
            with lock:
                errors[(kind, f"{type(e).__name__}: {str(e)[:80]}")] += 1
            return None
        with lock:
            times[kind].append(time.perf_counter() - start)
        return out

    def open_app():
        nonlocal client
        with urllib.request.urlopen(url, timeout=300) as r:
            r.read()
        client = Client(url, verbose=False, download_files=False, httpx_kwargs=PATIENCE)
        return client

    if step("open", open_app) is None:
        return
    step("example", lambda: client.submit(*DECK, api_name="/translate").result(timeout=600))
    step("own sentence", lambda: client.submit(own_sentence(rng), "transformer-en-fr", 4,
                                               api_name="/translate").result(timeout=600))
    step("other tab", lambda: client.submit(*BERT_EXAMPLE, api_name="/fill_mask").result(timeout=600))
    step("page example", lambda: press_translate(url))


def transformer_translate(config: dict) -> dict:
    """The page's event of the Transformer tab's Translate button (the one with a beam-size input)."""
    components = {c["id"]: c for c in config["components"]}
    for dep in config["dependencies"]:
        buttons = [components.get(t[0], {}) for t in dep["targets"] if t[1] == "click"]
        labels = {components[i].get("props", {}).get("label") for i in dep["inputs"]}
        if any(b.get("props", {}).get("value") == "Translate" for b in buttons) and "Beam size (1 = greedy)" in labels:
            return dep
    raise RuntimeError("no Translate button with a beam size in the page")


def press_translate(url: str) -> list:
    """A page (its own session) presses Translate in the Transformer tab on the deck's example."""
    page = Page(url)
    try:
        config = page.client.get(f"{url}config").json()  # as a page load: behind deploy/'s nginx, sets the cookie
        dep = transformer_translate(config)
        out = page.run(dep, inputs(config, dep, PAGE_INPUTS))
        if not out or out[0] != "Je suis étudiant.":
            raise RuntimeError(f"the page's translation: {str(out[:1])[:80]}")
        return out
    finally:
        page.close()


def run_class(url: str, students: int, window: float, seed: int) -> tuple[dict, Counter, float]:
    """(seconds per kind, errors, wall seconds) of one class against `url`."""
    rng = random.Random(seed)
    arrivals = sorted(rng.uniform(0, window) for _ in range(students))
    times, errors, lock = defaultdict(list), Counter(), threading.Lock()
    t0 = time.monotonic() + 0.5
    threads = [threading.Thread(target=student, args=(url, i, at, t0, seed, times, errors, lock), daemon=True)
               for i, at in enumerate(arrivals)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(1800)
    return times, errors, time.monotonic() - t0


def quantile(xs: list[float], q: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]


def warm(url: str) -> None:
    """Each endpoint once on other inputs: the models are read at their first use, not at start."""
    from gradio_client import Client

    c = Client(url, verbose=False, download_files=False, httpx_kwargs=PATIENCE)
    c.predict("Good morning.", "transformer-en-fr", 1, api_name="/translate")
    c.predict("I like [MASK] .", 5, api_name="/fill_mask")
    config = httpx.get(f"{url}config", timeout=60).json()  # the page's Transformer tab, on another sentence
    page = Page(url)
    try:
        dep = transformer_translate(config)
        page.run(dep, inputs(config, dep, {**PAGE_INPUTS, "Sentence": "Good morning."}))
    finally:
        page.close()


def report(name: str, times: dict, errors: Counter, wall: float, rss: float) -> None:
    n = sum(len(v) for v in times.values())
    print(f"{name}: {n} events in {wall:.1f} s ({n / wall:.2f} a second), peak RSS {rss:.0f} MiB, "
          f"errors {sum(errors.values())}")
    for (kind, what), n in sorted(errors.items()):
        print(f"    {n} x {kind}: {what}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--students", type=int, default=10)
    ap.add_argument("--window", type=float, default=10.0, help="seconds within which the students arrive")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--unshared", action="store_true",
                    help="a third class against the app with ATTN_EXPLORER_SHARED_RESULTS=0 (every request computed)")
    ap.add_argument("--replicas", type=int, default=0,
                    help="also the class through nginx and this many replicas (deploy/replicas.py); their peak RSS "
                         "is the sum of the replicas'")
    args = ap.parse_args()
    print(f"{args.students} students arriving within {args.window:g} s; {os.cpu_count()} CPUs, load average "
          f"{', '.join(f'{x:.1f}' for x in os.getloadavg())}")

    results = {}
    proc, url = start_bare()
    try:
        warm(url)  # the same calls: its handlers take the same inputs
        times, errors, wall = run_class(url, args.students, args.window, args.seed)
        results["bare"] = times
        report("bare Gradio", times, errors, wall, peak_rss_mib(proc.pid))
    finally:
        stop(proc)

    apps = [("app", {})] + ([("unshared", {"ATTN_EXPLORER_SHARED_RESULTS": "0"})] if args.unshared else [])
    for name, env in apps:
        proc, url, started = start_app(cwd=ROOT, env=env)
        try:
            warm(url)
            times, errors, wall = run_class(url, args.students, args.window, args.seed)
            results[name] = times
            report(f"app.py{' with sharing off' if env else ''} (first HTTP 200 after {started:.1f} s)", times,
                   errors, wall, peak_rss_mib(proc.pid))
        finally:
            stop(proc)
    if args.replicas:
        name = f"{args.replicas} replicas"
        apps.append((name, {}))
        with serve(args.replicas, free_port()) as d:
            for replica in d.replicas:
                warm(f"http://{replica}/")
            times, errors, wall = run_class(d.url, args.students, args.window, args.seed)
            results[name] = times
            report(f"nginx + {name}", times, errors, wall, sum(peak_rss_mib(p.pid) for p in d.procs))

    for name in [n for n, _ in apps]:
        print(f"\n{name}: seconds per event, {args.students} students  p50      p95  bare p50  bare p95  "
              "p50 ratio  p95 ratio")
        for kind in KINDS:
            a, b = results[name].get(kind, []), results["bare"].get(kind, [])
            ap50, ap95, bp50, bp95 = quantile(a, .5), quantile(a, .95), quantile(b, .5), quantile(b, .95)
            print(f"{kind:<34}{ap50:8.2f}{ap95:9.2f}{bp50:10.2f}{bp95:10.2f}{ap50 / bp50:10.1f}x"
                  f"{ap95 / bp95:10.1f}x")
    print(f"load average after: {', '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
