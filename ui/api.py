"""The public API endpoints: /translate, /translate_target, /fill_mask, /nsp, /generate, and the fine-tuned tasks
/sentiment_analysis, /nli, /pos, /ner, /question_answering (explorer.compute.pipeline's outputs as JSON), for gradio_client
and for plain HTTP (POST /gradio_api/call/<name> with {"data": [...]}, then GET the event stream). The tabs call
the same building blocks (explorer.compute.inference, explorer/views/api.py).

    from gradio_client import Client
    Client("http://127.0.0.1:7860").predict("I am a student.", "transformer-en-fr", 1, api_name="/translate")
    Client("http://127.0.0.1:7860").predict("The students opened their", 30, 0.7, 50, 0.95, 0, False,
                                            api_name="/generate")
    Client("http://127.0.0.1:7860").predict("I love this product!", api_name="/sentiment_analysis")

An endpoint is a contract with callers that send what docs/api.md shows:
* Plain HTTP sends every input an endpoint has: Gradio 6.31 fills a missing trailing input neither on
  /gradio_api/call/<name> nor on /gradio_api/queue/join (only gradio_client and /gradio_api/call/v2/<name>, which
  names its values, use the defaults), so an endpoint never gains an input: a new value is a new endpoint
  (/translate_target), and an input no task reads is not asked for (/sentiment_analysis, /pos, /ner take the text
  alone; a second value, as the endpoints took before, is ignored by Gradio). Too few values are answered 400 with
  Gradio's message before the event is queued (`_count_inputs`), not `{"error": null}` after.
* Every error a caller can cause arrives with its message, the same over both (`api_errors`), word for word: the
  callers read JSON, not HTML, so nothing is escaped (the page's toasts are, in ui.components.friendly).
* Results are shared: identical requests from any session are computed once, single-flight, and kept within the
  records' byte budget (explorer/serve/results.py, `shared`). Each caller receives its own copy (Gradio parses the kept
  JSON text for each), so no caller can change another's result.
"""
from __future__ import annotations

import functools
import logging
import math

import gradio as gr
import orjson
import plotly.graph_objects as go
from gradio.components.plot import PlotData

from explorer.compute import generate as gen
from explorer import i18n
from explorer.compute import inference as inf
from explorer.compute import pipeline as ft
from explorer.compute.choices import next_word_choices
from explorer.compute.inference import UserError
from explorer.serve.results import shared_results
from explorer.views.api import bert_api_record, bert_overview, cross_overview
from explorer.views.bert import nsp_figure, topk_figure

log = logging.getLogger("attention_explorer")
GENERIC_ERROR = i18n.t("err.generic")


