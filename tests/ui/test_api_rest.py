"""Every public endpoint of ui/api.py over plain HTTP, as curl or the "Use via API" page calls it: POST
/gradio_api/call/<name> with the values docs/api.md documents, then GET the event stream. A result comes back, and
every error a caller can cause comes back with its message, word for word (not HTML-escaped), the same as
gradio_client's. The endpoints run in a small app of their own (tests/conftest.py's launch_limited), with the app's
request limits, on a free local port."""
import json
import time
from concurrent.futures import ThreadPoolExecutor

import gradio as gr
import httpx
import numpy as np
import plotly.graph_objects as go
import pytest

from explorer.compute import inference as inf
from conftest import launch_limited

NEEDED = ("transformer-en-fr", "bert", "gpt", "finetune/sentiment")
pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not all((inf.ASSETS / n / "config.json").is_file() for n in NEEDED),
                                 reason="shipped checkpoints missing from assets/")]
EN, FR = "I am a student.", "Je suis un étudiant."


@pytest.fixture(scope="module")
def url():
    from ui.api import build_api
    from ui.limits import LIMITS

    with gr.Blocks() as demo:
        build_api()
    url = launch_limited(demo, LIMITS)
    try:
        yield url
    finally:
        demo.close()


def call(url: str, name: str, data=None, body: str | None = None) -> tuple[str, object]:
    """(event, data) of one plain HTTP call: "complete" and the outputs, "error" and its payload, or the HTTP
    status and its JSON when the POST itself is refused. `body`: the raw JSON sent instead of {"data": data}."""
    kw = {"content": body, "headers": {"Content-Type": "application/json"}} if body else {"json": {"data": data}}
    r = httpx.post(f"{url}gradio_api/call/{name}", timeout=60, **kw)
    if r.status_code != 200:
        return str(r.status_code), r.json()
    event = None
    with httpx.stream("GET", f"{url}gradio_api/call/{name}/{r.json()['event_id']}", timeout=120) as s:
        for line in s.iter_lines():
            if line.startswith("event:"):
                event = line.split(":", 1)[1].strip()
            elif line.startswith("data:") and event in ("complete", "error"):
                return event, json.loads(line.split(":", 1)[1])
    raise AssertionError(f"/{name}: the stream ended without a result")


def test_translate_with_its_three_documented_values(url):
    event, (translation, figure, record) = call(url, "translate", [EN, "transformer-en-fr", 4])
    assert event == "complete" and translation == record["translation"] == "Je suis étudiant."
    assert json.loads(figure["plot"])["data"] and "forced" not in record


def test_translate_target_reads_a_typed_translation(url):
    event, (text, _, record) = call(url, "translate_target", [EN, "transformer-en-fr", FR])
    assert event == "complete" and text == FR and record["forced"]
    assert [s["token"] for s in record["steps"]][:3] == ["▁Je", "▁suis", "▁un"]


def test_fill_mask_and_nsp(url):
    event, (topk, grid, record) = call(url, "fill_mask", ["I am a [MASK].", 3])
    assert event == "complete" and len(record["masks"][0]["predictions"]) == 3
    event, (bars, grid, record) = call(url, "nsp", ["the man went to the store .", "he bought a gallon of milk ."])
    assert event == "complete" and abs(record["is_next"] + record["not_next"] - 1) < 1e-6


def test_generate_with_all_seven_values(url):
    event, (text, record) = call(url, "generate", ["The students opened their", 4, 0.7, 50, 0.95, 0, False])
    assert event == "complete" and text == record["text"] and len(record["steps"]) <= 4


@pytest.mark.parametrize("name, data, key", [
    ("sentiment_analysis", ["I love this product!"], "label"),
    ("sentiment_analysis", ["I love this product!", ""], "label"),  # the two values the endpoint took before
    ("nli", ["A man plays a guitar .", "A man makes music ."], "label"),
    ("pos", ["I saw the man ."], "tags"),
    ("ner", ["Tim Cook visited New York ."], "tags"),
    ("question_answering", ["Who invented the piano?", "The piano was invented by Cristofori."], "answer"),
])
def test_fine_tuned_tasks(url, name, data, key):
    event, (prediction,) = call(url, name, data)
    assert event == "complete" and key in prediction, prediction


