"""Contextual vs static: one word's vector in several sentences against its static embedding.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from explorer.compute import lab
from explorer.figures import lab as lf
from explorer.i18n import lab_labels, localized, t
from explorer.views import Downloads, md, notices_md, to_download


EXAMPLES = lab.EXAMPLES  # word -> (model, its sentences): the tab's default and its examples
KOREAN_EXAMPLE = "배"  # the Korean interface's first screen: belly, boat and pear, in EXAMPLES' model (bert-ko)
CONTEXT_COLUMNS = ["#", "sentence", "tokens of the word", "cosine with static"]  # English headers, i18n.localized


@dataclass(frozen=True)
class ContextualView:
    figure: go.Figure
    table: pd.DataFrame  # sentence, the word's tokens, cosine with the static embedding
    text: str  # markdown
    files: Downloads
    record: lab.ContextualResult


def contextual_view(word: str, sentences: str = "", model: str | None = None, lang: str = "en") -> ContextualView:
    """One word in several sentences (one per line): contextual vs static embedding cosines.
    model None or "auto": the model lab.EXAMPLES names for the word, else BERT."""
    r = lab.contextual_similarity(word, sentences, None if model in (None, "", "auto") else model)
    return contextual_redraw(r, lang)


def contextual_redraw(r: lab.ContextualResult, lang: str = "en") -> ContextualView:
    """The view of a result already computed, in `lang` (the language switch: no model call)."""
    table = pd.DataFrame(zip(range(1, len(r.sentences) + 1), r.sentences,
                             [" ".join(tk[i] for i in p) for tk, p in zip(r.tokens, r.positions)],
                             np.round(r.to_static, 4)), columns=CONTEXT_COLUMNS)
    table = localized(table, lang)
    off = r.similarity[~np.eye(len(r.sentences), dtype=bool)]
    source = t(f"ctx.source.{r.source}", lang)  # which vectors, in the switch's language
    if off.size == 2:  # two sentences: one cosine, not a range
        lead = [t("ctx.summary_two", lang, word=md(r.word), model=md(r.model), source=md(source), cos=float(off[0]))]
    elif off.size:
        lead = [t("ctx.summary", lang, word=md(r.word), model=md(r.model), source=md(source), lo=float(off.min()),
                  hi=float(off.max()))]
    else:  # one sentence: no second context to compare with
        lead = [t("ctx.summary_one", lang, word=md(r.word), model=md(r.model), source=md(source),
                  static=float(r.to_static[0]))]
    fig = lf.contextual_figure(r.sentences, r.word, r.similarity, r.to_static, f"{r.model}: {source}",
                               lab_labels(lang))
    files = to_download(f"contextual-{r.model}", r, {"cosines": pd.DataFrame(
        r.similarity, index=range(1, len(r.sentences) + 1), columns=range(1, len(r.sentences) + 1))})
    return ContextualView(fig, table, notices_md(r.notices, lead, lang), files, r)
