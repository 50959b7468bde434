"""The Transformer tab's composition: one translation's encoder self-, masked decoder self- and cross
attention (Vaswani et al. 2017), every head as a grid and the chosen (layer, head) on its own, the masked
scores QK^T/sqrt(d_k) beside their softmax, and beam search's n-best. Records come from
explorer.compute.inference; figures from explorer.figures.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from explorer import figures as fg
from explorer import i18n
from explorer.compute import inference as inf
from explorer.figures.confidence import shaded_translation
from explorer.compute.inference import TranslationResult
from explorer.views import Downloads, NO_DOWNLOADS, matrix_table, notices_md, to_download

MAX_BEAM = inf.MAX_BEAM  # the tab's beam slider (and shaded_translation, above, its confidence view)


def pick(arr, layer, head) -> tuple[int, int]:
    """1-based layer/head from the UI -> 0-based indices that exist in `arr` (clamped)."""
    L, H = arr.shape[:2]
    return int(np.clip(int(layer or 1), 1, L)) - 1, int(np.clip(int(head or 1), 1, H)) - 1


def size(*arrays) -> tuple[int, int]:
    """(layers, heads) for the sliders: the largest over the arrays a record has."""
    shapes = [a.shape[:2] for a in arrays if a is not None]
    return (max(s[0] for s in shapes), max(s[1] for s in shapes)) if shapes else (1, 1)



@dataclass(frozen=True)
class TransformerHeads:
    """Every attention view of one translation for a chosen (layer, head)."""
    enc_grid: go.Figure
    enc_head: go.Figure
    dec_grid: go.Figure
    dec_head: go.Figure
    dec_scores: go.Figure  # masked scores QK^T/sqrt(d_k) next to their softmax
    cross_grid: go.Figure
    cross_head: go.Figure
    files: Downloads


@dataclass(frozen=True)
class TransformerView:
    translation: str
    notice: str
    hypotheses: pd.DataFrame  # beam search's n-best
    heads: TransformerHeads
    record: TranslationResult
    n_layers: int
    n_heads: int
    confidence: str  # HTML: the translation's words shaded by how unsure the model is (explorer.figures.confidence)


_TRANSFORMER_VIEWS = {  # trace field -> (i18n key of its title, rows, cols) of the record's tokens
    "enc_self": ("tr.title_enc", "source_tokens", "source_tokens"),
    "dec_self": ("tr.title_dec", "decoder_input_tokens", "decoder_input_tokens"),
    "cross": ("tr.title_cross", "target_tokens", "source_tokens"),
}
# The decoder's query at step t reads decoder input t (<s>, Je, ...) and produces output t (Je, ..., </s>):
# masked self-attention labels its rows by what they read (its keys are those same inputs), cross
# attention by what they produce, as alignment figures do; the axis titles say which (i18n keys).
_AXIS_TITLES = {"enc_self": ("fig.query", "fig.key"), "dec_self": ("tr.query_reads", "tr.key_reads"),
                "cross": ("tr.query_produces", "tr.key_source")}


def no_view(key: str, lang: str) -> go.Figure:
    """The placeholder for a view this model does not have ("This model has no cross attention")."""
    title = i18n.t(key, lang)
    # "Encoder self-attention" reads "encoder self-attention" mid-sentence; a name ("Encoder-Decoder Attention") stays
    name = any(c.isupper() for c in title.split(" ")[0][1:])
    return fg.placeholder(i18n.t("tr.no_view", lang, what=title[0].lower() + title[1:] if lang == "en" and not name
                                 else title))


def transformer_heads(r: TranslationResult | None, layer=1, head=1, lang: str = "en") -> TransformerHeads:
    """Grids + the selected head's views from a translation record (no model call)."""
    if r is None:
        p = fg.placeholder(i18n.t("view.translate_first", lang))
        return TransformerHeads(p, p, p, p, p, p, p, NO_DOWNLOADS)
    figs, tables = {}, {}
    words = i18n.figure_labels(lang)
    for name, (key, rows_attr, cols_attr) in _TRANSFORMER_VIEWS.items():
        a, rows, cols = getattr(r.trace, name), getattr(r, rows_attr), getattr(r, cols_attr)
        if a is None:
            figs[f"{name}_grid"] = figs[f"{name}_head"] = no_view(key, lang)
            continue
        title = i18n.t(key, lang)
        l, h = pick(a, layer, head)
        figs[f"{name}_grid"] = fg.head_grid(a, cols, rows, i18n.t("view.all_heads", lang, title=title),
                                            selected=(l, h), labels=words)
        figs[f"{name}_head"] = fg.heatmap(a[l, h], cols, rows, i18n.t("view.layer_head", lang, title=title, l=l + 1,
                                                                      h=h + 1),
                                          x_title=i18n.t(_AXIS_TITLES[name][1], lang),
                                          y_title=i18n.t(_AXIS_TITLES[name][0], lang), labels=words)
        tables[f"{name}-L{l + 1}H{h + 1}"] = matrix_table(a[l, h], rows, cols)
    s, p = r.trace.dec_self_scores, r.trace.dec_self
    if s is None or p is None:
        figs["dec_scores"] = no_view("tr.title_dec", lang)
    else:
        l, h = pick(s, layer, head)
        toks = r.decoder_input_tokens
        figs["dec_scores"] = fg.masked_scores(s[l, h], p[l, h], toks, toks,
                                              i18n.t("tr.scores_title", lang, l=l + 1, h=h + 1), labels=words)
        tables[f"dec_self_scores-L{l + 1}H{h + 1}"] = matrix_table(s[l, h], toks, toks)
    files = to_download(r.model, r, tables, figs, lang)
    return TransformerHeads(figs["enc_self_grid"], figs["enc_self_head"], figs["dec_self_grid"],
                            figs["dec_self_head"], figs["dec_scores"], figs["cross_grid"], figs["cross_head"], files)


def transformer_view(text: str, model: str, beam: int = 1, layer: int = 1, head: int = 1,
                     lang: str = "en") -> TransformerView:
    """Translate with a Transformer (beam=1: greedy) and show every attention it used."""
    r = inf.translate(model, text, beam)
    n_layers, n_heads = size(r.trace.enc_self, r.trace.dec_self, r.trace.cross)
    return TransformerView(r.translation, notices_md(r.notices, lang=lang), hypotheses_table(r, lang),
                           transformer_heads(r, layer, head, lang), r, n_layers, n_heads,
                           confidence=shaded_translation(r.target_tokens, r.token_probs, lang))


HYPOTHESIS_COLUMNS = ["#", "translation", "log-prob", "score", "attention shown"]  # English headers, i18n.localized


def hypotheses_table(r: TranslationResult, lang: str = "en") -> pd.DataFrame:
    hyps = pd.DataFrame([[i + 1, h.text, h.logprob, h.score, "✓" if i == r.chosen else ""]
                         for i, h in enumerate(r.hypotheses)], columns=HYPOTHESIS_COLUMNS)
    return i18n.localized(hyps, lang)
