"""Start `python app.py` on a free port and wait until it answers (shared by the benchmarks)."""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


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


def wait_until_up(proc: subprocess.Popen, url: str, seconds: float, what: str) -> None:
    """Until `url` answers 200; RuntimeError (the process killed) if it exits or stays silent for `seconds`."""
    t0 = time.perf_counter()
    while True:
        if proc.poll() is not None:
            raise RuntimeError(f"{what} exited with status {proc.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=1) as r:
                if r.status == 200:
                    return
        except OSError:
            pass
        if time.perf_counter() - t0 > seconds:
            proc.kill()
            raise RuntimeError(f"{what} did not answer within {seconds:g} s")
        time.sleep(0.05)


def stop(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
