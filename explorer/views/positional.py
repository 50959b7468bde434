"""Positional encoding: the sinusoids of Vaswani et al. (2017, section 3.5) and how much of a sentence's
input they are.
"""
from __future__ import annotations

from dataclasses import dataclass

import plotly.graph_objects as go

from explorer import figures as fg
from explorer.compute import lab
from explorer.figures import lab as lf
from explorer.i18n import lab_labels, t
from explorer.views import Downloads, md, to_download


MAX_POSITIONS = lab.MAX_POSITIONS  # the longest table the tab's slider asks for


@dataclass(frozen=True)
class PositionalView:
    table: go.Figure  # PE(pos, i) and PE . PE^T
    sentence: go.Figure  # cosines before/after adding PE, norms (placeholder without a sentence)
    text: str
    files: Downloads
    record: lab.PositionalResult


def positional_view(max_len=64, d_model=128, text: str = "", model: str = "transformer-en-fr",
                    lang: str = "en") -> PositionalView:
    return positional_redraw(lab.positional(max_len, d_model, text, model), lang)


def positional_redraw(r: lab.PositionalResult, lang: str = "en") -> PositionalView:
    """The view of a table already computed, in `lang` (the language switch: no model call)."""
    s = r.sentence
    if s is None:
        sent, lead = fg.placeholder(t("pos.no_sentence", lang)), ""
    else:
        sent = lf.positional_sentence_figure(s.tokens, s.cos_before, s.cos_after, s.embedding_norm, s.pe_norm,
                                             lab_labels(lang))
        lead = t("pos.summary", lang, model=md(s.model), d=s.total.shape[1], e=float(s.embedding_norm.mean()),
                 p=float(s.pe_norm.mean()))
    # the table itself is a formula away (and up to 512 x 2048 numbers): the JSON keeps the sentence part
    max_len, d_model = r.pe.shape
    record = {"max_len": int(max_len), "d_model": int(d_model), "sentence": s}
    return PositionalView(lf.positional_figure(r.pe, r.similarity, lab_labels(lang)), sent, lead,
                          to_download("positional", record, {}), r)
