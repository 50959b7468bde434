"""Figures of head ablation (explorer/compute/ablation.py; Michel et al. 2019): the layer x head grid of what removing each
head alone costs (the heads a visitor switched off marked; numbers from docs/head-ablation.json, shipped as
assets/explains/head-ablation.json), the pruning curve (heads removed together, least important first), and one [MASK]'s top-k
before and after. Pure: arrays and words in, a plotly figure out; no torch, models or gradio."""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from explorer import figures as fg

LABELS = {"layer": "layer", "head": "head", "change": "change when removed", "off": "switched off here",
          "heads_off": "share of heads removed", "metric": "metric", "before": "every head", "after": "heads off",
          "probability": "probability"}
GRID_LABELS = ("layer", "head", "change", "off", "note")  # the words `importance_grid` reads
AFTER_COLOUR = "#b45309"  # amber beside the house blue (fg.BAR_COLOUR), apart for colour-blind readers too
OFF_COLOUR = "#111111"


def _labels(labels) -> dict:
    return {**LABELS, **(labels or {})}


def importance_grid(delta, title: str, labels: dict | None = None, rows: Sequence[str] | None = None,
                    off: Sequence[tuple[int, int]] = ()) -> go.Figure:
    """The metric's change when each head alone is removed: rows = layers (named by `rows`, e.g. "enc 2" when a
    Transformer's three kinds of attention are stacked; default 1, 2, ...), columns = heads (1-based on the axes).
    Diverging around 0, symmetric: red = the head helped (removing it lowers the metric), blue = it hurt. `off`:
    (row, head) cells, from 0, that a visitor switched off, marked with a cross."""
    w = _labels(labels)
    d = np.asarray(delta, dtype=float)
    if d.ndim != 2:
        raise ValueError("the grid is layers x heads")
    L, H = d.shape
    rows = [str(l + 1) for l in range(L)] if rows is None else list(rows)
    if len(rows) != L:
        raise ValueError(f"a grid of {d.shape} for {len(rows)} row names")
    span = float(np.nanmax(np.abs(d))) if d.size and np.isfinite(d).any() else 0.0
    span = span or 1.0
    fig = fg.heatmap(d, [str(h + 1) for h in range(H)], rows, title, zmin=-span, zmax=span, x_title=w["head"],
                     y_title=w["layer"], colorscale="RdBu", labels={"value": w["change"]})
    fig.update_traces(colorbar=fg.colorbar(w["change"]), selector=dict(type="heatmap"))
    if w.get("note"):  # how to read the colours, under the title (one long title was cut at a half-page width)
        fig.update_layout(title_subtitle=dict(text=fg._esc(w["note"]), font=dict(size=fg.BASE_FONT)))
    off = sorted(set(off))
    if off:
        fig.add_trace(go.Scatter(x=[h for _, h in off], y=[r for r, _ in off], mode="markers", name=fg._esc(w["off"]),
                                 marker=dict(symbol="x-thin", size=22, line=dict(width=4, color=OFF_COLOUR)),
                                 hoverinfo="skip", showlegend=True))
        fig.update_layout(legend=dict(orientation="h", yanchor="top", y=-0.16, x=0))  # under the axis title
        fig.update_layout(margin=dict(b=(fig.layout.margin.b or 60) + 40))
    return fig


def pruning_curve(fractions: Sequence[float], metric: Sequence[float], title: str, metric_name: str = "",
                  labels: dict | None = None) -> go.Figure:
    """The metric against the share of heads removed together (least important first; Michel et al. fig. 3)."""
    w = _labels(labels)
    x, y = np.asarray(fractions, dtype=float), np.asarray(metric, dtype=float)
    if x.shape != y.shape or x.ndim != 1:
        raise ValueError(f"{x.shape} fractions for {y.shape} metric values")
    line = dict(type="scatter", x=x.tolist(), y=y.tolist(), mode="lines+markers", line=dict(color=fg.BAR_COLOUR),
                hovertemplate=f"{fg._esc(w['heads_off'])} %{{x:.0%}}<br>%{{y:.4f}}<extra></extra>")
    layout = dict(title=dict(text=fg._esc(title)), height=320, plot_bgcolor="white",
                  xaxis=dict(title=dict(text=fg._esc(w["heads_off"])), tickformat=".0%", range=[-0.02, 1.02]),
                  yaxis=dict(title=dict(text=fg._esc(metric_name or w["metric"]))),
                  margin=dict(l=10, r=10, t=60, b=10))
    return go.Figure(data=[line], layout=layout)


def before_after_bars(before: Sequence[tuple[str, float]], after: Sequence[tuple[str, float]], title: str,
                      labels: dict | None = None) -> go.Figure:
    """One [MASK]'s top-k with every head on and with heads off, side by side on the union of their words
    (a word outside one list is drawn at 0 there: it was not in that top-k)."""
    w = _labels(labels)
    words = list(dict.fromkeys([t for t, _ in before] + [t for t, _ in after]))
    b, a = dict(before), dict(after)
    names = [fg._esc(t) for t in words]
    bars = [dict(type="bar", orientation="h", y=names, x=[float(src.get(t, 0.0)) for t in words], name=fg._esc(lab),
                 marker=dict(color=colour), hovertemplate="%{y}: %{x:.4f}<extra></extra>")
            for src, lab, colour in ((b, w["before"], fg.BAR_COLOUR), (a, w["after"], AFTER_COLOUR))]
    layout = dict(title=dict(text=fg._esc(title)), barmode="group", height=120 + 36 * len(words),
                  plot_bgcolor="white", yaxis=dict(autorange="reversed"),
                  xaxis=dict(title=dict(text=fg._esc(w["probability"])), range=[0, 1]),
                  margin=dict(l=10, r=10, t=60, b=10))
    return go.Figure(data=bars, layout=layout)
