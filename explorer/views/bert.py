"""The BERT tab's composition: fill-mask, next-sentence prediction and per-head self-attention of one
pass (Devlin et al. 2019), for the shipped BERT, a custom one ($ATTN_EXPLORER_BERT_DIR) or a Hub model.
Records come from explorer.compute.inference; figures from explorer.figures.
"""
from __future__ import annotations

import os
import threading
from dataclasses import dataclass

import pandas as pd
import plotly.graph_objects as go

from explorer.compute import byo_bert
from explorer import figures as fg
from explorer import i18n
from explorer.compute import inference as inf
from explorer.compute.inference import BertResult, UserError
from explorer.views import Downloads, NO_DOWNLOADS, matrix_table, md, notices_md, to_download
from explorer.views.transformer import pick

has_mask, masked_texts, registry = inf.has_mask, inf.masked_texts, inf.registry  # the tab's checks and model list

TOKEN_COLUMNS = ["position", "token", "segment"]  # English headers, i18n.localized
MASK_COLUMNS = ["mask", "position", "rank", "token", "probability"]


@dataclass(frozen=True)
class BertView:
    tokens: pd.DataFrame  # position, WordPiece token, segment
    notice: str
    masks: pd.DataFrame  # one row per (mask, rank)
    topk: go.Figure
    nsp: go.Figure
    nsp_text: str
    grid: go.Figure
    head: go.Figure
    files: Downloads
    record: BertResult
    n_layers: int
    n_heads: int


def segment_name(s: int) -> str:
    return fg.SEGMENT_NAMES[s] if 0 <= s < len(fg.SEGMENT_NAMES) else str(s)


def topk_figure(r: BertResult, lang: str = "en") -> go.Figure:
    return fg.topk_bars([(i18n.t("bert.mask_label", lang, i=i + 1, p=m.index), [p.token for p in m.predictions],
                          [p.probability for p in m.predictions]) for i, m in enumerate(r.masks)],
                        i18n.t("bert.topk_title", lang), labels=i18n.figure_labels(lang))


def nsp_figure(r: BertResult, lang: str = "en") -> go.Figure:
    if r.is_next is None:
        return fg.placeholder(i18n.t("bert.nsp_no_b", lang), i18n.t("bert.nsp_title", lang))
    return fg.nsp_bars(r.is_next, r.not_next, i18n.t("bert.nsp_title", lang), labels=i18n.figure_labels(lang))


def grid_title(lang: str = "en") -> str:
    return i18n.t("view.all_heads", lang, title=i18n.t("bert.title", lang))


def bert_grid(r: BertResult, l: int, h: int, lang: str = "en") -> go.Figure:
    return fg.head_grid(r.trace.enc_self, r.tokens, r.tokens, grid_title(lang), selected=(l, h),
                        segments=r.segments, labels=i18n.figure_labels(lang))


def bert_render(r: BertResult | None, layer=1, head=1, lang: str = "en") -> BertView:
    """All BERT views of one record (no model call)."""
    if r is None:
        p = fg.placeholder(i18n.t("bert.first", lang))
        return BertView(pd.DataFrame(), "", pd.DataFrame(), p, p, "", p, p, NO_DOWNLOADS, None, 1, 1)
    a = r.trace.enc_self
    l, h = pick(a, layer, head)
    tokens = pd.DataFrame(zip(range(len(r.tokens)), r.tokens, [segment_name(s) for s in r.segments]),
                          columns=TOKEN_COLUMNS)
    masks = pd.DataFrame([[f"#{i + 1}", m.index, k + 1, p.token, p.probability]
                          for i, m in enumerate(r.masks) for k, p in enumerate(m.predictions)], columns=MASK_COLUMNS)
    tokens, masks = i18n.localized(tokens, lang), i18n.localized(masks, lang)
    nsp_text = "" if r.is_next is None else i18n.t(
        "bert.nsp_follows" if r.is_next >= r.not_next else "bert.nsp_not_follows", lang, p=r.is_next, q=r.not_next)
    words = i18n.figure_labels(lang)
    figs = {"topk": topk_figure(r, lang), "nsp": nsp_figure(r, lang), "grid": bert_grid(r, l, h, lang),
            "head": fg.heatmap(a[l, h], r.tokens, r.tokens,
                               i18n.t("view.layer_head", lang, title=i18n.t("bert.title", lang), l=l + 1, h=h + 1),
                               x_title=words["key"], y_title=words["query"], segments=r.segments, labels=words)}
    tables = {"tokens": tokens, f"enc_self-L{l + 1}H{h + 1}": matrix_table(a[l, h], r.tokens, r.tokens)}
    if len(masks):
        tables["fill_mask"] = masks
    files = to_download("bert", r, tables, figs, lang)
    return BertView(tokens, notices_md(r.notices, lang=lang), masks, figs["topk"], figs["nsp"], nsp_text, figs["grid"],
                    figs["head"], files, r, *a.shape[:2])


