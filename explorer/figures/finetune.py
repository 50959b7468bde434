"""Figures for the Fine-tuning tab: a task's prediction and how fine-tuning moved attention.

Pure: numpy arrays and token lists in, `plotly.graph_objects.Figure` out; no torch, models or gradio,
and no knowledge of a model's shape beyond the arrays given. Tokens sit at integer positions with their
text as tick labels (a repeated token keeps its own place) and are HTML-escaped before plotly sees them.
The words drawn besides tokens and numbers are LABELS; a caller passes a translated copy as `words`.
"""
from __future__ import annotations

import html

import numpy as np
import plotly.graph_objects as go

from explorer.figures import BASE_FONT, PROB_SCALE, SCORE_SCALE, TITLE_FONT, _scale

LABELS = {"probability": "probability", "label": "label", "word": "word", "token": "token",
          "start": "P(start)", "end": "P(end)", "answer": "answer", "layer": "layer", "head": "head",
          "change": "mean change of a row (total variation)", "finetuned": "fine-tuned",
          "pretrained": "pre-trained", "attention": "attention"}


def _w(words) -> dict:
    return {k: html.escape(v) for k, v in {**LABELS, **(words or {})}.items()}


def _esc(tokens) -> list[str]:
    return [html.escape(str(t)) for t in tokens]


def _layout(title: str, height: int, **kw) -> dict:
    return dict(title=dict(text=html.escape(title), font=dict(size=TITLE_FONT)), height=height,
                font=dict(size=BASE_FONT), plot_bgcolor="white", margin=dict(l=10, r=10, t=60, b=10), **kw)


def label_bars(labels, probs, title: str, words: dict | None = None) -> go.Figure:
    """One bar per class: the softmax over the head's logits (they sum to 1)."""
    w = _w(words)
    p = np.asarray(probs, dtype=np.float64)
    if p.ndim != 1 or len(p) != len(labels):
        raise ValueError(f"{p.shape} probabilities for {len(labels)} labels")
    bar = dict(type="bar", orientation="h", x=p, y=_esc(labels), text=[f"{v:.3f}" for v in p], textposition="auto",
               marker=dict(color=p, colorscale=_scale(PROB_SCALE), cmin=0, cmax=1),
               hovertemplate=f"%{{y}}<br>{w['probability']}: %{{x:.4f}}<extra></extra>")
    return go.Figure(dict(data=[bar], layout=_layout(
        title, 120 + 34 * len(p), xaxis=dict(range=[0, 1.02], title=dict(text=w["probability"])),
        yaxis=dict(autorange="reversed", automargin=True))))


def tag_heatmap(words_in, tags, probs, labels, title: str, words: dict | None = None) -> go.Figure:
    """Every class's probability at every word (its first subword), the chosen tag written under the word.
    probs: (words, labels); a row of NaN (a word the model did not read) stays blank."""
    w = _w(words)
    p = np.asarray(probs, dtype=np.float64)
    if p.shape != (len(words_in), len(labels)):
        raise ValueError(f"{p.shape} probabilities for {len(words_in)} words and {len(labels)} labels")
    ticks = [f"{x}<br><b>{t}</b>" for x, t in zip(_esc(words_in), _esc(tags))]
    trace = dict(type="heatmap", z=p.T, x=list(range(len(words_in))), y=list(range(len(labels))), zmin=0, zmax=1,
                 colorscale=_scale(PROB_SCALE), xgap=1, ygap=1,
                 customdata=[[[lab, wd] for wd in _esc(words_in)] for lab in _esc(labels)],
                 hovertemplate=(f"{w['word']} %{{customdata[1]}}<br>{w['label']} %{{customdata[0]}}"
                                f"<br>{w['probability']}: %{{z:.4f}}<extra></extra>"))
    return go.Figure(dict(data=[trace], layout=_layout(
        title, 140 + 24 * len(labels) + 40,
        xaxis=dict(tickmode="array", tickvals=list(range(len(words_in))), ticktext=ticks, side="bottom"),
        yaxis=dict(tickmode="array", tickvals=list(range(len(labels))), ticktext=_esc(labels), autorange="reversed",
                   automargin=True))))


