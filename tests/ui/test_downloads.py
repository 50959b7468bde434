"""Downloads on demand and the disk budget (explorer/serve/downloads.py, ui.components.downloads): a run
or a slider move writes no file.

A run or a slider move writes no file; the download button writes files that parse back to the record on
screen; past the API's token limit the JSON keeps the heads' mean; the figures page loads one plotly.js
beside it; the disk budget deletes files past their age and the oldest past the budget. tests/e2e/test_disk.py
checks the same over real HTTP against `python app.py`."""
import dataclasses
import json
import os
import re
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

gr = pytest.importorskip("gradio")

import app  # noqa: E402  (builds the demo)
from explorer.serve import downloads as dl  # noqa: E402
from explorer.compute import inference as inf  # noqa: E402
from models.trace import Trace  # noqa: E402
from ui import components as uc  # noqa: E402

needs = pytest.mark.skipif(not {"transformer-en-fr", "bert"} <= set(inf.registry().names()),
                           reason="the shipped checkpoints under assets/ did not load")


@pytest.fixture
def folders(tmp_path, monkeypatch):
    """Gradio's cache and the explorer's default folder, empty and this test's own."""
    monkeypatch.setenv("GRADIO_TEMP_DIR", str(tmp_path / "gradio"))
    monkeypatch.setenv(dl.FOLDER_ENV, str(tmp_path / "downloads"))
    monkeypatch.setattr(dl, "_BUDGET", None)
    monkeypatch.setattr(dl, "_EXTRA", [])
    return tmp_path


def files_under(folder: Path) -> list[Path]:
    return [p for p in folder.rglob("*") if p.is_file()]


@needs
def test_runs_and_slider_moves_write_nothing_and_the_button_writes_the_record_on_screen(folders):
    tab = app.demo.tabs["transformer"]
    out = tab.run("I am a student.", "transformer-en-fr", 1, 1, 1, "en")
    for layer, head in [(1, 2), (2, 3), (1, 1), (2, 2)]:  # slider moves
        moved = tab.show_heads(out[tab.record], layer, head, "en")
    assert files_under(folders) == []
    pending = moved[tab.files]
    assert isinstance(pending, dl.Downloads) and len(pending) == 6
    written = [Path(p) for p in uc.write_files(pending)]
    assert [p.name for p in written[:-1]] == list(pending.names) and written[-1].name == dl.plotly_js_name()
    assert all(p.is_relative_to(folders / "gradio") for p in written)  # in Gradio's cache: served without a copy
    record = tab.stored(out[tab.record])
    assert json.loads(written[0].read_bytes()) == json.loads(json.dumps(record.to_json()))  # every head (few tokens)
    cross = pd.read_csv(next(p for p in written if p.name.endswith("-cross-L2H2.csv")), index_col=0)
    np.testing.assert_allclose(cross.to_numpy(), record.trace.cross[1, 1], rtol=1e-6)  # the slider's L2 H2
    page = next(p for p in written if p.name.endswith("-figures.html")).read_text(encoding="utf-8")
    scripts = re.findall(r"<script src='([^']+)'>", page)
    assert scripts == [dl.plotly_js_name()] and f"https://cdn.plot.ly/{dl.plotly_js_name()}" in page
    assert len(page) < 1_000_000 < written[-1].stat().st_size  # plotly.js once, beside the page, not inlined
    again = [Path(p) for p in uc.write_files(pending)]
    assert again[-1] == written[-1] and again[0] != written[0]  # one copy of plotly.js for every page


@needs
def test_slider_moves_on_one_record_keep_one_set_of_downloads_waiting(folders):
    """Each move replaces the last move's downloads in the waiting cache (one entry, its record counted once), so
    one visitor's slider cannot push out another's; another run (another record) is another entry."""
    tab = app.demo.tabs["transformer"]
    out = tab.run("I am a student.", "transformer-en-fr", 1, 1, 1, "en")
    waiting = len(dl.pending())
    for head in (2, 3, 4, 5):
        moved = tab.show_heads(out[tab.record], 1, head, "en")[tab.files]
    assert len(dl.pending()) == waiting
    assert moved.source == out[tab.files].source
    assert any(p.endswith("-cross-L1H5.csv") for p in moved.write())  # the last move's head
    tab.run("The cat sat on the mat.", "transformer-en-fr", 1, 1, 1, "en")
    assert len(dl.pending()) == waiting + 1


@needs
def test_the_button_does_nothing_before_a_result_and_says_when_the_files_are_gone(folders):
    assert uc.write_files(None) is None and uc.write_files(dl.NO_DOWNLOADS) is None
    v = app.demo.tabs["transformer"].run("I am a student.", "transformer-en-fr", 1, 1, 1, "ko")
    pending = v[app.demo.tabs["transformer"].files]
    dl.pending().discard(pending.source)
    with pytest.raises(gr.Error, match="다시 실행"):  # in the view's language
        uc.write_files(pending)


