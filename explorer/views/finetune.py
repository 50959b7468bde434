"""The Fine-tuning tab's composition: a fine-tuned BERT task's prediction, and what fine-tuning
changed in attention, both models read on the same tokens.

Records come from explorer.compute.pipeline (`classify`, `tag`, `answer` with with_base=True); figures from
explorer.figures.finetune and explorer.figures. The per-head change is the mean, over the real query rows,
of the total variation distance between a head's two attention rows, 0.5 * sum_k |A_ft[q, k] - A_pt[q, k]|:
0 where fine-tuning left the head alone, 1 where the two rows share no weight.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from explorer import figures as fg
from explorer.figures import finetune as ff
from explorer import i18n
from explorer.compute import pipeline as ft
from explorer.compute.inference import UserError
from explorer.views import md, notices_md
from explorer.views.transformer import pick

TASKS = ("sentiment", "nli", "pos", "ner", "qa") + (  # the tab's task choices, in the lecture figure's order of use
    ("sentiment-ko",) if (ft.FINETUNE / "sentiment-ko").is_dir() else ())  # Korean, on bert-ko, where shipped


def base_of(task: str) -> str:
    """The pre-trained model a task adapts (bert, or bert-ko for sentiment-ko): its layers and heads size the
    sliders."""
    return ft.base_name(ft.FINETUNE / ft.task_name(task))
LABEL_COLUMNS = ["label", "probability"]  # a sentence-level task's table (sentiment, nli): the tab's first one


@dataclass(frozen=True)
class FinetuneView:
    prediction: go.Figure  # label probabilities; tag probabilities under each word; P(start), P(end) per token
    summary: str  # markdown: the label, the tags or the answer
    explanation: str  # the lecture figure's line for the task
    finetuned: go.Figure  # the chosen head, fine-tuned
    pretrained: go.Figure  # the same head of the pre-trained BERT, same tokens
    difference: go.Figure  # fine-tuned minus pre-trained, that head
    change: go.Figure  # [layers, heads] how far each head moved
    cls: go.Figure  # [CLS]'s attention row in the chosen layer and head, both models
    table: pd.DataFrame  # the prediction as numbers
    notice: str
    record: ft.TaskResult | None
    n_layers: int
    n_heads: int


def head_change(finetuned: np.ndarray, pretrained: np.ndarray) -> np.ndarray:
    """[L, H] mean total variation distance between the two models' attention rows (rows with no weight,
    none here since every query sees itself, would count 0)."""
    if finetuned.shape != pretrained.shape:
        raise ValueError(f"attention shapes differ: {finetuned.shape} and {pretrained.shape}")
    return 0.5 * np.abs(finetuned - pretrained).sum(-1).mean(-1)  # (L, H)


def explanation(task: str, lang: str = "en") -> str:
    return i18n.t(f"ft.explain_{ft.task_name(task)}", lang)


def _prediction(r: ft.TaskResult, lang: str):
    w = i18n.ft_labels(lang)
    if r.label is not None:
        shown = [i18n.label_text(x, lang) for x in r.labels]  # NLI's labels in the deck's Korean: 함의, 중립, 모순
        fig = ff.label_bars(shown, r.probs, i18n.t("ft.probs_title", lang), w)
        table = pd.DataFrame(list(zip(shown, [round(float(p), 6) for p in r.probs])), columns=LABEL_COLUMNS)
        summary = i18n.t("ft.summary_label", lang, label=i18n.label_text(r.label, lang), p=r.score)
    elif r.tags is not None:
        fig = ff.tag_heatmap(r.words, r.tags, r.probs, r.labels, i18n.t("ft.tags_title", lang), w)
        table = pd.DataFrame({"word": r.words, "tag": r.tags,
                              "probability": r.tag_scores()})
        summary = i18n.t("ft.summary_tags", lang, n=len(r.words))
    else:
        fig = ff.span_figure(r.tokens, r.probs[0], r.probs[1], r.token_span, i18n.t("ft.span_title", lang), w)
        table = pd.DataFrame({"token": r.tokens, "P(start)": np.round(r.probs[0], 6), "P(end)": np.round(r.probs[1], 6)})
        summary = i18n.t("ft.summary_answer", lang, answer=md(r.answer), start=r.start, p=r.score)
    return fig, table, summary


def finetune_render(r: ft.TaskResult | None, layer=1, head=1, lang: str = "en") -> FinetuneView:
    """Every figure of one record (no model call): the language switch and the layer/head sliders redraw here."""
    if r is None:
        p = fg.placeholder(i18n.t("ft.first", lang))
        return FinetuneView(p, "", "", p, p, p, p, p, pd.DataFrame(), "", None, 1, 1)
    a, b = r.trace.enc_self, r.base_trace.enc_self  # [L, H, T, T]
    l, h = pick(a, layer, head)
    fig, table, summary = _prediction(r, lang)
    words = i18n.figure_labels(lang)
    w = i18n.ft_labels(lang)
    kw = dict(x_title=words["key"], y_title=words["query"], segments=r.segments, labels=words)
    finetuned = fg.heatmap(a[l, h], r.tokens, r.tokens, i18n.t("ft.head_ft", lang, l=l + 1, h=h + 1), **kw)
    pretrained = fg.heatmap(b[l, h], r.tokens, r.tokens, i18n.t("ft.head_pt", lang, l=l + 1, h=h + 1), **kw)
    difference = ff.difference_map(a[l, h] - b[l, h], r.tokens, i18n.t("ft.diff_title", lang, l=l + 1, h=h + 1), w)
    change = ff.head_change(head_change(a, b), i18n.t("ft.change_title", lang), w)
    cls = ff.cls_bars(r.tokens, a[l, h, 0], b[l, h, 0], i18n.t("ft.cls_title", lang, l=l + 1, h=h + 1), w)
    return FinetuneView(fig, summary, explanation(r.task, lang), finetuned, pretrained, difference, change, cls,
                        i18n.localized(table, lang), notices_md(r.notices, lang=lang), r, *a.shape[:2])


def run_task(task: str, text: str, text_b: str = "", reg=None, folder=None) -> ft.TaskResult:
    """The tab's one model call: sentence (sentiment, pos, ner), premise + hypothesis (nli) or
    question + paragraph (qa); both models' attention on the same tokens."""
    task = ft.task_name(task)
    if task == "nli" and (text_b is None or not str(text_b).strip()):
        raise UserError("Please type a hypothesis: NLI reads a premise and a hypothesis.", "no_hypothesis")
    return ft.run(task, text, text_b, reg=reg, with_base=True, folder=folder)


def finetune_view(task: str, text: str, text_b: str = "", layer=1, head=1, lang: str = "en", reg=None,
                  folder=None) -> FinetuneView:
    return finetune_render(run_task(task, text, text_b, reg, folder), layer, head, lang)
