"""Attention Explorer: look inside the attention models trained in this repo.

Tabs: an RNN encoder-decoder with each of Luong/Bahdanau's score functions (or none), the
Transformer (encoder self-, masked decoder self- and cross-attention, Vaswani et al. 2017),
BERT (fill-mask, next-sentence prediction and per-head self-attention, Devlin et al. 2019),
and the list of shipped checkpoints.

This is the only file that imports gradio. Every number comes from `explorer.inference`;
every figure from `explorer.figures`. Handlers are plain module-level functions (testable
without a browser): `seq2seq_view`, `transformer_view`, `bert_*_view` and the three API
endpoints `translate_api` (/translate), `fill_mask_api` (/fill_mask), `nsp_api` (/nsp).

    python app.py      # serves on $GRADIO_SERVER_PORT or 7860
"""
from __future__ import annotations

import functools
import html
import json
import logging
import os
import re
import shutil
import tempfile
import time
from dataclasses import dataclass, fields
from pathlib import Path

import gradio as gr
import numpy as np
import pandas as pd
import plotly.graph_objects as go

from explorer import figures as fg
from explorer import inference as inf
from explorer.inference import BertResult, TranslationResult, UserError

log = logging.getLogger("attention_explorer")

GENERIC_ERROR = "Sorry, something went wrong on our side (the details are in the server log). Please try another input."
NO_ATTENTION = ("**No attention in this model.** The decoder never looks back at the source: the encoder's "
                "last hidden state is its only context, so the whole sentence must fit through one fixed-size "
                "vector (the bottleneck of Sutskever et al. 2014 that attention, Bahdanau et al. 2015, removes).")
SCORE_FUNCTIONS = {  # seq2seq-<key> -> label; score(s_t, h_i) as in Luong et al. (2015) and Bahdanau et al. (2015)
    "dot": "dot  sᵀh",
    "scaled_dot": "scaled dot  sᵀh/√d",
    "general": "general  sᵀWh",
    "additive": "additive  vᵀtanh(W₁s + W₂h)",
    "none": "none (no attention)",
}
PNG_CAPTION = "PNG: use the camera icon in each plot's toolbar (plotly's modebar, shown on hover)."
EXAMPLE_EN = ["I am a student.", "The animal didn't cross the street because it was too tired.",
              "Let's stick to the plan."]
EXAMPLE_KO = "나는 학생 입니다"
EXAMPLE_MASK, EXAMPLE_NEXT = "the man went to the [MASK] .", "he bought a gallon of milk ."
EXAMPLE_EMBED = "Here is the sentence I want embeddings for."
DOWNLOADS = Path(tempfile.gettempdir()) / "attention-explorer-downloads"
KEEP_DOWNLOADS_S = 3600


# ----------------------------------------------------------------------------- errors and text


