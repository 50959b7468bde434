"""deploy/replicas.py: two replicas of `python app.py` behind nginx. A small class (bench/classroom.py's students, each
its own gradio_client session and page) runs through it without an error; every request of a session reaches one replica
(nginx's access log, by the session's cookie), and the sessions of one address are spread over both; a plain HTTP
caller without cookies (curl) gets its result, its POST and its event stream meeting on one replica."""
import subprocess
from collections import defaultdict

import httpx
import pytest

from bench.classroom import KINDS, run_class
from deploy.processes import free_port
from deploy.replicas import COOKIE, nginx_binary, serve, standalone_config
from explorer.compute import inference as inf

NEEDED = ("transformer-en-fr", "bert")
pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(nginx_binary() is None,
                                 reason="nginx is not installed (`make test` installs it: apt-get install nginx)"),
              pytest.mark.skipif(not all((inf.ASSETS / n / "config.json").is_file() for n in NEEDED),
                                 reason="shipped checkpoints missing from assets/")]


def test_the_config_is_valid_nginx(tmp_path):
    (tmp_path / "tmp").mkdir()
    conf = tmp_path / "nginx.conf"
    conf.write_text(standalone_config(tmp_path, [7861, 7862, 7863], "127.0.0.1:8080"))
    done = subprocess.run([nginx_binary(), "-t", "-p", str(tmp_path), "-e", str(tmp_path / "error.log"), "-c",
                           str(conf)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


@pytest.fixture(scope="module")
def deployment():
    with serve(replicas=2, port=free_port()) as d:
        yield d


def test_a_class_through_two_replicas(deployment):
    times, errors, _ = run_class(deployment.url, students=6, window=3.0, seed=1)
    assert not errors, errors
    assert all(len(times[kind]) == 6 for kind in KINDS), times  # the API's calls and the page's Translate
    served = defaultdict(set)  # cookie -> the replicas that answered its requests
    for cookie, replica, status, request in deployment.routes():
        if cookie != "-":
            served[cookie].add(replica)
    # 6 gradio_client sessions and 6 pages, one cookie each (their /config set it)
    assert len(served) >= 12 and all(len(r) == 1 for r in served.values()), served


def test_sessions_of_one_address_are_spread_and_sticky(deployment):
    """30 pages opened from one address: each keeps its replica for all its requests, and both replicas get some
    (one replica for all 30 would happen by chance once in 2^29)."""
    replicas = set()
    for _ in range(30):
        with httpx.Client(base_url=deployment.url, timeout=30) as page:  # its own cookie jar: a browser
            assert page.get("/").status_code == 200 and COOKIE in page.cookies
            for _ in range(3):
                assert page.get("/config").status_code == 200
    rows = [r for r in deployment.routes() if r[3].startswith("GET /config")]
    by_cookie = defaultdict(set)
    for cookie, replica, status, _ in rows[-90:]:
        by_cookie[cookie].add(replica)
        replicas.add(replica)
    assert len(by_cookie) == 30 and all(len(r) == 1 for r in by_cookie.values())
    assert replicas == set(deployment.replicas)


def test_a_plain_http_caller_without_cookies(deployment):
    r = httpx.post(f"{deployment.url}gradio_api/call/fill_mask", json={"data": ["I am a [MASK] .", 3]}, timeout=60)
    assert r.status_code == 200 and "set-cookie" not in r.headers  # a call is routed by its address, uncookied
    event = None
    with httpx.stream("GET", f"{deployment.url}gradio_api/call/fill_mask/{r.json()['event_id']}", timeout=120) as s:
        for line in s.iter_lines():
            if line.startswith("event:"):
                event = line.split(":", 1)[1].strip()
                if event in ("complete", "error"):
                    break
    assert event == "complete"
