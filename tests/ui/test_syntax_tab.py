"""The heads-vs-syntax tab (ui/tabs/syntax.py): another relation draws its best head, the language switch redraws
the kept run in Korean with the same numbers (no model call), a typed sentence is drawn without a parse."""
import numpy as np
import pytest

gr = pytest.importorskip("gradio")

import app  # noqa: E402  (builds the demo, loading the registry once)
from explorer.views import syntax as views  # noqa: E402

pytestmark = pytest.mark.skipif("syntax" not in app.demo.tabs or not views.table_path("bert").is_file(),
                                reason="no heads-vs-syntax table in assets/syntax/")


def test_another_relation_draws_its_best_head_and_the_switch_redraws_it_in_korean():
    tab = app.demo.tabs["syntax"]
    out = tab.show_best("bert", "obj", "dep->head", views.EXAMPLE_TEXTS[1], "en")
    layer, head = views.best_head("bert", "obj")
    assert (out[tab.layer].value, out[tab.head].value) == (layer, head) and out[tab.relation].value == "obj"
    record = tab.stored(out[tab.record])
    assert (record.model, record.rel, record.direction) == ("bert", "obj", "dep->head")
    ko = tab.relabel(out[tab.record], layer, head, "ko")
    assert ko[tab.grid].layout.title.text != out[tab.grid].layout.title.text
    assert list(ko[tab.table].columns) != list(out[tab.table].columns)
    np.testing.assert_array_equal(np.asarray(ko[tab.grid].data[0].z), np.asarray(out[tab.grid].data[0].z))
    np.testing.assert_array_equal(ko[tab.table].select_dtypes("number").to_numpy(),
                                  out[tab.table].select_dtypes("number").to_numpy())
    assert tab.relabel(None, 1, 1, "ko") == gr.skip()  # nothing on screen yet: nothing drawn
    assert tab.show_head(None, 2, 3, "en") == gr.skip()  # a slider moved before any result: nothing, no error
    other = tab.show_head(out[tab.record], 1, 1, "en")  # another head of the same run, from its record
    assert (other[tab.layer].value, other[tab.head].value) == (1, 1)


def test_a_typed_sentence_and_an_unknown_relation():
    tab = app.demo.tabs["syntax"]
    out = tab.show("bert", "det", "head->dep", "The cats sat on a mat.", 3, 2, "en")
    assert (out[tab.layer].value, out[tab.head].value) == (3, 2)
    assert views.t("syn.no_parse") in out[tab.summary]
    best = tab.show_best("bert", "no-such-relation", "dep->head", views.EXAMPLE_TEXTS[0], "en")
    assert best[tab.relation].value == views.DEFAULT_RELATION  # the default, not an error
    with pytest.raises(gr.Error):
        tab.show("bert", "det", "dep->head", "The cat.", 99, 1, "en")  # a layer past the model's: a message
