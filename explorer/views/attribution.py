"""What attention explains: one prediction's six measures over its input tokens (explorer/compute/attribution.py) as a map,
their Spearman correlations, and a line saying where attention agrees with the gradient methods and where it does
not. A run computes every target (each [MASK], each translated word) once; choosing another target or switching
the language redraws from the record (`attribution_redraw`), no model call. Figures: explorer/figures/attribution.py.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go

from explorer.compute import attribution as at
from explorer.figures import attribution as af
from explorer import figures as fg
from explorer.i18n import t
from explorer.views import Downloads, md, notices_md, to_download

TASKS = ("fill-mask", "translation")
EXAMPLES = {"fill-mask": "The cat sat on the [MASK].", "translation": "The cat is sleeping on the bed."}


def measure_names(lang: str = "en") -> list[str]:
    return [t(f"attr.m_{m}", lang) for m in at.MEASURES]


def labels(lang: str = "en") -> dict:
    return {k: t(f"attrf.{k}", lang) for k in af.LABELS}


def target_choices(rec: at.Attribution) -> list[tuple[str, int]]:
    """(label, index) per target: "3 · chat" for a translated word, "[MASK] 7 → table" for a [MASK]."""
    if rec.task == "translation":
        return [(f"{i + 1} · {x.word}", i) for i, x in enumerate(rec.targets)]
    return [(f"[MASK] {x.query + 1} → {x.word}", i) for i, x in enumerate(rec.targets)]


def default_target(rec: at.Attribution) -> int:
    """The first content word of a translation (its first token may be an article), else 0."""
    return 1 if rec.task == "translation" and len(rec.targets) > 2 else 0


@dataclass(frozen=True)
class AttributionView:
    measures: go.Figure  # measures x input tokens
    correlations: go.Figure  # Spearman's rho between the measures
    summary: str  # markdown: the prediction, completeness, what agrees with what
    files: Downloads
    choices: list  # the target dropdown's (label, index)
    target: int
    record: at.Attribution


def _target(rec: at.Attribution, target) -> int:
    try:
        i = int(target)
    except (TypeError, ValueError):
        i = default_target(rec)
    return i if 0 <= i < len(rec.targets) else default_target(rec)


def summary_md(rec: at.Attribution, i: int, rho: np.ndarray, lang: str = "en") -> str:
    x = rec.targets[i]
    names = measure_names(lang)
    lead = [t("attr.prediction", lang, word=md(x.word), p=100 * x.prob, model=md(rec.model))]
    err = x.completeness_error()
    key = "attr.complete_ok" if err <= at.TOLERANCE else "attr.complete_off"
    lead.append(t(key, lang, total=x.ig_sum, gap=x.ig_gap, err=100 * err, steps=rec.steps))
    k_ig = at.MEASURES.index("integrated_gradients")
    pairs = [(rho[j, k_ig], names[j]) for j in range(len(names)) if j != k_ig and not np.isnan(rho[j, k_ig])]
    if pairs:
        best, worst = max(pairs), min(pairs)
        lead.append(t("attr.agree", lang, best=best[1], rb=best[0], worst=worst[1], rw=worst[0],
                      att=rho[0, k_ig]))
    return notices_md(rec.notices, lead, lang)


def attribution_redraw(rec: at.Attribution, target=None, lang: str = "en") -> AttributionView:
    """The record drawn for one target (an index into rec.targets; None: the default)."""
    i = _target(rec, target)
    x = rec.targets[i]
    rows = [x.scores[m] for m in at.MEASURES]
    keep = at.content_tokens(rec.tokens)
    rho = at.correlations(x.scores, keep)
    names = measure_names(lang)
    w = labels(lang)
    where = t("attr.at_mask", lang) if rec.task == "fill-mask" else t("attr.at_word", lang, n=i + 1)
    title = t("attr.map_title", lang, word=x.word, where=where)
    query = x.query if rec.task == "fill-mask" else None
    measures = af.measures_map(rec.tokens, names, rows, title, w, query=query)
    corr = af.correlation_map(names, rho, t("attr.corr_title", lang, n=int(keep.sum())), w)
    table = {"token": rec.tokens, **{m: x.scores[m] for m in at.MEASURES}}
    import pandas as pd
    files = to_download(f"attribution-{rec.model}", rec.to_json(), {"measures": pd.DataFrame(table)})
    return AttributionView(measures, corr, summary_md(rec, i, rho, lang), files, target_choices(rec), i, rec)


def attribution_view(task: str = "fill-mask", text: str = EXAMPLES["fill-mask"], target=None, lang: str = "en",
                     reg=None) -> AttributionView:
    """Run the task on `text` and draw one target (None: the default)."""
    if task == "translation":
        rec = at.translation_attribution(text, reg=reg)
    else:
        rec = at.fill_mask_attribution(text, reg=reg)
    return attribution_redraw(rec, target, lang)


def placeholder(lang: str = "en") -> go.Figure:
    return fg.placeholder(t("view.run_first", lang))
