"""What a slider move costs on the server: the redraw handlers of the Transformer and BERT tabs
(layer/head sliders) and of the seq2seq tab (step slider), in-process, split into the part that
builds the figures and tables and the part that sets its downloads aside (`to_download`: nothing is
written until the download button, explorer/serve/downloads.py), plus what Gradio then spends turning the
figures into JSON, and what a press of the download button then takes (record JSON, CSVs, figures page).

    python3 -m bench.redraw [--runs 20]

Each redraw reads a record the tab's button produced before (no model call). "downloads" is
the total minus the same redraw with `to_download` replaced by a no-op, measured in
alternation so that a busy machine slows both alike. Prints figures; asserts nothing.
"""
from __future__ import annotations

import argparse
import dataclasses
import statistics

import plotly.graph_objects as go

from bench.latency import time_calls
from explorer.compute import inference as inf
from explorer.serve.downloads import NO_DOWNLOADS
from explorer.views import bert as bert_views, seq2seq as s2s_views, transformer as tr_views


# Sentences written for this benchmark (the 12-word one of bench/latency.py and a classroom one).
TEXT = "The young doctor walked to the old station after work every day ."
MASKED = "The young doctor walked to the old [MASK] after work every day ."


def _figures(view) -> list[go.Figure]:
    return [v for v in (getattr(view, f.name) for f in dataclasses.fields(view)) if isinstance(v, go.Figure)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=20)
    args = ap.parse_args()
    tr = inf.translate("transformer-en-fr", TEXT, 1)
    s2s = inf.translate("seq2seq-dot", TEXT, 1)
    bert = inf.fill_mask(MASKED)
    cases = {  # name -> (redraw at a given slider position i, what it returns holds the figures; explorer/views/)
        "transformer layer/head": lambda i: tr_views.transformer_heads(tr, 1 + i % 3, 1 + i % 8),
        "bert layer/head": lambda i: bert_views.bert_render(bert, 1 + i % 6, 1 + i % 6),
        "seq2seq step": lambda i: s2s_views.seq2seq_step(s2s, 1 + i % len(s2s.target_tokens)),
    }
    views = (tr_views, bert_views, s2s_views)  # each view module calls its own imported to_download
    real = tr_views.to_download
    print(f"{'redraw':<24} {'total p50':>10} {'no downloads':>13} {'downloads':>10} {'figure JSON':>12} "
          f"{'press':>8}  (ms, {args.runs} runs each)")
    for name, redraw in cases.items():
        for i in range(3):  # warm-up: first figures, first files
            redraw(i)
        total, bare = [], []
        for i in range(args.runs):
            total += time_calls(lambda: redraw(i), 1, 0)
            for m in views:
                m.to_download = lambda *a, **k: NO_DOWNLOADS
            try:
                bare += time_calls(lambda: redraw(i), 1, 0)
            finally:
                for m in views:
                    m.to_download = real
        out = redraw(0)
        figs = _figures(out) if dataclasses.is_dataclass(out) else [v for v in out if isinstance(v, go.Figure)]
        to_json = time_calls(lambda: [f.to_json() for f in figs], args.runs, 0)
        files = getattr(out, "files", None)
        press = statistics.median(time_calls(files.write, max(1, args.runs // 4), 0)) if files else float("nan")
        t, b = statistics.median(total), statistics.median(bare)
        print(f"{name:<24} {t:>10.1f} {b:>13.1f} {t - b:>10.1f} {statistics.median(to_json):>12.1f} {press:>8.1f}")


if __name__ == "__main__":
    main()
