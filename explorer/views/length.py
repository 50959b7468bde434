"""BLEU by source length (Bahdanau et al. 2015, fig. 2), from the shipped translators' metrics files.
"""
from __future__ import annotations

from dataclasses import dataclass

import pandas as pd
import plotly.graph_objects as go

from explorer.compute import inference as inf
from explorer.compute import lab
from explorer.figures import lab as lf
from explorer.i18n import lab_labels, localized, t
from explorer.views import Downloads, md, to_download


@dataclass(frozen=True)
class LengthView:
    figure: go.Figure
    table: pd.DataFrame  # one row per model, one BLEU column per length bucket
    message: str
    files: Downloads


def length_view(lang: str = "en", assets=inf.ASSETS) -> LengthView:
    """Test BLEU by source-length bucket of every evaluated translation model (JSON files only)."""
    lt = lab.length_table(assets)
    families = {f: t(f"len.family_{i}", lang) for i, f in enumerate(lab.FAMILIES)}
    long = lt.table.assign(family=lt.table.family.map(lambda f: families.get(f, f)))
    if long.empty:
        wide = pd.DataFrame(columns=["direction", "family", "model"])
    else:
        buckets = sorted(long.bucket.unique(), key=lf.bucket_start)
        wide = (long.pivot_table(index=["direction", "family", "model"], columns="bucket", values="bleu",
                                 sort=False).reindex(columns=buckets).round(2).reset_index())
        wide.columns.name = None
    wide = localized(wide, lang)
    message = lab.length_message(lt.table, lt.lacking, lt.broken, lang)
    files = to_download("bleu-by-length", {"message": message, "rows": long}, {"long": long, "wide": wide})
    # the figure gets the English families, which key its colours, and shows their translations
    return LengthView(lf.length_figure(lt.table, message, lab_labels(lang), families), wide, md(message), files)
