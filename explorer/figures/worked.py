"""Figures of the Transformer deck's worked examples (explorer/compute/worked.py): numpy arrays and tokens in, a plotly
figure out. Pure, like explorer/figures/__init__.py: no torch, no models, no gradio.

* `worked_attention_figure`: softmax(Q K^T / sqrt(d_k)) V (Vaswani et al. 2017, eq. 1), every intermediate
  matrix a heatmap with its numbers written in the cells: the hand example above, the same steps on one head
  of a real model below, each column the same step.
* `activations_figure`: ReLU and GELU (x Phi(x), exact erf form) over [-4, 4], and beside them the histograms of
  two models' FFN pre-activations x W_1 + b_1, with the share each activation zeroes or damps in the titles.

The figures' words are plain data here (WORDS, English and Korean). Every token and model name that reaches a
label is passed through html.escape; token axes use integer positions with the tokens as tick text, so a
repeated token keeps its own row.
"""
from __future__ import annotations

import html

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from explorer.figures import BASE_FONT, TITLE_FONT

SHOWN_DIMS = 4  # a real head's q, k, v and output: the first few of its d_k columns, so the numbers stay legible
CELL_FONT = 13
INPUT_SCALE = "RdBu"  # signed values (Q, K, V, scores): red below 0, blue above, centred on 0
PROB_SCALE = "Blues"  # the softmax, 0..1
RELU_COLOUR, GELU_COLOUR = "#d62728", "#1f4e99"
NEGATIVE_COLOUR, POSITIVE_COLOUR = "#9e9e9e", "#4338ca"

WORDS = {
    "en": {
        "title": "softmax(QKᵀ / √d_k) V, step by step: by hand, then on the real model",
        "hand": "by hand", "Q": "Q", "K": "K", "V": "V", "QK": "QKᵀ", "scaled": "QKᵀ / √{d} = QKᵀ / {root}",
        "softmax": "softmax, row by row", "out": "softmax × V", "sums": "row sums",
        "real": "{model}, encoder layer {layer}, head {head}",
        "q": "q (first {n} of {d} dims)", "k": "k (first {n} of {d} dims)", "v": "v (first {n} of {d} dims)",
        "qk": "q·k (all {d} dims)", "real_out": "× v (first {n} of {d} dims)",
        "model_att": "the model's own attention (max diff {diff:.1e})", "dim": "dim",
        "act_title": "ReLU (the Transformer's FFN) beside GELU (BERT's FFN)",
        "curves": "ReLU = max(0, x), GELU = x·Φ(x)", "gelu_min": "GELU min {v:.2f} at x = {x:.2f}",
        "hist_relu": "{model} (ReLU), layer {layer}: {neg:.1%} of x < 0 → exactly 0",
        "hist_gelu": "{model} (GELU), layer {layer}: {neg:.1%} of x < 0 → damped to ({lo:.2f}, 0), {zero:.1%} exactly 0",
        "x": "x", "pre": "FFN pre-activation x·W₁ + b₁", "count": "count", "negative": "x < 0", "positive": "x ≥ 0",
    },
    "ko": {
        "title": "softmax(QKᵀ / √d_k) V 단계별 계산: 손으로, 그리고 실제 모델로",
        "hand": "손 계산", "Q": "Q", "K": "K", "V": "V", "QK": "QKᵀ", "scaled": "QKᵀ / √{d} = QKᵀ / {root}",
        "softmax": "softmax (행마다)", "out": "softmax × V", "sums": "행의 합",
        "real": "{model}, 인코더 레이어 {layer}, 헤드 {head}",
        "q": "q ({d}차원 중 처음 {n}개)", "k": "k ({d}차원 중 처음 {n}개)", "v": "v ({d}차원 중 처음 {n}개)",
        "qk": "q·k ({d}차원 전부)", "real_out": "× v ({d}차원 중 처음 {n}개)",
        "model_att": "모델 자신의 어텐션 (최대 차이 {diff:.1e})", "dim": "차원",
        "act_title": "ReLU(트랜스포머의 FFN)와 GELU(BERT의 FFN)",
        "curves": "ReLU = max(0, x), GELU = x·Φ(x)", "gelu_min": "GELU 최솟값 {v:.2f} (x = {x:.2f})",
        "hist_relu": "{model} (ReLU), 레이어 {layer}: x < 0이 {neg:.1%} → 정확히 0",
        "hist_gelu": "{model} (GELU), 레이어 {layer}: x < 0이 {neg:.1%} → ({lo:.2f}, 0)로 줄어듦, 정확히 0은 {zero:.1%}",
        "x": "x", "pre": "FFN 활성화 이전 값 x·W₁ + b₁", "count": "개수", "negative": "x < 0", "positive": "x ≥ 0",
    },
}


def words(lang: str = "en") -> dict:
    return WORDS.get(lang, WORDS["en"])


def cell_text(m, digits: int | None = 2) -> list[list[str]]:
    """A matrix's numbers as written in its cells: to `digits` places, or as whole numbers (digits=None: the
    hand example's integer inputs)."""
    m = np.atleast_2d(np.asarray(m, dtype=np.float64))
    return [[str(int(round(v))) if digits is None else f"{v:.{digits}f}" for v in row] for row in m]


