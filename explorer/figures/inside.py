"""Figures of the whole computation (pure: numpy arrays, tokens and words in, `go.Figure` out).

For explorer/compute/inside.py (one layer, vector by vector), explorer/compute/luong.py (Luong's four steps),
explorer/compute/choices.py (next-word choices beside the attention rows), explorer/compute/bert_inputs.py (the input sum,
the two position tables) and explorer/compute/elmo.py (the layer weights and the cosine between senses).
Nothing here knows a model: every shape is read from the arrays, every word (titles, axis names) is passed
in by the view in the page's language, and every token and word is HTML-escaped before plotly sees it.
"""
from __future__ import annotations

import html
from typing import Sequence

import numpy as np
import plotly.graph_objects as go

BASE_FONT = 14  # px, as explorer/figures/__init__.py: read from the back of a classroom
VALUE_SCALE = "RdBu"  # vectors: diverging around 0, blue for high as in the app's other views
PROB_SCALE = "Blues"
MASK_GRAY = "#d0d0d0"
MINUS_INF = "−∞"
CHOSEN = "#000000"  # the chosen word's outline: black, seen on every blue


def esc(s) -> str:
    return html.escape(str(s), quote=False)


def _layout(title: str, height: int, **kw) -> dict:
    return {"title": {"text": esc(title), "x": 0.01, "font": {"size": 18}}, "height": height,
            "font": {"size": BASE_FONT}, "margin": {"l": 10, "r": 10, "t": 70, "b": 50}, **kw}


def _fig(data: list[dict], layout: dict) -> go.Figure:
    return go.Figure(data=data, layout=layout)


def _sym(*arrays) -> float:
    """Half-range of a colour scale centred on 0 that covers every finite value."""
    m = max((float(np.abs(a[np.isfinite(a)]).max(initial=0)) for a in map(np.asarray, arrays)), default=0.0)
    return m or 1.0


def vector_rows(vectors: Sequence, names: Sequence[str], title: str, dim_title: str = "dimension",
                norm_word: str = "|v|") -> go.Figure:
    """Vectors of one length as rows of a heatmap (diverging around 0), each row labelled by its name and norm,
    the first at the top."""
    rows = [np.asarray(v, dtype=np.float64).ravel() for v in vectors]
    if not rows or len({r.size for r in rows}) != 1:
        raise ValueError("vector_rows needs vectors of one length")
    z = np.stack(rows)
    labels = [f"{esc(n)}  {norm_word} = {np.linalg.norm(r):.2f}" for n, r in zip(names, rows)]
    r = _sym(z)
    hover = np.array([[f"{lab}<br>{esc(dim_title)} {j}: {v:.4f}" for j, v in enumerate(row)]
                      for lab, row in zip(labels, z)])
    data = [{"type": "heatmap", "z": z[::-1].tolist(), "y": list(range(len(rows))), "colorscale": VALUE_SCALE,
             "zmin": -r, "zmax": r, "zmid": 0, "text": hover[::-1].tolist(), "hoverinfo": "text",
             "colorbar": {"thickness": 12}}]
    layout = _layout(title, 120 + 34 * len(rows),
                     yaxis={"tickmode": "array", "tickvals": list(range(len(rows))), "ticktext": labels[::-1],
                            "automargin": True},
                     xaxis={"title": {"text": esc(dim_title)}})
    return _fig(data, layout)