@needs
def test_past_the_api_token_limit_the_json_keeps_the_mean_over_heads(folders):
    limit = dl.heads_max_tokens()
    long = " ".join(["the man went to the store and bought a gallon of milk ."] * 8) + " [MASK] ."
    r = inf.fill_mask(long, 3)
    assert len(r.tokens) > limit
    saved = json.loads(Path(dl.to_download("bert", r, {}).write()[0]).read_bytes())
    att = np.asarray(saved["attention"]["enc_self"], dtype=np.float64)
    L, H, T, _ = r.trace.enc_self.shape
    assert att.shape == (L, 1, T, T) and str(limit) in saved["download_note"]
    np.testing.assert_allclose(att[:, 0], r.trace.enc_self.mean(1), atol=1e-6)
    np.testing.assert_allclose(att.sum(-1), 1, atol=1e-4)  # still rows of attention
    short = inf.fill_mask("I am a [MASK] .", 3)
    saved = json.loads(Path(dl.to_download("bert", short, {}).write()[0]).read_bytes())
    assert np.asarray(saved["attention"]["enc_self"]).shape == short.trace.enc_self.shape  # every head
    assert "download_note" not in saved


def test_a_plain_per_head_array_keeps_its_mean_past_the_limit(folders):
    """A record with a [L, H, q, k] array outside a Trace (a rollout's) follows the same rule."""
    @dataclasses.dataclass
    class Rec:
        attention: np.ndarray
        trace: Trace

    rng = np.random.default_rng(0)
    n = dl.heads_max_tokens() + 1
    a = rng.random((2, 3, n, n))
    a /= a.sum(-1, keepdims=True)
    saved = json.loads(dl.record_json(Rec(a, Trace(enc_self=a))))
    for got in (saved["attention"], saved["trace"]["enc_self"]):
        np.testing.assert_allclose(np.asarray(got), a.mean(1, keepdims=True), atol=1e-6)
    small = a[..., :4, :4]
    assert np.asarray(json.loads(dl.record_json(Rec(small, Trace(enc_self=small))))["attention"]).shape == small.shape


def make(folder: Path, name: str, size: int, age: float) -> Path:
    p = folder / name
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_bytes(b"x" * size)
    t = time.time() - age
    os.utime(p, (t, t))
    return p


def test_the_clean_up_deletes_files_past_their_age_then_the_oldest_past_the_budget(tmp_path):
    a, b = tmp_path / "app", tmp_path / "gradio"
    old = make(a, "x/old.json", 100, 3600)
    young = [make(b, f"h{i}/f.csv", 100, 60 * (10 - i)) for i in range(6)]  # 600 bytes, oldest first
    budget = dl.DiskBudget([a, b], max_bytes=400, max_age=1800)
    done = budget.sweep(keep={young[0]})
    assert not old.exists()  # past its age
    assert young[0].exists() and not young[1].exists() and not young[2].exists()  # the oldest, spared one kept
    assert all(p.exists() for p in young[3:]) and done["left"] == 400 == budget.usage()
    assert budget.stats["deleted"] == 3
    nested = dl.DiskBudget([b, b / "h5"], max_bytes=10**6, max_age=1800)
    assert nested.usage() == 400  # a folder inside another is counted once
    mine, gradios = b / "tmpab_c1234", b / "vibe_edit_history"  # a write's emptied folder; one of Gradio's own
    for d in (mine, gradios):
        d.mkdir()
        os.utime(d, (time.time() - 120, time.time() - 120))
    budget.sweep()
    assert not mine.exists() and gradios.is_dir() and (a / "x").is_dir()  # only a write's own folder goes


def test_a_set_of_files_over_the_whole_budget_is_refused_and_removed(folders):
    big = dl.to_download("big", {"x": np.zeros((300, 300))}, {"t": pd.DataFrame(np.zeros((300, 300)))})
    tiny = dl.DiskBudget([folders / "d"], max_bytes=1000, max_age=1800)
    with pytest.raises(inf.UserError, match="more than the server keeps"):
        big.write(folders / "d", tiny)
    assert files_under(folders / "d") == []


def test_the_timed_clean_up_runs_on_its_own(tmp_path):
    stale = make(tmp_path, "a/stale.json", 10, 3600)
    fresh = make(tmp_path, "b/fresh.json", 10, 0)
    sweeper = dl.Sweeper(every=0.05, budget=dl.DiskBudget([tmp_path], max_bytes=10**6, max_age=1800))
    sweeper.start()
    try:
        deadline = time.time() + 10
        while stale.exists() and time.time() < deadline:
            time.sleep(0.05)
    finally:
        sweeper.stop()
    assert not stale.exists() and fresh.exists() and sweeper.budget.stats["sweeps"] >= 1


def test_every_download_list_has_its_button_and_is_emptied_by_a_new_result():
    """Each tab's download State: a button writing it (in the shared queue) and a list the next result empties."""
    fns = list(app.demo.fns.values())
    states = [c for c in app.demo.blocks.values() if isinstance(c, gr.State) and hasattr(c, "button")]
    assert len(states) >= 20
    for s in states:
        (press,) = [f for f in fns if (s.button._id, "click") in [tuple(t) for t in f.targets]]
        assert press.fn is uc.write_files and list(press.inputs) == [s] and list(press.outputs) == [s.list]
        assert press.concurrency_id == "models"
        (clear,) = [f for f in fns if (s._id, "change") in [tuple(t) for t in f.targets]]
        assert clear.fn is None and clear.js and list(clear.outputs) == [s.list]
