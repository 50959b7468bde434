"""Attention Explorer: look inside the attention models trained in this repo.

Tabs: an RNN encoder-decoder with each of Luong/Bahdanau's score functions (or none), and the
five side by side; the Transformer (encoder self-, masked decoder self- and cross-attention,
Vaswani et al. 2017) and its beam search; BERT (fill-mask, next-sentence prediction and
per-head self-attention, Devlin et al. 2019; a custom BERT from $ATTN_EXPLORER_BERT_DIR, or
from the Hub when $ATTN_EXPLORER_ALLOW_HUB=1); inside attention (rollout and entropy,
query/key arithmetic, contextual vs static vectors, positional encodings); training
(attention snapshots, a toy seq2seq trained live, BLEU by length); the shipped checkpoints.
A switch at the top turns every label, explanation and example into Korean (explorer/i18n.py).

This is the only file that imports gradio. Every number comes from `explorer.inference` (and
explorer.lab / snapshots / live through `explorer.views`); every figure from the figure
modules. Handlers are plain module-level functions (testable without a browser):
`seq2seq_view`, `transformer_view`, `bert_fill_view`, `bert_model_view`, the `_ui_*` glue of the
analysis views, `language_updates`, and the three API endpoints `translate_api`
(/translate), `fill_mask_api` (/fill_mask), `nsp_api` (/nsp).

    python app.py      # serves on $GRADIO_SERVER_PORT or 7860
"""
from __future__ import annotations

import collections
import contextvars
import functools
import html
import inspect
import json
import logging
import numbers
import os
import threading
from dataclasses import dataclass, fields, replace

import gradio as gr
import numpy as np
import pandas as pd
import plotly.graph_objects as go
import torch

from explorer import byo_bert
from explorer import figures as fg
from explorer import i18n
from explorer import inference as inf
from explorer import lab, live
from explorer import views as vw
from explorer.inference import BertResult, TranslationResult, UserError
from explorer.views import matrix_table, md, notices_md, write_downloads

log = logging.getLogger("attention_explorer")

GENERIC_ERROR = i18n.t("err.generic")
SCORE_FUNCTIONS = {  # seq2seq-<key> -> label; score(s_t, h_i) as in Luong et al. (2015) and Bahdanau et al. (2015)
    "dot": "dot  sᵀh",
    "scaled_dot": "scaled dot  sᵀh/√d",
    "general": "general  sᵀWh",
    "additive": "additive  vᵀtanh(W₁s + W₂h)",
    "none": "none (no attention)",
}
EXAMPLE_EN = ["I am a student.", "The animal didn't cross the street because it was too tired.",
              "Let's stick to the plan."]
EXAMPLE_MASK, EXAMPLE_NEXT = "the man went to the [MASK] .", "he bought a gallon of milk ."


# ----------------------------------------------------------------------------- errors


def _shown_error(fn_name: str, e: Exception, lang: str = "en") -> gr.Error:
    """UserError -> its message (escaped) in `lang`; anything else -> a generic message, traceback in the log."""
    if isinstance(e, UserError):
        return gr.Error(html.escape(i18n.error_text(e, lang), quote=False), print_exception=False)
    log.exception("unexpected error in %s", fn_name)
    return gr.Error(i18n.t("err.generic", lang), print_exception=False)


def _lang_of(sig: inspect.Signature, args, kwargs) -> str:
    """The language a handler was called in: its `lang` argument (the switch's value), else English."""
    if "lang" not in sig.parameters:
        return "en"
    try:
        return i18n.lang_code(sig.bind_partial(*args, **kwargs).arguments.get("lang", "en"))
    except TypeError:
        return "en"


def _in_event() -> bool:
    """Whether this call is a Gradio event of the page (gr.Warning's own test), not a direct call."""
    from gradio.context import LocalContext
    return LocalContext.event_id.get(None) is not None and LocalContext.blocks.get(None) is not None


_DEPTH = contextvars.ContextVar("friendly_depth", default=0)  # friendly handlers on the call stack


def _failed(fn_name: str, e: Exception, lang: str, keep: bool):
    """On the page (`keep`): the message as a warning toast, and every output keeps what it showed
    (gr.skip()). A raised gr.Error would mark every output "Error" and hide the last result.
    Called directly, by another handler, or through the API: the gr.Error is raised."""
    err = e if isinstance(e, gr.Error) else _shown_error(fn_name, e, lang)
    if keep and _in_event():
        gr.Warning(err.message, duration=8)  # its head: "Warning" (Gradio ignores title=), 경고 in Korean (CSS)
        return gr.skip()
    raise err from None


def friendly(fn=None, *, api: bool = False):
    """UserError -> its message on screen; anything else -> a generic message, traceback in the log.
    In an event of the page, the outermost friendly handler shows the message as a warning and every
    output keeps its last value; a handler called by another one, or directly (tests, Python), raises
    the gr.Error, and so do the API endpoints (`api=True`), whose callers read it through
    gradio_client. Generator handlers (live training) stay generators, so Gradio streams them and
    can close them. Every event's handler is friendly (a test checks)."""
    if fn is None:
        return functools.partial(friendly, api=api)
    sig, name = inspect.signature(fn), getattr(fn, "__name__", "handler")
    if inspect.isgeneratorfunction(fn):
        @functools.wraps(fn)
        def generator(*args, **kwargs):
            try:
                yield from fn(*args, **kwargs)  # close() reaches fn's generator through yield from
            except Exception as e:
                yield _failed(name, e, _lang_of(sig, args, kwargs), not api)
        generator.friendly = True
        return generator

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        outermost = _DEPTH.get() == 0
        token = _DEPTH.set(_DEPTH.get() + 1)
        try:
            return fn(*args, **kwargs)
        except Exception as e:
            return _failed(name, e, _lang_of(sig, args, kwargs), outermost and not api)
        finally:
            _DEPTH.reset(token)
    wrapper.friendly = True
    return wrapper


def _decimals(column: pd.Series, most: int = 6) -> int:
    """The decimals the column's finite numbers need, at most `most` (0.1 + 0.2 needs 1)."""
    shown = (f"{v:.{most}f}".rstrip("0") for v in column if isinstance(v, numbers.Real) and np.isfinite(v))
    return max((len(t.split(".")[1]) for t in shown), default=0)


class Table(gr.Dataframe):
    """A results table whose decimal columns each show one number of decimals, the most any of their cells needs:
    Gradio printed each number as short as it goes, 24.9 among 24.92 and -3.762 beside -3.7564. The cells stay
    numbers (the table sorts by value; the API returns the values)."""
    # drawn by the page as a gr.Dataframe: a subclass of another name is taken for a custom component, whose
    # frontend the page then fails to fetch (404); Gradio's own templates (gr.Numpy, ...) are marked so too
    is_template = True

    def postprocess(self, value):
        if isinstance(value, pd.DataFrame) and len(value):
            fmt = {c: f"{{:.{_decimals(value[c])}f}}" for c in value.columns
                   if pd.api.types.is_float_dtype(value[c])}
            if fmt:
                value = value.style.format(fmt, na_rep="")
        return super().postprocess(value)


class Slider(gr.Slider):
    """A slider whose typed-in number past either end is taken as that end (as dragging it would), instead
    of Gradio's own English toast ("Value 99 is greater than maximum value 12.") and a server-log traceback.
    No ↺ unless asked for (buttons=["reset"]): Gradio's reset fires "change" and "release", not "input", so the
    views that follow a slider's "input" (every step, layer and head slider) kept drawing the old value under a
    slider that read its first one. Home / End and the number box remain."""

    def __init__(self, *args, buttons=None, **kwargs):
        super().__init__(*args, buttons=[] if buttons is None else buttons, **kwargs)

    # Gradio writes a component's config from the attributes its __init__ signature names: gr.Slider's, not
    # (*args, **kwargs), or the page gets no range, value or label (it sent 50 for every slider)
    __init__.__signature__ = inspect.signature(gr.Slider.__init__)

    def preprocess(self, payload):
        if isinstance(payload, (int, float)) and not isinstance(payload, bool):
            payload = min(max(payload, self.minimum), self.maximum)
        return super().preprocess(payload)


def load_errors_md(prefix: str = "") -> str:
    """Which checkpoints failed to load (and which file is wrong), for the tab they belong to."""
    errs = {n: e for n, e in inf.registry().errors.items() if n.startswith(prefix)}
    return "\n\n".join(f"❌ Model **{md(n)}** could not be loaded: {md(e)}" for n, e in sorted(errs.items()))


def _pick(arr, layer, head) -> tuple[int, int]:
    """1-based layer/head from the UI -> 0-based indices that exist in `arr` (clamped)."""
    L, H = arr.shape[:2]
    return int(np.clip(int(layer or 1), 1, L)) - 1, int(np.clip(int(head or 1), 1, H)) - 1


def _size(*arrays) -> tuple[int, int]:
    """(layers, heads) for the sliders: the largest over the arrays a record has."""
    shapes = [a.shape[:2] for a in arrays if a is not None]
    return (max(s[0] for s in shapes), max(s[1] for s in shapes)) if shapes else (1, 1)


# ----------------------------------------------------------------------------- seq2seq + attention


@dataclass(frozen=True)
class Seq2SeqView:
    translation: str
    notice: str  # markdown
    alignment: go.Figure  # target x source, cross[0, 0]
    step_bars: go.Figure  # one decoding step's attention over the source
    step_text: str  # markdown: which source tokens fed the context vector
    files: list[str]
    record: TranslationResult
    steps: int  # decoding steps (the step slider's maximum)


def _alignment(r: TranslationResult, step: int | None = None, lang: str = "en") -> go.Figure:
    if r.trace.cross is None:
        return fg.placeholder(i18n.t("s2s.align_none", lang), i18n.t("s2s.align_title_none", lang, model=r.model))
    return fg.heatmap(r.trace.cross[0, 0], r.source_tokens, r.target_tokens,
                      i18n.t("s2s.align_title", lang, model=r.model), x_title=i18n.t("fig.source", lang),
                      y_title=i18n.t("view.target_produced", lang), highlight_row=None if step is None else step - 1,
                      labels=i18n.figure_labels(lang))


@friendly
def seq2seq_step(r: TranslationResult | None, step, lang: str = "en") -> tuple[go.Figure, go.Figure, str]:
    """(alignment with step `step` outlined, bars of that step's attention, text); step is 1-based."""
    if r is None:
        msg = i18n.t("view.translate_first", lang)
        return fg.placeholder(msg), fg.placeholder(msg), msg
    T = len(r.target_tokens)
    t = int(np.clip(int(step or 1), 1, T))
    produced, fed = r.target_tokens[t - 1], r.decoder_input_tokens[t - 1]
    end = "" if produced.rstrip()[-1:] in (".", "!", "?") else "."
    head = i18n.t("s2s.step_head", lang, t=t, T=T, fed=md(fed), produced=md(produced), end=end)
    if r.trace.cross is None:
        return (_alignment(r, lang=lang), fg.placeholder(i18n.t("s2s.bars_none", lang)),
                f"{head} {i18n.t('s2s.step_none', lang)}")
    w = r.trace.cross[0, 0, t - 1]  # (S,)
    top, total = [], 0.0
    for i in np.argsort(-w, kind="stable")[:3]:
        top.append(f"**{md(r.source_tokens[i])}** ({w[i]:.3f})")
        total += float(w[i])
        if total >= 0.9:
            break
    text = f"{head} {i18n.t('s2s.step_context', lang, t=t, top=', '.join(top), share=f'{total:.0%}')}"
    bars = fg.attention_bars(w, r.source_tokens, i18n.t("s2s.bars_title", lang, t=t, produced=produced),
                             labels=i18n.figure_labels(lang))
    return _alignment(r, t, lang), bars, text


