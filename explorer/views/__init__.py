"""The analysis views of the app as plain functions: inputs in, figures + tables + files out.

app.py builds the components and wires events; everything a view computes lives here, so
it can be tested without a browser and without gradio (this module never imports it).
Numbers come from explorer.inference / explorer.lab / explorer.snapshots / explorer.live,
figures from explorer.figures / lab_figures / live_figures. Errors a user can cause raise
`UserError`; app.py's `friendly` turns them into a message on screen.

Views, in the order of the app's tabs: `score_functions_view` (dot vs scaled dot vs general
vs additive vs none), `beam_view` / `beam_choice` (beam search's n-best and the cross
attention of the chosen hypothesis), `rollout_view` / `rollout_redraw` (attention rollout,
Abnar & Zuidema 2020, and per-row entropy), `query_key_view`, `contextual_view`,
`positional_view`, `snapshot_view` (attention over training), `live_view` (a generator: a
toy seq2seq trained live), `length_view` (BLEU by source length, Bahdanau et al. 2015 fig. 2).
The shared helpers (`md`, `write_downloads`, `matrix_table`, `notices_md`) are used by app.py's older tabs too.
"""
from __future__ import annotations

import dataclasses
import functools
import html
import math
import os
import re
import shutil
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import orjson
import pandas as pd
import plotly.graph_objects as go

from explorer import byo_bert
from explorer import figures as fg
from explorer import inference as inf
from explorer import lab
from explorer import lab_figures as lf
from explorer import live
from explorer import live_figures as lvf
from explorer import snapshots as snap
from explorer.i18n import figure_labels, lab_labels, lang_code, live_labels, localized, notice_text, t
from explorer.inference import TranslationResult, UserError

BEAM_COLUMNS = ["#", "translation", "log-prob", "score", "tokens"]  # the tables' headers, also shown before a run
SCORE_COLUMNS = ["model", "score function", "translation", "mean entropy (nats)", "uniform log S (nats)"]
QK_COLUMNS = ["position", "key token", "q·k/√d_k", "softmax", "model attention"]
CONTEXT_COLUMNS = ["#", "sentence", "tokens of the word", "cosine with static"]

DOWNLOADS = Path(tempfile.gettempdir()) / "attention-explorer-downloads"
KEEP_DOWNLOADS_S = 3600


# ----------------------------------------------------------------------------- text and downloads

_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|~])")


def md(text) -> str:
    """User text (tokens, notices) made inert for gr.Markdown: HTML escaped, markdown escaped."""
    return _MD_SPECIAL.sub(r"\\\1", html.escape(str(text), quote=False))


def notices_md(notices, lead: list[str] = (), lang: str = "en") -> str:
    """The lead lines, then each notice (in `lang` when it is a keyed Notice) with a warning sign."""
    return "\n\n".join(list(lead) + [f"⚠️ {md(notice_text(n, lang))}" for n in notices])


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", name).strip("_") or "view"


def matrix_table(matrix, rows, cols) -> pd.DataFrame:
    """A matrix with its tokens as row and column labels (repeated tokens are fine in a CSV)."""
    return pd.DataFrame(np.asarray(matrix), index=pd.Index(list(rows), name="query \\ key"), columns=list(cols))


@functools.lru_cache(maxsize=1)
def _plotly_js() -> str:
    """plotly.js as an inline <script>, read once per process (it is 4.7 MB)."""
    from plotly.offline import get_plotlyjs
    return f"<script type='text/javascript'>{get_plotlyjs()}</script>"


# plotly runs this after drawing the plot {plot_id}, and keeps it running after every redraw (a resized window)
_AFTER_DRAW_SCRIPT = ("var gd = document.getElementById('{plot_id}'), beside = " + fg.COLORBAR_BESIDE_JS
                      + ", values = " + fg.VALUE_TABLES_JS + ";\n"
                      "gd.on('plotly_afterplot', function () { beside(gd); values(gd); }); beside(gd); values(gd);")