def span_figure(tokens, p_start, p_end, span: tuple[int, int] | None, title: str,
                words: dict | None = None) -> go.Figure:
    """P(start) and P(end) over every token (Devlin et al. 2018, sec. 4.2: softmax of S.T_i and E.T_i),
    the answer's tokens shaded."""
    w = _w(words)
    s, e = np.asarray(p_start, dtype=np.float64), np.asarray(p_end, dtype=np.float64)
    if not (len(s) == len(e) == len(tokens)):
        raise ValueError(f"{len(s)} start and {len(e)} end probabilities for {len(tokens)} tokens")
    names = [f"{i} {t}" for i, t in enumerate(_esc(tokens))]
    traces = [dict(type="bar", x=list(range(len(s))), y=v, name=n, customdata=names,
                   hovertemplate=f"%{{customdata}}<br>{n}: %{{y:.4f}}<extra></extra>")
              for v, n in ((s, w["start"]), (e, w["end"]))]
    shapes = []
    if span is not None:
        shapes.append(dict(type="rect", xref="x", yref="paper", x0=span[0] - 0.5, x1=span[1] + 0.5, y0=0, y1=1,
                           fillcolor="rgba(255, 200, 0, 0.25)", line=dict(width=0), layer="below"))
    return go.Figure(dict(data=traces, layout=_layout(
        title, 380, barmode="group", shapes=shapes, legend=dict(orientation="h", y=1.08),
        xaxis=dict(tickmode="array", tickvals=list(range(len(tokens))), ticktext=_esc(tokens),
                   tickangle=-60 if len(tokens) > 12 else 0),
        yaxis=dict(range=[0, 1.02], title=dict(text=w["probability"])))))


def head_change(change, title: str, words: dict | None = None) -> go.Figure:
    """[layers, heads]: how far each head's attention moved with fine-tuning, 0 (same) to 1 (disjoint)."""
    w = _w(words)
    c = np.asarray(change, dtype=np.float64)
    if c.ndim != 2:
        raise ValueError(f"change must be [layers, heads], got {c.shape}")
    L, H = c.shape
    trace = dict(type="heatmap", z=c, x=list(range(1, H + 1)), y=list(range(1, L + 1)), zmin=0,
                 zmax=max(float(np.nanmax(c)) if c.size else 0.0, 1e-6), colorscale=_scale("Oranges"), xgap=1, ygap=1,
                 text=[[f"{v:.2f}" for v in row] for row in c], texttemplate="%{text}",
                 hovertemplate=(f"{w['layer']} %{{y}}, {w['head']} %{{x}}<br>{w['change']}: %{{z:.4f}}"
                                "<extra></extra>"))
    return go.Figure(dict(data=[trace], layout=_layout(
        title, 120 + 30 * L, xaxis=dict(title=dict(text=w["head"]), dtick=1),
        yaxis=dict(title=dict(text=w["layer"]), dtick=1, autorange="reversed"))))


def difference_map(diff, tokens, title: str, words: dict | None = None) -> go.Figure:
    """fine-tuned minus pre-trained attention of one head, rows = queries: red where fine-tuning added weight."""
    d = np.asarray(diff, dtype=np.float64)
    if d.shape != (len(tokens), len(tokens)):
        raise ValueError(f"{d.shape} difference for {len(tokens)} tokens")
    t = _esc(tokens)
    lim = max(float(np.abs(d).max()) if d.size else 0.0, 1e-6)
    trace = dict(type="heatmap", z=d, x=list(range(len(t))), y=list(range(len(t))), zmin=-lim, zmax=lim,
                 colorscale=_scale(SCORE_SCALE)[::-1], xgap=1 if len(t) <= 40 else 0, ygap=1 if len(t) <= 40 else 0,
                 customdata=[[[q, k] for k in t] for q in t],
                 hovertemplate="%{customdata[0]} → %{customdata[1]}<br>Δ %{z:+.4f}<extra></extra>")
    ticks = dict(tickmode="array", tickvals=list(range(len(t))), ticktext=t)
    return go.Figure(dict(data=[trace], layout=_layout(
        title, 200 + 16 * len(t), xaxis=dict(**ticks, tickangle=-60 if len(t) > 10 else 0),
        yaxis=dict(**ticks, autorange="reversed", scaleanchor="x", automargin=True))))


def cls_bars(tokens, finetuned, pretrained, title: str, words: dict | None = None) -> go.Figure:
    """What [CLS] attends to (its attention row) in the fine-tuned and the pre-trained model, side by side."""
    w = _w(words)
    a, b = np.asarray(finetuned, dtype=np.float64), np.asarray(pretrained, dtype=np.float64)
    if not (len(a) == len(b) == len(tokens)):
        raise ValueError(f"rows of {len(a)} and {len(b)} for {len(tokens)} tokens")
    names = [f"{i} {t}" for i, t in enumerate(_esc(tokens))]
    traces = [dict(type="bar", x=list(range(len(v))), y=v, name=n, customdata=names,
                   hovertemplate=f"%{{customdata}}<br>{n}: %{{y:.4f}}<extra></extra>")
              for v, n in ((a, w["finetuned"]), (b, w["pretrained"]))]
    return go.Figure(dict(data=traces, layout=_layout(
        title, 380, barmode="group", legend=dict(orientation="h", y=1.08),
        xaxis=dict(tickmode="array", tickvals=list(range(len(tokens))), ticktext=_esc(tokens),
                   tickangle=-60 if len(tokens) > 12 else 0),
        yaxis=dict(range=[0, 1.02], title=dict(text=w["attention"])))))
