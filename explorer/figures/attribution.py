"""Figures of attention beside attribution (explorer/compute/attribution.py): the measures as rows over the input tokens,
each row scaled to its own largest magnitude so that six different units read side by side, and the Spearman
rank-correlation matrix between them. Pure: arrays and words in, a plotly figure out; no torch, models or gradio.
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from explorer import figures as fg

LABELS = {"token": "input token", "measure": "measure", "share": "share of the row's largest",
          "value": "value", "rho": "Spearman's ρ"}


def _labels(labels) -> dict:
    return {**LABELS, **(labels or {})}


def row_shares(rows) -> np.ndarray:
    """|value| / the row's largest |value| (a row of zeros stays 0)."""
    m = np.abs(np.asarray(rows, dtype=float))
    top = m.max(1, keepdims=True)
    return np.divide(m, top, out=np.zeros_like(m), where=top > 0)


def measures_map(tokens: Sequence[str], names: Sequence[str], rows, title: str, labels: dict | None = None,
                 query: int | None = None) -> go.Figure:
    """rows (measures, tokens) of raw values: cells coloured by |value| as a share of the row's largest, the raw
    (signed) value in each cell's hover. `query`: a token outlined (the [MASK] the prediction is made at)."""
    w = _labels(labels)
    raw = np.asarray(rows, dtype=float)
    if raw.shape != (len(names), len(tokens)):
        raise ValueError(f"{raw.shape} values for {len(names)} measures x {len(tokens)} tokens")
    xs = [f"{i + 1}·{fg._esc(t)}" for i, t in enumerate(tokens)]  # numbered: a sentence may repeat a token
    ys = [fg._esc(n) for n in names]
    share = row_shares(raw)
    trace = dict(type="heatmap", z=share.tolist(), x=xs, y=ys, zmin=0, zmax=1, colorscale="Blues", xgap=1, ygap=1,
                 customdata=raw.tolist(), colorbar=fg.colorbar(w["share"]),
                 text=[[f"{v:.2f}" for v in r] for r in share], texttemplate="%{text}",
                 hovertemplate=(f"%{{y}} · %{{x}}<br>{fg._esc(w['value'])}: %{{customdata:.4g}}"
                                f"<br>{fg._esc(w['share'])}: %{{z:.2f}}<extra></extra>"))
    shapes = []
    if query is not None and 0 <= query < len(tokens):
        shapes.append(dict(type="rect", xref="x", yref="y", x0=query - 0.5, x1=query + 0.5, y0=-0.5,
                           y1=len(names) - 0.5, line=dict(color="#b45309", width=3)))
    layout = dict(title=dict(text=fg._esc(title)), height=140 + 44 * len(names), plot_bgcolor="white",
                  shapes=shapes, margin=dict(l=10, r=10, t=60, b=10),
                  xaxis=dict(title=dict(text=fg._esc(w["token"])), tickangle=-45 if len(tokens) > 12 else 0),
                  yaxis=dict(autorange="reversed", title=dict(text=fg._esc(w["measure"]))))
    return go.Figure(data=[trace], layout=layout)


def correlation_map(names: Sequence[str], rho, title: str, labels: dict | None = None) -> go.Figure:
    """Spearman's ρ between every two measures, red (−1) through white to blue (+1), the value in each cell
    (a blank cell: ρ undefined, a constant measure)."""
    w = _labels(labels)
    r = np.asarray(rho, dtype=float)
    if r.shape != (len(names), len(names)):
        raise ValueError(f"{r.shape} correlations for {len(names)} measures")
    ns = [fg._esc(n) for n in names]
    z = [[None if np.isnan(v) else float(v) for v in row] for row in r]
    text = [["" if np.isnan(v) else f"{v:+.2f}" for v in row] for row in r]
    trace = dict(type="heatmap", z=z, x=ns, y=ns, zmin=-1, zmax=1, colorscale="RdBu", xgap=1, ygap=1, text=text,
                 texttemplate="%{text}", colorbar=fg.colorbar(w["rho"]),
                 hovertemplate=f"%{{y}} · %{{x}}<br>{fg._esc(w['rho'])} %{{z:+.2f}}<extra></extra>")
    layout = dict(title=dict(text=fg._esc(title)), height=200 + 40 * len(names), plot_bgcolor="white",
                  margin=dict(l=10, r=10, t=60, b=10), yaxis=dict(autorange="reversed"))
    return go.Figure(data=[trace], layout=layout)
