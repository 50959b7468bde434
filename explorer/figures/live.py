"""Figures for the "attention over training" and "train it yourself" views.

Pure: numpy arrays and token lists in, `plotly.graph_objects.Figure` out. No torch, no
models, no gradio, and no knowledge of any model's shape beyond the arrays given. Tokens
are placed at integer positions with their text as tick labels, so that a repeated token
("la ... la") keeps its own row instead of being merged by a categorical axis, and every
token is HTML-escaped before plotly renders it.
"""
from __future__ import annotations

import html

import numpy as np
import plotly.graph_objects as go

from explorer.figures import LABELLED_TOP, WORD_START, slant_room, stacked, token_heatmap, whole_dtick

COLORSCALE = "Blues"


def _labels(tokens) -> list[str]:
    return [html.escape(str(t)) for t in tokens]


# The words these figures draw besides tokens and numbers, in English; a caller passes a translated
# copy of any of them as `words` (explorer.i18n.live_labels gives the Korean one).
LABELS = {"weight": "weight", "source": "source", "target": "target", "step_n": "step {n}",
          "snapshot_n": "snapshot {k} of {n}", "layer_of": "{step} · layer {l} of {L}", "layer_n": "layer {l}",
          "mean_row_entropy": "mean row entropy", "uniform": "uniform (log S)", "training_step": "training step",
          "entropy_nats": "entropy (nats)", "step": "step", "cross_entropy": "cross-entropy (nats/token)",
          "loss": "loss", "word_start": "▁ = start of a word"}


def _words(words, escape: bool = True) -> dict:
    """LABELS with the given translations, escaped for plotly (or plain text: a screen readers' table)."""
    return {k: html.escape(v) if escape else v for k, v in {**LABELS, **(words or {})}.items()}


def alignment_heatmap(attn: np.ndarray, source_tokens, target_tokens, title: str = "",
                      words: dict | None = None) -> go.Figure:
    """Heatmap of attention attn (T, S): row t = target token t, column s = source token s."""
    w, raw = _words(words), _words(words, escape=False)  # raw: the screen readers' table is text, not markup
    attn = np.asarray(attn, dtype=float)
    if attn.ndim != 2 or attn.shape != (len(target_tokens), len(source_tokens)):
        raise ValueError(f"attention of shape {attn.shape} does not fit {len(target_tokens)} target and "
                         f"{len(source_tokens)} source tokens")
    src, tgt = _labels(source_tokens), _labels(target_tokens)
    T, S = attn.shape
    # positions first, as every other heatmap's hover ("#2 suis → #1 am"): a repeated word stays apart
    hover = np.array([[f"#{t} {tgt[t]} → #{s} {src[s]}" for s in range(S)] for t in range(T)], dtype=object)
    fig = go.Figure([token_heatmap(
        attn, source_tokens, target_tokens, caption=title or raw["weight"], corner=f"{raw['target']} / {raw['source']}",
        hover={"customdata": hover, "hovertemplate": "%{customdata}: %{z:.3f}<extra></extra>"}, digits=3,
        zmin=0.0, zmax=1.0, colorscale=COLORSCALE,
        colorbar=dict(title=dict(text=w["weight"], side="right"), thickness=12))])  # on top it sat on the "1"
    head = dict(text=html.escape(title))
    if any(WORD_START in str(t) for t in (*source_tokens, *target_tokens)):  # say once what "▁" means
        head["subtitle"] = dict(text=w["word_start"])
    fig.update_layout(
        title=head, margin=dict(l=10, r=10, t=(70 if "subtitle" in head else 40) if title else 10, b=10),
        # automargin: the tokens over the map (slanted where narrow) push the map down instead of running
        # into the title, and the target tokens push it right
        xaxis=dict(tickmode="array", tickvals=list(range(S)), ticktext=src, side="top", title=w["source"],
                   automargin=True),
        yaxis=dict(tickmode="array", tickvals=list(range(T)), ticktext=tgt, autorange="reversed", title=w["target"],
                   automargin=True),
        height=max(260, 28 * T + 120))
    if not title:
        return fig
    # a phone: the source tokens over the map slant, and ran into the title; they get their room above it
    room = slant_room(src) + 20
    top = max(LABELLED_TOP, fig.layout.margin.t)
    return stacked(fig, narrow_layout={"margin.t": top + room, "height": fig.layout.height + room})