def figures_html(title: str, figs: dict[str, go.Figure], lang: str = "en") -> str:
    """Every figure of a tab in one page that works offline (plotly.js inlined once), in `lang` (the page's
    <html lang>, for screen readers and fonts). As on the page, a heatmap's colour bar stands beside its map after
    each draw (figures.COLORBAR_BESIDE_JS), and its values follow it as a table for screen readers
    (figures.VALUE_TABLES_JS)."""
    parts = [f"<h2>{html.escape(name)}</h2>" + fig.to_html(full_html=False, include_plotlyjs=False,
                                                           post_script=_AFTER_DRAW_SCRIPT)
             for name, fig in figs.items()]
    return (f"<!DOCTYPE html><html lang='{lang_code(lang)}'><head><meta charset='utf-8'>"
            f"<title>{html.escape(title)}</title><style>{fg.VALUE_TABLES_CSS}</style>"
            f"{_plotly_js()}</head><body>{''.join(parts)}</body></html>")


def jsonable(obj):
    """Records (dataclasses of tokens, numpy arrays, tables) as plain JSON values. Arrays are
    rounded to 6 decimals; non-finite numbers (a masked score's -inf) become None, since
    JSON has no infinity."""
    if isinstance(obj, pd.DataFrame):  # before to_json: a DataFrame's to_json returns a string
        return jsonable(obj.to_dict("records"))
    if hasattr(obj, "to_json"):
        return obj.to_json()
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: jsonable(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    if isinstance(obj, dict):
        return {str(k): jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [jsonable(v) for v in obj]
    if isinstance(obj, np.ndarray):
        a = obj.astype(np.float64).round(6)
        return np.where(np.isfinite(a), a, None).tolist() if not np.isfinite(a).all() else a.tolist()
    if isinstance(obj, (np.floating, float)):
        return float(obj) if math.isfinite(obj) else None
    if isinstance(obj, np.integer):
        return int(obj)
    return obj


def write_downloads(stem: str, record, tables: dict[str, pd.DataFrame],
                    figs: dict[str, go.Figure] | None = None, lang: str = "en") -> list[str]:
    """record.json + one CSV per shown matrix/table (+ one offline HTML of the figures when
    `figs` is given, in the figures' language `lang`); returns the paths. Files live an hour."""
    DOWNLOADS.mkdir(exist_ok=True)
    now = time.time()
    for old in DOWNLOADS.iterdir():  # downloads are per request; keep an hour of them
        if old.is_dir() and now - old.stat().st_mtime > KEEP_DOWNLOADS_S:
            shutil.rmtree(old, ignore_errors=True)
    folder = Path(tempfile.mkdtemp(dir=DOWNLOADS))
    stem = _safe(stem)
    paths = [folder / f"{stem}.json"]
    # orjson: ~7x faster than json on a BERT paragraph's 4.7M attention numbers (bench/long_input.py); UTF-8
    paths[0].write_bytes(orjson.dumps(jsonable(record)))
    for name, table in tables.items():
        paths.append(folder / f"{stem}-{_safe(name)}.csv")
        # row labels only where they mean something (tokens, layers), not pandas' 0, 1, 2 …; a byte-order
        # mark, so that Excel reads the Korean and French tokens as UTF-8 (pandas and csv's utf-8-sig skip it)
        labelled = table.index.name is not None or not table.index.equals(pd.RangeIndex(len(table)))
        table.to_csv(paths[-1], encoding="utf-8-sig", index=labelled)
    if figs:
        paths.append(folder / f"{stem}-figures.html")
        paths[-1].write_text(figures_html(stem, figs, lang), encoding="utf-8")
    return [str(p) for p in paths]


def _whole(value, what: str) -> int:
    try:
        return int(value)
    except (TypeError, ValueError, OverflowError):
        raise UserError(f"{what} must be a whole number.", "whole_any", name=what) from None


def _one_based(value, what: str, n: int) -> int:
    """A 1-based UI number (layer, head, snapshot) -> 0-based index, or a UserError with the range."""
    v = _whole(value, what)
    if not 1 <= v <= n:
        raise UserError(f"{what} must be from 1 to {n} (got {v}).", "range", name=what, lo=1, hi=n, value=v)
    return v - 1


# ----------------------------------------------------------------------------- 1. score functions


@dataclass(frozen=True)
class ScoreFunctionsView:
    figure: go.Figure  # one alignment per model in a row, entropy per target row below
    table: pd.DataFrame  # model, score function, translation, mean entropy, uniform entropy
    notice: str  # markdown
    files: list[str]
    record: lab.ScoreComparison


def score_functions_view(text: str, lang: str = "en") -> ScoreFunctionsView:
    """The same sentence through every RNN encoder-decoder (lab.compare_score_functions)."""
    c = lab.compare_score_functions(text)
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
                              write_downloads("score-functions", c, {"mean-entropy": table}), c)


# ----------------------------------------------------------------------------- 2. BLEU by length


@dataclass(frozen=True)
class LengthView:
    figure: go.Figure
    table: pd.DataFrame  # one row per model, one BLEU column per length bucket
    message: str
    files: list[str]


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
    files = write_downloads("bleu-by-length", {"message": message, "rows": long}, {"long": long, "wide": wide})
    # the figure gets the English families, which key its colours, and shows their translations
    return LengthView(lf.length_figure(lt.table, message, lab_labels(lang), families), wide, md(message), files)


# ----------------------------------------------------------------------------- 3. beam search


@dataclass(frozen=True)
class BeamChoice:
    translation: str
    grid: go.Figure  # cross attention of the chosen hypothesis, every layer x head
    mean: go.Figure  # the last layer's cross attention averaged over heads
    notice: str
    files: list[str]
    record: TranslationResult


@dataclass(frozen=True)
class BeamView:
    table: pd.DataFrame  # rank, translation, log-prob, score, tokens
    figure: go.Figure  # lab_figures.beam_figure: scores + prefix tree
    choices: list[tuple[str, int]]  # (label, hypothesis index) for the chooser
    chosen: BeamChoice  # hypothesis 0 (the best)


def beam_choice(text: str, model: str, beam: int, chosen: int = 0, lang: str = "en") -> BeamChoice:
    """Recompute the attention trace for hypothesis `chosen` (0 = best) of a beam search."""
    r = inf.translate(model, text, beam, chosen=chosen)
    a = r.trace.cross
    if a is None:
        p = fg.placeholder(t("view.no_attention_model", lang))
        grid = mean = p
        tables = {}
    else:
        one = a.shape[:2] == (1, 1)  # an RNN's attention: no layers or heads to average over
        grid = fg.head_grid(a, r.source_tokens, r.target_tokens,
                            t("view.hyp_one" if one else "view.hyp_grid", lang, i=r.chosen + 1),
                            selected=None, labels=figure_labels(lang))
        m = a[-1].mean(0)  # (T, S)
        mean = fg.heatmap(m, r.source_tokens, r.target_tokens,
                          t("view.hyp_one" if one else "view.hyp_mean", lang, i=r.chosen + 1),
                          x_title=t("fig.source", lang), y_title=t("view.target_produced", lang),
                          labels=figure_labels(lang))
        tables = {f"cross-mean-hyp{r.chosen + 1}": matrix_table(m, r.target_tokens, r.source_tokens)}
    files = write_downloads(f"beam-{r.model}-hyp{r.chosen + 1}", r, tables)
    alpha = t("beam.alpha", lang, model=md(r.model), alpha=r.length_penalty)  # what ranked the table's scores
    return BeamChoice(r.translation, grid, mean, notices_md(r.notices, [alpha], lang=lang), files, r)


def beam_view(text: str, model: str, beam: int = 4, lang: str = "en") -> BeamView:
    """Beam search's ranked hypotheses and the cross attention of the best one."""
    beam = inf.check_int(beam, "Beam size", 2, inf.MAX_BEAM)
    best = beam_choice(text, model, beam, 0, lang)
    hyps = best.record.hypotheses
    table = pd.DataFrame([[i + 1, h.text, h.logprob, h.score, " ".join(h.tokens)] for i, h in enumerate(hyps)],
                         columns=BEAM_COLUMNS)
    table = localized(table, lang)
    choices = [(f"#{i + 1}  {h.text}  ({t('col.score', lang)} {h.score:.3f}, {t('col.log-prob', lang)} "
                 f"{h.logprob:.3f})", i) for i, h in enumerate(hyps)]  # ranked by the score
    return BeamView(table, lf.beam_figure(hyps, lab_labels(lang)), choices, best)


# ----------------------------------------------------------------------------- 4. rollout + entropy


@dataclass(frozen=True)
class RolloutLayer:
    rollout: go.Figure  # the layer's head mean next to the rollout up to it
    row_entropy: go.Figure  # heads x tokens: entropy of each head's row for each query token
    table: pd.DataFrame  # rollout matrix of that layer


@dataclass(frozen=True)
class RolloutView:
    grid: go.Figure  # raw self-attention, every layer x head
    entropy: go.Figure  # mean row entropy per layer x head
    layer: RolloutLayer
    files: list[str]
    record: lab.RolloutResult
    n_layers: int
    notice: str = ""  # markdown: the input's notices (unknown tokens, a cut), in the view's language


def rollout_redraw(r: lab.RolloutResult | None, layer=None, lang: str = "en") -> RolloutLayer:
    """The per-layer figures of a rollout record (no model call); layer is 1-based, None = last."""
    if r is None:
        p = fg.placeholder(t("view.run_first", lang))
        return RolloutLayer(p, p, pd.DataFrame())
    L = r.rollout.shape[0]
    l = L - 1 if layer is None else _one_based(layer, "Layer", L)
    fig = lf.rollout_figure(r.tokens, r.head_mean[l], r.rollout[l], t("view.layer_mean", lang, l=l + 1),
                            t("view.rollout_through", lang, l=l + 1), labels=lab_labels(lang))
    H, n = r.entropy.shape[1], len(r.tokens)
    ent = fg.heatmap(r.entropy[l], r.tokens, [t("view.head_n", lang, h=h + 1) for h in range(H)],
                     t("view.row_entropy", lang, l=l + 1, n=n, u=math.log(n)), zmin=0.0, zmax=math.log(n),
                     x_title=t("view.query_token", lang), y_title=t("lab.head", lang), colorscale="Viridis",
                     labels=figure_labels(lang))
    return RolloutLayer(fig, ent, matrix_table(r.rollout[l], r.tokens, r.tokens))


def rollout_view(text: str, model: str = "bert", layer=None, lang: str = "en") -> RolloutView:
    """Attention rollout and row entropy of BERT or a Transformer's encoder self-attention."""
    return rollout_render(lab.attention_rollout(text, model), layer, lang)


def rollout_render(r: lab.RolloutResult, layer=None, lang: str = "en") -> RolloutView:
    """rollout_view's figures and downloads from a computed rollout (no model call)."""
    model = r.model
    grid = fg.head_grid(r.attention, r.tokens, r.tokens, t("view.self_grid", lang, model=model), selected=None,
                        labels=figure_labels(lang))
    ent = lf.entropy_figure(r.entropy, len(r.tokens), lab_labels(lang))
    L, H = r.entropy.shape[:2]
    this = rollout_redraw(r, None if layer is None else min(max(_whole(layer, "Layer"), 1), L), lang)  # clamped
    mean_entropy = pd.DataFrame(r.entropy.mean(-1), index=pd.Index(range(1, L + 1), name=t("lab.layer", lang)),
                                columns=[t("view.head_n", lang, h=h + 1) for h in range(H)])
    files = write_downloads(f"rollout-{model}", r, {"mean-entropy": mean_entropy, "rollout-last": matrix_table(
        r.rollout[-1], r.tokens, r.tokens)})
    return RolloutView(grid, ent, this, files, r, L, notices_md(r.notices, lang=lang))


# ----------------------------------------------------------------------------- 5. query / key


def query_tokens(text: str, model: str = "bert") -> list[tuple[str, int]]:
    """(label, position) of every token BERT sees, for the query chooser (the tokenizer alone: it follows typing)."""
    return [(f"{i}: {tok}", i) for i, tok in enumerate(inf.bert_tokens(text, name=model))]


@dataclass(frozen=True)
class QueryKeyView:
    figure: go.Figure
    table: pd.DataFrame  # key token, q.k/sqrt(d_k), softmax, the model's own attention
    text: str  # markdown
    choices: list[tuple[str, int]]
    files: list[str]
    record: lab.QueryKeyResult


def query_key_view(text: str, layer=1, head=1, query_index=0, model: str = "bert", lang: str = "en") -> QueryKeyView:
    """One head's q . k_j / sqrt(d_k) and softmax for one query token (layer, head 1-based)."""
    c = inf.registry().get(model, "bert").config
    l, h = _one_based(layer, "Layer", c.n_layers), _one_based(head, "Head", c.n_heads)
    n = len(query_tokens(text, model))
    # the chooser lists the previous text's tokens until this run returns: clamp to this text's
    q = min(max(_whole(0 if query_index in (None, "") else query_index, "Query token"), 0), n - 1)
    r = lab.query_key(text, l, h, q, name=model)
    table = pd.DataFrame(zip(range(len(r.tokens)), r.tokens, [float(s) if np.isfinite(s) else None for s in r.scores],
                             r.probs, r.model_probs), columns=QK_COLUMNS)
    table = localized(table, lang)
    fig = lf.query_key_figure(r.tokens, r.query_index, r.q, r.k, r.scores, r.probs, lab_labels(lang))
    j = int(np.argmax(r.probs))
    text_md = t("qk.summary", lang, q=md(r.tokens[r.query_index]), layer=l + 1, head=h + 1, k=md(r.tokens[j]),
                p=float(r.probs[j]), d=r.d_k)
    if r.qk_norm:
        text_md += " " + t("qk.qk_norm", lang)
    if r.notices:
        text_md += "\n\n" + notices_md(r.notices, lang=lang)
    choices = [(f"{i}: {tok}", i) for i, tok in enumerate(r.tokens)]
    files = write_downloads(f"query-key-L{l + 1}H{h + 1}", r, {"terms": table})
    return QueryKeyView(fig, table, text_md, choices, files, r)


# ----------------------------------------------------------------------------- 6. contextual vectors


@dataclass(frozen=True)
class ContextualView:
    figure: go.Figure
    table: pd.DataFrame  # sentence, the word's tokens, cosine with the static embedding
    text: str  # markdown
    files: list[str]
    record: lab.ContextualResult


def contextual_view(word: str, sentences: str = "", model: str | None = None, lang: str = "en") -> ContextualView:
    """One word in several sentences (one per line): contextual vs static embedding cosines.
    model None or "auto": the model lab.EXAMPLES names for the word, else BERT."""
    r = lab.contextual_similarity(word, sentences, None if model in (None, "", "auto") else model)
    table = pd.DataFrame(zip(range(1, len(r.sentences) + 1), r.sentences,
                             [" ".join(tk[i] for i in p) for tk, p in zip(r.tokens, r.positions)],
                             np.round(r.to_static, 4)), columns=CONTEXT_COLUMNS)
    table = localized(table, lang)
    off = r.similarity[~np.eye(len(r.sentences), dtype=bool)]
    source = t(f"ctx.source.{r.source}", lang)  # which vectors, in the switch's language
    if off.size == 2:  # two sentences: one cosine, not a range
        lead = [t("ctx.summary_two", lang, word=md(r.word), model=md(r.model), source=md(source), cos=float(off[0]))]
    elif off.size:
        lead = [t("ctx.summary", lang, word=md(r.word), model=md(r.model), source=md(source), lo=float(off.min()),
                  hi=float(off.max()))]
    else:  # one sentence: no second context to compare with
        lead = [t("ctx.summary_one", lang, word=md(r.word), model=md(r.model), source=md(source),
                  static=float(r.to_static[0]))]
    fig = lf.contextual_figure(r.sentences, r.word, r.similarity, r.to_static, f"{r.model}: {source}",
                               lab_labels(lang))
    files = write_downloads(f"contextual-{r.model}", r, {"cosines": pd.DataFrame(
        r.similarity, index=range(1, len(r.sentences) + 1), columns=range(1, len(r.sentences) + 1))})
    return ContextualView(fig, table, notices_md(r.notices, lead, lang), files, r)


# ----------------------------------------------------------------------------- 7. positional encoding


@dataclass(frozen=True)
class PositionalView:
    table: go.Figure  # PE(pos, i) and PE . PE^T
    sentence: go.Figure  # cosines before/after adding PE, norms (placeholder without a sentence)
    text: str
    files: list[str]
    record: lab.PositionalResult


def positional_view(max_len=64, d_model=128, text: str = "", model: str = "transformer-en-fr",
                    lang: str = "en") -> PositionalView:
    r = lab.positional(max_len, d_model, text, model)
    s = r.sentence
    if s is None:
        sent, lead = fg.placeholder(t("pos.no_sentence", lang)), ""
    else:
        sent = lf.positional_sentence_figure(s.tokens, s.cos_before, s.cos_after, s.embedding_norm, s.pe_norm,
                                             lab_labels(lang))
        lead = t("pos.summary", lang, model=md(s.model), d=s.total.shape[1], e=float(s.embedding_norm.mean()),
                 p=float(s.pe_norm.mean()))
    # the table itself is a formula away (and up to 512 x 2048 numbers): the JSON keeps the sentence part
    record = {"max_len": int(max_len), "d_model": int(d_model), "sentence": s}
    return PositionalView(lf.positional_figure(r.pe, r.similarity, lab_labels(lang)), sent, lead,
                          write_downloads("positional", record, {}), r)


# ----------------------------------------------------------------------------- 8. attention over training


@functools.lru_cache(maxsize=16)
def _snapshots(model: str) -> snap.Snapshots:
    """Snapshot files never change while the app runs; parse each once (read-only afterwards)."""
    return snap.load_snapshots(model)


def snapshot_models() -> list[str]:
    """Translation models whose snapshots show attention (seq2seq-none has none to show)."""
    out = []
    for name in snap.snapshot_models():
        try:
            _snapshots(name)
        except UserError:
            continue
        out.append(name)
    return out


@dataclass(frozen=True)
class SnapshotMeta:
    probes: list[tuple[str, int]]  # (probe sentence, index)
    n_snapshots: int
    n_layers: int


def snapshot_meta(model: str) -> SnapshotMeta:
    s = _snapshots(model)
    return SnapshotMeta([(p.source, i) for i, p in enumerate(s.probes)], len(s.steps),
                        s.probes[0].frames.shape[1] if s.probes else 1)


@dataclass(frozen=True)
class SnapshotView:
    heatmap: go.Figure  # the probe's head-mean cross attention at that step
    entropy: go.Figure  # mean row entropy against training step, the current step marked
    text: str  # markdown: step, entropy, uniform entropy
    files: list[str]
    step: int
    mean_entropy: float  # of the layer shown, at that step


def snapshot_view(model: str, probe=0, snapshot=None, layer=None, lang: str = "en") -> SnapshotView:
    """Snapshot `snapshot` (1-based; None = last) of probe `probe` (0-based), layer 1-based (None = last)."""
    s = _snapshots(model)
    if not s.probes:
        raise UserError(f"'{model}' has no probe sentences.")
    p = s.probes[_one_based(1 if probe is None else _whole(probe, "Probe") + 1, "Probe", len(s.probes))]
    n, L = p.frames.shape[:2]
    k = n - 1 if snapshot is None else _one_based(snapshot, "Snapshot", n)
    l = L - 1 if layer is None else min(_one_based(layer, "Layer", 10**6), L - 1)  # a deeper model's slider clamps
    words = live_labels(lang)
    fig = lvf.snapshot_heatmap(p.frames, k, l, p.source_tokens, p.target_tokens, s.steps, words)
    ent = lvf.entropy_figure(s.steps, p.entropy[:, l], p.max_entropy, current=k, words=words)
    h = float(p.entropy[k, l])
    text = t("snap.summary", lang, step=s.steps[k], k=k + 1, n=n, h=h, u=p.max_entropy, S=len(p.source_tokens),
             final=s.steps[-1])
    record = {"model": model, "steps": s.steps, "probe": p}
    return SnapshotView(fig, ent, text, write_downloads(f"snapshots-{model}", record, {}), s.steps[k], h)


# ----------------------------------------------------------------------------- 9. train it yourself


@dataclass(frozen=True)
class LiveView:
    loss: go.Figure
    alignment: go.Figure
    translation: str
    text: str  # markdown status
    files: list[str]  # the record's JSON once training ends or is stopped
    record: live.LiveProgress


def live_view(seconds=20, attention: str = "general", probe: str = live.DEFAULT_PROBE, lang: str = "en",
              lang_now=None):
    """Iterator of LiveView, about one per second, until the time cap (at most live.MAX_SECONDS).
    The arguments are checked at the call (UserError), the model is built at the first next();
    closing the iterator ends training. `lang_now()`, where given, is read at every record: the
    language the switch shows now (a run follows it while it trains); else `lang` throughout."""
    run = live.train_live(seconds, attention, probe)
    return (live_redraw(p, attention, lang_now() if lang_now else lang) for p in run)


def live_redraw(p: live.LiveProgress, attention: str, lang: str = "en", stopped: bool = False,
                downloads: bool = True) -> LiveView:
    """One record of a live run drawn in `lang`: what the run shows at that record, and what the
    language switch redraws a finished (or `stopped`) run from. The record's JSON is written once it is
    done or stopped (with `downloads`): a stopped run's is what it learned until then."""
    words = live_labels(lang)
    loss = lvf.loss_figure(p.loss_steps, p.losses, words)
    align = lvf.alignment_heatmap(p.alignment, p.source_tokens, p.target_tokens,
                                  t("live.align_title", lang, step=p.step), words)
    last = f"{p.losses[-1]:.3f}" if p.losses else "–"
    key = "live.done" if p.done else "live.stopped" if stopped else "live.status"
    text = t(key, lang, s=p.elapsed, step=p.step, loss=last)
    files = live_files(p, attention) if (p.done or stopped) and downloads else []
    return LiveView(loss, align, p.translation, text, files, p)


def live_files(p: live.LiveProgress, attention: str) -> list[str]:
    """The JSON of a live run's record (finished, or stopped: what it learned until then)."""
    return write_downloads(f"live-{attention}", p, {})


# ----------------------------------------------------------------------------- bring your own BERT

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
    """Download a BERT from the Hugging Face Hub (explorer.byo_bert.load_hub, size-capped) and
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


# ----------------------------------------------------------------------------- choices


def translation_models(reg=None) -> list[str]:
    """Transformers first, then the RNN encoder-decoders."""
    reg = reg or inf.registry()
    return reg.names("transformer") + reg.names("seq2seq")
