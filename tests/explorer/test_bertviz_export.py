"""explorer/serve/bertviz_export.py and `python -m explorer export`: our attention in bertviz's shapes, rendered by the
real bertviz package (head_view and model_view) for BERT, the Transformer and an RNN encoder-decoder, with the
weights bertviz embeds equal to the records' Trace."""
import json

import numpy as np
import pytest

from explorer.serve import bertviz_export as bx
from explorer import cli
from explorer.compute.inference import ASSETS, UserError, encode_bert, registry, translate

bertviz = pytest.importorskip("bertviz", reason="bertviz is a test dependency (requirements-dev.txt)")
MODELS = ["bert", "transformer-en-fr", "seq2seq-general"]
have_assets = pytest.mark.skipif(not all((ASSETS / n / "config.json").is_file() for n in MODELS),
                                 reason="shipped checkpoints under assets/ are missing")


@pytest.fixture(scope="module")
def reg():
    return registry()


def embedded_params(page: str) -> dict:
    """The params object bertviz writes into its script (json.dumps of its attention data)."""
    start = page.index('{"attention": ')
    return json.JSONDecoder().raw_decode(page, start)[0]


@have_assets
@pytest.mark.parametrize("view", ["head", "model"])
def test_bertviz_renders_bert_with_our_weights(reg, view):
    r = encode_bert("The cat sat on the mat.", "It was warm.", reg=reg)
    kw = bx.bertviz_inputs("bert", "The cat sat on the mat.", text_b="It was warm.", reg=reg)
    L, H, T, _ = r.trace.enc_self.shape
    assert len(kw["attention"]) == L and all(tuple(a.shape) == (1, H, T, T) for a in kw["attention"])
    assert kw["tokens"] == r.tokens and r.segments[kw["sentence_b_start"]] == 1 == r.segments[-1]
    assert r.segments[kw["sentence_b_start"] - 1] == 0
    page = bx.html(kw, view)
    params = embedded_params(page)
    drawn = np.array(params["attention"][0]["attn"])  # "All": [layers][heads][q][k]
    assert np.allclose(drawn, r.trace.enc_self, atol=1e-6)
    assert len(params["attention"]) == 5  # All, A->A, B->B, A->B, B->A


@have_assets
@pytest.mark.parametrize("view", ["head", "model"])
def test_bertviz_renders_the_transformer_encoder_decoder_and_cross(reg, view):
    r = translate("transformer-en-fr", "I am a student.", reg=reg)
    kw = bx.bertviz_inputs("transformer-en-fr", "I am a student.", reg=reg)
    assert set(kw) == {"encoder_attention", "decoder_attention", "cross_attention", "encoder_tokens",
                       "decoder_tokens"}
    S, T = len(r.source_tokens), len(r.decoder_input_tokens)
    assert tuple(kw["cross_attention"][0].shape) == (1, r.trace.cross.shape[1], T, S)
    params = embedded_params(bx.html(kw, view))
    names = [d["name"] for d in params["attention"]]
    assert names == ["Encoder", "Decoder", "Cross"]
    for d, ours in zip(params["attention"], (r.trace.enc_self, r.trace.dec_self, r.trace.cross)):
        assert np.allclose(np.array(d["attn"]), ours, atol=1e-6)
    assert np.triu(np.array(params["attention"][1]["attn"]), 1).max() == 0  # the decoder's causal zeros


@have_assets
def test_bertviz_renders_an_rnn_cross_attention_and_a_typed_target(reg):
    kw = bx.bertviz_inputs("seq2seq-general", "I am a student.", target="Je suis étudiant.", reg=reg)
    assert set(kw) == {"cross_attention", "encoder_tokens", "decoder_tokens"}
    assert kw["decoder_tokens"][0] == "<s>" and tuple(kw["cross_attention"][0].shape)[:2] == (1, 1)
    params = embedded_params(bx.html(kw, "head"))
    assert np.allclose(np.array(params["attention"][0]["attn"]).sum(-1), 1, atol=1e-5)
    with pytest.raises(UserError):
        bx.bertviz_inputs("seq2seq-none", "I am a student.", reg=reg)


@have_assets
def test_export_cli_json_round_trips_into_bertviz(reg, tmp_path, capsys):
    out = tmp_path / "view.html"
    assert cli.main(["export", "--format", "bertviz", "--model", "transformer-en-fr", "--html", str(out),
                     "I", "am", "a", "student."]) == 0
    rec = json.loads(capsys.readouterr().out)
    assert rec["html"] == str(out) and out.read_text(encoding="utf-8").count("<script") >= 2
    kw = bx.from_json(rec["view_kwargs"])
    r = translate("transformer-en-fr", "I am a student.", reg=reg)
    assert np.allclose(np.stack([a[0].numpy() for a in kw["cross_attention"]]), r.trace.cross, atol=1e-6)
    bertviz.head_view(**kw, html_action="return")  # bertviz takes the JSON back as is


@have_assets
def test_translate_cli_target_and_choices(reg, capsys):
    assert cli.main(["translate", "--model", "transformer-en-fr", "--target", "Je suis étudiant.",
                     "--no-attention", "I am a student."]) == 0
    rec = json.loads(capsys.readouterr().out)
    assert rec["forced"] and rec["target_tokens"][-1] == "</s>" and "attention" not in rec
    assert all(0 < s["probability"] <= 1 and len(s["top"]) == 5 for s in rec["steps"])
    assert cli.main(["translate", "--model", "seq2seq-dot", "--choices", "2", "I am a student."]) == 0
    rec = json.loads(capsys.readouterr().out)
    assert not rec["forced"] and all(s["rank"] == 1 and len(s["top"]) == 2 for s in rec["steps"])
    assert cli.main(["translate", "--model", "transformer-en-fr", "--target", "<s>", "I am a student."]) == 2
    assert "error" in json.loads(capsys.readouterr().out)