@friendly
def seq2seq_view(text: str, model: str, step: int = 1, lang: str = "en") -> Seq2SeqView:
    """Translate with one of the RNN encoder-decoders (greedy) and show its alignment."""
    r = inf.translate(model, text, 1)
    alignment, bars, step_text = seq2seq_step(r, step, lang)
    tables = {} if r.trace.cross is None else {
        "alignment": matrix_table(r.trace.cross[0, 0], r.target_tokens, r.source_tokens)}
    # the downloads hold every step (the whole alignment, unmarked), so they stay true when the step slider moves
    files = write_downloads(r.model, r, tables, {"alignment": fg.without_row_outline(alignment)}, lang)
    return Seq2SeqView(r.translation, _seq2seq_notice(r, lang), alignment, bars, step_text, files, r,
                       len(r.target_tokens))


def _seq2seq_notice(r: TranslationResult, lang: str) -> str:
    """The notices beside a seq2seq translation; the no-attention model's explanation first."""
    return notices_md(r.notices, [i18n.t("s2s.no_attention", lang)] if r.trace.cross is None else [], lang)


# ----------------------------------------------------------------------------- Transformer


@dataclass(frozen=True)
class TransformerHeads:
    """Every attention view of one translation for a chosen (layer, head)."""
    enc_grid: go.Figure
    enc_head: go.Figure
    dec_grid: go.Figure
    dec_head: go.Figure
    dec_scores: go.Figure  # masked scores QK^T/sqrt(d_k) next to their softmax
    cross_grid: go.Figure
    cross_head: go.Figure
    files: list[str]


@dataclass(frozen=True)
class TransformerView:
    translation: str
    notice: str
    hypotheses: pd.DataFrame  # beam search's n-best
    heads: TransformerHeads
    record: TranslationResult
    n_layers: int
    n_heads: int


_TRANSFORMER_VIEWS = {  # trace field -> (i18n key of its title, rows, cols) of the record's tokens
    "enc_self": ("tr.title_enc", "source_tokens", "source_tokens"),
    "dec_self": ("tr.title_dec", "decoder_input_tokens", "decoder_input_tokens"),
    "cross": ("tr.title_cross", "target_tokens", "source_tokens"),
}
# The decoder's query at step t reads decoder input t (<s>, Je, ...) and produces output t (Je, ..., </s>):
# masked self-attention labels its rows by what they read (its keys are those same inputs), cross
# attention by what they produce, as alignment figures do; the axis titles say which (i18n keys).
_AXIS_TITLES = {"enc_self": ("fig.query", "fig.key"), "dec_self": ("tr.query_reads", "tr.key_reads"),
                "cross": ("tr.query_produces", "tr.key_source")}


def _no_view(key: str, lang: str) -> go.Figure:
    """The placeholder for a view this model does not have ("This model has no cross attention")."""
    title = i18n.t(key, lang)
    return fg.placeholder(i18n.t("tr.no_view", lang, what=title[0].lower() + title[1:] if lang == "en" else title))


@friendly
def transformer_heads(r: TranslationResult | None, layer=1, head=1, lang: str = "en") -> TransformerHeads:
    """Grids + the selected head's views from a translation record (no model call)."""
    lang = i18n.lang_code(lang)
    if r is None:
        p = fg.placeholder(i18n.t("view.translate_first", lang))
        return TransformerHeads(p, p, p, p, p, p, p, [])
    figs, tables = {}, {}
    words = i18n.figure_labels(lang)
    for name, (key, rows_attr, cols_attr) in _TRANSFORMER_VIEWS.items():
        a, rows, cols = getattr(r.trace, name), getattr(r, rows_attr), getattr(r, cols_attr)
        if a is None:
            figs[f"{name}_grid"] = figs[f"{name}_head"] = _no_view(key, lang)
            continue
        title = i18n.t(key, lang)
        l, h = _pick(a, layer, head)
        figs[f"{name}_grid"] = fg.head_grid(a, cols, rows, i18n.t("view.all_heads", lang, title=title),
                                            selected=(l, h), labels=words)
        figs[f"{name}_head"] = fg.heatmap(a[l, h], cols, rows, i18n.t("view.layer_head", lang, title=title, l=l + 1,
                                                                      h=h + 1),
                                          x_title=i18n.t(_AXIS_TITLES[name][1], lang),
                                          y_title=i18n.t(_AXIS_TITLES[name][0], lang), labels=words)
        tables[f"{name}-L{l + 1}H{h + 1}"] = matrix_table(a[l, h], rows, cols)
    s, p = r.trace.dec_self_scores, r.trace.dec_self
    if s is None or p is None:
        figs["dec_scores"] = _no_view("tr.title_dec", lang)
    else:
        l, h = _pick(s, layer, head)
        toks = r.decoder_input_tokens
        figs["dec_scores"] = fg.masked_scores(s[l, h], p[l, h], toks, toks,
                                              i18n.t("tr.scores_title", lang, l=l + 1, h=h + 1), labels=words)
        tables[f"dec_self_scores-L{l + 1}H{h + 1}"] = matrix_table(s[l, h], toks, toks)
    files = write_downloads(r.model, r, tables, figs, lang)
    return TransformerHeads(figs["enc_self_grid"], figs["enc_self_head"], figs["dec_self_grid"],
                            figs["dec_self_head"], figs["dec_scores"], figs["cross_grid"], figs["cross_head"], files)


@friendly
def transformer_view(text: str, model: str, beam: int = 1, layer: int = 1, head: int = 1,
                     lang: str = "en") -> TransformerView:
    """Translate with a Transformer (beam=1: greedy) and show every attention it used."""
    r = inf.translate(model, text, beam)
    n_layers, n_heads = _size(r.trace.enc_self, r.trace.dec_self, r.trace.cross)
    return TransformerView(r.translation, notices_md(r.notices, lang=lang), _hypotheses_table(r, lang),
                           transformer_heads(r, layer, head, lang), r, n_layers, n_heads)


HYPOTHESIS_COLUMNS = ["#", "translation", "log-prob", "score", "attention shown"]
TOKEN_COLUMNS = ["position", "token", "segment"]
MASK_COLUMNS = ["mask", "position", "rank", "token", "probability"]


def _hypotheses_table(r: TranslationResult, lang: str = "en") -> pd.DataFrame:
    hyps = pd.DataFrame([[i + 1, h.text, h.logprob, h.score, "✓" if i == r.chosen else ""]
                         for i, h in enumerate(r.hypotheses)], columns=HYPOTHESIS_COLUMNS)
    return i18n.localized(hyps, lang)


def _no_rows(columns: list[str]) -> pd.DataFrame:
    """A table's headers before its first run (Gradio showed "1 2 3" for an empty one)."""
    return pd.DataFrame(columns=columns)


def _empty_table_headers(columns: list[list[str]]):
    """A language-switch handler for tables that start empty (their English `columns`, in order): a table
    still without rows gets its headers in the new language; one with a result is left to its view's
    _relabel handler (gr.skip())."""
    @friendly
    def _headers_of_empty_tables(lang, *tables):
        return [i18n.localized(_no_rows(cols), lang) if _shows_nothing(table) else gr.skip()
                for table, cols in zip(tables, columns)]
    return _headers_of_empty_tables


def _shows_nothing(table) -> bool:
    """No rows, or (what the browser sends back for an empty table) one row of blank cells."""
    if table is None or len(table) == 0:
        return True
    cells = table.astype(object).to_numpy().ravel()
    return all(c is None or (isinstance(c, float) and np.isnan(c)) or str(c).strip() == "" for c in cells)


# ----------------------------------------------------------------------------- BERT


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
    files: list[str]
    record: BertResult
    n_layers: int
    n_heads: int

    def drawn(self) -> list:
        """What the page shows, in the order of the tab's components (b_drawn): no record, no sliders."""
        return [self.tokens, self.notice, self.masks, self.topk, self.nsp, self.nsp_text, self.grid, self.head,
                self.files]


def _seg(s: int) -> str:
    return fg.SEGMENT_NAMES[s] if 0 <= s < len(fg.SEGMENT_NAMES) else str(s)


def _topk_figure(r: BertResult, lang: str = "en") -> go.Figure:
    return fg.topk_bars([(i18n.t("bert.mask_label", lang, i=i + 1, p=m.index), [p.token for p in m.predictions],
                          [p.probability for p in m.predictions]) for i, m in enumerate(r.masks)],
                        i18n.t("bert.topk_title", lang), labels=i18n.figure_labels(lang))


def _nsp_figure(r: BertResult, lang: str = "en") -> go.Figure:
    if r.is_next is None:
        return fg.placeholder(i18n.t("bert.nsp_no_b", lang), i18n.t("bert.nsp_title", lang))
    return fg.nsp_bars(r.is_next, r.not_next, i18n.t("bert.nsp_title", lang), labels=i18n.figure_labels(lang))


def _bert_grid_title(lang: str = "en") -> str:
    return i18n.t("view.all_heads", lang, title=i18n.t("bert.title", lang))


def _bert_grid(r: BertResult, l: int, h: int, lang: str = "en") -> go.Figure:
    return fg.head_grid(r.trace.enc_self, r.tokens, r.tokens, _bert_grid_title(lang), selected=(l, h),
                        segments=r.segments, labels=i18n.figure_labels(lang))


def bert_overview(r: BertResult) -> go.Figure:
    """The /fill_mask and /nsp attention figure: the last layer's self-attention averaged over its
    heads, as /translate's is. Every layer and head is in the JSON trace; the UI draws them all. With
    12 layers the all-heads grid (72 maps) doubled the response and made these endpoints ~1.5x slower
    at 12 words (bench/latency.py; README, "Performance")."""
    a = r.trace.enc_self
    L, H = a.shape[:2]
    return fg.heatmap(a[-1].mean(0), r.tokens, r.tokens, f"BERT: self-attention, layer {L}, mean of {H} heads",
                      segments=r.segments)


@friendly
def bert_render(r: BertResult | None, layer=1, head=1, lang: str = "en") -> BertView:
    """All BERT views of one record (no model call)."""
    if r is None:
        p = fg.placeholder(i18n.t("bert.first", lang))
        return BertView(pd.DataFrame(), "", pd.DataFrame(), p, p, "", p, p, [], None, 1, 1)
    a = r.trace.enc_self
    l, h = _pick(a, layer, head)
    tokens = pd.DataFrame(zip(range(len(r.tokens)), r.tokens, [_seg(s) for s in r.segments]), columns=TOKEN_COLUMNS)
    masks = pd.DataFrame([[f"#{i + 1}", m.index, k + 1, p.token, p.probability]
                          for i, m in enumerate(r.masks) for k, p in enumerate(m.predictions)], columns=MASK_COLUMNS)
    tokens, masks = i18n.localized(tokens, lang), i18n.localized(masks, lang)
    nsp_text = "" if r.is_next is None else i18n.t(
        "bert.nsp_follows" if r.is_next >= r.not_next else "bert.nsp_not_follows", lang, p=r.is_next, q=r.not_next)
    words = i18n.figure_labels(lang)
    figs = {"topk": _topk_figure(r, lang), "nsp": _nsp_figure(r, lang), "grid": _bert_grid(r, l, h, lang),
            "head": fg.heatmap(a[l, h], r.tokens, r.tokens,
                               i18n.t("view.layer_head", lang, title=i18n.t("bert.title", lang), l=l + 1, h=h + 1),
                               x_title=words["key"], y_title=words["query"], segments=r.segments, labels=words)}
    tables = {"tokens": tokens, f"enc_self-L{l + 1}H{h + 1}": matrix_table(a[l, h], r.tokens, r.tokens)}
    if len(masks):
        tables["fill_mask"] = masks
    files = write_downloads("bert", r, tables, figs, lang)
    return BertView(tokens, notices_md(r.notices, lang=lang), masks, figs["topk"], figs["nsp"], nsp_text, figs["grid"],
                    figs["head"], files, r, *a.shape[:2])