def api_errors(fn):
    """An endpoint's errors as its callers read them (gradio_client's AppError, the event stream's `error`): a
    UserError's message word for word, anything else the generic message with the traceback in the server log."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except gr.Error:
            raise
        except UserError as e:
            raise gr.Error(i18n.error_text(e, "en"), print_exception=False) from None
        except Exception:
            log.exception("unexpected error in %s", fn.__name__)
            raise gr.Error(GENERIC_ERROR, print_exception=False) from None
    wrapper.friendly = True  # reports errors as messages (tests/ui/test_app.py checks every event's handler)
    return wrapper


@api_errors
def translate_api(text: str, model: str, beam: int = 1) -> tuple[str, go.Figure, dict]:
    """/translate: (translation, cross-attention figure, record JSON)."""
    r = inf.translate(model, text, beam)
    return r.translation, cross_overview(r), r.to_json(decimals=inf.API_DECIMALS)


@api_errors
def translate_target_api(text: str, model: str, target: str) -> tuple[str, go.Figure, dict]:
    """/translate_target: a translation the caller types, read teacher-forced: (the target as read, its cross
    attention, explorer.compute.choices' record: each token's probability and rank and the top 5 at every step)."""
    inf.clean_text(target, "target")  # an empty target is an error here, not the model's own translation
    forced = next_word_choices(model, text, target=target)
    return forced.translation, cross_overview(forced), forced.to_json()


@api_errors
def fill_mask_api(text: str, top_k: int = 5) -> tuple[go.Figure, go.Figure, dict]:
    """/fill_mask: (top-k bars per [MASK], last layer's mean self-attention, record JSON)."""
    r = inf.fill_mask(text, top_k)
    return topk_figure(r), bert_overview(r), bert_api_record(r)


@api_errors
def nsp_api(sentence_a: str, sentence_b: str) -> tuple[go.Figure, go.Figure, dict]:
    """/nsp: (P(IsNext)/P(NotNext) bars, last layer's mean self-attention, record JSON)."""
    r = inf.nsp(sentence_a, sentence_b)
    return nsp_figure(r), bert_overview(r), bert_api_record(r)


def check_finite(value, name: str, hi: float):
    """A temperature or top-p as sent, unless it is infinite: JSON's 1e400 arrives as infinity (Python reads it so),
    refused here as too large rather than as "not a number". The range is explorer.compute.generate.check_settings', which
    takes a value just above 0 (1e-320) as its floor, 0.001 or 1e-6: the argmax, as in the CLI and Python."""
    try:
        v = float(value)
    except (TypeError, ValueError, OverflowError):
        return value  # check_settings says what it must be
    if math.isinf(v):
        raise UserError(f"{name} must be above 0 and at most {hi:g} (got {'-' if v < 0 else ''}infinity, a number "
                        "too large to read).", "api_infinite")
    return value


@api_errors
def generate_api(prompt: str, max_new_tokens: int = 30, temperature: float = gen.DEFAULT_TEMPERATURE,
                 top_k: int = gen.DEFAULT_TOP_K, top_p: float = gen.DEFAULT_TOP_P, seed: int = 0,
                 greedy: bool = False) -> tuple[str, dict]:
    """/generate: (the text, record JSON: each step's token, its probability and the top alternatives, and the
    causal attention with its masked scores, null above the diagonal). The same seed gives the same text."""
    if not greedy:  # greedy reads neither (explorer.compute.generate.check_settings)
        temperature = check_finite(temperature, "Temperature", gen.MAX_TEMPERATURE)
        top_p = check_finite(top_p, "Top-p", 1.0)
    r = gen.generate(prompt, max_new_tokens, temperature, top_k, top_p, seed, greedy)
    return r.text, r.to_json()


def finetune_api(task: str, text: str, text_b: str = "") -> dict:
    """/sentiment_analysis, /nli, /pos, /ner, /question_answering: one input's explorer.compute.pipeline output with the
    tokens the model read (text_b: the hypothesis for nli, the paragraph for question answering; else unused)."""
    task = ft.task_name(task)
    if task == "qa":
        return ft.answer(text, text_b).to_json()
    if task in ("pos", "ner"):
        return ft.tag(task, text).to_json()
    return ft.classify(task, text, text_b if task == "nli" else None).to_json()


FINETUNE_ENDPOINTS = {"sentiment_analysis": "sentiment", "nli": "nli", "pos": "pos", "ner": "ner",
                      "question_answering": "qa"}
PAIRED = {"nli", "question_answering"}  # the endpoints that read a second text


def _task_endpoint(api_name: str):
    """finetune_api with its task fixed, named after its endpoint: (text, text_b) -> dict for the tasks that read a
    second text, (text) -> dict for the others."""
    task = FINETUNE_ENDPOINTS[api_name]
    if api_name in PAIRED:
        def endpoint(text: str, text_b: str) -> dict:
            return finetune_api(task, text, text_b)
    else:
        def endpoint(text: str) -> dict:
            return finetune_api(task, text)
    endpoint.__name__ = endpoint.__qualname__ = f"{api_name}_api"
    return api_errors(endpoint)


# ----------------------------------------------------------------------------- shared results


def _json_default(o):
    """As gr.JSON's own postprocess: an object whose text is JSON as that JSON, else its text."""
    try:
        return orjson.loads(str(o))
    except orjson.JSONDecodeError:
        return str(o)


def to_wire(outputs) -> tuple:
    """An endpoint's outputs as immutable data, the text Gradio sends: (single?, ((kind, text), ...)). A figure is
    its plotly JSON, a record its JSON (serialised as gr.JSON does), a string itself."""
    single = not isinstance(outputs, tuple)
    items = []
    for o in (outputs,) if single else outputs:
        if isinstance(o, go.Figure):
            items.append(("plot", o.to_json()))
        elif isinstance(o, (dict, list)):
            items.append(("json", orjson.dumps(o, option=orjson.OPT_SERIALIZE_NUMPY | orjson.OPT_PASSTHROUGH_DATETIME,
                                               default=_json_default).decode("utf-8")))
        elif o is None or isinstance(o, str):
            items.append(("value", o))
        else:
            raise TypeError(f"an endpoint's output of type {type(o).__name__} cannot be shared")
    return single, tuple(items)


def from_wire(wire: tuple):
    """What the event returns for kept outputs: a new PlotData per figure, the JSON text for gr.JSON to parse (each
    call gets its own dict), strings as they are."""
    single, items = wire
    out = tuple(PlotData(type="plotly", plot=text) if kind == "plot" else text for kind, text in items)
    return out[0] if single else out


def shared(api_name: str, fn):
    """The event's handler for endpoint `api_name`: fn's outputs for these inputs, computed once for every session
    (explorer.serve.results.shared_results: kept, or waited for while in flight). Errors are not kept."""
    @functools.wraps(fn)
    def served(*args):
        request = (api_name, *(_canonical(a) for a in args))
        return from_wire(shared_results().get(request, lambda: to_wire(fn(*args))))
    return served


def _canonical(value):
    """An input as the shared results' key reads it: a whole float as its int (gradio_client sends 4 or 4.0, the
    page 4.0, and the endpoints read both as 4: one request)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _count_inputs(*values):
    """The endpoints' validator: it passes every value. Gradio checks the number of values before it calls one, and
    answers too few (a plain HTTP caller leaving out an input) with HTTP 400 and its message, which names the
    inputs wanted and received; without a validator the event failed later as `{"error": null}`."""
    return [gr.validate(True, "") for _ in values]


def build_api() -> None:
    """The endpoints' hidden components and events, inside the app's Blocks."""
    with gr.Group(visible=False):
        text, model = gr.Textbox(label="text"), gr.Textbox(label="model")  # sentence A for /nsp
        # precision=None: a fractional or non-numeric beam/top-k reaches inference's check, whose message
        # names it ("must be between 1 and 8 (got 2.5)"), instead of being rounded or failing inside Gradio
        beam = gr.Number(1, precision=None, label="beam")
        k = gr.Number(5, precision=None, label="top_k")
        b = gr.Textbox(label="sentence_b")
        target = gr.Textbox("", label="target")  # /translate_target: a translation to read teacher-forced
        translation, cross = gr.Textbox(label="translation"), gr.Plot(label="cross_attention")
        topk, nsp = gr.Plot(label="top_k"), gr.Plot(label="next_sentence")
        grid, trace = gr.Plot(label="self_attention"), gr.JSON(label="trace")
        # /generate: precision=None for the same reason as beam and top_k; a bad value reaches generate's check
        new = gr.Number(30, precision=None, label="max_new_tokens")
        temp = gr.Number(gen.DEFAULT_TEMPERATURE, label="temperature")
        top_p = gr.Number(gen.DEFAULT_TOP_P, label="top_p")
        sample_k = gr.Number(gen.DEFAULT_TOP_K, precision=None, label="sampling_top_k")
        seed, greedy = gr.Number(0, precision=None, label="seed"), gr.Checkbox(False, label="greedy")
        generated = gr.Textbox(label="text")
        prediction = gr.JSON(label="prediction")
        events = [("translate", translate_api, [text, model, beam], [translation, cross, trace]),
                  ("translate_target", translate_target_api, [text, model, target], [translation, cross, trace]),
                  ("fill_mask", fill_mask_api, [text, k], [topk, grid, trace]),
                  ("nsp", nsp_api, [text, b], [nsp, grid, trace]),
                  ("generate", generate_api, [text, new, temp, sample_k, top_p, seed, greedy], [generated, trace])]
        events += [(name, _task_endpoint(name), [text, b] if name in PAIRED else [text], prediction)
                   for name in FINETUNE_ENDPOINTS]
        for api_name, fn, inputs, outputs in events:
            gr.Button(visible=False).click(shared(api_name, fn), inputs, outputs, api_name=api_name,
                                           concurrency_id="models", validator=_count_inputs)