def _matrix(m, x_labels, y_labels, digits: int | None, scale: str, zmin: float | None = None,
            zmax: float | None = None) -> go.Heatmap:
    m = np.atleast_2d(np.asarray(m, dtype=np.float64))
    if zmin is None:  # a signed matrix: a diverging scale centred on 0
        top = float(np.abs(m).max(initial=0.0)) or 1.0
        zmin, zmax = -top, top
    return go.Heatmap(z=m, x=list(range(m.shape[1])), y=list(range(m.shape[0])), text=cell_text(m, digits),
                      texttemplate="%{text}", textfont={"size": CELL_FONT}, colorscale=scale, zmin=zmin, zmax=zmax,
                      showscale=False, xgap=1, ygap=1,
                      customdata=[[f"{html.escape(str(y))} · {html.escape(str(x))}" for x in x_labels]
                                  for y in y_labels],
                      hovertemplate="%{customdata}: %{text}<extra></extra>")


def _esc(labels) -> list[str]:
    return [html.escape(str(s)) for s in labels]


def worked_attention_figure(hand: dict, real: dict, lang: str = "en") -> go.Figure:
    """Two groups of two rows of four panels. `hand` and `real` hold "tokens", "q", "k", "v", "qk", "scores",
    "probs", "out" and "d_k" (explorer/compute/worked.py's `arrays()`); `real` also "model_probs", "model", "layer" and
    "head" (0-based). The hand group's last panel is each softmax row's sum; the real group's is the model's
    own attention, with its largest difference from the recomputed softmax in the title."""
    w = words(lang)
    ht, rt = list(hand["tokens"]), list(real["tokens"])
    dh, dr = int(hand["d_k"]), int(real["d_k"])
    n = min(SHOWN_DIMS, dr)
    diff = float(np.abs(np.asarray(real["probs"]) - np.asarray(real["model_probs"])).max())
    hdims = [f"{w['dim']} {i + 1}" for i in range(dh)]
    rdims = [f"{w['dim']} {i + 1}" for i in range(n)]
    root = f"{np.sqrt(dh):.3f}".rstrip("0")
    rroot = f"{np.sqrt(dr):.3f}".rstrip("0").rstrip(".")
    head = w["hand"]
    model = w["real"].format(model=real["model"], layer=int(real["layer"]) + 1, head=int(real["head"]) + 1)
    sums = np.asarray(hand["probs"]).sum(axis=1, keepdims=True)
    panels = [  # (title, matrix, column labels, row labels, digits, scale, zmin, zmax)
        (f"{head}: {w['Q']}", hand["q"], hdims, ht, None, INPUT_SCALE, None, None),
        (f"{head}: {w['K']}", hand["k"], hdims, ht, None, INPUT_SCALE, None, None),
        (f"{head}: {w['V']}", hand["v"], hdims, ht, None, INPUT_SCALE, None, None),
        (f"{head}: {w['QK']}", hand["qk"], ht, ht, None, INPUT_SCALE, None, None),
        (w["scaled"].format(d=dh, root=root), hand["scores"], ht, ht, 2, INPUT_SCALE, None, None),
        (w["softmax"], hand["probs"], ht, ht, 3, PROB_SCALE, 0.0, 1.0),
        (w["out"], hand["out"], hdims, ht, 2, INPUT_SCALE, None, None),
        (w["sums"], sums, ["Σ"], ht, 3, PROB_SCALE, 0.0, 1.0),
        (w["q"].format(n=n, d=dr), np.asarray(real["q"])[:, :n], rdims, rt, 2, INPUT_SCALE, None, None),
        (w["k"].format(n=n, d=dr), np.asarray(real["k"])[:, :n], rdims, rt, 2, INPUT_SCALE, None, None),
        (w["v"].format(n=n, d=dr), np.asarray(real["v"])[:, :n], rdims, rt, 2, INPUT_SCALE, None, None),
        (w["qk"].format(d=dr), real["qk"], rt, rt, 1, INPUT_SCALE, None, None),
        (w["scaled"].format(d=dr, root=rroot), real["scores"], rt, rt, 2, INPUT_SCALE, None, None),
        (w["softmax"], real["probs"], rt, rt, 2, PROB_SCALE, 0.0, 1.0),
        (w["real_out"].format(n=n, d=dr), np.asarray(real["out"])[:, :n], rdims, rt, 2, INPUT_SCALE, None, None),
        (w["model_att"].format(diff=diff), real["model_probs"], rt, rt, 2, PROB_SCALE, 0.0, 1.0),
    ]
    fig = make_subplots(rows=4, cols=4, subplot_titles=[html.escape(p[0]) for p in panels], horizontal_spacing=0.07,
                        vertical_spacing=0.09)
    for i, (_, m, xs, ys, digits, scale, lo, hi) in enumerate(panels):
        r, c = divmod(i, 4)
        fig.add_trace(_matrix(m, xs, ys, digits, scale, lo, hi), r + 1, c + 1)
        fig.update_xaxes(tickmode="array", tickvals=list(range(len(xs))), ticktext=_esc(xs), tickangle=0,
                         row=r + 1, col=c + 1)
        fig.update_yaxes(tickmode="array", tickvals=list(range(len(ys))), ticktext=_esc(ys), autorange="reversed",
                         row=r + 1, col=c + 1)
    for a in fig.layout.annotations:  # the panel titles: smaller than the figure's
        a.font = {"size": BASE_FONT - 1}
    group = [dict(text=f"<b>{html.escape(t)}</b>", x=0, xref="paper", xanchor="left", y=y, yref="paper",
                  yanchor="bottom", showarrow=False, font={"size": BASE_FONT + 2}, name="group")
             for t, y in ((f"{head} (d_k = {dh})", 1.035), (f"{model} (d_k = {dr})", 0.475))]
    for g in group:
        fig.add_annotation(**g)
    return fig.update_layout(title={"text": html.escape(w["title"]), "font": {"size": TITLE_FONT}},
                             font={"size": BASE_FONT}, height=1250, margin={"t": 140, "l": 10, "r": 10, "b": 20},
                             plot_bgcolor="white")


