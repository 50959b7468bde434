"""The figure of queries and keys of many sentences in one plane (AttentionViz, Yeh et al. 2023; the numbers come
from explorer/compute/qk_embedding.py): every held-out token's query (●) and key (◆), coloured by kind, by position or by
part of speech, with a typed sentence's own queries and keys drawn large and named. Pure: arrays and words in, a
plotly figure out; no torch, models or gradio. Markers are SVG (`scatter`, not WebGL), so the camera button's SVG
keeps every point a vector."""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from explorer import figures as fg

COLOUR_BY = ("kind", "position", "pos")  # what the held-out points are coloured by
QUERY_COLOUR = "#4338ca"  # indigo, the house bar colour (fg.BAR_COLOUR)
KEY_COLOUR = "#b45309"  # amber: apart from indigo for colour-blind readers too
POSITION_SCALE = "Viridis"  # positions are ordered: a sequential scale, dark = the sentence's start
# 18 parts of speech (UD's 17 and [CLS]/[SEP]): Okabe & Ito's 8 colour-blind-safe colours, then Tol's muted set
TAG_COLOURS = ("#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9", "#d55e00", "#f0e442", "#000000",
               "#332288", "#88ccee", "#44aa99", "#117733", "#999933", "#ddcc77", "#cc6677", "#882255",
               "#aa4499", "#888888")
# The words the figure draws besides the tokens and the title, in English; the view passes a translated copy
# (the "qkef.*" keys of explorer/i18n/query_key.py).
LABELS = {"queries": "queries", "keys": "keys", "your_queries": "your sentence: queries",
          "your_keys": "your sentence: keys", "position": "position", "pos": "part of speech", "axis": "PC {n}",
          "chosen": "chosen query", "sentence": "sentence"}


def _labels(labels) -> dict:
    return {**LABELS, **(labels or {})}


def _points(idx, tokens, positions, tags, sentences, kind: str) -> list:
    """customdata rows of held-out points `idx`: token, position, tag, 1-based sentence, kind (all escaped)."""
    return [[fg._esc(tokens[i]), int(positions[i]), fg._esc(tags[i]), int(sentences[i]) + 1, fg._esc(kind)]
            for i in idx]


def _hover(w: dict) -> str:
    return (f"%{{customdata[0]}} (%{{customdata[4]}})<br>{fg._esc(w['position'])} %{{customdata[1]}} · "
            f"%{{customdata[2]}} · {fg._esc(w['sentence'])} %{{customdata[3]}}<extra></extra>")