@friendly
def bert_fill_view(text_a: str, text_b: str = "", top_k: int = 5, layer: int = 1, head: int = 1,
                   lang: str = "en") -> BertView:
    return bert_render(inf.fill_mask(text_a, top_k, text_b), layer, head, lang)


# ----------------------------------------------------------------------------- API endpoints


def cross_overview(r: TranslationResult) -> go.Figure:
    """The /translate figure: one target x source alignment map. A single-head (RNN) model's
    map is its only one; a Transformer's is the last layer's cross attention averaged over
    heads. Every layer and head is in the JSON trace; the UI draws them all. (One map instead
    of the all-heads grid keeps the API under its latency budget: bench/latency.py.)"""
    a = r.trace.cross
    if a is None or a.shape[:2] == (1, 1):
        return _alignment(r)
    L, H = a.shape[:2]
    return fg.heatmap(a[-1].mean(0), r.source_tokens, r.target_tokens,
                      f"{r.model}: cross attention, layer {L}, mean of {H} heads", x_title="source", y_title="target")


@friendly(api=True)
def translate_api(text: str, model: str, beam: int = 1) -> tuple[str, go.Figure, dict]:
    """/translate: (translation, cross-attention figure, record JSON)."""
    r = inf.translate(model, text, beam)
    return r.translation, cross_overview(r), r.to_json()


API_TRACE_MAX_TOKENS = 64  # /fill_mask and /nsp send every layer and head for inputs up to this many tokens


def bert_api_record(r: BertResult) -> dict:
    """The /fill_mask and /nsp JSON: the record, whose per-head attention is left out (null, with a notice)
    past API_TRACE_MAX_TOKENS. A 256-token paragraph's 12 x 6 x 256 x 256 numbers took Gradio's JSON
    ~30 s and grew the server by ~400 MiB, holding up every other user (bench/long_input.py);
    /translate's sources stop at 64 tokens anyway."""
    n = len(r.tokens)
    if n <= API_TRACE_MAX_TOKENS:
        return r.to_json()
    note = inf.Notice(f"attention.enc_self is sent for inputs of up to {API_TRACE_MAX_TOKENS} tokens (this one has "
                      f"{n}): the figure is the last layer's mean over heads; explorer.inference in Python returns "
                      "every layer and head for any length.", "api_trace_left_out", limit=API_TRACE_MAX_TOKENS,
                      tokens=n)
    return replace(r, trace=replace(r.trace, enc_self=None), notices=[*r.notices, note]).to_json()


@friendly(api=True)
def fill_mask_api(text: str, top_k: int = 5) -> tuple[go.Figure, go.Figure, dict]:
    """/fill_mask: (top-k bars per [MASK], last layer's mean self-attention, record JSON)."""
    r = inf.fill_mask(text, top_k)
    return _topk_figure(r), bert_overview(r), bert_api_record(r)


@friendly(api=True)
def nsp_api(sentence_a: str, sentence_b: str) -> tuple[go.Figure, go.Figure, dict]:
    """/nsp: (P(IsNext)/P(NotNext) bars, last layer's mean self-attention, record JSON)."""
    r = inf.nsp(sentence_a, sentence_b)
    return _nsp_figure(r), bert_overview(r), bert_api_record(r)


# ----------------------------------------------------------------------------- UI glue


def _values(view) -> list:
    return [getattr(view, f.name) for f in fields(view)]


def _sliders(n_layers: int, n_heads: int, layer, head) -> list:
    return [gr.Slider(minimum=1, maximum=n_layers, step=1, value=min(int(layer or 1), n_layers)),
            gr.Slider(minimum=1, maximum=n_heads, step=1, value=min(int(head or 1), n_heads))]


@friendly
def _ui_seq2seq(text, model, lang="en"):
    v = seq2seq_view(text, model, 1, lang)
    return [v.translation, v.notice, v.alignment, v.step_bars, v.step_text, v.files, v.record,
            gr.Slider(minimum=1, maximum=max(v.steps, 2), step=1, value=1, interactive=v.steps > 1)]


@friendly
def _ui_transformer(text, model, beam, layer, head, lang="en"):
    v = transformer_view(text, model, beam, layer, head, lang)
    return ([v.translation, v.notice, v.hypotheses] + _values(v.heads) + [v.record]
            + _sliders(v.n_layers, v.n_heads, layer, head))


def _ui_bert(view: BertView, layer, head) -> list:
    return view.drawn() + [view.record] + _sliders(view.n_layers, view.n_heads, layer, head)


@friendly
def _ui_transformer_heads(record, layer, head, lang="en"):
    return _values(transformer_heads(record, layer, head, lang))


@friendly
def _ui_bert_heads(record, layer, head, lang="en"):
    return bert_render(record, layer, head, lang).drawn()


@friendly
def _ui_bert_fill(model, a, b, k, layer, head, lang="en"):
    return _ui_bert(bert_model_view("fill", model, a, b, k, layer, head, lang), layer, head)


# The language switch redraws what is on screen in the new language from the tab's record (no model
# call, the same numbers); a tab with no result yet keeps its empty outputs (gr.skip()).


@friendly
def _relabel_seq2seq(r, step, lang="en"):
    """[notice, alignment, step bars, step text] of the last seq2seq translation, in `lang`."""
    if r is None:
        return gr.skip()
    return [_seq2seq_notice(r, lang), *seq2seq_step(r, step, lang)]


@friendly
def _relabel_transformer(r, layer, head, lang="en"):
    """[notice, hypotheses] + every attention view of the last Transformer translation, in `lang`."""
    if r is None:
        return gr.skip()
    return ([notices_md(r.notices, lang=lang), _hypotheses_table(r, lang)]
            + _values(transformer_heads(r, layer, head, lang)))


@friendly
def _relabel_bert(r, layer, head, lang="en"):
    return gr.skip() if r is None else _ui_bert_heads(r, layer, head, lang)


@friendly
def _relabel_rollout(r, layer, lang="en"):
    """[all heads, entropy, rollout, row entropy, files, notices] of the last rollout, in `lang`."""
    if r is None:
        return gr.skip()
    v = vw.rollout_render(r, layer, lang)
    return [v.grid, v.entropy, v.layer.rollout, v.layer.row_entropy, v.files, v.notice]


@friendly
def _relabel_beam(search, chosen, lang="en"):
    """The last beam search again in `lang` (its text, model and beam; deterministic), on the same hypothesis."""
    if not search:
        return gr.skip()
    out = _ui_beam(search["text"], search["model"], search["beam"], lang)
    chosen = int(chosen or 0)
    if chosen:
        out[2] = gr.Dropdown(choices=out[2].choices, value=chosen)
        out[3:8] = _ui_beam_choice(search, chosen, lang)
    return out


def _ui_bert_run(action: str):
    """The handler of the BERT button `action` (nsp / encode; fill is _ui_bert_fill) with the tab's model choice."""
    @friendly
    def run(model, a, b, layer, head, lang="en"):
        return _ui_bert(bert_model_view(action, model, a, b, 5, layer, head, lang), layer, head)
    run.__name__ = f"_ui_bert_{action}"
    return run


@friendly
def _ui_bert_enter(model, a, b, k, layer, head, lang="en"):
    """Enter in a sentence box of the BERT tab: fill-mask where there is a [MASK] (any case), else next-sentence
    prediction when sentence B is given, else the encoding alone, as the matching button would."""
    if inf.has_mask(a, b):
        return _ui_bert_fill(model, a, b, k, layer, head, lang)
    return _ui_bert_run("nsp" if isinstance(b, str) and b.strip() else "encode")(model, a, b, layer, head, lang)


def _seq2seq_choices(reg, lang: str = "en") -> list[tuple[str, str]]:
    names = set(reg.names("seq2seq")) | {n for n in reg.errors if n.startswith("seq2seq-")}
    order = [f"seq2seq-{k}" for k in SCORE_FUNCTIONS] + sorted(names)
    labels = {**SCORE_FUNCTIONS, "none": i18n.t("s2s.none_choice", lang)}  # the formulas read the same in Korean
    return [(labels.get(n.removeprefix("seq2seq-"), n), n) for n in dict.fromkeys(order) if n in names]


METRIC_NAMES = ("valid_bleu_greedy", "valid_chrf_greedy", "bleu", "chrf", "fill_mask_top1_wiki",
                "fill_mask_top1_short", "nsp_acc", "mlm_top1_mixed")  # shown in this order, named by i18n


def _metrics_summary(d: dict, lang: str = "en") -> str:
    """'validation: BLEU (greedy) 50.6, chrF (greedy) 66.47 · test: BLEU 48.32, ...': the held-out metrics
    of a describe() row in words (training diagnostics such as head_top_weight_max are left out)."""
    parts = []
    for split in ("valid", "test"):
        m = d.get(split) or {}
        kv = [f"{i18n.t('metric.' + k, lang)} {m[k]}" for k in METRIC_NAMES if isinstance(m.get(k), (int, float))]
        if kv:
            parts.append(f"{i18n.t('metric.split_' + split, lang)}: " + ", ".join(kv))
    return " · ".join(parts)


def _models_table(reg, lang: str = "en") -> pd.DataFrame:
    """The Models tab: one row per checkpoint (loaded or not), its headers in `lang`."""
    rows = []
    for d in reg.describe():
        arch = d.get("arch", "") + (" + QK-LayerNorm" if d.get("qk_norm") else "")
        n = d.get("parameters")
        rows.append({"model": d["name"], "status": i18n.t(f"models.status_{d['status']}", lang),
                     "architecture": arch, "parameters": f"{n / 1e6:.1f} M" if isinstance(n, int) else "",
                     "trained on (last stage)": d.get("device") or "",
                     "train seconds (all stages)": d.get("total_wall_seconds"), "weights on disk": d.get("storage"),
                     "metrics / error": d.get("error") or _metrics_summary(d, lang)})
    return i18n.localized(pd.DataFrame(rows), lang)


# ----------------------------------------------------------------------------- BERT with a model choice


_BERT_RUNS = {  # what each BERT button runs; bert_fill_view calls the same function for "bert"
    "fill": lambda a, b, k, name: inf.fill_mask(a, k, b, name=name),
    "nsp": lambda a, b, k, name: inf.nsp(a, b, name=name, top_k=k),
    "encode": lambda a, b, k, name: inf.encode_bert(a, b, name=name, top_k=k),
}


@friendly
def bert_model_view(action: str, model: str, text_a: str, text_b: str = "", top_k: int = 5, layer: int = 1,
                    head: int = 1, lang: str = "en") -> BertView:
    """The BERT tab's buttons with its model dropdown ("bert", "bert-custom", a Hub model)."""
    if action not in _BERT_RUNS:
        raise UserError(f"Unknown BERT action '{action}'.")
    return bert_render(_BERT_RUNS[action](text_a, text_b, top_k, model or "bert"), layer, head, lang)


@friendly
def hub_bert_load(repo_id: str, lang: str = "en") -> tuple[str, str]:
    """(markdown, registered name): a Hub BERT loaded for every BERT view (needs ATTN_EXPLORER_ALLOW_HUB=1)."""
    name = vw.load_hub_bert(repo_id)
    c = inf.registry().get(name, "bert").config
    return i18n.t("bert.hub_loaded", lang, name=md(name), layers=c.n_layers, heads=c.n_heads), name


def _bert_sliders(model) -> list:
    c = inf.registry().get(model, "bert").config
    return _sliders(c.n_layers, c.n_heads, 1, 1)


# ----------------------------------------------------------------------------- the analysis views' glue
# Each returns the values of its event's outputs, in order; the numbers come from explorer.views.


