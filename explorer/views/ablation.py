"""Head ablation (Michel et al. 2019; Voita et al. 2019): the typed sentence with some heads switched off, BERT's
[MASK] prediction or the Transformer's translation before and after, beside the precomputed grid of what removing
each head alone costs, with the heads switched off marked, and a line comparing our counts with the papers'.
Numbers: explorer/compute/ablation.py (the run; its record is what the tab keeps) and assets/explains/head-ablation.json
(docs/head-ablation.json as the app ships it); figures:
explorer/figures/ablation.py. A redraw (`ablation_redraw`) reads the record and the table: no model call."""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
import plotly.graph_objects as go

from explorer.compute import ablation as ab
from explorer.figures import ablation as abf
from explorer.compute.inference import UserError
from explorer import figures as fg
from explorer.i18n import t
from explorer.views import Downloads, md, notices_md, to_download

TABLE = Path(__file__).resolve().parents[2] / "assets" / "explains" / "head-ablation.json"
TASKS = ("fill-mask", "translation")
MODELS = {"fill-mask": ab.BERT, "translation": ab.TRANSLATOR}
TABLE_KEY = {"fill-mask": "bert", "translation": "transformer"}
# The first screen: the three BERT heads the table finds most important, and the translator without its
# Encoder-Decoder Attention in every layer (a whole kind off: the translation falls apart).
EXAMPLES = {"fill-mask": ("the cat is sleeping on the [MASK].", "L3H5, L5H6, L9H6"),
            "translation": ("The cat is sleeping on the bed.", "cross L1, cross L2, cross L3")}
KIND_WORDS = {"enc": "enc_self", "dec": "dec_self", "cross": "cross", "x": "cross"}
MATTERS = -0.05  # nats: a head whose removal alone costs more than this matters (docs/head-ablation.md's line)
_ITEM = re.compile(r"^(?:(enc|dec|cross|x)\s*:?\s*)?l(\d+)\s*(?:h(\d+))?$", re.IGNORECASE)


@lru_cache(maxsize=1)
def table(path: Path = TABLE) -> dict:
    """The per-head importance of both models (read once; the app never changes it)."""
    return json.loads(Path(path).read_text(encoding="utf-8"))


def parse_heads(text: str, task: str, shapes: dict) -> list:
    """"L3H5, L5" -> BERT's (layer, head) from 0, L5 being every head of layer 5; the Transformer's items take a
    kind first ("enc L1H2", "dec L2", "cross L3H1"; none: enc) -> (kind, layer, head). `shapes`: kind -> (layers,
    heads)."""
    out = set()
    for item in re.split(r"[,;]+", text or ""):
        item = " ".join(item.split())
        if not item:
            continue
        m = _ITEM.match(item)
        if not m or (task == "fill-mask" and m.group(1) and m.group(1).lower() != "enc"):
            raise UserError(f"Name heads as L3H5 (layer 3, head 5) or L3 (all of layer 3){'' if task == 'fill-mask' else ', after enc, dec or cross'}; got {item!r}.",
                            "bad_heads", item=item)
        kind = KIND_WORDS[(m.group(1) or "enc").lower()]
        n_layers, n_heads = shapes[kind]
        layer = int(m.group(2))
        heads = [int(m.group(3))] if m.group(3) else list(range(1, n_heads + 1))
        if not 1 <= layer <= n_layers or not all(1 <= h <= n_heads for h in heads):
            raise UserError(f"{item}: layers go from 1 to {n_layers}, heads from 1 to {n_heads}.", "heads_range",
                            item=item, layers=n_layers, heads=n_heads)
        out |= {(kind, layer - 1, h - 1) for h in heads}
    if not out:
        raise UserError("Name at least one head to switch off, as L3H5.", "no_heads")
    return sorted(out)


def shapes_of(task: str) -> dict:
    """kind -> (layers, heads) of the task's model, read off its importance grids."""
    return {k: np.shape(g) for k, g in table()[TABLE_KEY[task]]["delta"].items()}


@dataclass(frozen=True)
class AblationView:
    result: str  # markdown: before and after, large
    bars: go.Figure  # BERT's top-k before and after (the first [MASK]); a note for a translation
    grid: go.Figure  # the importance grid with the heads switched off marked
    comparison: str  # markdown: our counts beside Michel et al.'s and Voita et al.'s
    files: Downloads
    record: object  # explorer.compute.ablation.FillMaskAblation or TranslationAblation


def _task(rec) -> str:
    return "fill-mask" if isinstance(rec, ab.FillMaskAblation) else "translation"


