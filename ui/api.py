"""The public API endpoints (gradio_client): /translate, /fill_mask, /nsp, /generate, and the fine-tuned tasks
/sentiment_analysis, /nli, /pos, /ner, /question_answering (explorer.pipeline's outputs as JSON). Each returns what
the endpoint sends, in its order (gradio_client reads a tuple by position, so these keep one); the tabs call the same
building blocks (explorer.inference, explorer/views/api.py).

    from gradio_client import Client
    Client("http://127.0.0.1:7860").predict("I am a student.", "transformer-en-fr", 1, api_name="/translate")
    Client("http://127.0.0.1:7860").predict("The students opened their", 30, 0.7, 50, 0.95, 0, False,
                                            api_name="/generate")
    Client("http://127.0.0.1:7860").predict("I love this product!", "", api_name="/sentiment_analysis")
"""
from __future__ import annotations

import gradio as gr
import plotly.graph_objects as go

from explorer import generate as gen
from explorer import inference as inf
from explorer import pipeline as ft
from explorer.choices import next_word_choices
from explorer.views.api import bert_api_record, bert_overview, cross_overview
from explorer.views.bert import nsp_figure, topk_figure
from ui.components import friendly


@friendly(api=True)
def translate_api(text: str, model: str, beam: int = 1, target: str = "") -> tuple[str, go.Figure, dict]:
    """/translate: (translation, cross-attention figure, record JSON). With `target`, a translation the caller
    types, the model reads it teacher-forced instead: (the target as read, its cross attention, explorer.choices'
    record: each token's probability and rank and the top 5 at every step)."""
    if target is not None and str(target).strip():
        forced = next_word_choices(model, text, target=target)
        return forced.translation, cross_overview(forced), forced.to_json()
    r = inf.translate(model, text, beam)
    return r.translation, cross_overview(r), r.to_json(decimals=inf.API_DECIMALS)


@friendly(api=True)
def fill_mask_api(text: str, top_k: int = 5) -> tuple[go.Figure, go.Figure, dict]:
    """/fill_mask: (top-k bars per [MASK], last layer's mean self-attention, record JSON)."""
    r = inf.fill_mask(text, top_k)
    return topk_figure(r), bert_overview(r), bert_api_record(r)


@friendly(api=True)
def nsp_api(sentence_a: str, sentence_b: str) -> tuple[go.Figure, go.Figure, dict]:
    """/nsp: (P(IsNext)/P(NotNext) bars, last layer's mean self-attention, record JSON)."""
    r = inf.nsp(sentence_a, sentence_b)
    return nsp_figure(r), bert_overview(r), bert_api_record(r)


@friendly(api=True)
def generate_api(prompt: str, max_new_tokens: int = 30, temperature: float = 1.0, top_k: int = 0,
                 top_p: float = 1.0, seed: int = 0, greedy: bool = False) -> tuple[str, dict]:
    """/generate: (the text, record JSON: each step's token, its probability and the top alternatives, and the
    causal attention with its masked scores, null above the diagonal). The same seed gives the same text."""
    r = gen.generate(prompt, max_new_tokens, temperature, top_k, top_p, seed, greedy)
    return r.text, r.to_json()


def finetune_api(task: str, text: str, text_b: str = "") -> dict:
    """/sentiment_analysis, /nli, /pos, /ner, /question_answering: one input's explorer.pipeline output with the
    tokens the model read (text_b: the hypothesis for nli, the paragraph for question answering; else unused)."""
    task = ft.task_name(task)
    if task == "qa":
        return ft.answer(text, text_b).to_json()
    if task in ("pos", "ner"):
        return ft.tag(task, text).to_json()
    return ft.classify(task, text, text_b if task == "nli" else None).to_json()


FINETUNE_ENDPOINTS = {"sentiment_analysis": "sentiment", "nli": "nli", "pos": "pos", "ner": "ner",
                      "question_answering": "qa"}


def _task_endpoint(api_name: str):
    """finetune_api with its task fixed, named after its endpoint (text, text_b) -> dict."""
    def endpoint(text: str, text_b: str = "") -> dict:
        return finetune_api(FINETUNE_ENDPOINTS[api_name], text, text_b)
    endpoint.__name__ = endpoint.__qualname__ = f"{api_name}_api"
    return friendly(api=True)(endpoint)


def build_api() -> None:
    """The endpoints' hidden components and events, inside the app's Blocks."""
    with gr.Group(visible=False):
        text, model = gr.Textbox(label="text"), gr.Textbox(label="model")  # sentence A for /nsp
        # precision=None: a fractional or non-numeric beam/top-k reaches inference's check, whose message
        # names it ("must be between 1 and 8 (got 2.5)"), instead of being rounded or failing inside Gradio
        beam = gr.Number(1, precision=None, label="beam")
        k = gr.Number(5, precision=None, label="top_k")
        b = gr.Textbox(label="sentence_b")
        target = gr.Textbox("", label="target")  # /translate: a translation to read teacher-forced (optional)
        translation, cross = gr.Textbox(label="translation"), gr.Plot(label="cross_attention")
        topk, nsp = gr.Plot(label="top_k"), gr.Plot(label="next_sentence")
        grid, trace = gr.Plot(label="self_attention"), gr.JSON(label="trace")
        gr.Button(visible=False).click(translate_api, [text, model, beam, target], [translation, cross, trace],
                                       api_name="translate", concurrency_id="models")
        gr.Button(visible=False).click(fill_mask_api, [text, k], [topk, grid, trace], api_name="fill_mask",
                                       concurrency_id="models")
        gr.Button(visible=False).click(nsp_api, [text, b], [nsp, grid, trace], api_name="nsp",
                                       concurrency_id="models")
        # /generate: precision=None for the same reason as beam and top_k; a bad value reaches generate's check
        new, temp = gr.Number(30, precision=None, label="max_new_tokens"), gr.Number(1.0, label="temperature")
        sample_k, top_p = gr.Number(0, precision=None, label="sampling_top_k"), gr.Number(1.0, label="top_p")
        seed, greedy = gr.Number(0, precision=None, label="seed"), gr.Checkbox(False, label="greedy")
        generated = gr.Textbox(label="text")
        gr.Button(visible=False).click(generate_api, [text, new, temp, sample_k, top_p, seed, greedy],
                                       [generated, trace], api_name="generate", concurrency_id="models")
        prediction = gr.JSON(label="prediction")
        for api_name in FINETUNE_ENDPOINTS:
            gr.Button(visible=False).click(_task_endpoint(api_name), [text, b], prediction, api_name=api_name,
                                           concurrency_id="models")
