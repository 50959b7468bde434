"""The lesson path's view: one step of explorer/lessons.py drawn with the app's own views, on the deck's
example, in the page's language. Every number in a step's figure comes from the view it names (the same
function the step's tab calls), so a step and its tab always agree.

    v = lesson_view("transformer-4", "ko")   # the Attention Score Matrix slide, in Korean
    v.figure, v.text, v.previous, v.next, v.link
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Callable

import pandas as pd
import plotly.graph_objects as go

from explorer import lessons
from explorer.compute import pretraining
from explorer.figures import pretraining as pretraining_figures
from explorer.lessons import DECKS, FIRST, STEPS, neighbours  # noqa: F401 (the tab's path through the decks)
from explorer.compute import worked
from explorer.figures import worked as worked_figures
from explorer.i18n import t
from explorer.views import bert, bert_inputs, choices, contextual, finetune, gpt, inside, length, luong
from explorer.views import positional, query_key, scores, seq2seq, transformer


@dataclass(frozen=True)
class LessonView:
    step: str  # the step's id, its link's value
    deck: str  # the deck's id
    title: str  # markdown heading: the deck, then the step's place and title
    text: str  # markdown: the explanation in the deck's words, then where to explore further
    figure: go.Figure  # the view's main figure (a table step's table drawn as a figure)
    previous: str | None  # the previous / next step's id along the whole course
    next: str | None
    link: str  # the query string that opens the app at this step: "?lesson=transformer-4"


def pipeline_figure(sentences, lang: str = "en") -> go.Figure:
    """The code slide's output: explorer.compute.pipeline.pipeline("sentiment-analysis") on the slide's sentences, as
    the table it returns (input, label, score)."""
    from explorer.compute.pipeline import pipeline  # the fine-tuned BERT, read at this step's first drawing
    out = pipeline("sentiment-analysis")(list(sentences))
    cols = {"en": ("input", "label", "score"), "ko": ("입력", "레이블", "점수")}[lang if lang == "ko" else "en"]
    return table_figure(pd.DataFrame([(s, o["label"], round(float(o["score"]), 4)) for s, o in zip(sentences, out)],
                                     columns=list(cols)))


def heads_off_figure(text: str, heads_off, lang: str = "en") -> go.Figure:
    """BERT's top words for the [MASK] with every head on and with `heads_off` ((layer, head), 0-based) switched
    off before W^O (explorer.compute.ablation)."""
    from explorer.compute import ablation
    from explorer.figures import ablation as ablation_figures
    m = ablation.fill_mask_ablated(text, heads_off).masks[0]
    words = {"en": {"before": "every head on", "after": "three heads off", "probability": "probability"},
             "ko": {"before": "모든 헤드 켬", "after": "헤드 세 개 끔", "probability": "확률"}}[lang if lang == "ko" else "en"]
    return ablation_figures.before_after_bars(m.before, m.after, text, words)


def table_figure(table: pd.DataFrame) -> go.Figure:
    """A view's table as a figure, so every step of the path is one figure (a projector shows it large)."""
    fig = go.Figure(go.Table(header={"values": [str(c) for c in table.columns], "align": "left"},
                             cells={"values": [table[c].astype(str).tolist() for c in table.columns], "align": "left"}))
    # t: room for the plot box's label ("The slide's example"), which Gradio draws over the figure's top edge
    return fig.update_layout(margin={"l": 10, "r": 10, "t": 36, "b": 10}, height=86 + 28 * (len(table) + 1))


