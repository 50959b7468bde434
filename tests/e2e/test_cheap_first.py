"""ui/limits.py's cheap-first order over real HTTP: among the events of the same rank (each session's first), an
event whose function takes on average `Limits.cheap_ratio` times less than a waiting one's goes before it, and a
waiting event lets cheap ones go first for at most `Limits.max_skipped_s` of their average time (bench/limits.py
--clients 20 measures the effect in the app).
"""
import time
from dataclasses import replace

import pytest

gr = pytest.importorskip("gradio")
httpx = pytest.importorskip("httpx")

from conftest import launch_limited, wait_idle  # noqa: E402
from ui.limits import LIMITS  # noqa: E402

ORDER: list[str] = []


def _event(name, hold):
    def run(text, request: gr.Request):
        ORDER.append(f"{request.session_hash}:{name}")
        time.sleep(hold)
        return text
    return run


@pytest.fixture(scope="module")
def server():
    limits = replace(LIMITS, concurrency=1)  # one worker: the order they run in is the queue's
    with gr.Blocks() as demo:
        box = gr.Textbox()
        gr.Button().click(_event("slow", 0.5), box, box, api_name="slow", concurrency_id="models")
        gr.Button().click(_event("quick", 0.02), box, box, api_name="quick", concurrency_id="models")
    url = launch_limited(demo, limits)
    fns = {f.api_name: i for i, f in demo.fns.items()}
    try:
        yield url, fns, demo
    finally:
        demo.close()


def join(url, fn, session):
    r = httpx.post(f"{url}gradio_api/queue/join", timeout=30,
                   json={"data": ["x"], "fn_index": fn, "session_hash": session, "trigger_id": None})
    assert r.status_code == 200, r.text


def test_a_cheap_event_goes_before_expensive_ones_for_a_bounded_time(server):
    url, fns, demo = server
    for name in ("slow", "quick"):  # Gradio's average time of each function, measured once
        join(url, fns[name], f"warm-{name}")
        wait_idle(demo)
    quick = demo._queue.process_time_per_fn[demo.fns[fns["quick"]]].avg_time
    queue = demo._queue.event_queue_per_concurrency_id["models"].queue
    queue.limits = replace(queue.limits, max_skipped_s=2.5 * quick)  # room for two quick events, not three
    ORDER.clear()
    for i in range(4):
        join(url, fns["slow"], f"s{i}")  # s0 runs at once; s1..s3 wait
    join(url, fns["quick"], "q1")  # before s1 (its first skip)
    join(url, fns["quick"], "q2")  # before s1 (its second)
    join(url, fns["quick"], "q3")  # s1 has let two go first (max_skipped_s): behind s1, before s2
    wait_idle(demo)
    runs = [r.split(":")[0] for r in ORDER]
    assert runs == ["s0", "q1", "q2", "s1", "q3", "s2", "s3"], runs
    assert sorted(runs) == sorted(["s0", "s1", "s2", "s3", "q1", "q2", "q3"])


def test_a_session_s_second_waiting_event_still_waits_behind_every_first(server):
    url, fns, demo = server
    wait_idle(demo)
    ORDER.clear()
    join(url, fns["slow"], "a")  # runs
    join(url, fns["slow"], "b")  # waits (rank 1)
    join(url, fns["slow"], "a")  # a's first waiting event: behind b's
    join(url, fns["quick"], "a")  # a's second waiting event (rank 2): cheap, but behind every first
    wait_idle(demo)
    assert ORDER == ["a:slow", "b:slow", "a:slow", "a:quick"], ORDER