@pytest.mark.parametrize("name, data, message", [
    ("translate", [EN, "</s>", 1], "Unknown model '</s>'. Available: "),  # not &lt;/s&gt;
    ("translate", ["", "transformer-en-fr", 1], "Please type a sentence: the input is empty."),
    ("translate", [EN, "transformer-en-fr", 9], "Beam size must be between 1 and 8 (got 9)."),
    ("translate_target", [EN, "transformer-en-fr", ""], "Please type a target: the input is empty."),
    ("fill_mask", ["no <mask> & no mask", 5], "Put at least one [MASK] in the sentence"),
    ("fill_mask", ["I am a [MASK].", "abc"], "top-k must be a whole number between 1 and 100."),
    ("nsp", ["the man went to the store .", " "], "second sentence"),
    ("generate", ["The", 4, 0.0, 0, 1.0, 0, False], "Temperature must be above 0 and at most 5 (got 0.0)"),
    ("generate", ["The", 4, 1.0, 0, -1e-320, 0, False], "Top-p must be above 0 and at most 1 (got -1e-320)"),
    ("sentiment_analysis", [""], "Please type"),
    ("question_answering", ["Who?", ""], "Please give a paragraph to find the answer in"),
])
def test_errors_arrive_with_their_message(url, name, data, message):
    event, payload = call(url, name, data)
    assert event == "error" and payload["error"] and message in payload["error"], payload
    assert "&lt;" not in payload["error"] and "&amp;" not in payload["error"]


@pytest.mark.parametrize("field, name", [(2, "Temperature"), (4, "Top-p")])
def test_an_overflowing_number_is_refused_not_read_as_infinity(url, field, name):
    """Python's JSON reads 1e400 as inf (JSON has no infinity). Refused with a message: at the door (ui/limits.py,
    422 naming it) or else by /generate's own check, which the second half calls directly."""
    from ui.api import generate_api

    values = ['"The"', "4", "1.0", "0", "1.0", "0", "false"]
    values[field] = "1e400"
    event, payload = call(url, "generate", body='{"data": [%s]}' % ", ".join(values))
    message = payload.get("detail") or payload.get("error") or ""
    assert event in ("422", "error") and ("1e400" in message or "infinity, a number too large" in message), payload
    args = ["The", 4, 1.0, 0, 1.0, 0, False]
    args[field] = json.loads("1e400")
    with pytest.raises(gr.Error, match=rf"{name} must be above 0 and at most \S+ \(got infinity, a number too large"):
        generate_api(*args)


@pytest.mark.parametrize("field", [2, 4])
def test_a_temperature_or_top_p_just_above_zero_is_the_argmax(url, field):
    """1e-320 is 0 in float32 (logits / T overflowed, top-p kept no token: torch's error, the generic message);
    explorer.compute.generate floors it where the draw is the argmax, over the API as in Python and the CLI."""
    args = ["The students opened their", 4, 1.0, 0, 1.0, 0, False]
    args[field] = 1e-320
    event, (text, record) = call(url, "generate", args)
    assert event == "complete" and text == call(url, "generate", args[:6] + [True])[1][0]


def test_too_few_values_are_refused_with_a_message(url):
    """Gradio 6.31 fills no missing input over plain HTTP: the POST is answered 400 naming the inputs."""
    status, payload = call(url, "translate", [EN, "transformer-en-fr"])
    assert status == "400" and "needed: 3, got: 2" in payload["detail"]
    status, payload = call(url, "nli", ["A man plays a guitar ."])
    assert status == "400" and "needed: 2, got: 1" in payload["detail"]