def _fields_of(view_fn, *names):
    """friendly(view_fn) returning the named fields of its view: an event's outputs, in order."""
    @friendly
    @functools.wraps(view_fn)
    def handler(*args):
        v = view_fn(*args)
        return [getattr(v, n) for n in names]
    return handler


_ui_scores = _fields_of(vw.score_functions_view, "figure", "table", "notice", "files")
_ui_length = _fields_of(vw.length_view, "figure", "table", "message", "files")
_ui_contextual = _fields_of(vw.contextual_view, "figure", "table", "text", "files")
_ui_positional = _fields_of(vw.positional_view, "table", "sentence", "text", "files")
_ui_snapshots = _fields_of(vw.snapshot_view, "heatmap", "entropy", "text", "files")


# The first view of the two tabs below is drawn with the page, without its downloads (a file written then
# would be deleted an hour later, under a page that still links to it): opening the tab writes this
# session's files, once (files already there: nothing changes).
@friendly
def _ui_length_files(files, lang):
    return [gr.skip()] * 4 if files else _ui_length(lang)


@friendly
def _ui_snapshot_files(files, model, probe, k, layer, lang):
    return [gr.skip()] * 4 if files else _ui_snapshots(model, probe, k, layer, lang)


def _keeping_args(handler):
    """`handler`'s outputs, then the arguments it ran with but the last (the language): a State from
    which the language switch runs it again (`_again`). For the views that keep no record: they are
    cheap and deterministic, so running them again gives the same numbers in the new language."""
    @friendly
    @functools.wraps(handler)
    def run(*args):
        return [*handler(*args), list(args[:-1])]
    return run


def _again(handler, name: str):
    """A language-switch handler: the last run of `handler` (its arguments in a `_keeping_args` State)
    once more, in the new language; a tab with no result yet keeps its empty outputs."""
    @friendly
    def relabel(last, lang="en"):
        return gr.skip() if not last else handler(*last, lang)
    relabel.__name__ = relabel.__qualname__ = name
    return relabel


_relabel_scores = _again(_ui_scores, "_relabel_scores")
_relabel_contextual = _again(_ui_contextual, "_relabel_contextual")
_relabel_positional = _again(_ui_positional, "_relabel_positional")


@friendly
def _ui_beam(text, model, beam, lang="en"):
    v = vw.beam_view(text, model, beam, lang)
    c = v.chosen
    return [v.table, v.figure, gr.Dropdown(choices=v.choices, value=0), c.translation, c.grid, c.mean, c.notice,
            c.files, {"text": text, "model": model, "beam": int(beam)}]


@friendly
def _ui_beam_choice(search, chosen, lang="en"):
    """Another hypothesis of the last search (its text/model/beam are kept, not the textboxes').
    Before any search the choice is empty and nothing changes (opening it raised an error toast)."""
    if not search:
        return gr.skip()
    c = vw.beam_choice(search["text"], search["model"], search["beam"], chosen, lang)
    return [c.translation, c.grid, c.mean, c.notice, c.files]


@friendly
def _ui_rollout(text, model, layer, lang="en"):
    v = vw.rollout_view(text, model, layer, lang)
    return [v.grid, v.entropy, v.layer.rollout, v.layer.row_entropy, v.files, v.record,
            gr.Slider(1, max(v.n_layers, 2), step=1, value=min(int(layer or v.n_layers), v.n_layers),
                      interactive=v.n_layers > 1), v.notice]


@friendly
def _ui_rollout_layer(record, layer, lang="en"):
    v = vw.rollout_redraw(record, min(int(layer or 1), record.rollout.shape[0]) if record else None, lang)
    return [v.rollout, v.row_entropy]


@friendly
def _ui_query_key(text, model, layer, head, query, lang):
    v = vw.query_key_view(text, layer, head, query, model, lang)
    shown = v.table.round(6)  # on screen: "softmax" and "model attention" agree to these digits (the CSV has all)
    return [v.figure, shown, v.text, v.files, gr.Dropdown(choices=v.choices, value=v.record.query_index)]


_relabel_query_key = _again(_ui_query_key, "_relabel_query_key")


@friendly
def _ui_query_choices(text, model, query):
    """The query-token chooser follows the sentence as it is typed (and the model), before Show runs: its
    choices are this text's tokens, the chosen position kept where it still exists. An input Show would
    refuse (empty) leaves the chooser as it is; Show says what is wrong."""
    try:
        choices = vw.query_tokens(text, model)
    except UserError:
        return gr.skip()
    try:
        q = int(query)
    except (TypeError, ValueError):
        q = 0
    return gr.Dropdown(choices=choices, value=min(max(q, 0), len(choices) - 1))


@friendly
def _ui_rollout_model(text, model, lang="en"):
    """Another model in the rollout view: the sentence through it at once, over all of its layers (the
    record on screen was the other model's, which the layer slider went on redrawing)."""
    return _ui_rollout(text, model, None, lang)


@friendly
def _ui_snapshot_model(model, lang):
    """A new model: its probes, snapshot and layer ranges, and its last snapshot."""
    m = vw.snapshot_meta(model)
    return ([gr.Dropdown(choices=m.probes, value=0),
             gr.Slider(1, max(m.n_snapshots, 2), step=1, value=m.n_snapshots),
             gr.Slider(1, max(m.n_layers, 2), step=1, value=m.n_layers, interactive=m.n_layers > 1,
                       visible=m.n_layers > 1)]  # a one-layer model has no layer to choose (it read 1–2)
            + _ui_snapshots(model, 0, m.n_snapshots, m.n_layers, lang))


# The language each session's switch shows now, for its live run in progress (a generator's inputs are
# read once, at its start). Written by the switch; the oldest sessions are forgotten past the cap.
_SESSION_LANG: collections.OrderedDict[str, str] = collections.OrderedDict()
_MAX_SESSIONS = 10_000
_SESSION_LANG_LOCK = threading.Lock()


def _session_language(request: gr.Request | None, choice=None) -> str | None:
    """`choice` (if given) becomes the session's language; returns the session's language (None: unknown)."""
    session = getattr(request, "session_hash", None)
    if session is None:
        return None
    with _SESSION_LANG_LOCK:  # handlers run in threads: move_to_end must not meet another's popitem
        if choice is not None:
            _SESSION_LANG[session] = i18n.lang_code(choice)
            _SESSION_LANG.move_to_end(session)
            while len(_SESSION_LANG) > _MAX_SESSIONS:
                _SESSION_LANG.popitem(last=False)
        return _SESSION_LANG.get(session)


@friendly
def _ui_live(seconds, attention, probe, lang, request: gr.Request = None):
    """A generator handler: Gradio streams each record and closes it on Stop or when the page goes away.
    The first update comes at once: a Stop that cancels the event before its first output made Gradio
    mark every output "Error" (and hide a finished run's results). Each record is drawn in the language
    the switch shows at that moment; the last one is kept (a State) for the switch to redraw."""
    _session_language(request, lang)
    now = lambda: _session_language(request) or lang  # noqa: E731
    records = vw.live_view(seconds, attention, probe, lang, lang_now=now)  # a bad argument raises here
    yield [gr.skip(), gr.skip(), gr.skip(), i18n.t("live.starting", lang), gr.skip(), None, False]
    for v in records:
        yield [v.loss, v.alignment, v.translation, v.text, v.files or None, (v.record, attention), gr.skip()]


@friendly
def _ui_live_stop(last, choice):
    """Stop: "Stopped.", the flag the language switch reads and the JSON of the last record on screen (what
    the run learned until then); after a finished run (nothing to stop) its "Done: …" stays."""
    if last and last[0].done:
        return gr.skip()
    files = vw.live_files(*last) if last else gr.skip()
    return [i18n.t("live.stopped", choice), True, files]


@friendly
def _relabel_live(last, stopped, choice, request: gr.Request = None):
    """The language switch: a run in progress draws its next records in the new language, and the last
    record on screen (`last`: record and score function; finished, `stopped` or running) is redrawn in it now."""
    _session_language(request, choice)
    if not last:
        return gr.skip()
    v = vw.live_redraw(*last, choice, stopped=bool(stopped), downloads=False)
    return [v.loss, v.alignment, v.text]


# ----------------------------------------------------------------------------- language switch


class Localized:
    """Components whose label (Markdown and Button: value) follows the language switch, and the
    examples that change with it. `L(gr.Textbox, "s2s.text", max_lines=3)` builds the component
    with the English string of its key and remembers it."""
    TEXT_VALUED = (gr.Markdown, gr.Button)

    def __init__(self):
        self.items: list[tuple] = []  # (component, key, prop, format fields)
        self.example_sets: list[tuple] = []  # (gr.Dataset, view, row function, the inputs' keys)
        self.tables: list[tuple] = []  # (gr.Dataframe, its English column headers): results tables

    def table(self, key: str, columns: list[str], **kwargs) -> gr.Dataframe:
        """A results table labelled by `key`, showing its English `columns` before the first run; the
        language switch gives the still-empty ones their headers in the new language."""
        table = self(Table, key, value=_no_rows(columns), interactive=False, **kwargs)
        self.tables.append((table, columns))
        return table

    def __call__(self, cls, key: str, *args, fields: dict | None = None, **kwargs):
        prop = "value" if issubclass(cls, self.TEXT_VALUED) else "label"
        kwargs[prop] = i18n.t(key, "en", **(fields or {}))
        component = cls(*args, **kwargs)
        self.items.append((component, key, prop, fields or {}))
        return component

    def examples(self, view: str, inputs: list, row=lambda r: r) -> gr.Examples | None:
        """i18n.EXAMPLES[view] as clickable examples; `row` maps an entry to the inputs' values
        (None drops it, e.g. for a model that is not loaded)."""
        rows = self.rows(view, "en", row)
        if not rows:
            return None
        ex = gr.Examples(rows, inputs, label=i18n.t("common.examples"))
        # A click on an example sends each input its value *and* the props it was built with
        # (gradio.helpers.Examples.input_component_props), which would put the English label back
        # over the Korean one. Without "label" there, the click leaves the current label alone.
        for props in ex.input_component_props:
            props.pop("label", None)
        keys = {id(c): k for c, k, *_ in self.items}
        self.example_sets.append((ex.dataset, view, row, [keys.get(id(c)) for c in inputs]))
        return ex

    @staticmethod
    def rows(view: str, lang: str, row) -> list[list]:
        return [r for r in (row(list(e)) for e in i18n.examples(view, lang)) if r is not None]

    @property
    def outputs(self) -> list:
        return [c for c, *_ in self.items] + [d for d, *_ in self.example_sets]


@friendly
def language_from_url(request: gr.Request):
    """A link's ?lang=ko (or ko-KR) opens the page in Korean (a course page can link to it): the switch is set, and
    its change events relabel the page. Any other value, or none, leaves English."""
    code = (request.query_params.get("lang") or "").strip().lower().split("-")[0] if request is not None else ""
    names = {c: name for name, c in i18n.CHOICES.items()}
    return names[code] if code in names and code != "en" else gr.skip()


def language_updates(localized: Localized, choice) -> list[dict]:
    """The language switch's handler: one update per registered component, in `outputs` order."""
    lang = i18n.lang_code(choice)
    ups = [gr.update(**{prop: i18n.t(key, lang, **f)}) for _, key, prop, f in localized.items]
    return ups + [gr.update(label=i18n.t("common.examples", lang), samples=Localized.rows(view, lang, row),
                            headers=[i18n.t(k, lang) if k else "" for k in keys])
                  for _, view, row, keys in localized.example_sets]


# ----------------------------------------------------------------------------- input checks before a run


