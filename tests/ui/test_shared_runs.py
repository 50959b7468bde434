"""ui/shared_runs.py: the page's buttons share identical runs across sessions. Two sessions pressing Translate on the
same input cost one model run, the second waiting for the first's while it is in flight; each gets its own key to
the one record (read-only), its own downloads key, and the same figures; another input runs again; sharing off
runs every time. BERT's and seq2seq's buttons share too."""
import threading
import time

import gradio as gr
import numpy as np
import pytest

from explorer.serve import cache
from explorer.serve import downloads as dl
from explorer.compute import inference as inf
from explorer.serve.results import SharedResults
from explorer.views import bert as bert_views
from explorer.views import seq2seq as s2s_views
from explorer.views import transformer as tr_views
from ui import shared_runs
from ui.components import Localized
from ui.tabs import Page, bert, build_tabs, seq2seq, transformer

NEEDED = ("transformer-en-fr", "bert", "seq2seq-additive")
pytestmark = pytest.mark.skipif(not all((inf.ASSETS / n / "config.json").is_file() for n in NEEDED),
                                reason="shipped checkpoints missing from assets/")
DECK = ("I am a student.", "transformer-en-fr", 4, 1, 1, "en")


def build(*modules):
    with gr.Blocks():
        lang = gr.Radio([("English", "en"), ("한국어", "ko")], value="en")
        return build_tabs(Page(inf.registry(), Localized(), lang), list(modules))


def counted(monkeypatch, module, name, gate: threading.Event | None = None) -> list:
    """`module.name` replaced by itself counting its calls (and, with `gate`, waiting for it before it runs)."""
    calls, real = [], getattr(module, name)

    def view(*args, **kwargs):
        calls.append(args)
        if gate is not None:
            assert gate.wait(60)
        return real(*args, **kwargs)
    monkeypatch.setattr(module, name, view)
    return calls


def wait_until(condition, timeout=60.0):
    t0 = time.monotonic()
    while not condition():
        assert time.monotonic() - t0 < timeout, "condition never met"
        time.sleep(0.005)


@pytest.fixture
def results(monkeypatch):
    """A fresh shared store for each test (not the process's, which other tests fill)."""
    fresh = SharedResults(cache.RecordCache(64 * 2**20))
    monkeypatch.setattr(shared_runs, "shared_results", lambda: fresh)
    return fresh


def test_two_sessions_pressing_translate_on_one_input_cost_one_run(monkeypatch, results):
    tab = build(transformer)["transformer"]
    gate = threading.Event()
    runs = counted(monkeypatch, tr_views, "transformer_view", gate)
    outs = [None, None]
    sessions = [threading.Thread(target=lambda i=i: outs.__setitem__(i, tab.run(*DECK))) for i in range(2)]
    sessions[0].start()
    wait_until(lambda: len(runs) == 1)  # the first session's run is in flight ...
    sessions[1].start()
    request = ("page", "ui.tabs.transformer", id(tab), "run", *DECK)
    wait_until(lambda: results.waiting(request) == 1)  # ... and the second waits for it, not a run of its own
    gate.set()
    for s in sessions:
        s.join(60)
    a, b = outs
    assert len(runs) == 1 and results.stats["runs"] == 1 and results.stats["waited"] == 1
    assert a[tab.translation] == b[tab.translation] == "Je suis étudiant."
    assert a[tab.cross_grid].plot == b[tab.cross_grid].plot  # the figures as the JSON Gradio sends
    ka, kb = a[tab.record], b[tab.record]
    assert isinstance(ka, str) and isinstance(kb, str) and ka != kb  # each session its own key ...
    ra, rb = tab.stored(ka), tab.stored(kb)
    assert ra.trace is rb.trace  # ... to the one record's arrays, which no session can change
    assert not ra.trace.cross.flags.writeable
    with pytest.raises(ValueError):
        ra.trace.cross[0, 0, 0, 0] = 0.5
    fa, fb = a[tab.files], b[tab.files]  # and its own downloads: another session's slider never replaces them
    assert isinstance(fa.source, str) and fa.source != fb.source and fa.payload().record is ra
    moved = tab.show_heads(ka, 1, 5, "en")[tab.files]
    assert moved.source == fa.source and fb.payload().record is rb
    assert "cross-L1H5" in fa.payload().tables and "cross-L1H1" in fb.payload().tables

    third = tab.run(*DECK)  # later: a lookup
    assert len(runs) == 1 and third[tab.translation] == "Je suis étudiant." and results.stats["hits"] == 1
    tab.run("You are a teacher.", *DECK[1:])  # another input: its own run
    tab.run(*DECK[:-1], "ko")  # the same translation in Korean: other figures, another run
    assert len(runs) == 3


def test_sharing_off_runs_every_press(monkeypatch):
    tab = build(transformer)["transformer"]
    monkeypatch.setattr(shared_runs, "shared_results", lambda: SharedResults(enabled=False))
    runs = counted(monkeypatch, tr_views, "transformer_view")
    a, b = tab.run(*DECK), tab.run(*DECK)
    assert len(runs) == 2 and tab.stored(a[tab.record]) is not tab.stored(b[tab.record])


def test_a_first_screen_is_computed_as_it_was(monkeypatch, results):
    tab = build(transformer)["transformer"]
    with cache.shared():
        out = tab.run(*DECK)
    assert results.stats["runs"] == 0 and not isinstance(out[tab.record], str)  # the record itself, unshared


def test_bert_and_seq2seq_buttons_share(monkeypatch, results):
    tabs = build(bert, seq2seq)
    b, s = tabs["bert"], tabs["seq2seq"]
    bert_runs = counted(monkeypatch, bert_views, "bert_model_view")
    s2s_runs = counted(monkeypatch, s2s_views, "seq2seq_view")
    fill = ("bert", "the man went to the [MASK] .", "", 5, 1, 1, "en")
    first, second = b.fill(*fill), b.enter(*fill)  # the button, then Enter in the sentence box: one run
    assert len(bert_runs) == 1 and first[b.masks].equals(second[b.masks])
    assert first[b.record] != second[b.record]
    assert cache.stored(first[b.record]).trace is cache.stored(second[b.record]).trace
    b.next_sentence("bert", "I am a student.", "I study.", 1, 1, "en")
    b.next_sentence("bert", "I am a student.", "I study.", 1.0, 1.0, "en")  # a slider's float: the same request
    assert len(bert_runs) == 2
    t1, t2 = s.run("I am a student.", "seq2seq-additive", "en"), s.run("I am a student.", "seq2seq-additive", "en")
    assert len(s2s_runs) == 1 and t1[s.translation] == t2[s.translation]
    assert np.array_equal(s.stored(t1[s.record]).trace.cross, s.stored(t2[s.record]).trace.cross)
