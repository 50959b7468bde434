"""Figures of the heads-vs-syntax view (explorer/compute/syntax.py: Clark et al. 2019): a relation's layer x head accuracy
grid, and a sentence with one head's attention drawn as arcs over its words and, where the sentence has one, its
parse drawn under them. Pure: arrays and words in, a plotly figure out; no torch, models or gradio."""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from explorer import figures as fg

# The words these figures draw besides their titles and words, in English; the view passes a translated copy
# (the "synf.*" keys of explorer/i18n/syntax.py).
LABELS = {"layer": "layer", "head": "head", "accuracy": "accuracy", "best": "best head",
          "attention": "attention (this head)", "parse": "parse: word → its head", "weight": "weight",
          "baseline": "best fixed offset"}
ARC_FLOOR = 0.1  # attention arcs lighter than this are not drawn (the strongest arc of each word always is)
ATTENTION_COLOUR = "#4338ca"  # the house bar colour (fg.BAR_COLOUR), for what the head attends to
PARSE_COLOUR = "#b45309"  # amber, apart from blue for colour-blind readers too


def _labels(labels) -> dict:
    return {**LABELS, **(labels or {})}


def accuracy_grid(grid, title: str, best: tuple[int, int] | None = None, baseline: float | None = None,
                  labels: dict | None = None) -> go.Figure:
    """A relation's accuracy per head: rows = layers, columns = heads (1-based on the axes); `best` (0-based layer,
    head) outlined; `baseline`, the best offset's accuracy, named in the colour bar's title."""
    w = _labels(labels)
    g = np.asarray(grid, dtype=float)
    if g.ndim != 2:
        raise ValueError("the grid is layers x heads")
    L, H = g.shape
    fig = fg.heatmap(g, [str(h + 1) for h in range(H)], [str(l + 1) for l in range(L)], title, zmin=0.0, zmax=1.0,
                     x_title=w["head"], y_title=w["layer"], labels={"value": w["accuracy"]})
    bar = w["accuracy"] if baseline is None else f"{w['accuracy']} ({w['baseline']}: {baseline:.1%})"
    fig.update_traces(colorbar=fg.colorbar(bar))
    if best is not None:
        l, h = best
        for shape in fg._outline(2.5, xref="x", yref="y", x0=h - 0.5, x1=h + 0.5, y0=l - 0.5, y1=l + 0.5):
            fig.add_shape(shape, name=w["best"])
    return fig


def _arc(x0: float, x1: float, height: float, n: int = 24) -> tuple[np.ndarray, np.ndarray]:
    """A half-ellipse from x0 to x1 at y=0, peaking at `height` (negative: below the words)."""
    t = np.linspace(0.0, np.pi, n)
    return (x0 + x1) / 2 + (x0 - x1) / 2 * np.cos(t), height * np.sin(t)


def attention_arcs(words: Sequence[str], attention, title: str, heads: Sequence[int] | None = None,
                   rels: Sequence[str] | None = None, labels: dict | None = None) -> go.Figure:
    """One head's word x word attention (rows: the word attending) as arcs above the words, from each word to the
    words it attends to (width and opacity by weight; its strongest other word always, the rest above ARC_FLOOR),
    an arrow's dot at the attended word. `heads` (1-based, 0 = root) and `rels`: the parse, as arcs under the
    words from each word to its head, labelled with the relation."""
    w = _labels(labels)
    a = np.asarray(attention, dtype=float)
    n = len(words)
    if a.shape != (n, n):
        raise ValueError(f"attention {a.shape} does not match {n} words")
    data = []
    top = np.where(np.eye(n, dtype=bool), -1.0, a).argmax(1) if n > 1 else np.zeros(1, dtype=int)
    span = max(n - 1, 1)
    legend_shown = False
    for i in range(n):
        for j in range(n):
            if i == j or (a[i, j] < ARC_FLOOR and j != top[i]):
                continue
            xs, ys = _arc(i, j, 0.35 + 0.65 * abs(i - j) / span)
            weight = float(a[i, j])
            data.append(dict(type="scatter", x=xs, y=ys, mode="lines", hoverinfo="text",
                             line=dict(color=ATTENTION_COLOUR, width=1 + 5 * weight),
                             opacity=float(0.25 + 0.75 * weight), name=w["attention"], legendgroup="att",
                             showlegend=not legend_shown,
                             text=f"{fg._esc(words[i])} → {fg._esc(words[j])}: {w['weight']} {weight:.3f}"))
            data.append(dict(type="scatter", x=[j], y=[0.06], mode="markers", hoverinfo="skip", showlegend=False,
                             legendgroup="att", marker=dict(color=ATTENTION_COLOUR, size=4 + 6 * weight,
                                                            opacity=float(0.25 + 0.75 * weight))))
            legend_shown = True
    annotations = []
    if heads is not None:
        for i, h in enumerate(heads):
            if h <= 0:
                continue
            xs, ys = _arc(i, h - 1, -(0.35 + 0.65 * abs(i - h + 1) / span))
            rel = fg._esc(rels[i]) if rels is not None else ""
            data.append(dict(type="scatter", x=xs, y=ys, mode="lines", line=dict(color=PARSE_COLOUR, width=2,
                                                                                 dash="dot"),
                             name=w["parse"], legendgroup="parse", showlegend=i == next(
                                 k for k, hh in enumerate(heads) if hh > 0),
                             hoverinfo="text", text=f"{fg._esc(words[i])} → {fg._esc(words[h - 1])}: {rel}"))
            if rel:
                annotations.append(dict(x=float(xs[len(xs) // 2]), y=float(ys[len(ys) // 2]), text=rel,
                                        showarrow=False, yshift=-8, font=dict(size=fg.BASE_FONT - 2,
                                                                              color=PARSE_COLOUR)))
    for i, word in enumerate(words):
        annotations.append(dict(x=i, y=0, text=f"<b>{fg._esc(word)}</b>", showarrow=False,
                                font=dict(size=fg.BASE_FONT), bgcolor="white"))
    low = -1.15 if heads is not None else -0.3
    layout = dict(title=dict(text=fg._esc(title), font=dict(size=fg.TITLE_FONT)), font=dict(size=fg.BASE_FONT),
                  annotations=annotations, height=420 if heads is not None else 300, hovermode="closest",
                  xaxis=dict(visible=False, range=[-0.7, n - 0.3], fixedrange=True),
                  yaxis=dict(visible=False, range=[low, 1.1], fixedrange=True),
                  legend=dict(orientation="h", y=-0.02, x=0), margin=dict(l=10, r=10, t=60, b=30),
                  plot_bgcolor="white")
    return go.Figure(data=data, layout=layout)
