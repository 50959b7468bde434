"""The "Next-word choices" tab's composition: the top-k whole words at every word of the translation beside the
attention row of the step that began it, for the model's own translation or a typed one (explorer.compute.choices: a
word's probability is the product of its pieces' along the model's greedy continuation), in the page's
language. The presets (`presets`) start with the "it" sentence, whose French "il" or "elle" is a choice."""
from __future__ import annotations

import math
from dataclasses import dataclass

import pandas as pd
import plotly.graph_objects as go

from explorer.compute import choices
from explorer.figures import inside as fi
from explorer import i18n
from explorer.views import Downloads, md, notices_md, to_download

CHOICE_COLUMNS = ["step", "word", "pieces", "probability", "rank", "top-k"]


@dataclass(frozen=True)
class ChoicesView:
    summary: str
    figure: go.Figure
    table: pd.DataFrame
    files: Downloads
    record: choices.ChoicesResult


def presets(lang: str = "en") -> list[list]:
    """[sentence, model, typed translation] rows for the tab's examples: the "it" sentence first."""
    return i18n.examples("choices", lang)


def choices_view(text: str, model: str, target: str = "", top_k=5, beam=1, lang: str = "en") -> ChoicesView:
    r = choices.next_word_choices(model, text, target=target or None, top_k=top_k, beam=beam)
    return choices_redraw(r, lang)


def choices_redraw(r: choices.ChoicesResult, lang: str = "en") -> ChoicesView:
    t = lambda key_, **f: i18n.t(key_, lang, **f)  # noqa: E731
    words = r.words
    k = max((len(w.top) for w in words), default=1)
    tops = [[c.token for c in w.top] + [""] * (k - len(w.top)) for w in words]  # one width for the figure
    probs = [[c.probability for c in w.top] + [0.0] * (k - len(w.top)) for w in words]
    rows = r.attention_rows()[[w.step for w in words]] if words else r.attention_rows()[:0]
    fig = fi.choices_grid(rows, r.source_tokens, [w.word for w in words], tops, probs,
                          [t("ch.att_axis"), t("ch.rank_axis"), t("ch.figure")])
    table = pd.DataFrame([[w.step + 1, w.word, " ".join(w.pieces), w.probability, w.rank,
                           " · ".join(f"{c.token} {c.probability:.3f}" for c in w.top)] for w in words],
                         columns=CHOICE_COLUMNS)
    off = sum(1 for w in words if w.probability is not None and w.rank != 1)
    summary = t("ch.summary", which=t("ch.forced" if r.forced else "ch.own"), text=md(r.translation),
                lp="—" if r.logprob is None else f"{r.logprob:.3f}",
                ppl="—" if r.perplexity is None or not math.isfinite(r.perplexity) else f"{r.perplexity:.2f}",
                off=off, n=len(words))
    files = to_download(f"{r.model}-choices", r, {"choices": table}, {"choices": fig}, lang)
    return ChoicesView(notices_md(r.notices, [summary], lang), fig, i18n.localized(table, lang), files, r)
