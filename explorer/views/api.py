"""What the public API endpoints (/translate, /fill_mask, /nsp; ui/api.py) return besides the record:
one attention map each, and the record's JSON with BERT's per-head attention left out past a length.
"""
from __future__ import annotations

from dataclasses import replace

import plotly.graph_objects as go

from explorer.serve.downloads import API_TRACE_MAX_TOKENS  # every layer and head sent up to this many tokens
from explorer import figures as fg
from explorer.compute import inference as inf
from explorer.i18n import t
from explorer.compute.inference import BertResult, TranslationResult
from explorer.views.seq2seq import alignment


def cross_overview(r: TranslationResult) -> go.Figure:
    """The /translate figure: one target x source alignment map. A single-head (RNN) model's
    map is its only one; a Transformer's is the last layer's cross attention averaged over
    heads. Every layer and head is in the JSON trace; the UI draws them all. (One map instead
    of the all-heads grid keeps the API under its latency budget: bench/latency.py.)"""
    a = r.trace.cross
    if a is None or a.shape[:2] == (1, 1):
        return alignment(r)
    L, H = a.shape[:2]
    return fg.heatmap(a[-1].mean(0), r.source_tokens, r.target_tokens, t("api.cross_mean", model=r.model, l=L, h=H),
                      x_title=t("fig.source"), y_title=t("api.target"))


def bert_overview(r: BertResult) -> go.Figure:
    """The /fill_mask and /nsp attention figure: the last layer's self-attention averaged over its
    heads, as /translate's is. Every layer and head is in the JSON trace; the UI draws them all. With
    12 layers the all-heads grid (72 maps) doubled the response and made these endpoints ~1.5x slower
    at 12 words (bench/latency.py; docs/performance.md)."""
    a = r.trace.enc_self
    L, H = a.shape[:2]
    return fg.heatmap(a[-1].mean(0), r.tokens, r.tokens, t("api.bert_mean", l=L, h=H), segments=r.segments)



def bert_api_record(r: BertResult) -> dict:
    """The /fill_mask and /nsp JSON: the record, whose per-head attention is left out (null, with a notice)
    past API_TRACE_MAX_TOKENS. A 256-token paragraph's 12 x 6 x 256 x 256 numbers took Gradio's JSON
    ~30 s and grew the server by ~400 MiB, holding up every other user (bench/long_input.py);
    /translate's sources stop at 64 tokens anyway."""
    n = len(r.tokens)
    if n <= API_TRACE_MAX_TOKENS:
        return r.to_json(decimals=inf.API_DECIMALS)
    note = inf.Notice(f"attention.enc_self is sent for inputs of up to {API_TRACE_MAX_TOKENS} tokens (this one has "
                      f"{n}): the figure is the last layer's mean over heads; explorer.compute.inference in Python returns "
                      "every layer and head for any length.", "api_trace_left_out", limit=API_TRACE_MAX_TOKENS,
                      tokens=n)
    short = replace(r, trace=replace(r.trace, enc_self=None), notices=[*r.notices, note])
    return short.to_json(decimals=inf.API_DECIMALS)