def test_gradio_client_reads_the_same_message(url):
    gradio_client = pytest.importorskip("gradio_client")
    client = gradio_client.Client(url, verbose=False, download_files=False)
    for name, args in [("translate", (EN, "</s>", 1)), ("generate", ("The", 4, 0.0, 0, 1.0, 0, False))]:
        with pytest.raises(gradio_client.exceptions.AppError) as e:
            client.predict(*args, api_name=f"/{name}")
        assert str(e.value) == call(url, name, list(args))[1]["error"]
    text, _, record = client.predict(EN, "transformer-en-fr", api_name="/translate")  # beam's default: 1
    assert text == record["translation"]


def wait_until(condition, timeout=30.0):
    t0 = time.monotonic()
    while not condition():
        assert time.monotonic() - t0 < timeout, "condition never met"
        time.sleep(0.005)


def test_identical_calls_at_once_run_the_model_once(url, monkeypatch):
    """Two callers, the same request at the same time: the second waits for the first's run (explorer/serve/results.py),
    and a third, later, gets the kept result."""
    from explorer.serve.results import shared_results

    text = "Forty students typed this sentence at once."
    request = ("translate", text, "transformer-en-fr", 4)  # the key of 4 and 4.0 alike (ui.api._canonical)
    runs, real = [], inf.translate

    def counted(*args, **kwargs):
        runs.append(args)
        if len(runs) == 1:
            wait_until(lambda: shared_results().waiting(request) >= 1)  # the other caller waits for this run
        return real(*args, **kwargs)

    monkeypatch.setattr(inf, "translate", counted)
    with ThreadPoolExecutor(2) as pool:
        outs = list(pool.map(lambda beam: call(url, "translate", [text, "transformer-en-fr", beam]), (4, 4.0)))
    assert len(runs) == 1 and outs[0][0] == "complete" and outs[0] == outs[1]
    assert call(url, "translate", [text, "transformer-en-fr", 4]) == outs[0] and len(runs) == 1
    assert call(url, "translate", [text, "transformer-en-fr", 3])[0] == "complete" and len(runs) == 2


def test_every_caller_gets_its_own_copy():
    """What a shared handler returns is text (the figure's and the record's JSON); Gradio parses it for each call,
    so one caller changing its record changes nobody else's."""
    from ui.api import shared

    calls = []

    def endpoint(text):
        calls.append(text)
        return text.upper(), go.Figure(go.Bar(y=[1, 2])), {"tokens": ["a", "b"], "x": np.float32(0.5)}

    served = shared("test_copy", endpoint)
    first, second = served("same"), served("same")
    assert len(calls) == 1 and first[0] == second[0] == "SAME" and first[1] is not second[1]
    a, b = (gr.JSON().postprocess(out[2]).root for out in (first, second))
    assert a == b == {"tokens": ["a", "b"], "x": 0.5} and a is not b
    a["tokens"].append("changed")
    assert gr.JSON().postprocess(served("same")[2]).root["tokens"] == ["a", "b"]
    assert json.loads(gr.Plot().postprocess(first[1]).plot)["data"][0]["y"] == [1, 2]


def test_named_values_take_the_defaults_and_extra_values_are_ignored(url):
    """The "Use via API" page's recipe (/gradio_api/call/v2/<name>, values by name) fills a value left out with its
    default (beam 1); a fourth value to /translate, as it took for a day, and a second to /sentiment_analysis, as
    it took before, are ignored by Gradio (tests above)."""
    r = httpx.post(f"{url}gradio_api/call/v2/translate", json={"text": EN, "model": "transformer-en-fr"}, timeout=60)
    assert r.status_code == 200
    with httpx.stream("GET", f"{url}gradio_api/call/translate/{r.json()['event_id']}", timeout=120) as s:
        lines = [line for line in s.iter_lines() if line.startswith(("event:", "data:"))]
    assert "event: complete" in lines and json.loads(lines[lines.index("event: complete") + 1][5:])[0] == \
        "Je suis étudiant."
    event, (text, _, record) = call(url, "translate", [EN, "transformer-en-fr", 1, FR])
    assert event == "complete" and text == "Je suis étudiant." and "forced" not in record
