"""Each API endpoint of `python app.py` against the bare Gradio floor, over HTTP in the same run (the target:
"12-word /translate p50 <= 2x the bare Gradio floor ..., every endpoint").

    python3 -m bench.floor [--runs 20] [--warmup 3] [--client http|gradio]

The floor is a Gradio app with nothing of ours: one gr.Blocks, one event (api_name "floor") whose handler
returns a small plotly figure (a 12 x 12 heatmap) and a small JSON, served by its own process like the app.
Every call is the same plain HTTP a client makes (POST /gradio_api/call/<name>, then its event stream to the
end, each call its own session), the floor's and the endpoint's interleaved call by call so that a busy shared
machine slows both alike. Beside them, interleaved too, the endpoint's work in this process (the explorer calls
ui/api.py's endpoint makes: the model, the figures and the JSON; one torch thread as in the app), to tell what the
model costs from what serving it costs. The app runs with ATTN_EXPLORER_SHARED_RESULTS=0, so that each call is
computed as a visitor's new sentence is, not looked up (`--shared`: as deployed, the repeats then lookups). Never
imports ui/: the app is a process, measured over HTTP. Prints, per endpoint, the p50 and p95 of each, the ratio of
the p50s (target <= 2), the serving share (HTTP p50 - handler p50) and the response sizes. `--client gradio`: both
apps called through gradio_client instead (one Client, one session, per endpoint and per app: a visitor's notebook),
which is how the target was first measured; its own cost (encoding, polling the stream) is then in both columns.
Prints figures; asserts nothing.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

from bench._server import free_port, start_app, stop, wait_until_up
from bench.latency import MASK_12, NSP_12, TEXT_12, pct, session_call


FLOOR_APP = """
import os
import gradio as gr
import numpy as np
import plotly.graph_objects as go

def floor(text):
    z = np.arange(144.0).reshape(12, 12) / 144
    fig = go.Figure(go.Heatmap(z=z, x=text.split()[:12], y=text.split()[:12]))
    return fig, {"tokens": text.split(), "n": len(text.split())}

with gr.Blocks() as demo:
    box = gr.Textbox()
    gr.Button().click(floor, box, [gr.Plot(), gr.JSON()], api_name="floor")
