"""Attention rollout through the layers (Abnar & Zuidema 2020) and each head's and row's entropy.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import pandas as pd
import plotly.graph_objects as go

from explorer import figures as fg
from explorer.compute import lab
from explorer.figures import lab as lf
from explorer.i18n import figure_labels, lab_labels, t
from explorer.views import Downloads, matrix_table, notices_md, one_based, to_download, whole_number


@dataclass(frozen=True)
class RolloutLayer:
    rollout: go.Figure  # the layer's head mean next to the rollout up to it
    row_entropy: go.Figure  # heads x tokens: entropy of each head's row for each query token
    table: pd.DataFrame  # rollout matrix of that layer


@dataclass(frozen=True)
class RolloutView:
    grid: go.Figure  # raw self-attention, every layer x head
    entropy: go.Figure  # mean row entropy per layer x head
    layer: RolloutLayer
    files: Downloads
    record: lab.RolloutResult
    n_layers: int
    notice: str = ""  # markdown: the input's notices (unknown tokens, a cut), in the view's language


def rollout_redraw(r: lab.RolloutResult | None, layer=None, lang: str = "en") -> RolloutLayer:
    """The per-layer figures of a rollout record (no model call); layer is 1-based, None = last."""
    if r is None:
        p = fg.placeholder(t("view.run_first", lang))
        return RolloutLayer(p, p, pd.DataFrame())
    L = r.rollout.shape[0]
    l = L - 1 if layer is None else one_based(layer, "Layer", L)
    fig = lf.rollout_figure(r.tokens, r.head_mean[l], r.rollout[l], t("view.layer_mean", lang, l=l + 1),
                            t("view.rollout_through", lang, l=l + 1), labels=lab_labels(lang))
    H, n = r.entropy.shape[1], len(r.tokens)
    ent = fg.heatmap(r.entropy[l], r.tokens, [t("view.head_n", lang, h=h + 1) for h in range(H)],
                     t("view.row_entropy", lang, l=l + 1, n=n, u=math.log(n)), zmin=0.0, zmax=math.log(n),
                     x_title=t("view.query_token", lang), y_title=t("lab.head", lang), colorscale="Viridis",
                     labels=figure_labels(lang))
    return RolloutLayer(fig, ent, matrix_table(r.rollout[l], r.tokens, r.tokens))


def rollout_view(text: str, model: str = "bert", layer=None, lang: str = "en") -> RolloutView:
    """Attention rollout and row entropy of BERT or a Transformer's encoder self-attention."""
    return rollout_render(lab.attention_rollout(text, model), layer, lang)


def rollout_render(r: lab.RolloutResult, layer=None, lang: str = "en") -> RolloutView:
    """rollout_view's figures and downloads from a computed rollout (no model call)."""
    model = r.model
    grid = fg.head_grid(r.attention, r.tokens, r.tokens, t("view.self_grid", lang, model=model), selected=None,
                        labels=figure_labels(lang))
    ent = lf.entropy_figure(r.entropy, len(r.tokens), lab_labels(lang))
    L, H = r.entropy.shape[:2]
    this = rollout_redraw(r, None if layer is None else min(max(whole_number(layer, "Layer"), 1), L), lang)  # clamped
    mean_entropy = pd.DataFrame(r.entropy.mean(-1), index=pd.Index(range(1, L + 1), name=t("lab.layer", lang)),
                                columns=[t("view.head_n", lang, h=h + 1) for h in range(H)])
    files = to_download(f"rollout-{model}", r, {"mean-entropy": mean_entropy, "rollout-last": matrix_table(
        r.rollout[-1], r.tokens, r.tokens)})
    return RolloutView(grid, ent, this, files, r, L, notices_md(r.notices, lang=lang))
