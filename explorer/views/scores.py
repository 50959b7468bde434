"""Score functions side by side: one sentence through every seq2seq model (dot, scaled dot, general,
additive, none; Luong et al. 2015, Bahdanau et al. 2015), their alignments and mean row entropies.
"""
from __future__ import annotations

from dataclasses import dataclass

import pandas as pd
import plotly.graph_objects as go

from explorer.compute import lab
from explorer.figures import lab as lf
from explorer.figures.confidence import shaded_rows
from explorer.i18n import lab_labels, localized, t
from explorer.views import Downloads, md, notices_md, to_download


# English headers (i18n.localized)
SCORE_COLUMNS = ["model", "score function", "translation", "mean entropy (nats)", "uniform log S (nats)"]


@dataclass(frozen=True)
class ScoreFunctionsView:
    figure: go.Figure  # one alignment per model in a row, entropy per target row below
    table: pd.DataFrame  # model, score function, translation, mean entropy, uniform entropy
    notice: str  # markdown
    files: Downloads
    record: lab.ScoreComparison
    confidence: str  # HTML: each model's translation shaded by how unsure it is (explorer.figures.confidence)


def score_functions_view(text: str, lang: str = "en") -> ScoreFunctionsView:
    """The same sentence through every RNN encoder-decoder (lab.compare_score_functions)."""
    return score_functions_redraw(lab.compare_score_functions(text), lang)


def score_functions_redraw(c: lab.ScoreComparison, lang: str = "en") -> ScoreFunctionsView:
    """The view of a comparison already run, in `lang` (the language switch: no model call)."""
    table = pd.DataFrame([[r.name, r.score, r.translation, None if r.mean_entropy is None else round(r.mean_entropy, 4),
                           round(r.max_entropy, 4)] for r in c.results], columns=SCORE_COLUMNS)
    table = localized(table, lang)
    peaked = [r for r in c.results if r.mean_entropy is not None]
    lead = []
    if peaked:
        best = min(peaked, key=lambda r: r.mean_entropy)
        lead.append(t("sf.summary", lang, model=md(best.name), h=best.mean_entropy, u=best.max_entropy))
    return ScoreFunctionsView(lf.score_functions_figure(c.results, lab_labels(lang)), table,
                              notices_md(c.notices, lead, lang),
                              to_download("score-functions", c, {"mean-entropy": table}), c,
                              confidence=shaded_rows([(r.name, r.target_tokens, r.token_probs) for r in c.results],
                                                     lang))