def _histogram(values, width: float = 0.5) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(left edges, centres, counts) of bins `width` wide, one edge at 0 so that no bin mixes the signs."""
    v = np.asarray(values, dtype=np.float64).ravel()
    lo, hi = np.floor(v.min(initial=0.0) / width) * width, np.ceil(v.max(initial=0.0) / width) * width + width
    edges = np.arange(lo, hi + width / 2, width)
    counts, edges = np.histogram(v, bins=edges)
    return edges[:-1], edges[:-1] + width / 2, counts


def activations_figure(curves: dict, relu_ffn: dict, gelu_ffn: dict, lang: str = "en") -> go.Figure:
    """Left: ReLU and GELU over `curves["x"]` (`curves["relu"]`, `curves["gelu"]`). Middle and right: the
    histograms of `relu_ffn["hidden_pre"]` and `gelu_ffn["hidden_pre"]` (each with "model", "layer" (0-based),
    "share_negative", "share_zero" and "hidden": explorer/compute/worked.py's FFNActivations.arrays()), negative bins
    grey (what the activation zeroes or damps), the shares in the panel titles."""
    w = words(lang)
    x, g = np.asarray(curves["x"], dtype=np.float64), np.asarray(curves["gelu"], dtype=np.float64)
    i = int(np.argmin(g))
    lo = float(np.asarray(gelu_ffn["hidden"]).min(initial=0.0))
    titles = [w["curves"],
              w["hist_relu"].format(model=relu_ffn["model"], layer=int(relu_ffn["layer"]) + 1,
                                    neg=relu_ffn["share_negative"]),
              w["hist_gelu"].format(model=gelu_ffn["model"], layer=int(gelu_ffn["layer"]) + 1,
                                    neg=gelu_ffn["share_negative"], lo=lo, zero=gelu_ffn["share_zero"])]
    fig = make_subplots(rows=3, cols=1, subplot_titles=[html.escape(t) for t in titles], vertical_spacing=0.11)
    fig.add_trace(go.Scatter(x=x, y=curves["relu"], name="ReLU", line={"color": RELU_COLOUR, "width": 3}), 1, 1)
    fig.add_trace(go.Scatter(x=x, y=g, name="GELU", line={"color": GELU_COLOUR, "width": 3, "dash": "dash"}), 1, 1)
    fig.add_annotation(x=x[i], y=g[i], text=html.escape(w["gelu_min"].format(v=g[i], x=x[i])), showarrow=True,
                       ay=40, row=1, col=1)
    for row, ffn in ((2, relu_ffn), (3, gelu_ffn)):
        left, centres, counts = _histogram(ffn["hidden_pre"])
        for name, keep, colour in ((w["negative"], left < 0, NEGATIVE_COLOUR), (w["positive"], left >= 0,
                                                                                 POSITIVE_COLOUR)):
            fig.add_trace(go.Bar(x=centres[keep], y=counts[keep], name=html.escape(name), marker_color=colour,
                                 width=0.5, showlegend=row == 2,
                                 hovertemplate="x ≈ %{x}: %{y}<extra></extra>"), row, 1)
        fig.update_xaxes(title_text=html.escape(w["pre"]), zeroline=True, row=row, col=1)
        fig.update_yaxes(title_text=html.escape(w["count"]), row=row, col=1)
    fig.update_xaxes(title_text="x", range=[float(x.min()), float(x.max())], row=1, col=1)
    fig.add_vline(x=0, line={"color": "#111111", "width": 1}, row="all", col=1)
    return fig.update_layout(title={"text": html.escape(w["act_title"]), "font": {"size": TITLE_FONT}},
                             font={"size": BASE_FONT}, height=1050, bargap=0, plot_bgcolor="white",
                             margin={"t": 100, "l": 10, "r": 10, "b": 20})