def bert_fill_view(text_a: str, text_b: str = "", top_k: int = 5, layer: int = 1, head: int = 1,
                   lang: str = "en") -> BertView:
    return bert_render(inf.fill_mask(text_a, top_k, text_b), layer, head, lang)


BERT_RUNS = {  # what each BERT button runs; bert_fill_view calls the same function for "bert"
    "fill": lambda a, b, k, name: inf.fill_mask(a, k, b, name=name),
    "nsp": lambda a, b, k, name: inf.nsp(a, b, name=name, top_k=k),
    "encode": lambda a, b, k, name: inf.encode_bert(a, b, name=name, top_k=k),
}


def bert_model_view(action: str, model: str, text_a: str, text_b: str = "", top_k: int = 5, layer: int = 1,
                    head: int = 1, lang: str = "en") -> BertView:
    """The BERT tab's buttons with its model dropdown ("bert", "bert-custom", a Hub model)."""
    if action not in BERT_RUNS:
        raise UserError(f"Unknown BERT action '{action}'.")
    return bert_render(BERT_RUNS[action](text_a, text_b, top_k, model or "bert"), layer, head, lang)


def hub_bert_load(repo_id: str, lang: str = "en") -> tuple[str, str]:
    """(markdown, registered name): a Hub BERT loaded for every BERT view (needs ATTN_EXPLORER_ALLOW_HUB=1)."""
    name = load_hub_bert(repo_id)
    c = inf.registry().get(name, "bert").config
    return i18n.t("bert.hub_loaded", lang, name=md(name), layers=c.n_layers, heads=c.n_heads), name


# ----------------------------------------------------------------------------- a BERT from the Hub

HUB_ENV = "ATTN_EXPLORER_ALLOW_HUB"  # "1": the BERT tab offers a Hub repo id box (off on a public Space)
HUB_MAX_MB_ENV = "ATTN_EXPLORER_HUB_MAX_MB"  # size cap of one Hub download, default 500 MB
MAX_HUB_MODELS = 2  # Hub BERTs held at once by one server (each is up to the cap in memory)
_HUB_LOCK = threading.Lock()


def hub_max_bytes() -> int:
    try:
        return int(float(os.environ.get(HUB_MAX_MB_ENV, "500")) * 1_000_000)
    except ValueError:
        return 500_000_000


def load_hub_bert(repo_id: str, reg=None) -> str:
    """Download a BERT from the Hugging Face Hub (explorer.compute.byo_bert.load_hub, size-capped) and
    add it to the registry as "hub:<repo id>"; returns that name. Only when HUB_ENV is "1".

    The registry's dict is replaced, not mutated: other requests may be iterating the old one
    (Registry.names), and a rebinding is atomic where an insert during iteration is an error.
    """
    if os.environ.get(HUB_ENV) != "1":
        raise UserError("Loading models from the Hugging Face Hub is turned off on this server.", "hub_off")
    reg = reg or inf.registry()
    repo_id = byo_bert._check_repo_id(repo_id)
    name = f"hub:{repo_id}"
    with _HUB_LOCK:  # one download at a time; a second request for the same repo reuses the first
        if name in reg.models:
            return name
        if sum(n.startswith("hub:") for n in reg.models) >= MAX_HUB_MODELS:
            raise UserError(f"This server already holds {MAX_HUB_MODELS} models from the Hub; restart it to load "
                            "others.", "hub_full", n=MAX_HUB_MODELS)
        ckpt = byo_bert.load_hub(repo_id, max_bytes=hub_max_bytes())
        reg.models = {**reg.models, name: ckpt}
    return name