def heads_text(heads_off, shapes: dict, lang: str = "en") -> str:
    """The heads as typed: "L3H5", a whole layer as "L3" ("cross L2" for a Transformer's)."""
    by: dict = {}
    for h in heads_off:
        kind, layer, head = h if len(h) == 3 else ("enc_self", *h)
        by.setdefault((kind, layer), []).append(head)
    out = []
    for (kind, layer), heads in by.items():
        prefix = "" if len(heads_off[0]) == 2 else f"{t(f'abl.kind_{kind}', lang)} "
        if len(heads) == shapes[kind][1]:
            out.append(f"{prefix}L{layer + 1}")
        else:
            out += [f"{prefix}L{layer + 1}H{h + 1}" for h in heads]
    return ", ".join(out)


def result_md(rec, lang: str = "en") -> str:
    names = heads_text(rec.heads_off, shapes_of(_task(rec)), lang)
    lead = [t("abl.off", lang, n=len(rec.heads_off), names=md(names))]
    if isinstance(rec, ab.FillMaskAblation):
        for m in rec.masks:
            (w0, p0), (w1, p1) = m.before[0], m.after[0]
            lead.append(t("abl.mask_line", lang, before=md(w0), p0=100 * p0, after=md(w1), p1=100 * p1,
                          kept=100 * m.before_top_after))
    else:
        lead.append(t("abl.translation_line", lang, before=md(rec.before), after=md(rec.after),
                      lb=rec.before_logprob[0], la=rec.after_logprob[1], same=t(
                          "abl.same" if rec.before == rec.after else "abl.changed", lang)))
    return notices_md(rec.notices, lead, lang)


def grid_rows(task: str, lang: str = "en") -> tuple[np.ndarray, list[str], dict]:
    """The task's importance grids stacked (kinds in ab.KINDS order), their row names, and each kind's first row."""
    delta = table()[TABLE_KEY[task]]["delta"]
    kinds = [k for k in ab.KINDS if k in delta]
    rows, names, first = [], [], {}
    for k in kinds:
        first[k] = len(rows)
        for layer, row in enumerate(delta[k]):
            rows.append(row)
            names.append(str(layer + 1) if len(kinds) == 1 else f"{t(f'abl.kind_{k}', lang)} {layer + 1}")
    return np.asarray(rows, dtype=float), names, first


def comparison_md(task: str, lang: str = "en") -> str:
    """Our counts from the table, then the papers' (Michel et al. 2019, Voita et al. 2019)."""
    tab = table()[TABLE_KEY[task]]
    cells = np.concatenate([np.ravel(g) for g in tab["delta"].values()])
    half = next(p for p in tab["pruning"] if abs(p["fraction"] - 0.5) < 1e-9)
    ours = t("abl.ours", lang, model=md(tab["model"]), n=int((cells < MATTERS).sum()), total=cells.size,
             median=float(np.median(-cells)), metric=md(tab["metric"]), sentences=tab["n"], base=tab["base"],
             half=half["heads"], pruned=half["metric"])
    return "\n\n".join([ours, t("abl.papers", lang)])


def ablation_redraw(rec, lang: str = "en") -> AblationView:
    task = _task(rec)
    delta, names, first = grid_rows(task, lang)
    off = [(first.get("enc_self", 0) + h[0], h[1]) if len(h) == 2 else (first[h[0]] + h[1], h[2])
           for h in rec.heads_off]
    grid = abf.importance_grid(delta, t("abl.grid_title", lang, model=table()[TABLE_KEY[task]]["model"]),
                               {k: t(f"abl.g_{k}", lang) for k in abf.GRID_LABELS}, rows=names, off=off)
    bars = fg.placeholder(t("abl.no_bars", lang))  # a translation: its two versions are in the text above
    if task == "fill-mask":
        m = rec.masks[0]
        bars = abf.before_after_bars(m.before, m.after, t("abl.bars_title", lang),
                                     {"before": t("abl.every_head", lang), "after": t("abl.heads_off", lang),
                                      "probability": t("abl.probability", lang)})
    files = to_download(f"ablation-{MODELS[task]}", rec.to_json(), {})
    return AblationView(result_md(rec, lang), bars, grid, comparison_md(task, lang), files, rec)


def ablation_view(task: str = "fill-mask", text: str = EXAMPLES["fill-mask"][0], heads: str = EXAMPLES["fill-mask"][1],
                  lang: str = "en", reg=None) -> AblationView:
    """Run the task on `text` with every head on and with `heads` switched off, and draw it."""
    if task not in TASKS:
        raise UserError(f"Task {task!r}: one of {', '.join(TASKS)}.", "bad_task", task=task)
    off = parse_heads(heads, task, shapes_of(task))
    if task == "fill-mask":
        rec = ab.fill_mask_ablated(text, [(l, h) for _, l, h in off], reg=reg)
    else:
        rec = ab.translate_ablated(text, off, reg=reg)
    return ablation_redraw(rec, lang)