def _validator(*checks):
    """A Gradio `validator` for an event whose last input is the language switch: checks[i], where given, gets
    (the i-th input, all inputs) and raises UserError. A failure is written under that input and the event does
    not run, so the last good result stays on screen (with gr.Error every output went blank under an "Error"
    badge). The checks are the model call's own (explorer.inference), without the model."""
    def validate(*args):
        lang = i18n.lang_code(args[-1])
        out = []
        for i, value in enumerate(args):
            message = ""
            if i < len(checks) and checks[i] is not None:
                try:
                    checks[i](value, args)
                except UserError as e:
                    message = i18n.error_text(e, lang)
                except Exception:  # a bug in a check must not block the run: the handler reports it (friendly)
                    log.exception("input check %d failed", i)
            out.append(gr.validate(not message, message))
        return out
    return validate


def _sentence(what: str = "sentence"):
    return lambda value, _: inf.clean_text(value, what)


_FIRST_IS_A_SENTENCE = _validator(_sentence())  # translation, score functions, beam search, rollout, query-key


# ----------------------------------------------------------------------------- layout

QK_SENTENCE = "the cat sat on the mat because it was tired ."
# A long translation wraps in its own column and the numbers stay in view (they were pushed off to the right).
# In pixels, not percentages: on a 1280 px screen each table fills its row; on a phone it scrolls sideways (as
# percentages of 390 px the headers broke a few letters a line, and numbers in the middle).
HYPOTHESIS_WIDTHS = ["60px", "620px", "170px", "170px", "180px"]  # #, translation, log-prob, score, attention shown
BEAM_WIDTHS = ["60px", "540px", "130px", "130px", "340px"]  # #, translation, log-prob, score, tokens
SCORE_WIDTHS = ["190px", "150px", "500px", "180px", "180px"]  # model, score function, translation, two entropies
MODELS_WIDTHS = ["140px", "75px", "150px", "112px", "150px", "105px", "105px", "363px"]
RELAYOUT_JS = "() => { requestAnimationFrame(() => window.dispatchEvent(new Event('resize'))); }"
# The page's language follows the switch (<html lang>): screen readers read Korean as Korean, browsers pick a Hangul
# font and line-breaking rules by it, and CSS below keys on it.
PAGE_LANG_JS = "(choice) => { document.documentElement.lang = (%s)[choice] || 'en'; }" % json.dumps(i18n.CHOICES)
# Korean lines break between words, not inside them (a browser's default broke "빔 크기" as "빔 크 / 기"); a
# word too long for its line still breaks. On a phone a plot's label stays on one line: wrapped, it covered the
# figure's title. In Korean (the page's lang, set by the switch) a warning toast's head reads 경고: Gradio 6.31 writes
# the toast's type there ("Warning") and ignores gr.Warning's title=. A table wider than its box (on a phone: beam
# hypotheses, score functions, BLEU by length, the models) shades the side where columns are out of sight (PAGE_JS
# sets the classes).
# Gradio's default theme, with darker shades where its text failed WCAG AA contrast (4.5:1) on a projector's washed-out
# colours: white on the orange run buttons 3.6:1 -> 5.2:1, the selected tab's orange text 2.8:1 -> 5.2:1, white on
# the red Stop button 3.8:1 -> 6.5:1, grey helper text (slider ends, footer) 2.6:1 -> 4.8:1.
# In dark mode (Gradio follows the system's) the buttons take the same darker fills; the selected tab's text is set
# in CSS below (the theme's accent has one value for both modes, and orange 700 is 3.7:1 on the dark page).
THEME = gr.themes.Default().set(
    button_primary_background_fill="*primary_700", button_primary_background_fill_hover="*primary_800",
    button_primary_background_fill_dark="*primary_700", button_primary_background_fill_hover_dark="*primary_800",
    button_cancel_background_fill="#b91c1c", button_cancel_background_fill_hover="#991b1b",
    button_cancel_background_fill_dark="#b91c1c", button_cancel_background_fill_hover_dark="#991b1b",
    body_text_color_subdued="*neutral_500")
SELECTED_TAB = ("#c2410c", "#f97316")  # light, dark: 5.2:1 on white, 6.8:1 on the dark page
# Focus: Gradio draws none on radios and sliders, and a 1.8:1 ring on text boxes; a keyboard user needs to see it.
# Downloads: Gradio gives each listed file a "Remove this file" button even in a read-only box, and Enter on it (a
# keyboard user's Tab lands there) took the file off the list; and it cuts a name to one line, so on a phone four
# files read "transformer-… .csv" (their names now wrap; PAGE_JS names each link by its file, not only its size, for
# a screen reader). A heatmap's table of values is out of sight, not out of
# a screen reader's reach (figures.VALUE_TABLES_CSS).
CSS = """
.gradio-container { word-break: keep-all; overflow-wrap: break-word; }
.gradio-container :is(input, textarea, select):focus-visible { outline: 3px solid #1d4ed8 !important;
                                                              outline-offset: 2px; }
.dark .gradio-container :is(input, textarea, select):focus-visible { outline-color: #93c5fd !important; }
.gradio-container button[role="tab"][aria-selected="true"] { color: %s; }
.dark .gradio-container button[role="tab"][aria-selected="true"] { color: %s; }
.ae-downloads .label-clear-button { display: none; }
.ae-downloads tr.file > td:has(> .label-clear-button) { display: none; }
.ae-downloads td.download { width: 7em; text-align: right; }
.ae-downloads .filename { flex-wrap: wrap; }
.ae-downloads .filename .stem { white-space: normal; overflow-wrap: anywhere; text-overflow: clip; }
%s
html[lang="ko"] .toast-title.warning { font-size: 0; }
html[lang="ko"] .toast-title.warning > * { font-size: var(--text-lg); }
html[lang="ko"] .toast-title.warning::before { content: "%s"; font-size: var(--text-lg); }
.table-wrap { position: relative; }
.table-wrap.ae-more-right::after, .table-wrap.ae-more-left::before {
  content: ""; position: absolute; top: 1px; bottom: 1px; width: 28px; pointer-events: none; z-index: 8; }
.table-wrap.ae-more-right::after { right: 0; background: linear-gradient(to left, rgba(0, 0, 0, 0.2), transparent); }
.table-wrap.ae-more-left::before { left: 0; background: linear-gradient(to right, rgba(0, 0, 0, 0.2), transparent); }
@media (max-width: 600px) {
  label[data-testid="block-label"].float { white-space: nowrap; overflow: hidden; text-overflow: ellipsis;
                                           max-width: 55%%; }
}
""" % (SELECTED_TAB + (fg.VALUE_TABLES_CSS, i18n.t("app.warning_head", "ko")))
# Runs once on page load: every plot narrower than figures.NARROW_PX (a phone held upright; STACKED_NARROW_PX for
# side-by-side panels, the figure's meta.below) takes the narrow
# layout its figure carries in layout.meta (explorer.figures.responsive), and gives it back when it widens (a
# phone turned sideways). Gradio 6.31 draws each new figure into a new element (and were it to reuse one, the layout
# object would still be new): the mark of what was applied lives on that object, so a new figure is fitted afresh.
# Tables: a table's box gets ae-more-right / ae-more-left while columns are hidden on that side (CSS shades it),
# looked at when it scrolls, when its box changes size (a tab shown) and when its rows change. A heatmap of square
# cells (figures.heatmap: meta.colorbarBeside) gets its colour bar beside the map after each draw, not at the plot's
# right edge, where it stood 700 px away from a short sentence's map on a wide screen.
PAGE_JS = """() => {
  const fit = gd => {
    const layout = gd.layout, meta = layout && layout.meta, P = window.Plotly;
    if (!P || !meta || !meta.narrow || !meta.wide || !gd.offsetWidth) return;
    const want = gd.offsetWidth < (meta.below || %d) ? 'narrow' : 'wide';
    if ((layout._aeFit || 'wide') === want) return;
    layout._aeFit = want;
    const u = meta[want];
    // autosize stays on: plotly's relayout of a height turns it off and pins the width it had, which left a plot
    // 702 px wide in a 324 px phone column, and 702 in 1,214 px when the window widened again
    P.update(gd, u.data, Object.assign({autosize: true, width: null}, u.layout), u.traces);
  };
  const beside = %s;  // a heatmap of square cells: its colour bar beside the map (figures.COLORBAR_BESIDE_JS)
  // a screen reader met an unnamed SVG and bare tick labels: the plot is a figure named by its title, or by its
  // box's label where the figure has none (a title that is only the "▁" note is no name); a heatmap's numbers are
  // in the table after it (values, below), the others' in the tab's tables and CSV downloads. role=figure, not
  // img: an image's toolbar buttons would be hidden from it.
  const name = gd => {
    const t = gd.layout && gd.layout.title;
    const own = typeof t === 'string' ? t : t && t.yref !== 'container' && (t.text || '');
    const box = gd.closest('.block'), label = box && box.querySelector('[data-testid="block-label"]');
    // DOMParser: markup read as text only (an element's innerHTML would load an <img> it names)
    const text = own ? new DOMParser().parseFromString(String(own).replace(/<br\s*\/?>/gi, ' '), 'text/html')
      .body.textContent : (label ? label.textContent : '');
    const clean = text.replace(/\s+/g, ' ').trim();
    if (!clean) { gd.removeAttribute('role'); gd.removeAttribute('aria-label'); return; }
    gd.setAttribute('role', 'figure');
    gd.setAttribute('aria-label', clean);
  };
  // a heatmap's values as a table that only screen readers see, after its plot (figures.VALUE_TABLES_JS)
  const values = %s;
  const hook = gd => {
    if (gd._aeHooked || typeof gd.on !== 'function') return;
    gd._aeHooked = true;
    gd.on('plotly_afterplot', () => { fit(gd); beside(gd); name(gd); values(gd); });
    fit(gd);
    beside(gd);
    name(gd);
    values(gd);
  };
  const all = f => document.querySelectorAll('.js-plotly-plot').forEach(f);
  const more = v => {
    const box = v.closest('.table-wrap');
    if (!box) return;
    box.classList.toggle('ae-more-right', v.scrollLeft + v.clientWidth < v.scrollWidth - 2);
    box.classList.toggle('ae-more-left', v.scrollLeft > 2);
  };
  const sized = new ResizeObserver(entries => entries.forEach(e => more(e.target)));
  const table = v => {
    if (!v._aeHooked) {
      v._aeHooked = true;
      v.addEventListener('scroll', () => more(v), {passive: true});
      sized.observe(v);
    }
    more(v);
  };
  // a download link read only its size ("23.8 KB ⇣"): its name is the file's, then the size
  const link = a => {
    const want = `${a.getAttribute('download')}, ${a.textContent.replace('⇣', '').replace(/\s+/g, ' ').trim()}`;
    if (a.getAttribute('download') && a.getAttribute('aria-label') !== want) a.setAttribute('aria-label', want);
  };
  const look = () => {
    all(hook);
    document.querySelectorAll('.virtual-table-viewport').forEach(table);
    document.querySelectorAll('.ae-downloads a[download]').forEach(link);
  };
  let queued = false;  // one look per frame, however many nodes a redraw adds
  new MutationObserver(() => {
    if (!queued) { queued = true; requestAnimationFrame(() => { queued = false; look(); }); }
  }).observe(document.body, {childList: true, subtree: true});
  window.addEventListener('resize', () => all(fit));
  look();
}""" % (fg.NARROW_PX, fg.COLORBAR_BESIDE_JS, fg.VALUE_TABLES_JS)


# Two plots share a row only where each is at least this wide (Gradio wraps the row's items below it): on a
# 1,280 px screen two half-width plots (600 px) were drawn in the desktop layout with their labels crowded, and at
# 200% zoom (a 640 px page) two 280 px plots had Gradio's labels over their titles.
BESIDE_MIN_PX = 640
# A dropdown that shares a row: at Gradio's 160 px a phone gave "transformer-en-fr" 80 px beside the arrow, which
# covered its end; at this width such a row wraps on a phone and stays one row from about 480 px up.
DROPDOWN_MIN_PX = 220


