"""ui/tabs/{inside,luong,choices,bert_inputs,elmo}.py without a browser: the handlers return, by component, the
numbers of the views they call (which tests/explorer/ checks against the models), in English and Korean, and a
user's mistake becomes a message (gr.Error), not a traceback."""
import gradio as gr
import numpy as np
import pytest

from explorer import i18n
from explorer.compute.inference import ASSETS, registry
from explorer.views import inside as vi
from ui.components import Localized
from ui.tabs import Group, Page, build_tabs
from ui.tabs import bert_inputs, choices, elmo, inside, luong

NEEDED = ["bert", "transformer-en-fr", "seq2seq-general"]
pytestmark = pytest.mark.skipif(not all((ASSETS / n / "config.json").is_file() for n in NEEDED),
                                reason="shipped checkpoints under assets/ are missing")


@pytest.fixture(scope="module")
def tabs():
    with gr.Blocks():
        lang = gr.Radio(list(i18n.CHOICES), value="English")
        page = Page(registry(), Localized(), lang)
        built = build_tabs(page, [Group("tab.computation", [inside, luong, choices, bert_inputs, elmo])])
    return built


def test_inside_tab_draws_the_layer_and_both_attention_sublayers_of_a_decoder(tabs):
    tab = tabs["inside"]
    out = tab.show("I am a student.", "transformer-en-fr", 2, 1, "decoder", "", "English")
    v = vi.inside_view("I am a student.", "transformer-en-fr", 2, 1, "decoder", "", "en")
    assert out[tab.summary] == v.summary
    assert out[tab.stream].to_dict() == v.stream.to_dict()
    for (col, scores, qkv, heads, kv), a in zip(tab.parts, v.attention):
        assert out[col].visible and np.array_equal(np.array(out[scores].data[2].z), a.scores.data[2].z)
        assert out[kv].to_json() == a.keys_values.to_json() and out[qkv].to_json() == a.qkv.to_json()  # NaN: json
    ln = out[tab.layer_norms]  # masked self, Encoder-Decoder and FFN: three Add & Norm
    assert ln.equals(v.layer_norms) and len(ln) == 3 and np.allclose(ln["std of (u − μ)/σ"], 1, atol=1e-4)
    assert np.allclose(ln["mean μ"], [s.ln.mean for s in v.record.steps], atol=1e-6)
    assert out[tab.token].value == 1 and out[tab.token].choices[0][0] == "0: <s>"
    bert = tab.show("I am a student.", "bert", 3, 2, "encoder", "", "en")[tab.record]  # a key (explorer.serve.cache)
    ko = tab.relabel(bert, "ko")  # from the record: no model call
    assert "인코더" in ko[tab.summary] and "멀티 헤드" in ko[tab.summary]
    assert not ko[tab.parts[1][0]].visible  # BERT's layer has one attention sublayer
    assert ko[tab.stack].choices[0][0] == "인코더"
    assert list(ko[tab.layer_norms].columns)[1] == "평균 μ" and len(ko[tab.layer_norms]) == 2  # pre-LN, not last
    assert "쿼리 q" in ko[tab.parts[0][4]].layout.title.text
    with pytest.raises(gr.Error):
        tab.show("I am a student.", "bert", 99, 0, "encoder", "", "English")


def test_luong_and_choices_tabs(tabs):
    lu = tabs["luong"]
    out = lu.show("I am a student.", "seq2seq-general", 1, "", 3, "English")
    assert list(out[lu.table]["token"])[0] == "▁suis" and len(out[lu.table]) == 3
    assert out[lu.step].maximum == 4 and "six" not in out[lu.summary]
    ch = tabs["choices"]
    out = ch.show("I am a student.", "transformer-en-fr", "Je suis un étudiant.", 4, "한국어")
    table = out[ch.table]
    assert list(table.columns)[:3] == [i18n.t("col.step", "ko"), "단어", "조각"] and "teacher forcing" in out[ch.summary]
    assert table.iloc[2, 1] == "un" and table.iloc[2, 4] > 1  # whole words; 'un' is not the model's first choice


def test_bert_inputs_and_elmo_tabs(tabs):
    b = tabs["bert_inputs"]
    out = b.show("the cat sat .", "", 16, "bert", "English")
    assert "BERT-base" in out[b.summary].replace("\\", "") and len(out[b.pos_plot].data) == 2
    out = b.mask("the quick brown fox jumps over the lazy dog", 2, 0.5, 3, "bert", "English")
    assert len(out[b.mask_table]) >= 1
    e = tabs["elmo"]
    out = e.show("bank", "", "", 1.0, True, "auto", "English")
    assert len(out[e.table]) == 13 and np.allclose(out[e.table]["weight s_j"], 1 / 13)
    with pytest.raises(gr.Error):
        e.show("bank", "", "1, 2", 1.0, True, "auto", "English")


def test_the_translate_target_api_reads_a_typed_target():
    from ui import api
    text, fig, rec = api.translate_target_api("I am a student.", "transformer-en-fr", "Je suis un étudiant.")
    assert text == "Je suis un étudiant." and rec["forced"] and rec["target_tokens"][-1] == "</s>"
    assert [s["token"] for s in rec["steps"]][:3] == ["▁Je", "▁suis", "▁un"] and rec["steps"][2]["rank"] > 1
    assert np.asarray(fig.data[0].z).shape == (len(rec["target_tokens"]), len(rec["source_tokens"]))
    plain = api.translate_api("I am a student.", "transformer-en-fr", 1)
    assert "forced" not in plain[2] and plain[0] == "Je suis étudiant."
    with pytest.raises(gr.Error, match="Please type a target"):  # /translate_target needs one
        api.translate_target_api("I am a student.", "transformer-en-fr", " ")


def test_choosing_a_model_sets_the_inside_tabs_depth_and_stack(tabs):
    tab = tabs["inside"]
    out = tab.model_changed("bert")
    assert out[tab.layer].maximum == 12 and out[tab.stack].value == "encoder" and out[tab.stack].interactive is False
    out = tab.model_changed("transformer-en-fr")
    assert out[tab.layer].maximum == 3 and out[tab.stack].interactive is True
    if "gpt" in registry().models:
        out = tab.model_changed("gpt")
        assert out[tab.stack].value == "decoder" and out[tab.layer].maximum == registry().get("gpt").config.n_layers