def head_rows(scores, probs, key_tokens: Sequence[str], head_names: Sequence[str], title: str,
              score_title: str = "scores QK^T / sqrt(d_k)", prob_title: str = "softmax", key_title: str = "key"
              ) -> go.Figure:
    """One query's scores (left, −∞ where masked, gray) and their softmax (right): one row per head."""
    s, p = np.asarray(scores, dtype=np.float64), np.asarray(probs, dtype=np.float64)
    if s.shape != p.shape or s.shape != (len(head_names), len(key_tokens)):
        raise ValueError(f"scores {s.shape} and probs {p.shape} must be (heads, keys) = "
                         f"({len(head_names)}, {len(key_tokens)})")
    keys = [esc(t) for t in key_tokens]
    heads = [esc(h) for h in head_names]
    masked = np.isneginf(s)
    r = _sym(s)
    text_s = np.where(masked, MINUS_INF, np.vectorize(lambda v: f"{v:.2f}")(np.where(masked, 0, s)))
    text_p = np.vectorize(lambda v: f"{v:.2f}")(p)
    common = {"x": list(range(len(keys))), "y": list(range(len(heads)))}
    data = [
        {"type": "heatmap", "z": np.where(masked, np.nan, s).tolist(), "colorscale": VALUE_SCALE, "zmin": -r,
         "zmax": r, "zmid": 0, "text": text_s.tolist(), "texttemplate": "%{text}", "xaxis": "x", "yaxis": "y",
         "colorbar": {"x": 0.45, "thickness": 10}, "hovertemplate": "%{text}<extra></extra>", **common},
        {"type": "heatmap", "z": np.where(masked, 1.0, np.nan).tolist(), "colorscale": [[0, MASK_GRAY], [1, MASK_GRAY]],
         "zmin": 0, "zmax": 1, "showscale": False, "text": np.where(masked, MINUS_INF, "").tolist(),
         "texttemplate": "%{text}", "textfont": {"color": "#000000"}, "hovertemplate": "%{text}<extra></extra>",
         "xaxis": "x", "yaxis": "y", **common},
        {"type": "heatmap", "z": p.tolist(), "colorscale": PROB_SCALE, "zmin": 0, "zmax": 1, "text": text_p.tolist(),
         "texttemplate": "%{text}", "xaxis": "x2", "yaxis": "y2", "colorbar": {"x": 1.0, "thickness": 10},
         "hovertemplate": "%{text}<extra></extra>", **common},
    ]
    ax = {"tickmode": "array", "tickvals": list(range(len(keys))), "ticktext": keys,
          "title": {"text": esc(key_title)}}
    ay = {"tickmode": "array", "tickvals": list(range(len(heads))), "ticktext": heads, "autorange": "reversed"}
    layout = _layout(title, 160 + 36 * len(heads),
                     xaxis={**ax, "domain": [0, 0.43]}, xaxis2={**ax, "domain": [0.55, 0.98]},
                     yaxis={**ay, "automargin": True}, yaxis2={**ay, "anchor": "x2"},
                     annotations=[{"text": esc(t), "x": x, "y": 1.0, "yanchor": "bottom", "xref": "paper",
                                   "yref": "paper", "showarrow": False}
                                  for t, x in ((score_title, 0.215), (prob_title, 0.765))])
    return _fig(data, layout)