def qk_embedding_figure(q_xy, k_xy, positions: Sequence[int], tags: Sequence[str], tokens: Sequence[str],
                        sentences: Sequence[int], title: str, colour_by: str = "kind", explained=None,
                        typed_q=None, typed_k=None, typed_tokens: Sequence[str] = (), chosen: int | None = None,
                        labels: dict | None = None) -> go.Figure:
    """Held-out queries `q_xy` and keys `k_xy` (N, 2 each; token i's query and key share positions[i], tags[i],
    tokens[i], sentences[i]) coloured by `colour_by` (COLOUR_BY), and a typed sentence's `typed_q`/`typed_k`
    (T, 2) drawn large with `typed_tokens`; `chosen`, a position of the typed sentence, its query starred.
    `explained`: the share of variance of each axis, in its title."""
    w = _labels(labels)
    if colour_by not in COLOUR_BY:
        raise ValueError(f"colour_by is one of {COLOUR_BY}")
    q_xy, k_xy = np.asarray(q_xy, float), np.asarray(k_xy, float)
    n = len(tokens)
    if q_xy.shape != (n, 2) or k_xy.shape != (n, 2) or not (len(positions) == len(tags) == len(sentences) == n):
        raise ValueError("one query, one key, one position, tag and sentence per token")
    positions, tags = np.asarray(positions), np.asarray(tags, dtype=object)
    data = []
    kinds = ((q_xy, w["queries"], "circle", QUERY_COLOUR), (k_xy, w["keys"], "diamond", KEY_COLOUR))
    if colour_by == "pos":
        names = list(dict.fromkeys(sorted(set(tags.tolist()), key=lambda t: (t == "special", t))))
        for j, tag in enumerate(names):
            idx = np.flatnonzero(tags == tag)
            xy = np.concatenate([q_xy[idx], k_xy[idx]])
            custom = (_points(idx, tokens, positions, tags, sentences, w["queries"])
                      + _points(idx, tokens, positions, tags, sentences, w["keys"]))
            data.append(dict(type="scatter", mode="markers", x=xy[:, 0].tolist(), y=xy[:, 1].tolist(),
                             name=fg._esc(tag), customdata=custom, hovertemplate=_hover(w),
                             marker=dict(size=5, opacity=0.55, color=TAG_COLOURS[j % len(TAG_COLOURS)],
                                         symbol=["circle"] * len(idx) + ["diamond"] * len(idx))))
    else:
        for i, (xy, name, symbol, colour) in enumerate(kinds):
            custom = _points(range(n), tokens, positions, tags, sentences, name)
            marker = dict(size=5, opacity=0.5, symbol=symbol, color=colour)
            if colour_by == "position":
                marker.update(color=positions.tolist(), colorscale=fg._scale(POSITION_SCALE), cmin=0,
                              cmax=int(positions.max()) if n else 1, showscale=i == 0,
                              colorbar=fg.colorbar(w["position"]))
            data.append(dict(type="scatter", mode="markers", x=xy[:, 0].tolist(), y=xy[:, 1].tolist(),
                             name=fg._esc(f"{name} ({'●' if symbol == 'circle' else '◆'})"), customdata=custom,
                             hovertemplate=_hover(w), marker=marker))
    if typed_q is not None and typed_k is not None:
        for xy, name, symbol, colour in ((np.asarray(typed_q, float), w["your_queries"], "circle", QUERY_COLOUR),
                                         (np.asarray(typed_k, float), w["your_keys"], "diamond", KEY_COLOUR)):
            text = [fg._esc(t) for t in typed_tokens]
            data.append(dict(type="scatter", mode="markers+text", x=xy[:, 0].tolist(), y=xy[:, 1].tolist(),
                             text=text, textposition="top center", textfont=dict(size=fg.BASE_FONT, color=colour),
                             name=fg._esc(name), customdata=list(range(len(text))),
                             hovertemplate=f"%{{text}} ({fg._esc(name)}, {fg._esc(w['position'])} "
                                           "%{customdata})<extra></extra>",
                             marker=dict(size=12, symbol=symbol, color=colour, line=dict(color="white", width=1.5))))
        if chosen is not None and 0 <= chosen < len(typed_tokens):
            c = np.asarray(typed_q, float)[chosen]
            data.append(dict(type="scatter", mode="markers", x=[float(c[0])], y=[float(c[1])],
                             name=fg._esc(f"{w['chosen']}: {typed_tokens[chosen]}"), hoverinfo="skip",
                             marker=dict(size=22, symbol="star", color="rgba(0,0,0,0)",
                                         line=dict(color=fg.OUTLINE, width=2.5))))
    ex = [None, None] if explained is None else [float(x) for x in explained]
    axis = [w["axis"].format(n=i + 1) + ("" if ex[i] is None else f" ({ex[i]:.0%})") for i in range(2)]
    layout = dict(title=dict(text=fg._esc(title), font=dict(size=fg.TITLE_FONT)), font=dict(size=fg.BASE_FONT),
                  height=640, hovermode="closest", plot_bgcolor="white",
                  xaxis=dict(title=dict(text=fg._esc(axis[0])), zeroline=False, gridcolor="#eeeeee"),
                  yaxis=dict(title=dict(text=fg._esc(axis[1])), zeroline=False, gridcolor="#eeeeee",
                             scaleanchor="x", scaleratio=1),  # one unit is one unit both ways: distances are honest
                  legend=dict(orientation="h", yanchor="top", y=-0.12, x=0, itemsizing="constant"),
                  margin=dict(l=60, r=30, t=70, b=40))
    return fg._figure(data, layout)