def snapshot_heatmap(frames: np.ndarray, k: int, layer: int, source_tokens, target_tokens,
                     steps=None, words: dict | None = None) -> go.Figure:
    """Frame k, layer `layer` of frames (n_snapshots, L, T, S) as an alignment heatmap."""
    w = {**LABELS, **(words or {})}  # the title is escaped by alignment_heatmap
    frames = np.asarray(frames)
    if frames.ndim != 4:
        raise ValueError(f"frames must be (n_snapshots, layers, T, S), got shape {frames.shape}")
    n, L = frames.shape[:2]
    if not 0 <= k < n:
        raise ValueError(f"snapshot {k} out of range 0..{n - 1}")
    if not 0 <= layer < L:
        raise ValueError(f"layer {layer} out of range 0..{L - 1}")
    step = w["step_n"].format(n=steps[k]) if steps is not None else w["snapshot_n"].format(k=k + 1, n=n)
    title = w["layer_of"].format(step=step, l=layer + 1, L=L) if L > 1 else step
    return alignment_heatmap(frames[k, layer], source_tokens, target_tokens, title, words)


def entropy_figure(steps, entropy: np.ndarray, max_entropy: float, current: int | None = None,
                   words: dict | None = None) -> go.Figure:
    """Mean row entropy per snapshot: entropy (n,) or (n, L) (one line per layer) against steps.

    A dashed line marks log S (uniform attention); `current` highlights one snapshot.
    """
    w = _words(words)
    steps = list(steps)
    e = np.asarray(entropy, dtype=float)
    e = e[:, None] if e.ndim == 1 else e
    if e.shape[0] != len(steps):
        raise ValueError(f"{e.shape[0]} entropy values for {len(steps)} steps")
    fig = go.Figure()
    for l in range(e.shape[1]):
        name = w["layer_n"].format(l=l + 1) if e.shape[1] > 1 else w["mean_row_entropy"]
        fig.add_trace(go.Scatter(x=steps, y=e[:, l], mode="lines+markers", name=name,
                                 hovertemplate=f"{w['step']} %{{x}}: %{{y:.3f}} nats<extra>" + name + "</extra>"))
    fig.add_hline(y=max_entropy, line_dash="dash", line_color="gray",
                  annotation_text=w["uniform"], annotation_position="top right")
    if current is not None:
        if not 0 <= current < len(steps):
            raise ValueError(f"snapshot {current} out of range 0..{len(steps) - 1}")
        fig.add_vline(x=steps[current], line_color="crimson", line_width=1)
    fig.update_layout(xaxis_title=w["training_step"], yaxis_title=w["entropy_nats"], yaxis_rangemode="tozero",
                      # t=40: room for the plot's label (Gradio's, over the plot's top left) above the lines
                      margin=dict(l=10, r=10, t=40, b=10), height=290, showlegend=e.shape[1] > 1)
    return fig


def loss_figure(steps, losses, words: dict | None = None) -> go.Figure:
    """Training loss (nats/token) against step; empty axes before the first value."""
    w = _words(words)
    steps, losses = list(steps), list(losses)
    if len(steps) != len(losses):
        raise ValueError(f"{len(losses)} losses for {len(steps)} steps")
    fig = go.Figure(go.Scatter(x=steps, y=losses, mode="lines+markers", name=w["loss"],
                               hovertemplate=f"{w['step']} %{{x}}: %{{y:.3f}}<extra></extra>"))
    # the range is set, not left to autorange: streamed redraws kept the first, higher loss outside it
    top = max((v for v in losses if np.isfinite(v)), default=1.0) * 1.08 or 1.0
    # steps are whole: the x axis runs from 0 with whole ticks (one point at step 52 had read 51.5, 52, 52.5)
    last = max(steps, default=1) or 1
    fig.update_layout(xaxis_title=w["step"], yaxis_title=w["cross_entropy"], yaxis_range=[0, top],
                      xaxis=dict(range=[0, last * 1.04], tickmode="linear", tick0=0, dtick=whole_dtick(last, 8)),
                      margin=dict(l=70, r=10, t=40, b=10), height=260)  # room for the y title and the plot's label
    return fig
