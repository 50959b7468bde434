"""`python app.py` itself, over real HTTP, with ui/limits.py wired in (a public Space one visitor
cannot take down): a 20 MB /translate body is
refused with a JSON message before it is read and the server does not grow; NaN in a slider's value gets a
message that names it; one session's flood of /translate is capped at one in flight while another visitor is
served; a 5 MB upload is refused; and /translate still answers, with its record rounded to API_DECIMALS."""
import json

import pytest

httpx = pytest.importorskip("httpx")
psutil = pytest.importorskip("psutil")

from bench._server import start_app, stop  # noqa: E402
from bench.limits import multipart, padded, post_raw  # noqa: E402
from explorer.compute import inference as inf  # noqa: E402
from ui.limits import LIMITS  # noqa: E402

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not (inf.ASSETS / "transformer-en-fr" / "config.json").is_file(),
                                 reason="shipped checkpoints missing from assets/")]


@pytest.fixture(scope="module")
def app():
    proc, url, _ = start_app()
    try:
        config = httpx.get(f"{url}config", timeout=30).json()
        fns = {d.get("api_name"): i for i, d in enumerate(config["dependencies"]) if d.get("api_name")}
        yield url, psutil.Process(proc.pid), fns, config
    finally:
        stop(proc)


def result(url, r):
    with httpx.stream("GET", f"{url}gradio_api/call/translate/{r.json()['event_id']}", timeout=120) as s:
        return "".join(s.iter_text())


def test_a_20_mb_body_is_refused_and_the_server_does_not_grow(app):
    url, server, _, _ = app
    before = server.memory_info().rss
    a = post_raw(url, "/gradio_api/call/translate", 20_000_000, timeout=60)
    assert a["status"] == 413 and "too large" in json.loads(a["body"])["detail"], a
    assert a["sent"] < 20_000_000
    assert server.memory_info().rss - before < 10 * 2**20  # the target: <= 10 MB


def test_a_5_mb_upload_is_refused(app):
    url, _, _, _ = app
    prefix, suffix, ctype = multipart(5_000_000)
    a = post_raw(url, "/gradio_api/upload", 5_000_000, prefix=prefix, suffix=suffix, content_type=ctype)
    assert a["status"] == 413, a


def test_nan_in_a_slider_gets_a_message_that_names_it(app):
    url, _, _, config = app
    sliders = {c["id"] for c in config["components"] if c.get("type") == "slider"}
    index = next(i for i, d in enumerate(config["dependencies"]) if set(d.get("inputs", [])) & sliders)
    inputs = config["dependencies"][index]["inputs"]
    data = ", ".join("NaN" if i in sliders else "null" for i in inputs)
    body = '{"data": [%s], "fn_index": %d, "session_hash": "nan-test"}' % (data, index)
    r = httpx.post(f"{url}gradio_api/queue/join", content=body, headers={"content-type": "application/json"})
    assert r.status_code == 422 and "NaN" in r.json()["detail"] and "finite" in r.json()["detail"], r.text


def test_a_flood_from_one_session_is_capped_and_another_visitor_is_served(app):
    url, _, fns, _ = app
    long = "The old man walked slowly along the quiet river while the children played near the bridge. " * 2
    body = {"data": padded(url, [long, "transformer-en-fr", 8]), "session_hash": "flood"}  # + /translate's target
    codes = [httpx.post(f"{url}gradio_api/call/translate", json=body, timeout=30).status_code for _ in range(10)]
    assert codes.count(200) == LIMITS.per_function == 2 and codes.count(429) == 8, codes  # one running, one next
    r = httpx.post(f"{url}gradio_api/call/translate", timeout=30,
                   json={"data": padded(url, ["I am a student.", "transformer-en-fr", 1]), "session_hash": "visitor"})
    assert r.status_code == 200
    text = result(url, r)
    lines = text.splitlines()
    assert "event: complete" in lines, text[:300]
    record = json.loads(lines[lines.index("event: complete") + 1].removeprefix("data: "))[2]
    cross = record["attention"]["cross"]
    values = [v for layer in cross for head in layer for row in head for v in row]
    assert values and all(round(v, inf.API_DECIMALS) == v for v in values)  # the compact record


def test_live_training_shows_the_visitor_its_place_in_the_line(app):
    """The live tab's Start runs in a queue of one; the page shows a waiting visitor Gradio's status over its
    outputs ("queue: 2/3" and the seconds left, from the "estimation" messages tests/e2e/test_unheard.py pins):
    show_progress "full", never "hidden", and the event is the page's only (no public API name)."""
    _, _, _, config = app
    start = {c["id"] for c in config["components"]
             if c.get("type") == "button" and c["props"].get("value") == "Start training"}
    deps = [d for d in config["dependencies"] if any(t[0] in start and t[1] == "click" for t in d["targets"])]
    assert len(deps) == 1 and deps[0]["queue"] is not False
    assert deps[0]["show_progress"] == "full" and deps[0]["api_visibility"] == "private", deps[0]
    assert deps[0]["outputs"]  # the status is drawn over these
