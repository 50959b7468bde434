"""The grid of what removing each head alone costs (Michel et al. 2019; numbers from docs/head-ablation.json,
shipped as assets/explains/head-ablation.json), with the heads a visitor switched off marked: rows are named
("3", or "enc 2" when a Transformer's three kinds of attention are stacked), columns are heads. Pure: arrays and
words in, a plotly figure out; no torch, models or gradio."""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from explorer import figures as fg

LABELS = {"layer": "layer", "head": "head", "change": "change when removed", "off": "switched off here"}
OFF_COLOUR = "#111111"


def head_grid(delta, rows: Sequence[str], off: Sequence[tuple[int, int]], title: str,
              labels: dict | None = None) -> go.Figure:
    """delta (n_rows, n_heads): the metric's change with each head removed alone (negative: the head helped),
    red-white-blue symmetric about 0; `off`: (row, head) cells, from 0, marked with a cross."""
    w = {**LABELS, **(labels or {})}
    d = np.asarray(delta, dtype=float)
    if d.ndim != 2 or d.shape[0] != len(rows):
        raise ValueError(f"a grid of {d.shape} for {len(rows)} row names")
    span = float(np.nanmax(np.abs(d))) if d.size and np.isfinite(d).any() else 0.0
    span = span or 1.0
    fig = fg.heatmap(d, [str(h + 1) for h in range(d.shape[1])], list(rows), title, zmin=-span, zmax=span,
                     x_title=w["head"], y_title=w["layer"], colorscale="RdBu", labels={"value": w["change"]})
    fig.update_traces(colorbar=fg.colorbar(w["change"]), selector=dict(type="heatmap"))
    off = sorted(set(off))
    if off:
        fig.add_trace(go.Scatter(x=[h for _, h in off], y=[r for r, _ in off], mode="markers", name=fg._esc(w["off"]),
                                 marker=dict(symbol="x-thin", size=22, line=dict(width=4, color=OFF_COLOUR)),
                                 hoverinfo="skip", showlegend=True))
        fig.update_layout(legend=dict(orientation="h", yanchor="top", y=-0.02, x=0))
    return fig
