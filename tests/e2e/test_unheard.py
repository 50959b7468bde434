"""Runs of a page that is not listening, and the wait a page is shown, over real HTTP: a small Blocks
with a live-training-like generator (its own queue of one, as ui/tabs/live.py) behind ui/limits.py, served by Gradio.

What Gradio 6 does itself, pinned here: a page whose /queue/data stream closes (its tab closed) loses its waiting
events at once and a running generator stops at its next step; a waiting page is sent its place in the line and the queue's
length ("estimation" messages: the page's status shows "queue: 2/2" and the time left). What ui/limits.py adds: a
page's event is dropped when its page has not listened for `Limits.unheard_s` (a client that joins and never
opens the stream), with an error left for it, and a cheap event goes before the expensive ones waiting (bounded).
"""
import json
import socket
import threading
import time
from dataclasses import replace
from urllib.parse import urlsplit

import pytest

gr = pytest.importorskip("gradio")
httpx = pytest.importorskip("httpx")

from conftest import launch_limited, wait_idle  # noqa: E402
from ui.limits import LIMITS  # noqa: E402

STEPS = 30  # a run's steps, 0.1 s each (n = 3 seconds)
STEPPED: dict[str, int] = {}  # session -> steps its run made


def train(n, request: gr.Request):
    STEPPED[request.session_hash] = 0
    for i in range(int(n * 10)):
        time.sleep(0.1)
        STEPPED[request.session_hash] = i + 1
        yield f"step {i + 1}"


def serve(limits):
    with gr.Blocks() as demo:
        n, out = gr.Slider(0, 20, step=1), gr.Textbox()
        gr.Button("train").click(train, n, out, api_name="train", concurrency_limit=1, concurrency_id="live-training")
    url = launch_limited(demo, limits)
    return demo, url, next(i for i, f in demo.fns.items() if f.api_name == "train")


@pytest.fixture(scope="module")
def dropping():
    demo, url, fn = serve(replace(LIMITS, unheard_s=1.0))
    try:
        yield url, fn, demo
    finally:
        demo.close()


@pytest.fixture(scope="module")
def gradio_only():
    """The layer's own drop out of the way (an hour), to pin what Gradio does by itself."""
    demo, url, fn = serve(replace(LIMITS, unheard_s=3600.0))
    try:
        yield url, fn, demo
    finally:
        demo.close()


def join(url, fn, session, seconds=3):
    r = httpx.post(f"{url}gradio_api/queue/join", timeout=30,
                   json={"data": [seconds], "fn_index": fn, "session_hash": session, "trigger_id": None})
    assert r.status_code == 200, r.text
    return r.json()["event_id"]


class Listener(threading.Thread):
    """A page's /queue/data stream read in a thread over a plain socket; `close()` shuts the socket, as a closed tab
    does."""

    def __init__(self, url, session):
        super().__init__(daemon=True)
        self.url, self.session, self.messages = url, session, []

    def start(self):  # after the join: Gradio answers 404 to a stream of a session with nothing pending
        u = urlsplit(self.url)
        self.sock = socket.create_connection((u.hostname, u.port), timeout=60)
        self.sock.sendall(f"GET /gradio_api/queue/data?session_hash={self.session} HTTP/1.1\r\nHost: {u.netloc}"
                          "\r\nAccept: text/event-stream\r\n\r\n".encode())
        super().start()

    def run(self):
        try:
            for line in self.sock.makefile("rb"):
                if line.startswith(b"data:"):  # one message per chunk; chunk sizes are lines of their own
                    self.messages.append(json.loads(line[5:]))
        except (OSError, ValueError):  # the socket shut under the reader (close())
            pass

    def close(self):
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()
        self.join(10)

    def completed(self):
        return [m for m in self.messages if m.get("msg") == "process_completed"]


def wait_for(cond, timeout=15):
    t0 = time.monotonic()
    while not cond():
        assert time.monotonic() - t0 < timeout, "timed out"
        time.sleep(0.05)


def test_a_listening_page_runs_to_the_end(dropping):
    url, fn, demo = dropping
    wait_idle(demo)
    page = Listener(url, "seen")
    join(url, fn, "seen")
    page.start()
    wait_for(lambda: page.completed(), timeout=30)
    assert STEPPED["seen"] == STEPS and page.completed()[0]["success"]
    page.close()


def test_a_run_nobody_listens_to_stops_and_a_waiting_one_never_starts(dropping):
    url, fn, demo = dropping
    wait_idle(demo)
    holder = Listener(url, "holder")  # a page that listens holds the one slot for 3 s
    join(url, fn, "holder")
    holder.start()
    wait_for(lambda: STEPPED.get("holder", 0) > 0)
    join(url, fn, "ghost-waiting")  # waits behind it; nobody ever opens its stream
    wait_for(lambda: holder.completed(), timeout=30)
    wait_idle(demo)
    assert STEPPED["holder"] == STEPS and "ghost-waiting" not in STEPPED, STEPPED
    holder.close()
    join(url, fn, "ghost-running")  # starts at once, unheard as well
    wait_idle(demo, timeout=10)
    assert STEPPED["ghost-running"] < STEPS * 2 // 3, STEPPED  # stopped ~1 s in (the layer's unheard_s), not 3 s
    # a page that comes back late is told why its run is gone
    late = Listener(url, "ghost-waiting")
    late.start()
    wait_for(lambda: late.completed())
    done = late.completed()[0]
    assert not done["success"] and "not listening" in done["output"]["error"], done
    late.close()


def test_gradio_drops_the_waiting_run_of_a_closed_page(gradio_only):
    url, fn, demo = gradio_only
    wait_idle(demo)
    first = Listener(url, "first")
    join(url, fn, "first")
    first.start()
    wait_for(lambda: STEPPED.get("first", 0) > 0)
    gone = Listener(url, "gone")
    join(url, fn, "gone")
    gone.start()
    wait_for(lambda: any(m.get("msg") == "estimation" for m in gone.messages))
    gone.close()  # the tab closes while its run waits
    wait_for(lambda: first.completed(), timeout=30)
    wait_idle(demo)
    assert STEPPED["first"] == STEPS and "gone" not in STEPPED, STEPPED
    first.close()


def test_gradio_stops_the_running_generator_of_a_closed_page(gradio_only):
    url, fn, demo = gradio_only
    wait_idle(demo)
    page = Listener(url, "leaves")
    join(url, fn, "leaves")
    page.start()
    wait_for(lambda: STEPPED.get("leaves", 0) >= 3)
    page.close()
    wait_idle(demo, timeout=10)
    time.sleep(0.3)
    assert STEPPED["leaves"] < STEPS * 2 // 3, STEPPED


def test_a_waiting_page_is_told_its_place_in_the_line(gradio_only):
    url, fn, demo = gradio_only
    wait_idle(demo)
    pages = [Listener(url, f"line{i}") for i in range(3)]
    for p in pages:
        join(url, fn, p.session)
        p.start()
    wait_for(lambda: all(p.completed() for p in pages), timeout=40)
    last = [m for m in pages[2].messages if m.get("msg") == "estimation"]
    # the third page was told it waits behind one (rank 1, 0-based) in a line of two, then that it is next
    assert last and last[0]["queue_size"] >= 2 and last[0]["rank"] >= 1, last
    assert min(m["rank"] for m in last) == 0, last
    assert any(m.get("rank_eta") for m in last), last  # the time left, once one run has been timed
    for p in pages:
        p.close()
