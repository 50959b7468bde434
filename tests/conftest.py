import os
import sys
from pathlib import Path

import pytest
import torch

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
# Tests run many tiny ops; one thread avoids oversubscription on small CI machines.
torch.set_num_threads(int(os.environ.get("TEST_TORCH_THREADS", "1")))


def pytest_configure(config):
    config.addinivalue_line("markers", "browser: drives a real Chromium (needs chromium + playwright)")
    config.addinivalue_line("markers", "slow: takes more than a few seconds")


@pytest.fixture(autouse=True)
def _seed():
    torch.manual_seed(0)


def drawn_json(fig: dict) -> dict:
    """A figure's plotly JSON less its traces' meta.table: that is plain text on purpose (figures.value_table), which
    the page writes as text, never as markup, and plotly does not draw; a tag there is the user's text, read out as
    typed. What is left is what plotly renders, where user text must arrive escaped."""
    traces = [{**t, "meta": {k: v for k, v in (t.get("meta") or {}).items() if k != "table"}}
              for t in fig.get("data", [])]
    return {**fig, "data": traces}


def launch_limited(demo, limits) -> str:
    """Serve a small test app with ui/limits.py's `limits` applied, on a free local port; returns its URL (the caller
    closes the demo). For the tests that pin the limits over real HTTP."""
    from bench._server import free_port
    from ui.limits import apply_limits, launch_kwargs

    demo.queue()
    apply_limits(demo, limits)
    port = free_port()
    demo.launch(server_name="127.0.0.1", server_port=port, prevent_thread_lock=True, quiet=True,
                **launch_kwargs(limits))
    return f"http://127.0.0.1:{port}/"


def wait_idle(demo, timeout=30):
    """Until the demo's queue has nothing waiting or running."""
    import time

    t0 = time.monotonic()
    while len(demo._queue) or any(demo._queue.active_jobs):
        assert time.monotonic() - t0 < timeout, "the queue never emptied"
        time.sleep(0.05)