def qkv_heads(q, k, v, query_token: str, key_tokens: Sequence[str], head_names: Sequence[str], title: str,
              band_names: Sequence[str] = ("q", "K", "V"), dim_title: str = "dimension", masked=None,
              highlight: int | None = None) -> go.Figure:
    """Per head, one column: the query token's q (1 x d_k) over the keys' K (keys x d_k) over their V (keys x d_k),
    heads left to right in `head_names`' order. A key row is labelled "position: token" (unique, so the hover can
    name it). One diverging scale per band (q, K, V), shared by the heads so that they compare, its half-range
    written beside the band's name. `masked` (keys,): keys the query may not see (the causal mask), grayed over
    in K and V; `highlight`: a key row to outline (the query's own token)."""
    q, k, v = (np.asarray(a, dtype=np.float64) for a in (q, k, v))
    h, T = len(head_names), len(key_tokens)
    if q.ndim != 2 or q.shape[0] != h or k.shape != (h, T, q.shape[1]) or v.shape != k.shape:
        raise ValueError(f"q {q.shape} must be (heads, d_k) and k {k.shape}, v {v.shape} (heads, keys, d_k) with "
                         f"heads = {h}, keys = {T}")
    hide = np.zeros(T, bool) if masked is None else np.asarray(masked, bool).ravel()
    if hide.size != T:
        raise ValueError(f"masked needs one flag per key ({T}), got {hide.size}")
    d_k = q.shape[1]
    keys = [f"{i}: {esc(t)}" for i, t in enumerate(key_tokens)]
    bands = [(q[:, None, :], [esc(query_token)]), (k, keys), (v, keys)]
    heights = (1.6, T, T)  # in rows; the q band a little more than one row, so that it shows
    unit, gap = 0.84 / sum(heights), 0.05
    tops, top = [], 1.0
    for n in heights:
        tops.append([top - n * unit, top])
        top -= n * unit + gap
    xgap = 0.012
    w = (1 - xgap * (h - 1)) / h
    sfx = lambda i: str(i + 1) if i else ""  # noqa: E731  plotly's axis names: x, x2, x3 ...
    data, axes, notes, shapes = [], {}, [], []
    for b, ((m, labels), name) in enumerate(zip(bands, band_names)):
        r = _sym(m)
        for j, head in enumerate(head_names):
            cell = {"x": list(range(d_k)), "y": labels, "xaxis": f"x{sfx(j)}", "yaxis": f"y{sfx(b)}",
                    "showscale": False}
            data.append({"type": "heatmap", "z": m[j].tolist(), "colorscale": VALUE_SCALE, "zmin": -r, "zmax": r,
                         "zmid": 0, "hovertemplate": f"{esc(head)} · {esc(name)} · %{{y}} · {esc(dim_title)} "
                                                     f"%{{x}}: %{{z:.4f}}<extra></extra>", **cell})
            if b and hide.any():  # the keys the causal mask hides from this query
                gray = np.where(hide[:, None], 1.0, np.nan) * np.ones((1, d_k))
                data.append({"type": "heatmap", "z": gray.tolist(), "colorscale": [[0, MASK_GRAY], [1, MASK_GRAY]],
                             "zmin": 0, "zmax": 1, "opacity": 0.75, "hoverinfo": "skip", **cell})
            if b and highlight is not None and 0 <= highlight < T:
                shapes.append({"type": "rect", "xref": f"x{sfx(j)}", "yref": f"y{sfx(b)}", "x0": -0.5,
                               "x1": d_k - 0.5, "y0": highlight - 0.5, "y1": highlight + 0.5,
                               "line": {"color": CHOSEN, "width": 1.5}})
        axes[f"yaxis{sfx(b)}"] = {"domain": tops[b], "type": "category", "autorange": "reversed", "anchor": "x",
                                  "tickmode": "array", "tickvals": labels, "tickfont": {"size": 12},
                                  "automargin": True}  # every key named: plotly drops every other label
        notes.append({"text": f"<b>{esc(name)}</b>  (±{r:.2f})", "x": 0, "y": tops[b][1], "xref": "paper",
                      "yref": "paper", "yanchor": "bottom", "xanchor": "left", "showarrow": False})
    for j, head in enumerate(head_names):
        x0 = j * (w + xgap)
        axes[f"xaxis{sfx(j)}"] = {"domain": [x0, x0 + w], "anchor": f"y{sfx(2)}", "showticklabels": False}
        notes.append({"text": esc(head), "x": x0 + w / 2, "y": 1.0, "yshift": 22, "xref": "paper", "yref": "paper",
                      "yanchor": "bottom", "showarrow": False})
    axes["xaxis"]["title"] = {"text": esc(dim_title)}
    layout = _layout(title, int(190 + 19 * sum(heights)), annotations=notes, shapes=shapes, **axes)
    layout["margin"] = {**layout["margin"], "t": 110}
    return _fig(data, layout)


def bars(values, names: Sequence[str], title: str, value_title: str = "", highlight: int | None = None,
         digits: int = 3) -> go.Figure:
    """Horizontal bars, the first name at the top; `highlight` outlines one bar (the chosen word)."""
    v = np.asarray(values, dtype=np.float64).ravel()
    if v.size != len(names):
        raise ValueError(f"{v.size} values for {len(names)} names")
    line = [2 if i == highlight else 0 for i in range(v.size)]
    data = [{"type": "bar", "orientation": "h", "x": v.tolist(), "y": list(range(v.size)),
             "text": [f"{x:.{digits}f}" for x in v], "textposition": "auto",
             "marker": {"color": "#2166ac", "line": {"color": CHOSEN, "width": line}},
             "hovertemplate": "%{x:.4f}<extra></extra>"}]
    layout = _layout(title, 120 + 28 * v.size,
                     yaxis={"tickmode": "array", "tickvals": list(range(v.size)), "ticktext": [esc(n) for n in names],
                            "autorange": "reversed", "automargin": True},
                     xaxis={"title": {"text": esc(value_title)}})
    return _fig(data, layout)