demo.queue(default_concurrency_limit=2)
demo.launch(server_port=int(os.environ["GRADIO_SERVER_PORT"]), quiet=True)
"""

# (label, api_name, inputs): 12-word inputs (bench/latency.py's sentences), the endpoints' other inputs at defaults
ENDPOINTS = [
    ("/translate transformer-en-fr", "/translate", (TEXT_12, "transformer-en-fr", 1)),
    ("/translate seq2seq-additive", "/translate", (TEXT_12, "seq2seq-additive", 1)),
    ("/translate transformer-ko-en", "/translate", ("나는 매일 일이 끝나면 오래된 역까지 천천히 걸어간다 그리고 집에 간다 .",
                                                    "transformer-ko-en", 1)),
    ("/fill_mask top-5", "/fill_mask", (MASK_12, 5)),
    ("/nsp", "/nsp", NSP_12),
    ("/generate 12 new tokens, greedy", "/generate", (TEXT_12, 12, 1.0, 0, 1.0, 0, True)),
    ("/sentiment_analysis", "/sentiment_analysis", ("I really loved the old station and the kind young doctor there .",)),
    ("/nli", "/nli", ("The young doctor walked to the station .", "A doctor went somewhere .")),
    ("/pos", "/pos", (TEXT_12,)),
    ("/ner", "/ner", ("The young doctor from Paris walked to Victoria station every day .",)),
    ("/question_answering", "/question_answering", ("Where did the doctor walk ?", TEXT_12)),
]


def start_floor() -> tuple[subprocess.Popen, str]:
    port = free_port()
    env = {**os.environ, "GRADIO_SERVER_PORT": str(port), "GRADIO_ANALYTICS_ENABLED": "False"}
    proc = subprocess.Popen([sys.executable, "-c", FLOOR_APP], env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}/"
    wait_until_up(proc, url, 120, "the floor app")
    return proc, url


def call_client(url: str, api_name: str, params):
    """A caller through gradio_client: one Client (one session) made now, outside the timing; each call returns
    what the client gives back, as text."""
    from gradio_client import Client

    client = Client(url, verbose=False)
    return lambda: str(client.predict(*params, api_name=api_name))


def timed(fn) -> tuple[float, str]:
    t0 = time.perf_counter()
    body = fn()
    return (time.perf_counter() - t0) * 1000, body


def work() -> dict:
    """api_name -> the explorer calls its endpoint makes (ui/api.py: the model, its figures, the record's JSON)."""
    import orjson

    from explorer.compute import generate as gen
    from explorer.compute import inference as inf
    from explorer.compute import pipeline as ft
    from explorer.views.api import bert_api_record, bert_overview, cross_overview
    from explorer.views.bert import nsp_figure, topk_figure

    def wire(*outputs):  # what Gradio sends: each figure's JSON, each record's
        return [o.to_json() if hasattr(o, "to_json") and not isinstance(o, dict) else
                orjson.dumps(o, option=orjson.OPT_SERIALIZE_NUMPY, default=str) for o in outputs]

    def translate(text, model, beam):
        r = inf.translate(model, text, beam)
        return wire(cross_overview(r), r.to_json(decimals=inf.API_DECIMALS))

    def bert(r, first):
        return wire(first(r), bert_overview(r), bert_api_record(r))

    tasks = {"/sentiment_analysis": lambda t: wire(ft.classify("sentiment", t).to_json()),
             "/nli": lambda t, h: wire(ft.classify("nli", t, h).to_json()),
             "/pos": lambda t: wire(ft.tag("pos", t).to_json()), "/ner": lambda t: wire(ft.tag("ner", t).to_json()),
             "/question_answering": lambda q, c: wire(ft.answer(q, c).to_json())}
    return {"/translate": translate, "/fill_mask": lambda t, k: bert(inf.fill_mask(t, k), topk_figure),
            "/nsp": lambda a, b: bert(inf.nsp(a, b), nsp_figure),
            "/generate": lambda *a: wire(gen.generate(*a).to_json()), **tasks}


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=20, help="timed calls of each endpoint (and as many of the floor)")
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--client", choices=("http", "gradio"), default="http",
                    help="plain HTTP (default) or gradio_client for both the app and the floor")
    ap.add_argument("--shared", action="store_true",
                    help="the app as deployed, identical calls shared (after the first, every call is a lookup)")
    args = ap.parse_args(argv)
    import torch

    torch.set_num_threads(1)
    handlers = work()
    floor_proc, floor_url = start_floor()
    rows, failed = [], []
    try:
        proc, url, seconds = start_app(env=None if args.shared else {"ATTN_EXPLORER_SHARED_RESULTS": "0"})
        try:
            plain = args.client == "http"
            for label, name, params in ENDPOINTS:
                if plain:
                    floor_call = lambda: session_call(floor_url, "/floor", (TEXT_12,))  # noqa: E731
                    call = lambda: session_call(url, name, params)  # noqa: E731
                else:
                    floor_call, call = call_client(floor_url, "/floor", (TEXT_12,)), call_client(url, name, params)
                handler = lambda: handlers[name](*params)  # noqa: E731
                try:
                    for _ in range(args.warmup):
                        call(), floor_call(), handler()
                except (RuntimeError, ValueError) as e:  # gradio_client's AppError is a ValueError
                    failed.append(f"{label}: {str(e)[:160]}")
                    continue
                ours, floor, own = [], [], []
                for _ in range(args.runs):
                    ours.append(timed(call)[0])
                    floor.append(timed(floor_call)[0])
                    own.append(timed(handler)[0])
                # the answers' sizes as sent (the event stream), either client: one plain call of each
                sizes = [len(session_call(u, n, p).encode()) / 1024
                         for u, n, p in ((url, name, params), (floor_url, "/floor", (TEXT_12,)))]
                rows.append((label, pct(ours, 50), pct(ours, 95), pct(floor, 50), pct(floor, 95), pct(own, 50),
                             *sizes))
        finally:
            stop(proc)
    finally:
        stop(floor_proc)
    how = "plain HTTP (POST /call + event stream)" if args.client == "http" else "gradio_client (one Client each)"
    print(f"\n{how}, {args.runs} calls each after {args.warmup} warm-ups, the "
          f"floor's interleaved; {os.cpu_count()} CPUs, load {', '.join(f'{x:.1f}' for x in os.getloadavg())}")
    print("p50/p95: the endpoint's call; floor: the bare Gradio app's; handler: the endpoint's explorer "
          f"calls in-process; serving: p50 - handler p50; shared results {'on' if args.shared else 'off'}")
    head = (f"{'endpoint (12 words)':<34}{'p50 ms':>8}{'p95 ms':>8}{'floor p50':>10}{'floor p95':>10}"
            f"{'p50/floor':>10}{'handler':>8}{'serving':>8}{'kB':>7}{'floor kB':>9}  <= 2x?")
    print(head)
    print("-" * len(head))
    for label, o50, o95, f50, f95, h50, kb, fkb in rows:
        print(f"{label:<34}{o50:8.0f}{o95:8.0f}{f50:10.0f}{f95:10.0f}{o50 / f50:9.1f}x{h50:8.0f}{o50 - h50:8.0f}"
              f"{kb:7.0f}{fkb:9.1f}  {'yes' if o50 <= 2 * f50 else 'NO'}")
    for f in failed:
        print(f"failed: {f}")
    print(f"met on {sum(o50 <= 2 * f50 for _, o50, _, f50, *_ in rows)}/{len(rows)} endpoints")


if __name__ == "__main__":
    main()
