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