def luong_steps(source_tokens: Sequence[str], scores, weights, top_tokens: Sequence[str], top_probs,
                chosen: int | None, titles: Sequence[str]) -> go.Figure:
    """Three panels side by side: the raw scores e_t over the source, their softmax alpha_t, and the vocabulary
    softmax's top-k (the chosen word outlined). `titles`: the three panel titles and the figure's."""
    e, a, p = (np.asarray(x, dtype=np.float64).ravel() for x in (scores, weights, top_probs))
    if not (e.size == a.size == len(source_tokens)) or p.size != len(top_tokens):
        raise ValueError("scores and weights need one value per source token, top_probs one per top token")
    src = [esc(t) for t in source_tokens]
    doms = ([0, 0.28], [0.36, 0.64], [0.74, 1.0])

    def beside(probs):  # a label inside a long bar, beside a short one ("auto" drops it on a bar of ~0 width)
        return ["inside" if x >= 0.25 else "outside" for x in probs]
    line = [2 if i == chosen else 0 for i in range(p.size)]
    data = [
        {"type": "bar", "orientation": "h", "x": e.tolist(), "y": list(range(e.size)), "xaxis": "x", "yaxis": "y",
         "marker": {"color": np.where(e >= 0, "#2166ac", "#b2182b").tolist()}, "text": [f"{x:.2f}" for x in e],
         "textposition": "auto", "hovertemplate": "%{x:.4f}<extra></extra>"},
        {"type": "bar", "orientation": "h", "x": a.tolist(), "y": list(range(a.size)), "xaxis": "x2", "yaxis": "y2",
         "marker": {"color": "#2166ac"}, "text": [f"{x:.2f}" for x in a], "textposition": beside(a),
         "cliponaxis": False, "hovertemplate": "%{x:.4f}<extra></extra>"},
        {"type": "bar", "orientation": "h", "x": p.tolist(), "y": list(range(p.size)), "xaxis": "x3", "yaxis": "y3",
         "marker": {"color": "#2166ac", "line": {"color": CHOSEN, "width": line}},
         "text": [f"{x:.3f}" for x in p], "textposition": beside(p), "cliponaxis": False,
         "hovertemplate": "%{x:.4f}<extra></extra>"},
    ]

    def yax(labels, anchor):
        return {"tickmode": "array", "tickvals": list(range(len(labels))), "ticktext": labels,
                "autorange": "reversed", "anchor": anchor, "automargin": True}
    n = max(e.size, p.size)
    layout = _layout(titles[3] if len(titles) > 3 else "", 160 + 28 * n, showlegend=False,
                     xaxis={"domain": doms[0]}, xaxis2={"domain": doms[1], "range": [0, 1]},
                     xaxis3={"domain": doms[2], "range": [0, 1]},
                     yaxis=yax(src, "x"), yaxis2=yax(src, "x2"), yaxis3=yax([esc(t) for t in top_tokens], "x3"),
                     annotations=[{"text": esc(t), "x": (d[0] + d[1]) / 2, "y": 1.0, "yanchor": "bottom",
                                   "xref": "paper", "yref": "paper", "showarrow": False}
                                  for t, d in zip(titles[:3], doms)])
    return _fig(data, layout)