def _depth(reg, name: str | None) -> tuple[int, int]:
    """(layers, heads) of a loaded model, for the sliders drawn before its first run; (8, 8) when none."""
    c = reg.models[name].config if name in reg.models else None
    return (c.n_layers, c.n_heads) if c else (8, 8)


def _layer_head_sliders(L: Localized, layers: int = 8, heads: int = 8):
    with gr.Row():
        layer = L(Slider, "common.layer", 1, layers, value=1, step=1)
        head = L(Slider, "common.head", 1, heads, value=1, step=1)
    return layer, head


def _example_clicks(examples: gr.Examples | None) -> tuple:
    """The event that runs after an example has filled its inputs (none without examples). Where an example
    sets the model as well as the sentence, the tab runs it, as it does for a model picked by hand: the old
    result stayed under the new model's name until the button was pressed."""
    return () if examples is None else (examples.load_input_event.then,)


def _downloads(L: Localized, key: str = "common.downloads"):
    """A read-only list of files. interactive=False matters where the box is also an event's input (the
    Training tab's first-view downloads): Gradio then drew it as an upload box whose ✕ emptied it."""
    return L(gr.File, key, file_count="multiple", interactive=False, elem_classes=["ae-downloads"])


def _load_custom_bert(reg) -> None:
    """ATTN_EXPLORER_BERT_DIR, set by whoever runs the app, adds "bert-custom" (once per registry)."""
    if "bert-custom" not in reg.models and "bert-custom" not in reg.errors:
        byo_bert.load_from_env(reg, "bert-custom")


def _safe_initial(fn, *args):
    """A view computed while the page is built (cheap JSON reads); a failure leaves it empty."""
    try:
        return fn(*args)
    except Exception:  # noqa: BLE001 - the tab still works through its button
        log.exception("could not precompute %s", getattr(fn, "__name__", fn))
        return None


