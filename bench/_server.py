"""Start `python app.py` on a free port and wait until it answers (shared by the benchmarks; the process helpers
themselves live in deploy/processes.py)."""
from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from deploy.processes import free_port, stop, wait_until_up  # noqa: F401 - the benchmarks import them from here

ROOT = Path(__file__).resolve().parent.parent


def start_app(port: int | None = None, env: dict | None = None, on_spawn=None,
              cwd: Path | None = None) -> tuple[subprocess.Popen, str, float]:
    """(process, url, seconds until the first HTTP 200). The app loads every model before it listens. `cwd`: another
    checkout's app.py (default: this one)."""
    port = port or free_port()
    e = {**os.environ, "GRADIO_SERVER_PORT": str(port), "GRADIO_ANALYTICS_ENABLED": "False", **(env or {})}
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "app.py"], cwd=cwd or ROOT, env=e, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    if on_spawn:
        on_spawn(proc.pid)
    url = f"http://127.0.0.1:{port}/"
    wait_until_up(proc, url, 120, "app.py")
    return proc, url, time.perf_counter() - t0