def choices_grid(attention, source_tokens: Sequence[str], step_tokens: Sequence[str], top_tokens, top_probs,
                 titles: Sequence[str]) -> go.Figure:
    """Left: each step's attention row over the source (rows = steps, labelled by the word put out). Right: the
    top-k words at each step, their probability as the cell's colour and the word as its text; the cell of the
    word the translation has there is outlined (none when it is not in the top-k)."""
    att = np.asarray(attention, dtype=np.float64)
    probs = np.asarray(top_probs, dtype=np.float64)
    T, S = att.shape
    if S != len(source_tokens) or T != len(step_tokens) or probs.shape[0] != T or len(top_tokens) != T:
        raise ValueError("attention (steps, source), top_tokens and top_probs (steps, k) must agree")
    k = probs.shape[1]
    words = np.array([[esc(t) for t in row] for row in top_tokens], dtype=object)
    text = np.array([[f"{w}<br>{p:.2f}" for w, p in zip(wr, pr)] for wr, pr in zip(words, probs)], dtype=object)
    steps = [f"{i + 1}. {esc(t)}" for i, t in enumerate(step_tokens)]
    data = [
        {"type": "heatmap", "z": att.tolist(), "x": list(range(S)), "y": list(range(T)), "colorscale": PROB_SCALE,
         "zmin": 0, "zmax": 1, "xaxis": "x", "yaxis": "y", "showscale": False,
         "hovertemplate": "%{z:.3f}<extra></extra>"},
        {"type": "heatmap", "z": probs.tolist(), "x": list(range(k)), "y": list(range(T)), "colorscale": PROB_SCALE,
         "zmin": 0, "zmax": 1, "text": text.tolist(), "texttemplate": "%{text}", "xaxis": "x2", "yaxis": "y2",
         "colorbar": {"thickness": 10}, "hovertemplate": "%{text}<extra></extra>"},
    ]
    shapes = []
    for t, (row, chosen) in enumerate(zip(top_tokens, step_tokens)):
        if chosen in list(row):
            j = list(row).index(chosen)
            shapes.append({"type": "rect", "xref": "x2", "yref": "y2", "x0": j - 0.5, "x1": j + 0.5, "y0": t - 0.5,
                           "y1": t + 0.5, "line": {"color": CHOSEN, "width": 3}})
    ay = {"tickmode": "array", "tickvals": list(range(T)), "ticktext": steps, "autorange": "reversed"}
    layout = _layout(titles[2] if len(titles) > 2 else "", 160 + 44 * T, shapes=shapes,
                     xaxis={"domain": [0, 0.42], "tickmode": "array", "tickvals": list(range(S)),
                            "ticktext": [esc(t) for t in source_tokens], "title": {"text": esc(titles[0])}},
                     xaxis2={"domain": [0.5, 1], "tickmode": "array", "tickvals": list(range(k)),
                             "ticktext": [str(j + 1) for j in range(k)], "title": {"text": esc(titles[1])}},
                     yaxis={**ay, "automargin": True}, yaxis2={**ay, "anchor": "x2", "showticklabels": False})
    return _fig(data, layout)


def side_by_side(left, right, titles: Sequence[str], zmin: float = -1.0, zmax: float = 1.0,
                 axis_title: str = "position") -> go.Figure:
    """Two square matrices (e.g. cosine between positions of two tables) side by side on one colour scale."""
    a, b = np.asarray(left, dtype=np.float64), np.asarray(right, dtype=np.float64)
    common = {"colorscale": VALUE_SCALE, "zmin": zmin, "zmax": zmax, "zmid": 0,
              "hovertemplate": "%{y} · %{x}: %{z:.3f}<extra></extra>"}
    data = [{"type": "heatmap", "z": a.tolist(), "xaxis": "x", "yaxis": "y", "showscale": False, **common},
            {"type": "heatmap", "z": b.tolist(), "xaxis": "x2", "yaxis": "y2", "colorbar": {"thickness": 10},
             **common}]
    t = {"title": {"text": esc(axis_title)}}
    layout = _layout(titles[2] if len(titles) > 2 else "", 480,
                     xaxis={"domain": [0, 0.45], **t}, xaxis2={"domain": [0.53, 0.98], **t},
                     yaxis={"autorange": "reversed", "scaleanchor": "x"},
                     yaxis2={"autorange": "reversed", "anchor": "x2", "scaleanchor": "x2"},
                     annotations=[{"text": esc(s), "x": x, "y": 1.02, "yanchor": "bottom", "xref": "paper",
                                   "yref": "paper", "showarrow": False} for s, x in zip(titles[:2], (0.22, 0.75))])
    return _fig(data, layout)


