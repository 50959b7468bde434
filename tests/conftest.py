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