def build_demo() -> gr.Blocks:
    """The whole app; reads the registry once (checkpoints that failed to load are listed, not fatal)."""
    reg = inf.registry()
    _load_custom_bert(reg)
    L = Localized()
    bert_names = reg.names("bert")
    bert_default = "bert" if "bert" in bert_names else (bert_names[0] if bert_names else None)
    trans_names = reg.names("transformer")
    model_or = lambda names: (lambda r: r if r[-1] in names else None)  # noqa: E731 (an example's model must be loaded)
    with gr.Blocks(title="Attention Explorer", delete_cache=(3600, 3600)) as demo:
        with gr.Row():
            with gr.Column(scale=4):
                L(gr.Markdown, "app.intro")
            lang = gr.Radio(list(i18n.CHOICES), value="English", label=i18n.SWITCH_LABEL, scale=1)
        if reg.errors:
            gr.Markdown(load_errors_md())

        # --- seq2seq + attention -------------------------------------------------------
        with L(gr.Tab, "tab.seq2seq"):
            L(gr.Markdown, "s2s.intro")
            if load_errors_md("seq2seq-"):
                gr.Markdown(load_errors_md("seq2seq-"))
            choices = _seq2seq_choices(reg)
            with gr.Row():
                s_model = L(gr.Radio, "s2s.score", choices, value=choices[0][1] if choices else None)
            s_text = L(gr.Textbox, "s2s.text", EXAMPLE_EN[0], max_lines=3)
            s_btn = L(gr.Button, "common.translate", variant="primary")
            s_examples = L.examples("seq2seq", [s_text])
            s_out = L(gr.Textbox, "common.translation", interactive=False)
            s_notice = gr.Markdown()
            s_align = L(gr.Plot, "s2s.align")
            s_step = L(Slider, "s2s.step", 1, 2, value=1, step=1)
            s_step_text = gr.Markdown()
            s_bars = L(gr.Plot, "s2s.bars")
            s_files = _downloads(L, "s2s.files")
            s_state = gr.State(None)
            # another score function, or an example's sentence: its translation at once
            for trigger in (s_btn.click, s_text.submit, s_model.input) + _example_clicks(s_examples):
                trigger(_ui_seq2seq, [s_text, s_model, lang],
                        [s_out, s_notice, s_align, s_bars, s_step_text, s_files, s_state, s_step],
                        concurrency_id="models", api_visibility="private", validator=_FIRST_IS_A_SENTENCE)
            s_step.input(seq2seq_step, [s_state, s_step, lang], [s_align, s_bars, s_step_text],
                         trigger_mode="always_last", show_progress="hidden", api_visibility="private")

        # --- score functions side by side ----------------------------------------------
        with L(gr.Tab, "tab.scores"):
            L(gr.Markdown, "sf.intro")
            sf_text = L(gr.Textbox, "s2s.text", EXAMPLE_EN[1], max_lines=3)
            sf_btn = L(gr.Button, "sf.run", variant="primary")
            sf_examples = L.examples("seq2seq", [sf_text])
            sf_notice = gr.Markdown()
            sf_fig = L(gr.Plot, "sf.figure")
            sf_table = L.table("sf.table", vw.SCORE_COLUMNS, wrap=True, column_widths=SCORE_WIDTHS)
            sf_files = _downloads(L)
            sf_last = gr.State(None)  # the last run's arguments, for the language switch
            sf_out = [sf_fig, sf_table, sf_notice, sf_files]
            for trigger in (sf_btn.click, sf_text.submit) + _example_clicks(sf_examples):
                trigger(_keeping_args(_ui_scores), [sf_text, lang], sf_out + [sf_last],
                        concurrency_id="models", api_visibility="private", validator=_FIRST_IS_A_SENTENCE)

        # --- Transformer ---------------------------------------------------------------
        with L(gr.Tab, "tab.transformer"):
            L(gr.Markdown, "tr.intro")
            if load_errors_md("transformer-"):
                gr.Markdown(load_errors_md("transformer-"))
            t_names = trans_names + sorted(n for n in reg.errors if n.startswith("transformer-"))
            with gr.Row():
                # min_width: on a phone the row wraps, where the arrow sat on "transformer-en-f"
                t_model = L(gr.Dropdown, "common.model", t_names, value=t_names[0] if t_names else None,
                            min_width=DROPDOWN_MIN_PX)
                t_beam = L(Slider, "tr.beam", 1, inf.MAX_BEAM, value=1, step=1)
            t_text = L(gr.Textbox, "common.sentence", EXAMPLE_EN[0], max_lines=3)
            t_btn = L(gr.Button, "common.translate", variant="primary")
            t_examples = L.examples("transformer", [t_text, t_model], model_or(t_names))
            t_out = L(gr.Textbox, "common.translation", interactive=False)
            t_notice = gr.Markdown()
            t_hyps = L.table("tr.hyps", HYPOTHESIS_COLUMNS, wrap=True, column_widths=HYPOTHESIS_WIDTHS)
            t_layer, t_head = _layer_head_sliders(L, *_depth(reg, t_names[0] if t_names else None))
            with L(gr.Tab, "tab.enc"):
                t_enc_grid, t_enc_head = L(gr.Plot, "common.all_heads"), L(gr.Plot, "common.selected_head")
            with L(gr.Tab, "tab.dec"):
                t_dec_grid, t_dec_head = L(gr.Plot, "common.all_heads"), L(gr.Plot, "common.selected_head")
                t_scores = L(gr.Plot, "tr.scores")
            with L(gr.Tab, "tab.cross"):
                t_cross_grid, t_cross_head = L(gr.Plot, "common.all_heads"), L(gr.Plot, "common.selected_head")
            t_files = _downloads(L, "tr.files")
            t_state = gr.State(None)
            t_heads = [t_enc_grid, t_enc_head, t_dec_grid, t_dec_head, t_scores, t_cross_grid, t_cross_head, t_files]
            # another model, picked or set by an example with its sentence: its translation at once
            for trigger in (t_btn.click, t_text.submit, t_model.input) + _example_clicks(t_examples):
                trigger(_ui_transformer, [t_text, t_model, t_beam, t_layer, t_head, lang],
                        [t_out, t_notice, t_hyps] + t_heads + [t_state, t_layer, t_head], concurrency_id="models",
                        api_visibility="private", validator=_FIRST_IS_A_SENTENCE)
            for s in (t_layer, t_head):
                s.input(_ui_transformer_heads, [t_state, t_layer, t_head, lang],
                        t_heads,
                        trigger_mode="always_last", show_progress="hidden", api_visibility="private")

        # --- beam search -----------------------------------------------------------------
        with L(gr.Tab, "tab.beam"):
            L(gr.Markdown, "beam.intro")
            bm_names = vw.translation_models(reg)
            with gr.Row():
                bm_model = L(gr.Dropdown, "common.model", bm_names, value=bm_names[0] if bm_names else None,
                             min_width=DROPDOWN_MIN_PX)
                bm_beam = L(Slider, "beam.size", 2, inf.MAX_BEAM, value=4, step=1)
            bm_text = L(gr.Textbox, "common.sentence", EXAMPLE_EN[1], max_lines=3)
            bm_btn = L(gr.Button, "beam.run", variant="primary")
            bm_examples = L.examples("transformer", [bm_text, bm_model], model_or(bm_names))
            bm_table = L.table("beam.table", vw.BEAM_COLUMNS, wrap=True, column_widths=BEAM_WIDTHS)
            bm_fig = L(gr.Plot, "beam.figure")
            bm_choice = L(gr.Dropdown, "beam.choose", choices=[], value=None)
            bm_out = L(gr.Textbox, "common.translation", interactive=False)
            bm_notice = gr.Markdown()
            with gr.Row():  # side by side only where each gets a wide plot's width (past figures.NARROW_PX)
                bm_mean = L(gr.Plot, "beam.mean", min_width=BESIDE_MIN_PX)
                bm_grid = L(gr.Plot, "beam.grid", min_width=BESIDE_MIN_PX)
            bm_files = _downloads(L)
            bm_state = gr.State(None)
            bm_chosen = [bm_out, bm_grid, bm_mean, bm_notice, bm_files]
            for trigger in (bm_btn.click, bm_text.submit, bm_model.input) + _example_clicks(bm_examples):
                trigger(_ui_beam, [bm_text, bm_model, bm_beam, lang],
                        [bm_table, bm_fig, bm_choice] + bm_chosen + [bm_state], concurrency_id="models",
                        api_visibility="private", validator=_FIRST_IS_A_SENTENCE)
            bm_choice.input(_ui_beam_choice, [bm_state, bm_choice, lang], bm_chosen, trigger_mode="always_last",
                            api_visibility="private")

        # --- BERT ----------------------------------------------------------------------
        with L(gr.Tab, "tab.bert"):
            L(gr.Markdown, "bert.intro")
            if load_errors_md("bert"):
                gr.Markdown(load_errors_md("bert"))
            hub = os.environ.get(vw.HUB_ENV) == "1"
            b_model = L(gr.Dropdown, "bert.model", bert_names, value=bert_default, visible=len(bert_names) > 1 or hub)
            if hub:  # a Hub id only (never a local path): see explorer/views.py load_hub_bert
                with gr.Group():
                    L(gr.Markdown, "bert.hub_intro", fields={"cap": vw.hub_max_bytes() // 1_000_000})
                    with gr.Row():
                        b_repo = L(gr.Textbox, "bert.hub_repo", max_lines=1, scale=3)
                        b_load = L(gr.Button, "bert.hub_load", scale=1)
                    b_loaded = gr.Markdown()
            b_a = L(gr.Textbox, "bert.a", EXAMPLE_MASK, max_lines=3)
            b_b = L(gr.Textbox, "bert.b", EXAMPLE_NEXT, max_lines=3)
            b_k = L(Slider, "bert.k", 1, 20, value=5, step=1)
            with gr.Row():
                b_fill = L(gr.Button, "bert.fill", variant="primary")
                b_nsp = L(gr.Button, "bert.nsp")
                b_enc = L(gr.Button, "bert.enc")
            b_examples = L.examples("bert", [b_a, b_b])  # an English BERT: the rows stay English, the headers follow
            b_notice = gr.Markdown()
            with gr.Row():
                b_tokens = L.table("bert.tokens", TOKEN_COLUMNS, max_height=300)
                b_masks = L.table("bert.masks", MASK_COLUMNS, max_height=300)
            with gr.Row():
                b_topk = L(gr.Plot, "bert.topk")
                with gr.Column():
                    b_nspfig = L(gr.Plot, "bert.nspfig")
                    b_nsptext = gr.Markdown()
            b_layer, b_head = _layer_head_sliders(L, *_depth(reg, bert_default))
            b_grid, b_headfig = L(gr.Plot, "common.all_heads"), L(gr.Plot, "common.selected_head")
            b_files = _downloads(L, "bert.files")
            b_state = gr.State(None)
            b_drawn = [b_tokens, b_notice, b_masks, b_topk, b_nspfig, b_nsptext, b_grid, b_headfig, b_files]
            b_outs = b_drawn + [b_state, b_layer, b_head]
            b_fill.click(_ui_bert_fill,
                         [b_model, b_a, b_b, b_k, b_layer, b_head, lang], b_outs, concurrency_id="models",
                         api_visibility="private",
                         validator=_validator(None, lambda a, args: inf.masked_texts(a, args[2])))
            b_nsp.click(_ui_bert_run("nsp"),
                        [b_model, b_a, b_b, b_layer, b_head, lang], b_outs, concurrency_id="models",
                        api_visibility="private",
                        validator=_validator(None, _sentence("first sentence"), _sentence("second sentence")))
            b_enc.click(_ui_bert_run("encode"),
                        [b_model, b_a, b_b, b_layer, b_head, lang], b_outs, concurrency_id="models",
                        api_visibility="private", validator=_validator(None, _sentence()))
            # Enter, or an example: what its sentences ask for (fill-mask, next sentence or the encoding alone)
            for trigger in (b_a.submit, b_b.submit) + _example_clicks(b_examples):
                trigger(_ui_bert_enter, [b_model, b_a, b_b, b_k, b_layer, b_head, lang], b_outs,
                        concurrency_id="models", api_visibility="private", validator=_validator(None, _sentence()))

            @friendly
            def _ui_bert_top_k(record, model, a, b, k, layer, head, lang="en"):
                """Top-k moved: the fill-mask again with k guesses (as Fill [MASK] would); after NSP or
                embeddings, which show no guesses, nothing changes."""
                if record is None or not record.masks:
                    return [gr.skip()] * len(b_outs)
                return _ui_bert_fill(model, a, b, k, layer, head, lang)

            shows_guesses = lambda args: args[0] is not None and args[0].masks  # noqa: E731
            b_k.input(_ui_bert_top_k, [b_state, b_model, b_a, b_b, b_k, b_layer, b_head, lang], b_outs,
                      concurrency_id="models", api_visibility="private", trigger_mode="always_last",
                      validator=_validator(None, None, lambda a, args: shows_guesses(args) and
                                           inf.masked_texts(a, args[3])))
            for s in (b_layer, b_head):
                s.input(_ui_bert_heads, [b_state, b_layer, b_head, lang],
                        b_drawn,
                        trigger_mode="always_last", show_progress="hidden", api_visibility="private")

        # --- inside attention: rollout, query/key, contextual vectors, positions --------
        with L(gr.Tab, "tab.inside"):
            with L(gr.Tab, "tab.rollout"):
                L(gr.Markdown, "ro.intro")
                ro_names = bert_names + trans_names
                with gr.Row():
                    ro_model = L(gr.Dropdown, "ro.model", ro_names, value=ro_names[0] if ro_names else None,
                                 min_width=DROPDOWN_MIN_PX)
                    ro_depth = _depth(reg, ro_names[0] if ro_names else None)[0]  # rollout through all layers
                    ro_layer = L(Slider, "common.layer", 1, max(ro_depth, 2), value=ro_depth, step=1)
                ro_text = L(gr.Textbox, "common.sentence", EXAMPLE_EN[1], max_lines=3)
                ro_btn = L(gr.Button, "ro.run", variant="primary")
                ro_notice = gr.Markdown()
                ro_examples = L.examples("rollout", [ro_text, ro_model], model_or(ro_names))
                # full width, one under the other: in half a row the token labels ran together
                ro_rollout = L(gr.Plot, "ro.rollout")
                ro_rowent = L(gr.Plot, "ro.row_entropy")
                with gr.Row():
                    ro_grid = L(gr.Plot, "ro.grid")
                    ro_entropy = L(gr.Plot, "ro.entropy")
                ro_files = _downloads(L)
                ro_state = gr.State(None)
                gr.on([ro_btn.click, ro_text.submit], _ui_rollout, [ro_text, ro_model, ro_layer, lang],
                      [ro_grid, ro_entropy, ro_rollout, ro_rowent, ro_files, ro_state, ro_layer, ro_notice],
                      concurrency_id="models", api_visibility="private", validator=_FIRST_IS_A_SENTENCE)
                @friendly
                def _rollout_layers(name):  # another model: its rollout through all of its layers
                    n = _depth(reg, name)[0]
                    return gr.Slider(1, max(n, 2), value=n)

                # the slider at the new model's depth at once, outside the "models" queue the run waits in
                ro_model.input(_rollout_layers, ro_model, ro_layer, show_progress="hidden", api_visibility="private")
                # another model, or an example (its sentence and model): the rollout through all of its layers
                for trigger in (ro_model.input,) + _example_clicks(ro_examples):
                    trigger(_ui_rollout_model, [ro_text, ro_model, lang],
                            [ro_grid, ro_entropy, ro_rollout, ro_rowent, ro_files, ro_state, ro_layer, ro_notice],
                            concurrency_id="models", api_visibility="private", validator=_FIRST_IS_A_SENTENCE)
                ro_layer.input(_ui_rollout_layer, [ro_state, ro_layer, lang], [ro_rollout, ro_rowent],
                               trigger_mode="always_last", show_progress="hidden", api_visibility="private")

            with L(gr.Tab, "tab.qk"):
                L(gr.Markdown, "qk.intro")
                with gr.Row():
                    qk_model = L(gr.Dropdown, "bert.model", bert_names, value=bert_default, visible=len(bert_names) > 1,
                                 min_width=DROPDOWN_MIN_PX)
                    qk_first = _safe_initial(vw.query_tokens, QK_SENTENCE, bert_default) if bert_default else None
                    qk_query = L(gr.Dropdown, "qk.query", choices=qk_first or [], value=0, allow_custom_value=True)
                qk_layer, qk_head = _layer_head_sliders(L, *_depth(reg, bert_default))
                qk_text = L(gr.Textbox, "common.sentence", QK_SENTENCE, max_lines=3)
                qk_btn = L(gr.Button, "qk.run", variant="primary")
                qk_text_md = gr.Markdown()
                qk_fig = L(gr.Plot, "qk.figure")
                qk_table = L.table("qk.table", vw.QK_COLUMNS)
                qk_files = _downloads(L)
                qk_in = [qk_text, qk_model, qk_layer, qk_head, qk_query, lang]
                qk_out = [qk_fig, qk_table, qk_text_md, qk_files, qk_query]
                qk_last, qk_run = gr.State(None), _keeping_args(_ui_query_key)
                gr.on([qk_btn.click, qk_text.submit], qk_run, qk_in, qk_out + [qk_last], concurrency_id="models",
                      api_visibility="private", validator=_FIRST_IS_A_SENTENCE)
                for c in (qk_query, qk_layer, qk_head):
                    c.input(qk_run, qk_in, qk_out + [qk_last], trigger_mode="always_last",
                            concurrency_id="models", api_visibility="private")
                qk_model.change(friendly(_bert_sliders), qk_model, [qk_layer, qk_head], api_visibility="private")
                for c in (qk_text, qk_model):
                    c.change(_ui_query_choices, [qk_text, qk_model, qk_query], qk_query, trigger_mode="always_last",
                             show_progress="hidden", concurrency_id="models", api_visibility="private")

            with L(gr.Tab, "tab.contextual"):
                L(gr.Markdown, "ctx.intro")
                ctx_rows = lambda r: ([r[0], "\n".join(lab.EXAMPLES[r[0]][1]), "auto"]  # noqa: E731
                                      if r[0] in lab.EXAMPLES and lab.EXAMPLES[r[0]][0] in reg.models else None)
                with gr.Row():
                    ctx_word = L(gr.Textbox, "ctx.word", "bank", max_lines=1)
                    ctx_model = L(gr.Dropdown, "ctx.model", ["auto"] + bert_names + trans_names, value="auto",
                                  min_width=DROPDOWN_MIN_PX)
                ctx_sent = L(gr.Textbox, "ctx.sentences", "\n".join(lab.EXAMPLES["bank"][1]), lines=4, max_lines=10)
                ctx_btn = L(gr.Button, "ctx.run", variant="primary")
                ctx_examples = L.examples("contextual", [ctx_word, ctx_sent, ctx_model], ctx_rows)
                ctx_text = gr.Markdown()
                ctx_fig = L(gr.Plot, "ctx.figure")
                ctx_table = L.table("ctx.table", vw.CONTEXT_COLUMNS, wrap=True)
                ctx_files = _downloads(L)
                ctx_last = gr.State(None)
                ctx_out = [ctx_fig, ctx_table, ctx_text, ctx_files]
                for trigger in (ctx_btn.click, ctx_word.submit) + _example_clicks(ctx_examples):
                    trigger(_keeping_args(_ui_contextual), [ctx_word, ctx_sent, ctx_model, lang], ctx_out + [ctx_last],
                            concurrency_id="models", api_visibility="private")

            with L(gr.Tab, "tab.positional"):
                L(gr.Markdown, "pos.intro")
                with gr.Row():
                    pos_len = L(Slider, "pos.max_len", 1, lab.MAX_POSITIONS, value=64, step=1)
                    pos_d = L(Slider, "pos.d_model", 2, 512, value=128, step=2)
                with gr.Row():
                    pos_text = L(gr.Textbox, "pos.text", EXAMPLE_EN[0], max_lines=2, scale=3)
                    pos_model = L(gr.Dropdown, "pos.model", trans_names, value=trans_names[0] if trans_names else None,
                                  scale=1, min_width=DROPDOWN_MIN_PX)
                pos_btn = L(gr.Button, "pos.run", variant="primary")
                pos_md = gr.Markdown()
                pos_table = L(gr.Plot, "pos.table")
                pos_sent = L(gr.Plot, "pos.sentence")
                pos_files = _downloads(L, "common.download_record")  # no table to give as CSV
                pos_last, pos_run = gr.State(None), _keeping_args(_ui_positional)
                pos_out = [pos_table, pos_sent, pos_md, pos_files]
                gr.on([pos_btn.click, pos_text.submit], pos_run, [pos_len, pos_d, pos_text, pos_model, lang],
                      pos_out + [pos_last], concurrency_id="models", api_visibility="private")
                for slider in (pos_len, pos_d):  # redraw at once, whether dragged, keyed (Home, arrows) or typed
                    slider.change(pos_run, [pos_len, pos_d, pos_text, pos_model, lang], pos_out + [pos_last],
                                  trigger_mode="always_last", concurrency_id="models", api_visibility="private")

        # --- training: snapshots, live training, BLEU by length ---------------------------
        with L(gr.Tab, "tab.training") as tab_training:
            with L(gr.Tab, "tab.snapshots") as tab_snapshots:
                L(gr.Markdown, "snap.intro")
                sn_names = vw.snapshot_models()
                meta = _safe_initial(vw.snapshot_meta, sn_names[0]) if sn_names else None
                sn_first = _safe_initial(vw.snapshot_view, sn_names[0]) if meta else None
                with gr.Row():
                    sn_model = L(gr.Dropdown, "snap.model", sn_names, value=sn_names[0] if sn_names else None,
                                 min_width=DROPDOWN_MIN_PX)
                    sn_probe = L(gr.Dropdown, "snap.probe", choices=meta.probes if meta else [], value=0,
                                 min_width=DROPDOWN_MIN_PX)
                with gr.Row():
                    sn_k = L(Slider, "snap.slider", 1, max(meta.n_snapshots if meta else 2, 2), step=1,
                             value=meta.n_snapshots if meta else 1, scale=3)
                    sn_layer = L(Slider, "common.layer", 1, max(meta.n_layers if meta else 2, 2), step=1,
                                 value=meta.n_layers if meta else 1, interactive=bool(meta and meta.n_layers > 1),
                                 visible=bool(meta and meta.n_layers > 1))
                sn_text = gr.Markdown(sn_first.text if sn_first else "")
                with gr.Row():
                    sn_heat = L(gr.Plot, "snap.heatmap", value=sn_first.heatmap if sn_first else None)
                    sn_ent = L(gr.Plot, "snap.entropy", value=sn_first.entropy if sn_first else None)
                sn_files = _downloads(L, "common.download_record")
                sn_views = [sn_heat, sn_ent, sn_text, sn_files]
                sn_model.input(_ui_snapshot_model, [sn_model, lang], [sn_probe, sn_k, sn_layer] + sn_views,
                               api_visibility="private")
                for c in (sn_probe, sn_k, sn_layer):
                    c.input(_ui_snapshots, [sn_model, sn_probe, sn_k, sn_layer, lang], sn_views,
                            trigger_mode="always_last", show_progress="hidden", api_visibility="private")

            with L(gr.Tab, "tab.live"):
                L(gr.Markdown, "live.intro")
                with gr.Row():
                    # 10 s: on 2 CPU cores the probe is translated right after ~3 s and the loss is under 0.01 by ~6 s
                    # (python -m explorer.live --seconds 30); the 30 s it was showed 25 s of nothing changing
                    lv_seconds = L(Slider, "live.seconds", 5, live.MAX_SECONDS, value=10, step=5)
                    lv_score = L(gr.Radio, "live.score", [(SCORE_FUNCTIONS[k], k) for k in live.SCORE_FUNCTIONS],
                                 value="general")
                lv_probe = L(gr.Textbox, "live.probe", live.DEFAULT_PROBE, max_lines=1)
                with gr.Row():
                    lv_start = L(gr.Button, "live.start", variant="primary")
                    lv_stop = L(gr.Button, "live.stop", variant="stop")
                lv_status = gr.Markdown()
                lv_out = L(gr.Textbox, "live.translation", interactive=False)
                with gr.Row():
                    lv_loss = L(gr.Plot, "live.loss")
                    lv_align = L(gr.Plot, "live.align")
                lv_files = _downloads(L, "live.files")
                # One training at a time, in its own queue: other views keep their own slots
                # (default_concurrency_limit below). Stop cancels the event; Gradio also closes
                # the generator when the page goes away, and live.MAX_SECONDS caps it.
                lv_last, lv_stopped = gr.State(None), gr.State(False)  # what the language switch redraws
                lv_run = gr.on([lv_start.click, lv_probe.submit], _ui_live, [lv_seconds, lv_score, lv_probe, lang],
                               [lv_loss, lv_align, lv_out, lv_status, lv_files, lv_last, lv_stopped],
                               concurrency_limit=1, concurrency_id="live-training", api_visibility="private")
                lv_stop.click(_ui_live_stop, [lv_last, lang], [lv_status, lv_stopped, lv_files], cancels=[lv_run],
                              queue=False, concurrency_id="models", api_visibility="private")

            with L(gr.Tab, "tab.length") as tab_length:
                L(gr.Markdown, "len.intro")
                len_first = _safe_initial(vw.length_view)
                len_btn = L(gr.Button, "len.refresh", size="sm")
                len_msg = gr.Markdown(len_first.message if len_first else "")
                # one above the other: beside the figure, the table hid its buckets' columns
                len_fig = L(gr.Plot, "len.figure", value=len_first.figure if len_first else None)
                len_table = L(Table, "len.table", value=len_first.table if len_first else None,
                              interactive=False)
                len_files = _downloads(L)
                len_btn.click(_ui_length, [lang], [len_fig, len_table, len_msg, len_files], concurrency_id="models",
                              api_visibility="private")
                for tab in (tab_training, tab_length):  # their downloads, once the tab is opened
                    tab.select(_ui_length_files, [len_files, lang], [len_fig, len_table, len_msg, len_files],
                               show_progress="hidden", api_visibility="private")
                if sn_names:
                    for tab in (tab_training, tab_snapshots):
                        tab.select(_ui_snapshot_files, [sn_files, sn_model, sn_probe, sn_k, sn_layer, lang], sn_views,
                                   show_progress="hidden", api_visibility="private")

        # --- Models --------------------------------------------------------------------
        with L(gr.Tab, "tab.models"):
            L(gr.Markdown, "models.intro")
            models_table = Table(_models_table(reg), interactive=False, wrap=True,  # headers whole words
                                 column_widths=MODELS_WIDTHS)

        if hub:
            bert_dropdowns = [b_model, ro_model, qk_model, ctx_model]

            @friendly
            def _after_hub_load(repo_id, choice):
                text, name = hub_bert_load(repo_id, i18n.lang_code(choice))
                names = inf.registry().names("bert")
                return [text, gr.Dropdown(choices=names, value=name), gr.Dropdown(choices=names + trans_names),
                        gr.Dropdown(choices=names), gr.Dropdown(choices=["auto"] + names + trans_names)]

            b_load.click(_after_hub_load, [b_repo, lang], [b_loaded] + bert_dropdowns, concurrency_limit=1,
                         concurrency_id="hub-load", api_visibility="private")

        lang.change(friendly(functools.partial(language_updates, L)), lang, L.outputs, show_progress="hidden",
                    api_visibility="private")
        lang.change(None, lang, None, js=PAGE_LANG_JS, show_progress="hidden", api_visibility="private")
        demo.load(language_from_url, None, lang, show_progress="hidden", api_visibility="private", queue=False)
        lang.change(friendly(lambda choice: _models_table(inf.registry(), i18n.lang_code(choice))), lang, models_table,
                    show_progress="hidden", api_visibility="private")  # its headers (and Hub-loaded rows)
        # what is drawn before anyone presses a button follows the switch too (it was drawn in English)
        lang.change(friendly(lambda choice: gr.Radio(choices=_seq2seq_choices(reg, i18n.lang_code(choice)))),
                    lang, s_model,
                    show_progress="hidden", api_visibility="private")
        if sn_names:
            lang.change(_ui_snapshots, [sn_model, sn_probe, sn_k, sn_layer, lang], sn_views, show_progress="hidden",
                        api_visibility="private")
        lang.change(_ui_length, [lang], [len_fig, len_table, len_msg, len_files], show_progress="hidden",
                    api_visibility="private")
        # results already on screen: redrawn in the new language from their records
        lang.change(_relabel_seq2seq, [s_state, s_step, lang], [s_notice, s_align, s_bars, s_step_text],
                    show_progress="hidden", api_visibility="private")
        lang.change(_relabel_transformer, [t_state, t_layer, t_head, lang], [t_notice, t_hyps] + t_heads,
                    show_progress="hidden", api_visibility="private")
        lang.change(_relabel_bert, [b_state, b_layer, b_head, lang], b_drawn, show_progress="hidden",
                    api_visibility="private")
        lang.change(_relabel_rollout, [ro_state, ro_layer, lang],
                    [ro_grid, ro_entropy, ro_rollout, ro_rowent, ro_files, ro_notice],
                    show_progress="hidden", api_visibility="private")
        lang.change(_relabel_beam, [bm_state, bm_choice, lang], [bm_table, bm_fig, bm_choice] + bm_chosen + [bm_state],
                    concurrency_id="models", show_progress="hidden", api_visibility="private")
        for relabel, last, out in ((_relabel_scores, sf_last, sf_out), (_relabel_query_key, qk_last, qk_out),
                                   (_relabel_contextual, ctx_last, ctx_out), (_relabel_positional, pos_last, pos_out)):
            lang.change(relabel, [last, lang], out, concurrency_id="models", show_progress="hidden",
                        api_visibility="private")  # views without a record: run again from their arguments
        lang.change(_relabel_live, [lv_last, lv_stopped, lang], [lv_loss, lv_align, lv_status], show_progress="hidden",
                    api_visibility="private")  # and a live run in progress follows it from its next record
        tables = [t for t, _ in L.tables]  # the results tables: headers of the empty ones follow the switch
        lang.change(_empty_table_headers([cols for _, cols in L.tables]), [lang] + tables, tables,
                    show_progress="hidden", api_visibility="private")
        demo.localized = L  # the tests check every registered component against explorer/i18n.py
        # A plot updated while its tab is hidden (the language switch, a slider of another sub-tab) is laid
        # out at plotly's fallback width of 700 px, squeezed and overlapping, and stays so until the window
        # resizes: showing a tab sends the window a resize, which lays every visible plot out at its width.
        for block in list(demo.blocks.values()):
            if isinstance(block, gr.Tab):
                block.select(None, js=RELAYOUT_JS, queue=False, api_visibility="private")

        # --- API endpoints (gradio_client); the tabs above call the same building blocks ---
        with gr.Group(visible=False):
            a_text, a_model = gr.Textbox(label="text"), gr.Textbox(label="model")  # sentence A for /nsp
            # precision=None: a fractional or non-numeric beam/top-k reaches inference's check, whose message
            # names it ("must be between 1 and 8 (got 2.5)"), instead of being rounded or failing inside Gradio
            a_beam = gr.Number(1, precision=None, label="beam")
            a_k = gr.Number(5, precision=None, label="top_k")
            a_b = gr.Textbox(label="sentence_b")
            a_translation, a_cross = gr.Textbox(label="translation"), gr.Plot(label="cross_attention")
            a_topk, a_nsp = gr.Plot(label="top_k"), gr.Plot(label="next_sentence")
            a_grid, a_json = gr.Plot(label="self_attention"), gr.JSON(label="trace")
            gr.Button(visible=False).click(translate_api, [a_text, a_model, a_beam], [a_translation, a_cross, a_json],
                                           api_name="translate", concurrency_id="models")
            gr.Button(visible=False).click(fill_mask_api, [a_text, a_k], [a_topk, a_grid, a_json], api_name="fill_mask",
                                           concurrency_id="models")
            gr.Button(visible=False).click(nsp_api, [a_text, a_b], [a_nsp, a_grid, a_json], api_name="nsp",
                                           concurrency_id="models")
    # Every event that runs a model joins ONE queue ("models") of 2 workers: a free Space has 2 vCPUs
    # and each request runs torch on 1 thread (main guard), so 2 at a time fills the machine without
    # oversubscribing it. Live training has its own queue of 1 (above), so it takes at most one core.
    return demo.queue(default_concurrency_limit=2)


demo = build_demo()

if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    # One torch thread per request: measured on 2 cores, a 12-word Transformer forward took 122 ms
    # with 1 thread and 460-3,228 ms with 2 while another request ran (bench/latency.py).
    torch.set_num_threads(int(os.environ.get("ATTN_EXPLORER_TORCH_THREADS", "1")))
    demo.launch(server_port=int(os.environ.get("GRADIO_SERVER_PORT", 7860)), js=PAGE_JS, css=CSS, theme=THEME)
