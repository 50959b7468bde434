"""Alignment error rate on one pair: the model's attention read as a word alignment the naive way and shifted
(Chen et al. 2020), each drawn over the gold links with its AER (Och & Ney 2003), beside the whole checks' table of
docs/alignment-error.md (attention, IBM Models 1 and 2, the published Hansards figures). Numbers:
explorer/compute/alignment.py (the run; its record keeps every layer, so another layer or the language switch
redraws without a model call) and assets/explains/alignment-error.json; figures: explorer/figures/alignment.py."""
from __future__ import annotations

from dataclasses import dataclass

import pandas as pd
import plotly.graph_objects as go

from explorer.compute import alignment as al
from explorer.figures import alignment as alf
from explorer.i18n import t
from explorer.views import Downloads, md, notices_md, one_based, to_download

DEFAULT_MODEL = "transformer-en-fr"
DEFAULT_PAIR = 0  # "I am a student." -> "Je suis étudiant.": the shifted reading's late links show at once


def models(names) -> list[str]:
    """The loaded translators (of `names`) whose attention is read as an alignment."""
    return al.models(names)


def pair_choices(model: str) -> list[tuple[str, int]]:
    """(label, index) for each hand-aligned pair of the model's check."""
    return [(f"{s}  →  {tg}", i) for i, (s, tg, _) in enumerate(al.gold_pairs(model))]


def gold_pair(model: str, index) -> tuple[str, str, str]:
    """(source, target, links as the files write them) of one hand-aligned pair."""
    pairs = al.gold_pairs(model)
    s, tg, gold = pairs[one_based(int(index) + 1, "Pair", len(pairs))]
    return s, tg, " ".join(f"{i}-{j}" for i, j in gold)


@dataclass(frozen=True)
class AlignmentView:
    naive: go.Figure
    shifted: go.Figure
    summary: str  # markdown: each reading's AER on this pair, and what the two readings mean
    table: pd.DataFrame  # docs/alignment-error.md's figures
    files: Downloads
    layer: int  # 1-based, the layer drawn
    layers: int
    record: al.PairAlignment


def table_df(lang: str = "en") -> pd.DataFrame:
    """One row per aligner: the check it was scored on and its AER (%), naive and shifted for attention."""
    tab = al.aer_table()
    cols = [t(f"aln.col_{c}", lang) for c in ("aligner", "check", "naive", "shifted")]
    rows = [[r["model"], r["check"], r["naive"], r["shifted"]] for r in tab["attention"]]
    rows += [[r["aligner"], f"{r['direction']}, {r['training_pairs']}", r["aer"], None] for r in tab["ibm"]]
    rows += [[r["aligner"], t("aln.hansards", lang), r["aer"], None] for r in tab["published"]]
    return pd.DataFrame(rows, columns=cols)


def _pct(score) -> str:
    return "–" if score is None else f"{100 * score['aer']:.1f}"


def summary_md(rec: al.PairAlignment, layer: int, lang: str = "en") -> str:
    if rec.gold:
        n, s = rec.score("naive", layer), rec.score("shifted", layer)
        lead = [t("aln.scores", lang, naive=100 * n["aer"], shifted=100 * s["aer"], gold=len(rec.gold),
                  layer=layer + 1, layers=rec.layers)]
    else:
        lead = [t("aln.no_gold", lang, target=md(rec.target))]
    lead.append(t("aln.readings", lang))
    return notices_md(rec.notices, lead, lang)


def alignment_redraw(rec: al.PairAlignment, layer=None, lang: str = "en") -> AlignmentView:
    """The record drawn at one layer (1-based; None: the last, the layer the check reads)."""
    i = rec.layers - 1 if layer in (None, "") else one_based(layer, t("common.layer", lang), rec.layers)
    labels = {k: t(f"aln.f_{k}", lang) for k in alf.LABELS}
    figs = {}
    for r in al.READINGS:
        score = rec.score(r, i)
        title = t(f"aln.title_{r}", lang, aer=_pct(score)) if rec.gold else t(f"aln.title_{r}_nogold", lang)
        figs[r] = alf.alignment_map(rec.attention[r][i], rec.src_words, rec.tgt_words, rec.links(r, i), rec.gold,
                                    title, labels)
    files = to_download(f"alignment-{rec.model}", rec.to_json(), {"aer": table_df("en")})
    return AlignmentView(figs["naive"], figs["shifted"], summary_md(rec, i, lang), table_df(lang), files, i + 1,
                         rec.layers, rec)


def alignment_view(model: str = DEFAULT_MODEL, source: str = "", target: str = "", links: str = "", layer=None,
                   lang: str = "en", reg=None) -> AlignmentView:
    """Run the model on (source, target) and draw it; an empty target: the model's own translation."""
    return alignment_redraw(al.pair_alignment(model, source, target, links, reg=reg), layer, lang)