# Each drawing: (args, lang) -> the figure, from the view the step's tab uses.
RENDERERS: dict[str, Callable[[dict, str], go.Figure]] = {
    "length": lambda a, lang: (length.length_view(lang).figure),
    "seq2seq": lambda a, lang: (seq2seq.seq2seq_view(a["text"], a["model"], lang=lang).alignment),
    "scores": lambda a, lang: (scores.score_functions_view(a["text"], lang).figure),
    "luong": lambda a, lang: (luong.luong_view(a["text"], a["model"], lang=lang).steps),
    "choices": lambda a, lang: (choices.choices_view(a["text"], a["model"], lang=lang).figure),
    "query_key": lambda a, lang: (query_key.query_key_view(a["text"], query_index=1, lang=lang).figure),
    "positional": lambda a, lang: (positional.positional_view(text=a["text"], lang=lang).table),
    "enc_grid": lambda a, lang: (transformer.transformer_view(a["text"], a["model"], lang=lang).heads.enc_grid),
    "dec_scores": lambda a, lang: (
        transformer.transformer_view(a["text"], a["model"], lang=lang).heads.dec_scores),
    "cross_grid": lambda a, lang: (
        transformer.transformer_view(a["text"], a["model"], lang=lang).heads.cross_grid),
    "inside": lambda a, lang: (inside.inside_view(a["text"], a["model"], lang=lang).stream),
    "qk_hand": lambda a, lang: (worked_figures.worked_attention_figure(
        worked.hand_example().arrays(), worked.model_head(a["text"], a["model"]).arrays(), lang)),
    "gelu": lambda a, lang: (worked_figures.activations_figure(
        worked.activation_curves(), worked.ffn_preactivations(a["text"], a["model"]).arrays(),
        worked.ffn_preactivations(a["text"], a["bert"]).arrays(), lang)),
    "contextual": lambda a, lang: (contextual.contextual_view(a["word"], lang=lang).figure),
    "bert_inputs": lambda a, lang: (
        bert_inputs.bert_inputs_view(a["text"], a["text_b"], lang=lang).sum_figure),
    "masking": lambda a, lang: (table_figure(bert_inputs.masking_view(a["text"], lang=lang).table)),
    "fill_mask": lambda a, lang: (bert.bert_fill_view(a["text"], a["text_b"], lang=lang).topk),
    "nsp": lambda a, lang: (bert.bert_model_view("nsp", "bert", a["text"], a["text_b"], lang=lang).nsp),
    "sentiment": lambda a, lang: (finetune.finetune_view("sentiment", a["text"], lang=lang).prediction),
    "pipeline": lambda a, lang: pipeline_figure(a["sentences"], lang),
    "heads_off": lambda a, lang: heads_off_figure(a["text"], a["heads_off"], lang),
    "masking_many": lambda a, lang: (pretraining_figures.masking_shares(
        **pretraining.masking_shares(a["draws"], a["seed"]).curves(), words=pretraining_figures.WORDS[lang])),
    "nsp_pairs": lambda a, lang: (pretraining_figures.nsp_pairs(
        **pretraining.nsp_pairs(a["draws"], a["seed"]).curves(a["shown"]), words=pretraining_figures.WORDS[lang])),
    "visibility": lambda a, lang: (gpt.compare_view(a["text"], lang=lang).visibility),
    "generate": lambda a, lang: (
        gpt.gpt_view(a["text"], a["max_new_tokens"], greedy=True, lang=lang).heads.step),
}


def deck_choices(lang: str = "en") -> list[tuple[str, str]]:
    """(label, deck id) for a dropdown, in the course's order."""
    return [(d.title[lang], d.id) for d in lessons.DECKS]


def step_choices(deck_id: str, lang: str = "en") -> list[tuple[str, str]]:
    """(label, step id) of one deck's steps, numbered as in the deck's order."""
    deck = next((d for d in lessons.DECKS if d.id == deck_id), lessons.DECKS[0])
    return [(f"{i}. {s.title[lang]}", s.id) for i, s in enumerate(deck.steps, 1)]


def lesson_text(step_id: str, lang: str = "en") -> tuple[str, str]:
    """(title, text) markdown of a step, without drawing it."""
    s, deck = lessons.step(step_id), lessons.deck_of(step_id)
    n = deck.steps.index(s) + 1
    title = f"## {deck.title[lang]}\n### {n} / {len(deck.steps)} · {s.title[lang]}"  # after the page's h1
    text = f"{s.text[lang]}\n\n*{t('lesson.explore', lang, tab=t(s.tab, lang))}*"
    return title, text


def lesson_view(step_id: str, lang: str = "en") -> LessonView:
    """Draw the step `step_id` (the first step for an unknown id) with its deck's example. Each step is one
    fixed example, so its drawing is kept (at most every step in both languages): a class walking the path
    together runs each model once, and Previous / Next answer at once the second time."""
    return _drawn(lessons.step(step_id).id, lang if lang in ("en", "ko") else "en")


@functools.lru_cache(maxsize=2 * len(lessons.ORDER))
def _drawn(step_id: str, lang: str) -> LessonView:
    s = lessons.step(step_id)
    figure = RENDERERS[s.view](s.args, lang)
    title, text = lesson_text(s.id, lang)
    prev, nxt = lessons.neighbours(s.id)
    return LessonView(s.id, lessons.deck_of(s.id).id, title, text, figure, prev, nxt, f"?lesson={s.id}")
