"""ui/limits.py over real HTTP: a small Blocks with the app's limits, served on 127.0.0.1 by Gradio itself.

The same routes the page and gradio_client use (/gradio_api/queue/join, /gradio_api/call/<name>,
/gradio_api/upload, /gradio_api/file=): an oversized body is refused before it is read, with a JSON
message; NaN, Infinity or a string in a slider's value gets a message that names it; one session's flood of one heavy
event is capped at one in flight; a session's backlog waits its turn behind other sessions (round robin);
the rate limit answers 429 with Retry-After; remote URLs are not fetched; and an ordinary request still runs.
"""
import json
import threading
import time
from dataclasses import replace

import pytest

gr = pytest.importorskip("gradio")
httpx = pytest.importorskip("httpx")

from bench.limits import multipart, post_raw  # noqa: E402
from explorer import i18n  # noqa: E402
from conftest import launch_limited, wait_idle  # noqa: E402
from ui.limits import LIMITS  # noqa: E402

HOLD = 0.6  # seconds each heavy event runs
ORDER: list[str] = []  # the order in which heavy events ran: "<session>:<function>"


def _heavy(name):
    def run(text, n, request: gr.Request):
        ORDER.append(f"{request.session_hash}:{name}")
        time.sleep(HOLD)
        return f"{name} {text} {n}"
    return run


@pytest.fixture(scope="module")
def server():
    limits = replace(LIMITS, concurrency=1)  # one worker: the order of the events is the order they run in
    with gr.Blocks() as demo:
        text, n, out = gr.Textbox(), gr.Slider(0, 10, step=1), gr.Textbox()
        for name in ("a", "b", "c", "d"):
            gr.Button(name).click(_heavy(name), [text, n], out, api_name=f"heavy_{name}", concurrency_id="models")
        gr.Button("light").click(lambda t: t.upper(), text, out, api_name="light")
    url = launch_limited(demo, limits)
    fns = {f.api_name: i for i, f in demo.fns.items()}
    try:
        yield url, fns, demo
    finally:
        demo.close()


def join(url, fn_index, session, data=("hi", 3), **headers):
    return httpx.post(f"{url}gradio_api/queue/join", headers=headers, timeout=30,
                      json={"data": list(data), "fn_index": fn_index, "session_hash": session, "trigger_id": None})


def detail(r):
    return r.json()["detail"]


def test_oversized_body_is_refused_before_it_is_read(server):
    url, _, _ = server
    for path in ("/gradio_api/call/heavy_a", "/gradio_api/queue/join"):
        for chunked in (False, True):
            a = post_raw(url, path, 20_000_000, chunked=chunked, timeout=30)
            assert a["status"] == 413, a
            assert a["sent"] < 20_000_000, a  # it answered before the body was sent (only socket buffers took some)
            assert "too large" in json.loads(a["body"])["detail"]


def test_upload_over_the_limit_is_refused(server):
    url, _, _ = server
    prefix, suffix, ctype = multipart(5_000_000)
    a = post_raw(url, "/gradio_api/upload", 5_000_000, prefix=prefix, suffix=suffix, content_type=ctype)
    assert a["status"] == 413 and "too large" in json.loads(a["body"])["detail"], a


def test_an_ordinary_call_still_runs(server):
    url, _, demo = server
    wait_idle(demo)
    r = httpx.post(f"{url}gradio_api/call/heavy_a", json={"data": ["ok", 2]}, timeout=30)
    assert r.status_code == 200, r.text
    with httpx.stream("GET", f"{url}gradio_api/call/heavy_a/{r.json()['event_id']}", timeout=30) as s:
        text = "".join(s.iter_text())
    assert "event: complete" in text and '"a ok 2' in text, text


@pytest.mark.parametrize("value", ["NaN", "Infinity", "-Infinity"])
def test_non_finite_slider_values_get_a_clear_message(server, value):
    url, fns, _ = server
    body = '{"data": ["hi", %s], "fn_index": %d, "session_hash": "nan-%s"}' % (value, fns["heavy_b"], value)
    r = httpx.post(f"{url}gradio_api/queue/join", content=body, headers={"content-type": "application/json"})
    assert r.status_code == 422 and value in detail(r) and "finite" in detail(r), r.text
    r = httpx.post(f"{url}gradio_api/call/heavy_b", content='{"data": ["hi", %s]}' % value,
                   headers={"content-type": "application/json"})
    assert r.status_code == 422 and value in detail(r), r.text


@pytest.mark.parametrize("value", ["abc", True, [1], {"a": 1}])
def test_a_slider_value_that_is_not_a_number_gets_a_clear_message(server, value):
    url, fns, _ = server
    r = join(url, fns["heavy_b"], f"not-number-{value!r}", data=("hi", value))
    assert r.status_code == 422 and "takes a number" in detail(r), r.text
    assert join(url, fns["light"], "not-number-text", data=("abc",)).status_code == 200  # a text box takes text


