"""The tabs that once ran their view again at the language switch (beam search, score functions, contextual vs
static, positional encoding, ELMo, BERT's inputs and masking) now redraw from the record they keep server-side
(ui/tabs/__init__.py, TabBase): the Korean redraw says what a Korean run says, with the English run's numbers,
and a result that is gone redraws nothing. tests/ui/test_tab_contract.py checks that no model runs."""
import numpy as np
import pandas as pd
import plotly.graph_objects as go
import pytest

gr = pytest.importorskip("gradio")

import app  # noqa: E402  (builds the demo, loading the registry once)
from explorer.compute import inference as inf  # noqa: E402

TABS = app.demo.tabs
EN = "I am a student."
needs = pytest.mark.skipif(
    not {"transformer-en-fr", "seq2seq-dot", "bert"} <= set(inf.registry().names()),
    reason="the shipped checkpoints under assets/ did not load")

# tab, its run, the run's arguments (the language last), the redraw, the State with the record's key
CASES = {
    "beam": ("run", [EN, "transformer-en-fr", 3], "relabel", "search"),
    "scores": ("show", [EN], "relabel", "record"),
    "contextual": ("show", ["bank", "I sat on the bank.\nThe bank lent me money.", "bert"], "relabel", "record"),
    "positional": ("show", [16, 32, EN, "transformer-en-fr"], "relabel", "record"),
    "elmo": ("show", ["bank", "", "", 1.0, True, "auto"], "relabel", "record"),
    "bert_inputs": ("show", [EN, "", 16, "bert"], "relabel", "record"),
    "bert_inputs masking": ("mask", [EN, 0, 0.5, 5, "bert"], "relabel_mask", "mask_record"),
}


def _words(values) -> list:
    """What outputs say: each figure's layout (titles, axes), each table's headers, each text."""
    return [v.layout.to_plotly_json() if isinstance(v, go.Figure) else list(v.columns) if isinstance(v, pd.DataFrame)
            else v for v in values if isinstance(v, (go.Figure, pd.DataFrame, str))]


def _numbers(values) -> list:
    """The numbers outputs show: each trace's z, y or x where numeric, each table's numeric cells."""
    out = []
    for v in values:
        if isinstance(v, go.Figure):
            for t in v.data:
                for key in ("z", "y", "x"):
                    a = getattr(t, key, None)
                    if a is not None and np.asarray(a).dtype.kind in "fiu":
                        out.append(np.nan_to_num(np.asarray(a, dtype=float), nan=-1e9).tolist())
        elif isinstance(v, pd.DataFrame):
            out.append(np.nan_to_num(v.select_dtypes("number").to_numpy(float), nan=-1e9).tolist())
    return out


@needs
@pytest.mark.parametrize("case", list(CASES))
def test_the_switch_redraws_the_kept_record_as_a_run_in_that_language(case):
    run, args, redraw, state = CASES[case]
    tab = TABS[case.split()[0]]
    run, redraw, state = getattr(tab, run), getattr(tab, redraw), getattr(tab, state)
    en, ko = run(*args, "en"), run(*args, "ko")
    key = en.pop(state)
    ko.pop(state)
    assert isinstance(key, str) and tab.stored(key) is not None  # the State holds a key, the cache the record
    relabeled = redraw(key, "ko")
    assert state not in relabeled and list(relabeled) == list(ko)  # the same outputs as a run, the record kept
    assert _words(relabeled.values()) == _words(ko.values()) != _words(en.values()), case
    numbers = _numbers(relabeled.values())
    assert numbers and numbers == _numbers(en.values()) == _numbers(ko.values()), case
    assert redraw(None, "ko") == gr.skip()  # nothing on screen yet: nothing to redraw
    assert redraw("a key that was dropped", "ko") == gr.skip()  # gone after its time limit: the screen stays


@needs
def test_the_beam_switch_stays_on_the_hypothesis_chosen():
    tab = TABS["beam"]
    en = tab.run(EN, "transformer-en-fr", 3, "en")
    second = tab.choose(en[tab.search], 1, "en")  # a model call: another hypothesis's trace
    relabeled = tab.relabel(second[tab.search], "ko")
    ko = tab.choose(en[tab.search], 1, "ko")
    assert relabeled[tab.choice].value == 1 and relabeled[tab.translation] == second[tab.translation]
    for c in (tab.grid, tab.mean, tab.notice, tab.confidence):
        assert _words([relabeled[c]]) == _words([ko[c]]) and _numbers([relabeled[c]]) == _numbers([second[c]])
    with pytest.raises(gr.Error):  # choosing on a search that is gone asks for a new run
        tab.choose("a key that was dropped", 1, "en")
