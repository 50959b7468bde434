"""`python app.py` over real HTTP (the routes the page uses: queue/join and the session's event stream): slider moves
write no file, the download button writes files that parse back to the result, and the timed clean-up deletes them
once they are older than the age (explorer/serve/downloads.py), so that
the app's disk stays under its budget. The app runs with its own temporary folders
and a clean-up every second of files older than 3 s."""
import time
from pathlib import Path

import pytest

httpx = pytest.importorskip("httpx")

from bench._server import start_app, stop  # noqa: E402
from bench.disk import Session, find, folder_files, written  # noqa: E402
from explorer.compute import inference as inf  # noqa: E402

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not (inf.ASSETS / "transformer-en-fr" / "config.json").is_file(),
                                 reason="shipped checkpoints missing from assets/")]
AGE_S = 3


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("disk")
    folders = [tmp / "tmp", tmp / "gradio"]
    for f in folders:
        f.mkdir()
    proc, url, _ = start_app(env={"TMPDIR": str(folders[0]), "GRADIO_TEMP_DIR": str(folders[1]),
                                  "ATTN_EXPLORER_DISK_AGE_S": str(AGE_S), "ATTN_EXPLORER_SWEEP_S": "1",
                                  "ATTN_EXPLORER_WARM": "0"})
    try:
        config = httpx.get(f"{url}config", timeout=30).json()
        yield url, config, folders
    finally:
        stop(proc)


def test_slider_moves_write_nothing_and_a_press_writes_files_the_clean_up_deletes(app):
    url, config, folders = app
    tab = next(t for t in find(config) if t["name"] == "Translate")  # the Transformer tab
    s = Session(url, config)
    s.run(tab["run"])
    before = folder_files(folders)
    for k in range(10):
        index, slider = tab["sliders"][k % len(tab["sliders"])]
        s.run(index, {slider: 1 + k % 2})
    assert written(before, folder_files(folders)) == (0, 0)

    done = s.run(tab["press"])
    files = done["output"]["data"][0]
    names = [Path(f["path"]).name for f in files]
    assert names[0] == "transformer-en-fr.json" and names[-1].startswith("plotly-"), names
    record = httpx.get(files[0]["url"], timeout=30).json()
    assert record["model"] == "transformer-en-fr" and record["translation"]
    cross = record["attention"]["cross"]
    assert all(abs(sum(row) - 1) < 1e-4 for layer in cross for head in layer for row in head)  # rows of attention
    page = httpx.get(files[names.index("transformer-en-fr-figures.html")]["url"], timeout=30).text
    assert f"<script src='{names[-1]}'>" in page and len(page) < 1_000_000
    paths = [Path(f["path"]) for f in files]
    assert all(p.is_file() and p.is_relative_to(folders[1]) for p in paths)  # in Gradio's cache, one copy

    deadline = time.time() + AGE_S + 10
    while any(p.exists() for p in paths) and time.time() < deadline:
        time.sleep(0.25)
    assert not any(p.exists() for p in paths)  # older than the age: deleted by the timed clean-up
    assert httpx.get(files[0]["url"], timeout=30).status_code in (403, 404)  # no longer served (Gradio: 403)