def test_a_flood_from_one_session_is_capped_at_two_in_flight(server):
    url, fns, demo = server
    wait_idle(demo)
    codes = []
    threads = [threading.Thread(target=lambda: codes.append(join(url, fns["heavy_c"], "flood"))) for _ in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    ok = [r for r in codes if r.status_code == 200]
    assert len(ok) == LIMITS.per_function == 2, [(r.status_code, r.text) for r in codes]
    busy = [r for r in codes if r.status_code == 429]
    assert len(busy) == 10 and all("still running" in detail(r) for r in busy)
    assert all(int(r.headers["retry-after"]) >= 1 for r in busy)
    # another session is not refused meanwhile, and the flooding session may go again once its event is done
    assert join(url, fns["heavy_c"], "other").status_code == 200
    wait_idle(demo)
    assert join(url, fns["heavy_c"], "flood").status_code == 200
    wait_idle(demo)
    # plain calls without a session (Gradio makes one per call) are each their own request: only the per-address
    # cap counts them (tests/ui/test_hostile_http.py), none is told of a "same request" still running
    calls = [httpx.post(f"{url}gradio_api/call/heavy_d", json={"data": ["x", 1]}, timeout=30) for _ in range(5)]
    assert [r.status_code for r in calls] == [200] * 5, [r.text for r in calls]
    wait_idle(demo)


def test_a_backlog_waits_its_turn_behind_other_sessions(server):
    url, fns, demo = server
    wait_idle(demo)
    ORDER.clear()
    for name in "abcd":  # session "busy" queues four heavy events (one per function: its cap allows that)
        assert join(url, fns[f"heavy_{name}"], "busy").status_code == 200
    assert join(url, fns["heavy_a"], "late").status_code == 200  # then another visitor comes
    wait_idle(demo)
    assert ORDER[0] == "busy:a" and ORDER.index("late:a") <= 2, ORDER  # not behind all four (FIFO: 5th)


def test_the_rate_limit_answers_429_with_retry_after(server):
    url, fns, demo = server
    wait_idle(demo)
    from concurrent.futures import ThreadPoolExecutor

    total = 2 * LIMITS.burst  # sent at once: far faster than the bucket refills (LIMITS.rate a second)
    with ThreadPoolExecutor(8) as pool:
        codes = list(pool.map(lambda _: join(url, fns["light"], "rate", data=("x",)), range(total)))
    statuses = [r.status_code for r in codes]
    assert LIMITS.burst <= statuses.count(200) < total and set(statuses) == {200, 429}, statuses
    refused = next(r for r in codes if r.status_code == 429)
    assert "Too many requests" in detail(refused) and int(refused.headers["retry-after"]) >= 1
    wait_idle(demo)


def test_remote_urls_are_not_fetched_by_the_file_route(server):
    url, _, _ = server
    for target in ("https://example.com/a.png", "http://169.254.169.254/latest", "HTTPS://example.com/x"):
        r = httpx.get(f"{url}gradio_api/file={target}")
        assert r.status_code == 403 and "other web sites" in detail(r), (target, r.text)


def test_messages_follow_accept_language(server):
    url, fns, _ = server
    r = httpx.post(f"{url}gradio_api/call/heavy_d", content=b"x" * 70_000,
                   headers={"content-type": "application/json", "accept-language": "ko-KR,ko;q=0.9"})
    assert r.status_code == 413 and detail(r).startswith(i18n.t("limit.body", "ko", size="", limit="")[:8]), r.text


@pytest.fixture(scope="module")
def proxied():
    """The same app behind a trusted proxy (as on a Space): at most 2 heavy events per client address."""
    limits = replace(LIMITS, concurrency=1, trust_proxy=True, trusted_hops=1, per_address=2)
    with gr.Blocks() as demo:
        text, n, out = gr.Textbox(), gr.Slider(0, 10, step=1), gr.Textbox()
        gr.Button().click(_heavy("p"), [text, n], out, api_name="heavy_p", concurrency_id="models")
    url = launch_limited(demo, limits)
    try:
        yield url, demo
    finally:
        demo.close()


def test_behind_the_proxy_one_address_is_capped_across_sessions(proxied):
    url, demo = proxied
    fn = next(i for i, f in demo.fns.items() if f.api_name == "heavy_p")
    # the proxy appends the address it saw; what comes before it is the client's own word
    spoofs = ["1.1.1.1, 9.9.9.9", "2.2.2.2, 9.9.9.9", "9.9.9.9"]
    codes = [join(url, fn, f"s{i}", **{"x-forwarded-for": h}) for i, h in enumerate(spoofs)]
    assert [r.status_code for r in codes] == [200, 200, 429], [r.text for r in codes]
    assert "Your network already has 2 requests" in detail(codes[2])
    assert join(url, fn, "other", **{"x-forwarded-for": "9.9.9.9, 8.8.8.8"}).status_code == 200
    wait_idle(demo)