def stacked_matrices(mats: Sequence, names: Sequence[str], row_tokens: Sequence[str], title: str,
                     dim_title: str = "dimension") -> go.Figure:
    """Matrices of one shape (tokens x d_model), one under another, e.g. the token, segment and position
    embeddings, their sum and its LayerNorm. Each panel has its own diverging scale, written beside its name
    (±r): the LayerNorm'ed input reaches |x| ~ 30 where the raw embeddings stay under 1, and one scale showed
    those as blank."""
    ms = [np.asarray(m, dtype=np.float64) for m in mats]
    if not ms or len({m.shape for m in ms}) != 1 or ms[0].shape[0] != len(row_tokens):
        raise ValueError("stacked_matrices needs matrices of one shape (tokens, d)")
    n, T = len(ms), len(row_tokens)
    gap = 0.06
    h = (1 - gap * (n - 1)) / n
    data, layout_axes, notes = [], {}, []
    ticks = [esc(t) for t in row_tokens]
    for i, (m, name) in enumerate(zip(ms, names)):
        r = _sym(m)
        top = 1 - i * (h + gap)
        sfx = "" if i == 0 else str(i + 1)
        data.append({"type": "heatmap", "z": m.tolist(), "xaxis": f"x{sfx}", "yaxis": f"y{sfx}",
                     "colorscale": VALUE_SCALE, "zmin": -r, "zmax": r, "zmid": 0, "showscale": False,
                     "hovertemplate": "%{z:.4f}<extra></extra>"})
        layout_axes[f"yaxis{sfx}"] = {"domain": [top - h, top], "tickmode": "array", "tickvals": list(range(T)),
                                      "ticktext": ticks, "autorange": "reversed", "anchor": f"x{sfx}",
                                      "automargin": True}
        layout_axes[f"xaxis{sfx}"] = {"anchor": f"y{sfx}", "showticklabels": i == n - 1,
                                      **({"title": {"text": esc(dim_title)}} if i == n - 1 else {})}
        notes.append({"text": f"<b>{esc(name)}</b>  (±{r:.2f})", "x": 0, "y": top, "xref": "paper", "yref": "paper",
                      "yanchor": "bottom", "xanchor": "left", "showarrow": False})
    return _fig(data, _layout(title, 120 + n * (40 + 18 * T), annotations=notes, **layout_axes))


def elmo_layers(layer_names: Sequence[str], s, layer_cos, mixed_cos: float, titles: Sequence[str]) -> go.Figure:
    """Bars: the weights s_j per layer; line (right axis): the cosine between two senses with each layer alone,
    and a dashed line at the cosine of their ELMo mix."""
    w, c = np.asarray(s, dtype=np.float64), np.asarray(layer_cos, dtype=np.float64)
    if w.size != len(layer_names) or c.size != len(layer_names):
        raise ValueError("one weight and one cosine per layer")
    x = [esc(n) for n in layer_names]
    data = [{"type": "bar", "x": x, "y": w.tolist(), "name": esc(titles[0]), "marker": {"color": "#92c5de"},
             "hovertemplate": "%{y:.3f}<extra></extra>"},
            {"type": "scatter", "mode": "lines+markers", "x": x, "y": c.tolist(), "name": esc(titles[1]),
             "yaxis": "y2", "line": {"color": "#b2182b"}, "hovertemplate": "%{y:.3f}<extra></extra>"},
            {"type": "scatter", "mode": "lines", "x": [x[0], x[-1]], "y": [mixed_cos, mixed_cos],
             "name": esc(titles[2]) + f" = {mixed_cos:.3f}", "yaxis": "y2",
             "line": {"color": "#000000", "dash": "dash"}, "hoverinfo": "skip"}]
    return _fig(data, _layout(titles[3] if len(titles) > 3 else "", 420,
                              yaxis={"title": {"text": esc(titles[0])}, "range": [0, max(1e-9, float(w.max())) * 1.15]},
                              yaxis2={"title": {"text": esc(titles[1])}, "overlaying": "y", "side": "right",
                                      "range": [min(float(c.min()), mixed_cos) - 0.05, 1.0], "tickformat": ".2f"},
                              legend={"orientation": "h", "y": -0.2}))
