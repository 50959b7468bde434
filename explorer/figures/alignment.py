"""The figure of one pair's attention read as a word alignment (explorer/compute/alignment.py): target words x
source words, the word attention in blues, the gold links as open squares and the reading's links as dots, so a
hit is a dot in a square (Och & Ney 2003's sure links; Chen et al. 2020's naive and shifted readings). Pure: arrays
and words in, a plotly figure out; no torch, models or gradio."""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from explorer import figures as fg

LABELS = {"source": "source word", "target": "target word", "gold": "gold link", "predicted": "the reading's link"}
GOLD_COLOUR = "#111111"  # fg.OUTLINE's near-black: open squares read on white and on dark blue cells
LINK_COLOUR = "#b45309"  # amber, as the ablation figures' "heads off": apart from the blues for colour-blind readers


def alignment_map(attention, src_words: Sequence[str], tgt_words: Sequence[str], links, gold, title: str,
                  labels: dict | None = None) -> go.Figure:
    """Word attention (n_tgt, n_src) with `links` ((source, target) pairs, from 0) as dots and `gold` (the same,
    or None) as open squares."""
    w = {**LABELS, **(labels or {})}
    a = np.asarray(attention, dtype=float)
    if a.shape != (len(tgt_words), len(src_words)):
        raise ValueError(f"{a.shape} attention for {len(tgt_words)} target and {len(src_words)} source words")
    fig = fg.heatmap(a, list(src_words), list(tgt_words), title, x_title=w["source"], y_title=w["target"],
                     labels=labels)
    size = 26 if max(a.shape) <= 12 else 16
    marks = [(sorted(gold or ()), w["gold"], dict(symbol="square-open", size=size + 8, color=GOLD_COLOUR,
                                                  line=dict(width=3, color=GOLD_COLOUR))),
             (sorted(links), w["predicted"], dict(symbol="circle", size=size * 0.55, color=LINK_COLOUR,
                                                  line=dict(width=1.5, color="white")))]
    for pairs, name, marker in marks:
        if not pairs and name == w["gold"]:
            continue
        fig.add_trace(go.Scatter(x=[i for i, _ in pairs], y=[j for _, j in pairs], mode="markers",
                                 name=fg._esc(name), marker=marker, hoverinfo="skip"))
    fig.update_layout(showlegend=True, legend=dict(orientation="h", yanchor="top", y=-0.02, x=0,
                                                   font=dict(size=fg.BASE_FONT)))
    return fig
