"""Starting and stopping local servers: a free port, waiting until one answers, stopping it. One home for what
deploy/replicas.py (the replicas and nginx) and bench/_server.py (the benchmarks' app) both do."""
from __future__ import annotations

import socket
import subprocess
import time
import urllib.request


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until_up(proc: subprocess.Popen, url: str, seconds: float, what: str) -> None:
    """Until `url` answers 200. RuntimeError naming `what` if the process exits first, or if `seconds` pass (then
    the process is stopped: nobody is left waiting for it)."""
    deadline = time.monotonic() + seconds
    while True:
        if proc.poll() is not None:
            raise RuntimeError(f"{what} exited with status {proc.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=2) as r:
                if r.status == 200:
                    return
        except OSError:
            pass
        if time.monotonic() > deadline:
            stop(proc)
            raise RuntimeError(f"{what} did not answer {url} within {seconds:g} s")
        time.sleep(0.05)


def stop(proc: subprocess.Popen, seconds: float = 15.0) -> None:
    """Terminate `proc` and wait for it; killed if it is still there after `seconds`."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(seconds)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