def friendly(fn):
    """UserError -> its message on screen; anything else -> a generic message, traceback in the log."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except gr.Error:
            raise
        except UserError as e:
            raise gr.Error(html.escape(str(e), quote=False), print_exception=False) from None
        except Exception:
            log.exception("unexpected error in %s", fn.__name__)
            raise gr.Error(GENERIC_ERROR, print_exception=False) from None
    return wrapper


_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|~])")


def md(text) -> str:
    """User text (tokens, notices) made inert for gr.Markdown: HTML escaped, markdown escaped."""
    return _MD_SPECIAL.sub(r"\\\1", html.escape(str(text), quote=False))


def notices_md(notices, lead: list[str] = ()) -> str:
    return "\n\n".join(list(lead) + [f"⚠️ {md(n)}" for n in notices])


def load_errors_md(prefix: str = "") -> str:
    """Which checkpoints failed to load (and which file is wrong), for the tab they belong to."""
    errs = {n: e for n, e in inf.registry().errors.items() if n.startswith(prefix)}
    return "\n\n".join(f"❌ Model **{md(n)}** could not be loaded: {md(e)}" for n, e in sorted(errs.items()))


# ----------------------------------------------------------------------------- downloads


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", name).strip("_") or "view"


def matrix_table(matrix, rows, cols) -> pd.DataFrame:
    """A matrix with its tokens as row and column labels (repeated tokens are fine in a CSV)."""
    return pd.DataFrame(np.asarray(matrix), index=pd.Index(list(rows), name="query \\ key"), columns=list(cols))


def figures_html(title: str, figs: dict[str, go.Figure]) -> str:
    """Every figure of a tab in one page that works offline (plotly.js inlined once)."""
    parts = [f"<h2>{html.escape(name)}</h2>" + fig.to_html(full_html=False, include_plotlyjs=(i == 0))
             for i, (name, fig) in enumerate(figs.items())]
    return (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title></head>"
            f"<body>{''.join(parts)}</body></html>")


def write_downloads(stem: str, record, tables: dict[str, pd.DataFrame], figs: dict[str, go.Figure]) -> list[str]:
    """record.json + one CSV per shown matrix/table + one HTML with the figures; returns the paths."""
    DOWNLOADS.mkdir(exist_ok=True)
    now = time.time()
    for old in DOWNLOADS.iterdir():  # downloads are per request; keep an hour of them
        if old.is_dir() and now - old.stat().st_mtime > KEEP_DOWNLOADS_S:
            shutil.rmtree(old, ignore_errors=True)
    folder = Path(tempfile.mkdtemp(dir=DOWNLOADS))
    stem = _safe(stem)
    paths = [folder / f"{stem}.json"]
    paths[0].write_text(json.dumps(record.to_json(), ensure_ascii=False), encoding="utf-8")
    for name, table in tables.items():
        paths.append(folder / f"{stem}-{_safe(name)}.csv")
        table.to_csv(paths[-1], encoding="utf-8")
    paths.append(folder / f"{stem}-figures.html")
    paths[-1].write_text(figures_html(stem, figs), encoding="utf-8")
    return [str(p) for p in paths]


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


def _alignment(r: TranslationResult, step: int | None = None) -> go.Figure:
    if r.trace.cross is None:
        return fg.placeholder("No attention: the last encoder state is the only context.", f"{r.model}: alignment")
    return fg.heatmap(r.trace.cross[0, 0], r.source_tokens, r.target_tokens, f"{r.model}: target × source alignment",
                      x_title="source", y_title="target (produced)",
                      highlight_row=None if step is None else step - 1)


@friendly
def seq2seq_step(r: TranslationResult | None, step) -> tuple[go.Figure, go.Figure, str]:
    """(alignment with step `step` outlined, bars of that step's attention, text); step is 1-based."""
    if r is None:
        msg = "Translate a sentence first."
        return fg.placeholder(msg), fg.placeholder(msg), msg
    T = len(r.target_tokens)
    t = int(np.clip(int(step or 1), 1, T))
    produced, fed = r.target_tokens[t - 1], r.decoder_input_tokens[t - 1]
    head = f"**Step {t}/{T}**: the decoder read *{md(fed)}* and produced **{md(produced)}**."
    if r.trace.cross is None:
        return (_alignment(r), fg.placeholder("No attention weights: every step gets the same fixed vector."),
                f"{head} There is no attention: the context is the last encoder state, the same at every step.")
    w = r.trace.cross[0, 0, t - 1]  # (S,)
    top, total = [], 0.0
    for i in np.argsort(-w, kind="stable")[:3]:
        top.append(f"**{md(r.source_tokens[i])}** ({w[i]:.3f})")
        total += float(w[i])
        if total >= 0.9:
            break
    text = (f"{head} Its context vector c{t} = Σᵢ αᵢ hᵢ came mostly from {', '.join(top)} "
            f"({total:.0%} of the weight).")
    bars = fg.attention_bars(w, r.source_tokens, f"Step {t}: attention while producing '{produced}'")
    return _alignment(r, t), bars, text


@friendly
def seq2seq_view(text: str, model: str, step: int = 1) -> Seq2SeqView:
    """Translate with one of the RNN encoder-decoders (greedy) and show its alignment."""
    r = inf.translate(model, text, 1)
    alignment, bars, step_text = seq2seq_step(r, step)
    lead = [NO_ATTENTION] if r.trace.cross is None else []
    tables = {} if r.trace.cross is None else {
        "alignment": matrix_table(r.trace.cross[0, 0], r.target_tokens, r.source_tokens)}
    files = write_downloads(r.model, r, tables, {"alignment": alignment, "step": bars})
    return Seq2SeqView(r.translation, notices_md(r.notices, lead), alignment, bars, step_text, files, r,
                       len(r.target_tokens))


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


_TRANSFORMER_VIEWS = {  # trace field -> (title, rows, cols) of the record's tokens
    "enc_self": ("Encoder self-attention", "source_tokens", "source_tokens"),
    "dec_self": ("Decoder masked self-attention", "decoder_input_tokens", "decoder_input_tokens"),
    "cross": ("Cross attention (decoder → encoder)", "target_tokens", "source_tokens"),
}


@friendly
def transformer_heads(r: TranslationResult | None, layer=1, head=1) -> TransformerHeads:
    """Grids + the selected head's views from a translation record (no model call)."""
    if r is None:
        p = fg.placeholder("Translate a sentence first.")
        return TransformerHeads(p, p, p, p, p, p, p, [])
    figs, tables = {}, {}
    for name, (title, rows_attr, cols_attr) in _TRANSFORMER_VIEWS.items():
        a, rows, cols = getattr(r.trace, name), getattr(r, rows_attr), getattr(r, cols_attr)
        if a is None:
            figs[f"{name}_grid"] = figs[f"{name}_head"] = fg.placeholder(f"This model has no {title.lower()}.")
            continue
        l, h = _pick(a, layer, head)
        figs[f"{name}_grid"] = fg.head_grid(a, cols, rows, f"{title}: all layers × heads", selected=(l, h))
        figs[f"{name}_head"] = fg.heatmap(a[l, h], cols, rows, f"{title}: layer {l + 1}, head {h + 1}")
        tables[f"{name}-L{l + 1}H{h + 1}"] = matrix_table(a[l, h], rows, cols)
    s, p = r.trace.dec_self_scores, r.trace.dec_self
    if s is None or p is None:
        figs["dec_scores"] = fg.placeholder("This model has no masked decoder self-attention.")
    else:
        l, h = _pick(s, layer, head)
        toks = r.decoder_input_tokens
        figs["dec_scores"] = fg.masked_scores(s[l, h], p[l, h], toks, toks,
                                              f"Decoder masked scores, layer {l + 1}, head {h + 1}")
        tables[f"dec_self_scores-L{l + 1}H{h + 1}"] = matrix_table(s[l, h], toks, toks)
    files = write_downloads(r.model, r, tables, figs)
    return TransformerHeads(figs["enc_self_grid"], figs["enc_self_head"], figs["dec_self_grid"],
                            figs["dec_self_head"], figs["dec_scores"], figs["cross_grid"], figs["cross_head"], files)


@friendly
def transformer_view(text: str, model: str, beam: int = 1, layer: int = 1, head: int = 1) -> TransformerView:
    """Translate with a Transformer (beam=1: greedy) and show every attention it used."""
    r = inf.translate(model, text, beam)
    hyps = pd.DataFrame([{"#": i + 1, "translation": h.text, "log-prob": h.logprob, "score": h.score,
                          "attention shown": "✓" if i == r.chosen else ""} for i, h in enumerate(r.hypotheses)])
    n_layers, n_heads = _size(r.trace.enc_self, r.trace.dec_self, r.trace.cross)
    return TransformerView(r.translation, notices_md(r.notices), hyps, transformer_heads(r, layer, head), r,
                           n_layers, n_heads)


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


def _seg(s: int) -> str:
    return fg.SEGMENT_NAMES[s] if 0 <= s < len(fg.SEGMENT_NAMES) else str(s)


def _topk_figure(r: BertResult) -> go.Figure:
    return fg.topk_bars([(f"[MASK] #{i + 1} (position {m.index})", [p.token for p in m.predictions],
                          [p.probability for p in m.predictions]) for i, m in enumerate(r.masks)])


def _nsp_figure(r: BertResult) -> go.Figure:
    if r.is_next is None:
        return fg.placeholder("Give a sentence B to see P(IsNext).", "Next-sentence prediction")
    return fg.nsp_bars(r.is_next, r.not_next)


def _bert_grid(r: BertResult, l: int, h: int) -> go.Figure:
    return fg.head_grid(r.trace.enc_self, r.tokens, r.tokens, "BERT self-attention: all layers × heads",
                        selected=(l, h), segments=r.segments)


@friendly
def bert_render(r: BertResult | None, layer=1, head=1) -> BertView:
    """All BERT views of one record (no model call)."""
    if r is None:
        p = fg.placeholder("Run BERT on a sentence first.")
        return BertView(pd.DataFrame(), "", pd.DataFrame(), p, p, "", p, p, [], None, 1, 1)
    a = r.trace.enc_self
    l, h = _pick(a, layer, head)
    tokens = pd.DataFrame({"position": range(len(r.tokens)), "token": r.tokens,
                           "segment": [_seg(s) for s in r.segments]})
    masks = pd.DataFrame([{"mask": f"#{i + 1}", "position": m.index, "rank": k + 1, "token": p.token,
                           "probability": p.probability}
                          for i, m in enumerate(r.masks) for k, p in enumerate(m.predictions)],
                         columns=["mask", "position", "rank", "token", "probability"])
    nsp_text = "" if r.is_next is None else (
        f"P(IsNext) = **{r.is_next:.4f}**, P(NotNext) = **{r.not_next:.4f}**: BERT thinks sentence B "
        f"{'follows' if r.is_next >= r.not_next else 'does not follow'} sentence A.")
    figs = {"topk": _topk_figure(r), "nsp": _nsp_figure(r), "grid": _bert_grid(r, l, h),
            "head": fg.heatmap(a[l, h], r.tokens, r.tokens, f"BERT self-attention: layer {l + 1}, head {h + 1}",
                               segments=r.segments)}
    tables = {"tokens": tokens, f"enc_self-L{l + 1}H{h + 1}": matrix_table(a[l, h], r.tokens, r.tokens)}
    if len(masks):
        tables["fill_mask"] = masks
    files = write_downloads("bert", r, tables, figs)
    return BertView(tokens, notices_md(r.notices), masks, figs["topk"], figs["nsp"], nsp_text, figs["grid"],
                    figs["head"], files, r, *a.shape[:2])


@friendly
def bert_fill_view(text_a: str, text_b: str = "", top_k: int = 5, layer: int = 1, head: int = 1) -> BertView:
    return bert_render(inf.fill_mask(text_a, top_k, text_b), layer, head)


@friendly
def bert_nsp_view(text_a: str, text_b: str, layer: int = 1, head: int = 1) -> BertView:
    return bert_render(inf.nsp(text_a, text_b), layer, head)


@friendly
def bert_encode_view(text_a: str, text_b: str = "", layer: int = 1, head: int = 1) -> BertView:
    return bert_render(inf.encode_bert(text_a, text_b), layer, head)


# ----------------------------------------------------------------------------- API endpoints


def cross_overview(r: TranslationResult) -> go.Figure:
    """The alignment view of any translation record: one map for a single-head model,
    the layer x head grid otherwise, a notice when there is no attention."""
    a = r.trace.cross
    if a is None or a.shape[:2] == (1, 1):
        return _alignment(r)
    return fg.head_grid(a, r.source_tokens, r.target_tokens, f"{r.model}: cross attention, all layers × heads",
                        selected=None)


@friendly
def translate_api(text: str, model: str, beam: int = 1) -> tuple[str, go.Figure, dict]:
    """/translate: (translation, cross-attention figure, record JSON)."""
    r = inf.translate(model, text, beam)
    return r.translation, cross_overview(r), r.to_json()


@friendly
def fill_mask_api(text: str, top_k: int = 5) -> tuple[go.Figure, go.Figure, dict]:
    """/fill_mask: (top-k bars per [MASK], self-attention grid, record JSON)."""
    r = inf.fill_mask(text, top_k)
    return _topk_figure(r), _bert_grid(r, 0, 0), r.to_json()


@friendly
def nsp_api(sentence_a: str, sentence_b: str) -> tuple[go.Figure, go.Figure, dict]:
    """/nsp: (P(IsNext)/P(NotNext) bars, self-attention grid, record JSON)."""
    r = inf.nsp(sentence_a, sentence_b)
    return _nsp_figure(r), _bert_grid(r, 0, 0), r.to_json()


# ----------------------------------------------------------------------------- UI glue


def _values(view) -> list:
    return [getattr(view, f.name) for f in fields(view)]


def _sliders(n_layers: int, n_heads: int, layer, head) -> list:
    return [gr.Slider(minimum=1, maximum=n_layers, step=1, value=min(int(layer or 1), n_layers)),
            gr.Slider(minimum=1, maximum=n_heads, step=1, value=min(int(head or 1), n_heads))]


@friendly
def _ui_seq2seq(text, model):
    v = seq2seq_view(text, model, 1)
    return [v.translation, v.notice, v.alignment, v.step_bars, v.step_text, v.files, v.record,
            gr.Slider(minimum=1, maximum=max(v.steps, 2), step=1, value=1, interactive=v.steps > 1)]


@friendly
def _ui_transformer(text, model, beam, layer, head):
    v = transformer_view(text, model, beam, layer, head)
    return ([v.translation, v.notice, v.hypotheses] + _values(v.heads) + [v.record]
            + _sliders(v.n_layers, v.n_heads, layer, head))


def _ui_bert(view: BertView, layer, head) -> list:
    return _values(view)[:-2] + _sliders(view.n_layers, view.n_heads, layer, head)


def _seq2seq_choices(reg) -> list[tuple[str, str]]:
    names = set(reg.names("seq2seq")) | {n for n in reg.errors if n.startswith("seq2seq-")}
    order = [f"seq2seq-{k}" for k in SCORE_FUNCTIONS] + sorted(names)
    return [(SCORE_FUNCTIONS.get(n.removeprefix("seq2seq-"), n), n) for n in dict.fromkeys(order) if n in names]


_NOT_METRICS = {"score", "step", "n", "averaged", "seconds_cpu", "beam", "split"}


def _metrics_summary(d: dict) -> str:
    """'valid: chrf 65.3 · test: bleu 47.7, ...': the scalar held-out metrics of a describe() row."""
    parts = []
    for split in ("valid", "test"):
        m = d.get(split) or {}
        kv = [f"{k} {v}" for k, v in m.items() if k not in _NOT_METRICS and isinstance(v, (int, float))]
        if kv:
            parts.append(f"{split}: " + ", ".join(kv))
    return " · ".join(parts)


def _models_table(reg) -> pd.DataFrame:
    rows = []
    for d in reg.describe():
        rows.append({"model": d["name"], "status": d["status"], "architecture": d.get("arch", ""),
                     "parameters": d.get("parameters"), "trained on": d.get("device") or "",
                     "train seconds": d.get("wall_seconds"),
                     "metrics / error": d.get("error") or _metrics_summary(d)})
    return pd.DataFrame(rows)


def _layer_head_sliders():
    with gr.Row():
        layer = gr.Slider(1, 8, value=1, step=1, label="Layer")
        head = gr.Slider(1, 8, value=1, step=1, label="Head")
    return layer, head


def build_demo() -> gr.Blocks:
    """The whole app; reads the registry once (checkpoints that failed to load are listed, not fatal)."""
    reg = inf.registry()
    with gr.Blocks(title="Attention Explorer", delete_cache=(3600, 3600)) as demo:
        gr.Markdown("# Attention Explorer\nSee what the attention models trained in this repo look at. "
                    "Hover any cell for its exact value; " + PNG_CAPTION)
        if reg.errors:
            gr.Markdown(load_errors_md())

        # --- seq2seq + attention -------------------------------------------------------
        with gr.Tab("seq2seq + attention"):
            gr.Markdown("An RNN encoder-decoder (English → French). Pick how the decoder scores each source "
                        "state; the alignment shows, for every produced token (row), the attention over the "
                        "source (columns). 'I am a student.' should come out as 'je suis étudiant'.")
            if load_errors_md("seq2seq-"):
                gr.Markdown(load_errors_md("seq2seq-"))
            choices = _seq2seq_choices(reg)
            with gr.Row():
                s_model = gr.Radio(choices, value=choices[0][1] if choices else None, label="Score function")
            s_text = gr.Textbox(EXAMPLE_EN[0], label="English sentence", max_lines=3)
            s_btn = gr.Button("Translate", variant="primary")
            gr.Examples([[t] for t in EXAMPLE_EN], [s_text])
            s_out = gr.Textbox(label="Translation", interactive=False)
            s_notice = gr.Markdown()
            s_align = gr.Plot(label="Alignment (target × source)")
            s_step = gr.Slider(1, 2, value=1, step=1, label="Decoding step")
            s_step_text = gr.Markdown()
            s_bars = gr.Plot(label="Attention at this step")
            s_files = gr.File(label="Downloads: record JSON, alignment CSV, figures HTML", file_count="multiple")
            s_state = gr.State(None)
            s_btn.click(_ui_seq2seq, [s_text, s_model],
                        [s_out, s_notice, s_align, s_bars, s_step_text, s_files, s_state, s_step],
                        api_visibility="private")
            s_step.input(seq2seq_step, [s_state, s_step], [s_align, s_bars, s_step_text],
                         trigger_mode="always_last", show_progress="hidden", api_visibility="private")

        # --- Transformer ---------------------------------------------------------------
        with gr.Tab("Transformer"):
            gr.Markdown("Encoder self-attention, the decoder's masked self-attention and cross attention, "
                        "every layer and head at a glance; pick one to see it large. Greedy search is beam size 1.")
            if load_errors_md("transformer-"):
                gr.Markdown(load_errors_md("transformer-"))
            t_names = reg.names("transformer") + sorted(n for n in reg.errors if n.startswith("transformer-"))
            with gr.Row():
                t_model = gr.Dropdown(t_names, value=t_names[0] if t_names else None, label="Model")
                t_beam = gr.Slider(1, inf.MAX_BEAM, value=1, step=1, label="Beam size (1 = greedy)")
            t_text = gr.Textbox(EXAMPLE_EN[0], label="Sentence", max_lines=3)
            t_btn = gr.Button("Translate", variant="primary")
            examples = [[t, "transformer-en-fr"] for t in EXAMPLE_EN] + [[EXAMPLE_KO, "transformer-ko-en"]]
            gr.Examples([e for e in examples if e[1] in t_names], [t_text, t_model])
            t_out = gr.Textbox(label="Translation", interactive=False)
            t_notice = gr.Markdown()
            t_hyps = gr.Dataframe(label="Hypotheses (best first)", interactive=False)
            t_layer, t_head = _layer_head_sliders()
            with gr.Tab("Encoder self-attention"):
                t_enc_grid, t_enc_head = gr.Plot(label="All heads"), gr.Plot(label="Selected head")
            with gr.Tab("Decoder masked self-attention"):
                t_dec_grid, t_dec_head = gr.Plot(label="All heads"), gr.Plot(label="Selected head")
                t_scores = gr.Plot(label="Selected head: scores before and after softmax")
            with gr.Tab("Cross attention"):
                t_cross_grid, t_cross_head = gr.Plot(label="All heads"), gr.Plot(label="Selected head")
            t_files = gr.File(label="Downloads: record JSON, selected matrices CSV, figures HTML", file_count="multiple")
            t_state = gr.State(None)
            t_heads = [t_enc_grid, t_enc_head, t_dec_grid, t_dec_head, t_scores, t_cross_grid, t_cross_head, t_files]
            t_btn.click(_ui_transformer, [t_text, t_model, t_beam, t_layer, t_head],
                        [t_out, t_notice, t_hyps] + t_heads + [t_state, t_layer, t_head], api_visibility="private")
            for s in (t_layer, t_head):
                s.input(lambda r, l, h: _values(transformer_heads(r, l, h)), [t_state, t_layer, t_head], t_heads,
                        trigger_mode="always_last", show_progress="hidden", api_visibility="private")

        # --- BERT ----------------------------------------------------------------------
        with gr.Tab("BERT"):
            gr.Markdown("WordPiece tokens with their segment (A/B), fill-mask for any number of [MASK]s, "
                        "next-sentence prediction, and every head's self-attention (A/B marked on the axes).")
            if load_errors_md("bert"):
                gr.Markdown(load_errors_md("bert"))
            b_a = gr.Textbox(EXAMPLE_MASK, label="Sentence A", max_lines=3)
            b_b = gr.Textbox(EXAMPLE_NEXT, label="Sentence B (optional for fill-mask)", max_lines=3)
            b_k = gr.Slider(1, 20, value=5, step=1, label="top-k")
            with gr.Row():
                b_fill = gr.Button("Fill [MASK]", variant="primary")
                b_nsp = gr.Button("Is B the next sentence?")
                b_enc = gr.Button("Tokens and attention only")
            gr.Examples([[EXAMPLE_MASK, EXAMPLE_NEXT], [EXAMPLE_MASK, ""], [EXAMPLE_EMBED, ""],
                         [EXAMPLE_EN[1], ""], ["the man went to the store .", EXAMPLE_NEXT]], [b_a, b_b])
            b_notice = gr.Markdown()
            with gr.Row():
                b_tokens = gr.Dataframe(label="WordPiece tokens", interactive=False, max_height=300)
                b_masks = gr.Dataframe(label="Fill-mask predictions", interactive=False, max_height=300)
            with gr.Row():
                b_topk = gr.Plot(label="Top-k per [MASK]")
                with gr.Column():
                    b_nspfig = gr.Plot(label="Next-sentence prediction")
                    b_nsptext = gr.Markdown()
            b_layer, b_head = _layer_head_sliders()
            b_grid, b_headfig = gr.Plot(label="All heads"), gr.Plot(label="Selected head")
            b_files = gr.File(label="Downloads: record JSON, tables and selected matrix CSV, figures HTML",
                              file_count="multiple")
            b_state = gr.State(None)
            b_outs = [b_tokens, b_notice, b_masks, b_topk, b_nspfig, b_nsptext, b_grid, b_headfig, b_files, b_state,
                      b_layer, b_head]
            b_fill.click(lambda a, b, k, l, h: _ui_bert(bert_fill_view(a, b, k, l, h), l, h),
                         [b_a, b_b, b_k, b_layer, b_head], b_outs, api_visibility="private")
            b_nsp.click(lambda a, b, l, h: _ui_bert(bert_nsp_view(a, b, l, h), l, h),
                        [b_a, b_b, b_layer, b_head], b_outs, api_visibility="private")
            b_enc.click(lambda a, b, l, h: _ui_bert(bert_encode_view(a, b, l, h), l, h),
                        [b_a, b_b, b_layer, b_head], b_outs, api_visibility="private")
            for s in (b_layer, b_head):
                s.input(lambda r, l, h: _values(bert_render(r, l, h))[:-3], [b_state, b_layer, b_head], b_outs[:-3],
                        trigger_mode="always_last", show_progress="hidden", api_visibility="private")

        # --- Models --------------------------------------------------------------------
        with gr.Tab("Models"):
            gr.Markdown("Every checkpoint under assets/ (parameters, where it was trained, held-out metrics). "
                        "A model that failed to load shows which file is wrong.")
            gr.Dataframe(_models_table(reg), interactive=False, wrap=True)

        # --- API endpoints (gradio_client); the tabs above call the same building blocks ---
        with gr.Group(visible=False):
            a_text, a_model = gr.Textbox(label="text"), gr.Textbox(label="model")  # sentence A for /nsp
            a_beam = gr.Number(1, precision=0, label="beam")
            a_k = gr.Number(5, precision=0, label="top_k")
            a_b = gr.Textbox(label="sentence_b")
            a_translation, a_cross = gr.Textbox(label="translation"), gr.Plot(label="cross_attention")
            a_topk, a_nsp = gr.Plot(label="top_k"), gr.Plot(label="next_sentence")
            a_grid, a_json = gr.Plot(label="self_attention"), gr.JSON(label="trace")
            gr.Button(visible=False).click(translate_api, [a_text, a_model, a_beam], [a_translation, a_cross, a_json],
                                           api_name="translate")
            gr.Button(visible=False).click(fill_mask_api, [a_text, a_k], [a_topk, a_grid, a_json], api_name="fill_mask")
            gr.Button(visible=False).click(nsp_api, [a_text, a_b], [a_nsp, a_grid, a_json], api_name="nsp")
    return demo.queue(default_concurrency_limit=2)


demo = build_demo()

if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    demo.launch(server_port=int(os.environ.get("GRADIO_SERVER_PORT", 7860)))
