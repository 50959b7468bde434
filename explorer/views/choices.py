"""The "Next-word choices" tab's composition: the top-k words of every decoding step beside its attention row,
for the model's own translation or a typed one (explorer.choices), in the page's language."""
from __future__ import annotations

import math
from dataclasses import dataclass

import pandas as pd
import plotly.graph_objects as go

from explorer import choices
from explorer import figures_inside as fi
from explorer import i18n
from explorer.views import Downloads, md, notices_md, to_download

CHOICE_COLUMNS = ["step", "token", "probability", "rank", "top-k"]


@dataclass(frozen=True)
class ChoicesView:
    summary: str
    figure: go.Figure
    table: pd.DataFrame
    files: Downloads
    record: choices.ChoicesResult


def choices_view(text: str, model: str, target: str = "", top_k=5, beam=1, lang: str = "en") -> ChoicesView:
    r = choices.next_word_choices(model, text, target=target or None, top_k=top_k, beam=beam)
    return choices_redraw(r, lang)


def choices_redraw(r: choices.ChoicesResult, lang: str = "en") -> ChoicesView:
    t = lambda key_, **f: i18n.t(key_, lang, **f)  # noqa: E731
    fig = fi.choices_grid(r.attention_rows(), r.source_tokens, r.target_tokens, [[c.token for c in s.top]
                                                                                  for s in r.steps],
                          [[c.probability for c in s.top] for s in r.steps],
                          [t("ch.att_axis"), t("ch.rank_axis"), t("ch.figure")])
    table = pd.DataFrame([[s.step + 1, s.token, s.probability, s.rank,
                           " · ".join(f"{c.token} {c.probability:.3f}" for c in s.top)] for s in r.steps],
                         columns=CHOICE_COLUMNS)
    off = sum(1 for s in r.steps if s.rank is not None and s.rank > 1)
    summary = t("ch.summary", which=t("ch.forced" if r.forced else "ch.own"), text=md(r.translation),
                lp="—" if r.logprob is None else f"{r.logprob:.3f}",
                ppl="—" if r.perplexity is None or not math.isfinite(r.perplexity) else f"{r.perplexity:.2f}",
                off=off, n=len(r.steps))
    files = to_download(f"{r.model}-choices", r, {"choices": table}, {"choices": fig}, lang)
    return ChoicesView(notices_md(r.notices, [summary], lang), fig, i18n.localized(table, lang), files, r)
