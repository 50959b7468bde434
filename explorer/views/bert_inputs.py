"""The "BERT's inputs & masking" tab's composition: the input sum of Devlin et al. 2018 (fig. 2), the learned
position table beside the sinusoidal one, BERT's sizes, and the 80/10/10 rule on a sentence
(explorer.compute.bert_inputs), in the page's language."""
from __future__ import annotations

from dataclasses import dataclass

import pandas as pd
import plotly.graph_objects as go

from explorer.compute import bert_inputs as bi
from explorer.figures import inside as fi
from explorer import i18n
from explorer.views import Downloads, md, notices_md, to_download

MLM_PROB = bi.MLM_PROB  # the share of tokens chosen for prediction: the tab's default
MASK_COLUMNS = ["position", "original", "action", "model reads", "probability", "rank", "top-k"]


@dataclass(frozen=True)
class BertInputsView:
    summary: str  # the sizes line
    sum_figure: go.Figure
    positions_figure: go.Figure
    files: Downloads
    record: bi.BertInputs


@dataclass(frozen=True)
class MaskingView:
    summary: str
    table: pd.DataFrame
    files: Downloads
    record: bi.MaskingDemo


def _params(n: int) -> str:
    return f"{n / 1e6:.0f}M" if n >= 1e7 else f"{n / 1e6:.1f}M"


def bert_inputs_view(text: str, text_b: str = "", positions=64, model: str = "bert", lang: str = "en"
                     ) -> BertInputsView:
    return bert_inputs_redraw(bi.bert_inputs(text, text_b or None, positions, model), lang)


def bert_inputs_redraw(r: bi.BertInputs, lang: str = "en") -> BertInputsView:
    """The view of inputs already computed, in `lang` (the language switch: no model call)."""
    t = lambda key_, **f: i18n.t(key_, lang, **f)  # noqa: E731
    labels = [f"{'AB'[s]}·{tok}" for tok, s in zip(r.tokens, r.segments)]
    sum_fig = fi.stacked_matrices([r.token_emb, r.segment_emb, r.position_emb, r.total, r.normed],
                                  [t("bi.tok"), t("bi.seg"), t("bi.pos"), t("bi.sum"), t("bi.norm")], labels,
                                  t("bi.fig_sum"), t("il.dimension"))
    pos_fig = fi.side_by_side(r.learned_cos, r.sinusoid_cos, [t("bi.learned"), t("bi.sinusoid"), t("bi.fig_pos")],
                              axis_title=t("bi.position"))
    rows = "; ".join(t("bi.size_row", name=md(s["name"]), layers=s["layers"], d_model=s["d_model"], heads=s["heads"],
                       params=_params(s["parameters"])) for s in r.sizes)
    files = to_download(f"{r.model}-inputs", r, {"learned-cosine": pd.DataFrame(r.learned_cos),
                                                     "sinusoid-cosine": pd.DataFrame(r.sinusoid_cos)},
                            {"sum": sum_fig, "positions": pos_fig}, lang)
    return BertInputsView(t("bi.sizes", rows=rows), sum_fig, pos_fig, files, r)


def masking_view(text: str, seed=0, prob=bi.MLM_PROB, top_k=5, model: str = "bert", lang: str = "en") -> MaskingView:
    return masking_redraw(bi.masking_demo(text, seed, prob, top_k, model), lang)


def masking_redraw(r: bi.MaskingDemo, lang: str = "en") -> MaskingView:
    """The view of a masking already drawn and predicted, in `lang` (the language switch: no model call)."""
    t = lambda key_, **f: i18n.t(key_, lang, **f)  # noqa: E731
    table = pd.DataFrame([[m.index, m.original, t(f"bi.action_{m.action}"), m.shown, m.probability, m.rank,
                           " · ".join(f"{c.token} {c.probability:.3f}" for c in m.top)] for m in r.chosen],
                         columns=MASK_COLUMNS)
    lead = [t("bi.mask_summary", inputs=md(" ".join(r.inputs)))]
    if not r.chosen:
        lead.append(t("bi.none_chosen"))
    files = to_download(f"{r.model}-masking-seed{r.seed}", r, {"masking": table}, None, lang)
    return MaskingView(notices_md(r.notices, lead, lang), i18n.localized(table, lang), files, r)
