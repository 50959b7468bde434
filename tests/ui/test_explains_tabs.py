"""The head-ablation and alignment tabs (ui/tabs/ablation.py, ui/tabs/alignment.py): a run keeps its record's key,
the language switch and the layer slider redraw from that record with no model call, a bad input is a message."""
import numpy as np
import pytest

gr = pytest.importorskip("gradio")

from explorer.compute import inference  # noqa: E402
from explorer.views import ablation as va  # noqa: E402
from explorer.views import alignment as vl  # noqa: E402
from ui.components import Localized  # noqa: E402
from ui.tabs import Page, ablation, alignment, build_tabs  # noqa: E402

_TABS = {}


def _tabs() -> dict:
    """The two tabs alone, built as app.py builds every tab (the contract's Page, the shared registry)."""
    if not _TABS:
        with gr.Blocks():
            lang = gr.Radio(["en", "ko"], value="en")
            _TABS.update(build_tabs(Page(inference.registry(), Localized(), lang), [ablation, alignment]))
    return _TABS


def _no_model_calls(monkeypatch):
    calls = []
    reg = inference.registry()
    for name in ("bert", "transformer-en-fr"):
        m = reg.get(name).model
        real = m.forward
        monkeypatch.setattr(m, "forward", lambda *a, _r=real, **k: calls.append(1) or _r(*a, **k))
    return calls


def test_ablation_runs_and_the_switch_redraws_from_the_record(monkeypatch):
    tab = _tabs()["ablation"]
    out = tab.show("fill-mask", *va.EXAMPLES["fill-mask"], "en")
    key = out[tab.record]
    assert isinstance(key, str) and "L3H5" in out[tab.result] and len(out[tab.bars].data) == 2  # every head, heads off
    calls = _no_model_calls(monkeypatch)
    ko = tab.relabel(key, "ko")
    assert calls == [] and "모든 헤드" in ko[tab.result]
    np.testing.assert_array_equal(np.asarray(ko[tab.grid].data[0].z), np.asarray(out[tab.grid].data[0].z))
    assert tab.relabel(None, "ko") == gr.skip()
    with pytest.raises(gr.Error):
        tab.show("fill-mask", "the cat sat on the [MASK].", "L99H1", "en")


def test_alignment_pair_layer_and_switch(monkeypatch):
    tab = _tabs()["alignment"]
    out = tab.pick("transformer-en-fr", 1, "en")
    src, tgt, links = vl.gold_pair("transformer-en-fr", 1)
    assert (out[tab.source], out[tab.target], out[tab.links]) == (src, tgt, links)
    key = out[tab.record]
    calls = _no_model_calls(monkeypatch)
    one = tab.redraw(key, 1, "ko")
    assert calls == [] and one[tab.layer].value == 1 and "AER" in one[tab.summary]
    assert list(one[tab.table].columns) != list(out[tab.table].columns)
    with pytest.raises(gr.Error):
        tab.show("transformer-en-fr", src, tgt, "0-99", "en")
