"""The GPT tab's composition: a prompt continued token by token (greedy, temperature, top-k, top-p), each step's
next-token distribution, the causal self-attention of the final sequence per layer and head with its masked scores
(-inf above the diagonal, as the Transformer tab draws them), and the same text through BERT and the GPT side by
side: what each token may see, and where each model looks. Records come from explorer.compute.generate; figures from
explorer.figures.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from explorer import figures as fg
from explorer import i18n
from explorer.compute.generate import GenerationResult, SideBySide, generate_stream, side_by_side
from explorer.compute.generate import MAX_NEW_TOKENS, MAX_TEMPERATURE, check_settings  # noqa: F401 (the tab's limits)
from explorer.compute.generate import DEFAULT_TEMPERATURE, DEFAULT_TOP_K, DEFAULT_TOP_P  # and its defaults
from explorer.views import Downloads, NO_DOWNLOADS, matrix_table, md, notices_md, to_download
from explorer.views.transformer import pick

STEP_COLUMNS = ["step", "token", "probability", "sampled probability", "entropy (nats)", "most likely next tokens"]


@dataclass(frozen=True)
class GptHeads:
    """The attention views of a finished generation for a chosen (layer, head) and step."""
    step: go.Figure  # the chosen step's next-token distribution (top alternatives)
    grid: go.Figure  # every head of every layer
    head: go.Figure  # the chosen head, the chosen step's query row outlined
    scores: go.Figure  # masked scores QK^T/sqrt(d_k) beside their softmax
    files: Downloads


@dataclass(frozen=True)
class GptView:
    text: str  # markdown: the prompt, then the continuation in bold
    notice: str
    steps: pd.DataFrame
    heads: GptHeads | None  # None while streaming (the attention comes with the last record)
    record: GenerationResult
    n_layers: int
    n_heads: int
    n_steps: int


def text_md(r: GenerationResult) -> str:
    """The prompt as read, then the new text in bold (escaped: both are user-controlled)."""
    new = f" **{md(r.continuation)}**" if r.continuation else ""
    return f"{md(r.prompt.lower())}{new}"


def steps_table(r: GenerationResult, lang: str = "en") -> pd.DataFrame:
    rows = [[i + 1, s.token, s.probability, s.sampled_probability, s.entropy,
             " · ".join(f"{a.token} {a.probability:.3f}" for a in s.top[:5])] for i, s in enumerate(r.steps)]
    return i18n.localized(pd.DataFrame(rows, columns=STEP_COLUMNS), lang)


def pick_step(r: GenerationResult, step) -> int:
    """1-based step from the UI -> an index into r.steps (clamped; the last one by default)."""
    n = len(r.steps)
    return int(np.clip(int(step or n), 1, max(n, 1))) - 1


def step_figure(r: GenerationResult, step=None, lang: str = "en") -> go.Figure:
    if not r.steps:
        return fg.placeholder(i18n.t("gpt.no_steps", lang))
    i = pick_step(r, step)
    s = r.steps[i]
    label = i18n.t("gpt.step_label", lang, i=i + 1, token=s.token, p=s.probability)
    return fg.topk_bars([(label, [a.token for a in s.top], [a.probability for a in s.top])],
                        i18n.t("gpt.step_title", lang, i=i + 1), labels=i18n.figure_labels(lang))


def gpt_heads(r: GenerationResult | None, layer=1, head=1, step=None, lang: str = "en") -> GptHeads:
    """Every attention view of a finished record for (layer, head, step); no model call."""
    if r is None or r.trace is None:
        p = fg.placeholder(i18n.t("gpt.generate_first", lang))
        return GptHeads(p, p, p, p, NO_DOWNLOADS)
    words = i18n.figure_labels(lang)
    a, s, toks = r.trace.dec_self, r.trace.dec_self_scores, r.tokens
    l, h = pick(a, layer, head)
    title = i18n.t("gpt.title", lang)
    # the query that produced the chosen step's token is the position before it
    row = r.steps[pick_step(r, step)].position - 1 if r.steps else None
    figs = {
        "step": step_figure(r, step, lang),
        "grid": fg.head_grid(a, toks, toks, i18n.t("view.all_heads", lang, title=title), selected=(l, h),
                             labels=words),
        "head": fg.heatmap(a[l, h], toks, toks, i18n.t("view.layer_head", lang, title=title, l=l + 1, h=h + 1),
                           x_title=i18n.t("fig.key", lang), y_title=i18n.t("fig.query", lang), highlight_row=row,
                           labels=words),
        "scores": fg.masked_scores(s[l, h], a[l, h], toks, toks, i18n.t("gpt.scores_title", lang, l=l + 1, h=h + 1),
                                   labels=words),
    }
    tables = {f"dec_self-L{l + 1}H{h + 1}": matrix_table(a[l, h], toks, toks),
              f"dec_self_scores-L{l + 1}H{h + 1}": matrix_table(s[l, h], toks, toks),
              "steps": steps_table(r, lang)}
    files = to_download(r.model, r, tables, figs, lang)
    return GptHeads(figs["step"], figs["grid"], figs["head"], figs["scores"], files)


def _view(r: GenerationResult, layer, head, step, lang) -> GptView:
    heads = gpt_heads(r, layer, head, step, lang) if r.done else None
    L, H = r.trace.dec_self.shape[:2] if r.trace is not None else (1, 1)
    return GptView(text_md(r), notices_md(r.notices, lang=lang), steps_table(r, lang), heads, r, L, H, len(r.steps))


def gpt_stream(prompt: str, max_new_tokens=30, temperature=DEFAULT_TEMPERATURE, top_k=DEFAULT_TOP_K,
               top_p=DEFAULT_TOP_P, seed=0, greedy=False, layer=1, head=1, lang: str = "en", name: str = "gpt",
               reg=None) -> Iterator[GptView]:
    """A view after every new token (text and steps only), then the finished one with every figure. Closing the
    generator (the visitor left) stops the generation."""
    stream = generate_stream(prompt, max_new_tokens, temperature, top_k, top_p, seed, greedy, name=name, reg=reg)
    try:
        for r in stream:
            yield _view(r, layer, head, None, lang)
    finally:
        stream.close()


def gpt_view(prompt: str, max_new_tokens=30, temperature=DEFAULT_TEMPERATURE, top_k=DEFAULT_TOP_K,
             top_p=DEFAULT_TOP_P, seed=0, greedy=False, layer=1, head=1, lang: str = "en", name: str = "gpt",
             reg=None) -> GptView:
    """The finished view (no streaming)."""
    v = None
    for v in gpt_stream(prompt, max_new_tokens, temperature, top_k, top_p, seed, greedy, layer, head, lang, name,
                        reg):
        pass
    return v


def gpt_redraw(r: GenerationResult | None, layer=1, head=1, step=None, lang: str = "en") -> GptView | None:
    """The view of a kept record in another language or for another layer, head or step (no model call)."""
    return None if r is None else _view(r, layer, head, step, lang)


# ----------------------------------------------------------------------------- BERT beside GPT


@dataclass(frozen=True)
class CompareView:
    visibility: go.Figure  # what each token may see: BERT's all-ones mask beside GPT's lower triangle
    bert: go.Figure  # BERT's chosen head
    gpt: go.Figure  # GPT's chosen head
    summary: str  # markdown: how far back each model looks, on average, in the chosen heads
    notice: str
    files: Downloads
    record: SideBySide
    bert_size: tuple[int, int]  # (layers, heads)
    gpt_size: tuple[int, int]


def visibility_figure(tokens, lang: str = "en") -> go.Figure:
    """1 where a query may attend to a key: BERT's full matrix and the GPT's causal triangle, side by side."""
    n = len(tokens)
    both = np.concatenate([np.ones((n, n)), np.full((n, 1), np.nan), np.tril(np.ones((n, n)))], axis=1)
    cols = [f"{t}" for t in tokens] + ["│"] + [f"{t} " for t in tokens]
    return fg.heatmap(np.nan_to_num(both, nan=0.5), cols, list(tokens), i18n.t("gpt.visibility_title", lang),
                      x_title=i18n.t("gpt.visibility_keys", lang), y_title=i18n.t("fig.query", lang),
                      labels=i18n.figure_labels(lang))


def mean_distance(att: np.ndarray) -> float:
    """How far back (positive) or ahead (negative) a head looks, in tokens: sum_j a_ij (i - j), averaged over rows."""
    n = att.shape[-1]
    offsets = np.arange(n)[:, None] - np.arange(n)[None, :]  # (q, k): i - j
    return float((att * offsets).sum(-1).mean())


def compare_view(text: str, bert_layer=1, bert_head=1, gpt_layer=1, gpt_head=1, lang: str = "en",
                 bert: str = "bert", gpt: str = "gpt", reg=None) -> CompareView:
    r = side_by_side(text, bert, gpt, reg)
    return compare_redraw(r, bert_layer, bert_head, gpt_layer, gpt_head, lang)


def compare_redraw(r: SideBySide, bert_layer=1, bert_head=1, gpt_layer=1, gpt_head=1,
                   lang: str = "en") -> CompareView:
    words = i18n.figure_labels(lang)
    toks, b, g = r.tokens, r.bert.enc_self, r.gpt.dec_self
    bl, bh = pick(b, bert_layer, bert_head)
    gl, gh = pick(g, gpt_layer, gpt_head)
    kw = dict(x_title=i18n.t("fig.key", lang), y_title=i18n.t("fig.query", lang), labels=words)
    bert_fig = fg.heatmap(b[bl, bh], toks, toks, i18n.t("gpt.bert_head", lang, l=bl + 1, h=bh + 1), **kw)
    gpt_fig = fg.heatmap(g[gl, gh], toks, toks, i18n.t("gpt.gpt_head", lang, l=gl + 1, h=gh + 1), **kw)
    ahead = float(np.triu(b[bl, bh], 1).sum(-1).mean())  # BERT's weight on later tokens, per row
    summary = i18n.t("gpt.compare_summary", lang, bd=mean_distance(b[bl, bh]), gd=mean_distance(g[gl, gh]),
                     ahead=ahead)
    figs = {"visibility": visibility_figure(toks, lang), "bert": bert_fig, "gpt": gpt_fig}
    tables = {f"bert-L{bl + 1}H{bh + 1}": matrix_table(b[bl, bh], toks, toks),
              f"gpt-L{gl + 1}H{gh + 1}": matrix_table(g[gl, gh], toks, toks)}
    files = to_download("bert-vs-gpt", r, tables, figs, lang)
    return CompareView(figs["visibility"], bert_fig, gpt_fig, summary, notices_md(r.notices, lang=lang), files, r,
                       b.shape[:2], g.shape[:2])
