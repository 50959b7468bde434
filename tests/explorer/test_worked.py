"""The Transformer deck's worked examples (explorer/compute/worked.py, explorer/figures/worked.py): the hand example's
numbers are the ones a class computes on paper; the same steps on a real head give the model's own attention;
GELU is torch's exact GELU; the figures carry the numbers in their text, in both languages; the two steps sit
where the deck puts them."""
import html
import json
import math

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from explorer import lessons
from explorer.compute import worked
from explorer.figures import worked as wf
from explorer.compute.inference import registry
from models.attention import scaled_dot_product


def has_model(name: str) -> bool:
    return name in registry().models


needs_models = pytest.mark.skipif(not (has_model("transformer-en-fr") and has_model("bert")),
                                  reason="the shipped transformer-en-fr and bert checkpoints are not loaded")


def figure_text(fig) -> str:
    return json.dumps(json.loads(fig.to_json()), ensure_ascii=False)


# ----------------------------------------------------------------------------- by hand


def test_the_hand_example_is_the_one_on_paper():
    h = worked.hand_example()
    assert h.q.shape == h.k.shape == h.v.shape == (4, 2) and h.d_k == 2
    assert np.all(h.q == np.round(h.q)) and np.all(np.abs(h.q) <= 2)  # small integers
    # Q K^T, each cell q_i . k_j written out
    expected = np.array([[1, 0, 1, 0], [0, 1, 1, 2], [1, 1, 2, 2], [2, 0, 2, 0]], dtype=float)
    np.testing.assert_array_equal(h.qk, expected)
    np.testing.assert_allclose(h.scores, expected / math.sqrt(2), rtol=0, atol=1e-15)
    np.testing.assert_allclose(h.probs.sum(axis=1), 1.0, rtol=0, atol=1e-12)
    # row 1 by hand: scores (1/sqrt2, 0, 1/sqrt2, 0): two equal pairs, e^(1/sqrt2) / (2 e^(1/sqrt2) + 2)
    a = math.exp(1 / math.sqrt(2))
    np.testing.assert_allclose(h.probs[0], [a / (2 * a + 2), 1 / (2 * a + 2)] * 2, atol=1e-12)
    np.testing.assert_allclose(h.out, h.probs @ h.v, atol=1e-12)
    # the repo's one attention function agrees
    out, probs, scores = scaled_dot_product(*(torch.tensor(m, dtype=torch.float64) for m in (h.q, h.k, h.v)))
    np.testing.assert_allclose(probs.numpy(), h.probs, atol=1e-12)
    np.testing.assert_allclose(out.numpy(), h.out, atol=1e-12)


def test_softmax_rows_is_stable_and_sums_to_one():
    p = worked.softmax_rows(np.array([[1000.0, 1000.0], [-1000.0, 0.0]]))
    assert np.all(np.isfinite(p)) and np.allclose(p.sum(1), 1) and np.allclose(p[0], 0.5)
    with pytest.raises(ValueError):
        worked.worked_attention(np.ones((3, 2)), np.ones((3, 2)), np.ones((3, 2)), ["a", "b"])


# ----------------------------------------------------------------------------- GELU


def test_gelu_is_the_exact_erf_form():
    x = np.linspace(-6, 6, 241)
    np.testing.assert_allclose(worked.gelu(x), F.gelu(torch.tensor(x)).numpy(), atol=1e-12)
    assert not np.allclose(worked.gelu(x), F.gelu(torch.tensor(x), approximate="tanh").numpy(), atol=1e-6)
    np.testing.assert_array_equal(worked.relu(x), np.maximum(x, 0))
    c = worked.activation_curves()
    assert c["x"][0] == -4 and c["x"][-1] == 4 and abs(c["gelu"].min() - worked.GELU_MIN) < 1e-4


# ----------------------------------------------------------------------------- figures, synthetic arrays


def _real_like(T=3, d=6):
    rng = np.random.default_rng(0)
    q, k, v = rng.normal(size=(3, T, d))
    r = worked.worked_attention(q, k, v, ["x", "<y>", "x"])
    return {**r.arrays(), "model_probs": r.probs + 1e-7, "model": "m", "layer": 0, "head": 2}


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_worked_figure_writes_every_number_in_its_cells(lang):
    h, real = worked.hand_example(), _real_like()
    fig = wf.worked_attention_figure(h.arrays(), real, lang)
    heat = [t for t in fig.data if t.type == "heatmap"]
    assert len(heat) == 16
    assert [list(r) for r in heat[3].text] == [["1", "0", "1", "0"], ["0", "1", "1", "2"], ["1", "1", "2", "2"],
                                               ["2", "0", "2", "0"]]  # Q K^T
    assert heat[4].text[0][0] == f"{1 / math.sqrt(2):.2f}" and heat[5].text[0][0] == f"{h.probs[0, 0]:.3f}"
    assert [r[0] for r in heat[7].text] == ["1.000"] * 4  # every softmax row sums to 1
    assert np.asarray(heat[8].z).shape == (3, wf.SHOWN_DIMS)  # the first dims of a real q only
    text = figure_text(fig)
    assert wf.WORDS[lang]["softmax"] in text and "&lt;y&gt;" in text and "<y>" not in text  # escaped tokens
    assert "1.0e-07" in text  # the largest difference from the model's attention
    assert ("head 3" in text) if lang == "en" else ("헤드 3" in text)


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_activations_figure_shows_the_shares(lang):
    pre = np.array([[-2.0, -1.0, 0.5, 3.0]])
    relu = {"model": "a", "activation": "relu", "layer": 0, "hidden_pre": pre, "hidden": worked.relu(pre),
            "share_negative": 0.5, "share_zero": 0.5}
    gelu = {**relu, "model": "b", "activation": "gelu", "hidden": worked.gelu(pre), "share_zero": 0.0}
    fig = wf.activations_figure(worked.activation_curves(), relu, gelu, lang)
    text = figure_text(fig)
    assert "50.0%" in text and f"{worked.gelu(-1.0):.2f}" in text and "-0.17" in text
    bars = [t for t in fig.data if t.type == "bar"]
    assert sum(sum(b.y) for b in bars) == 2 * pre.size  # every value counted once per model
    assert html.escape(wf.WORDS[lang]["act_title"]) in text


# ----------------------------------------------------------------------------- the real models


@needs_models
def test_the_real_head_recomputed_is_the_models_own_attention():
    m = worked.model_head("I am a student.", "transformer-en-fr", layer=0, head=0)
    w = m.worked
    T = len(w.tokens)
    assert w.tokens[-1] == "</s>" and w.q.shape == (T, w.d_k) and w.probs.shape == m.model_probs.shape == (T, T)
    np.testing.assert_allclose(w.probs, m.model_probs, atol=1e-5, rtol=0)
    np.testing.assert_allclose(w.probs.sum(1), 1, atol=1e-12)
    fig = wf.worked_attention_figure(worked.hand_example().arrays(), m.arrays(), "en")
    assert "transformer-en-fr, encoder layer 1, head 1" in figure_text(fig)


@needs_models
def test_the_ffn_pre_activations_come_from_each_models_own_activation():
    r = worked.ffn_preactivations("I am a student.", "transformer-en-fr")
    b = worked.ffn_preactivations("I am a student.", "bert")
    assert (r.activation, b.activation) == ("relu", "gelu") and r.tokens[-1] == "</s>" and b.tokens[0] == "[CLS]"
    np.testing.assert_allclose(r.hidden, worked.relu(r.hidden_pre), atol=1e-12)
    np.testing.assert_allclose(b.hidden, worked.gelu(b.hidden_pre), atol=1e-9)
    assert r.share_zero == pytest.approx((r.hidden_pre <= 0).mean())  # ReLU: every x <= 0 is exactly 0
    assert b.share_zero < 1e-3 < b.share_negative  # GELU damps, it does not zero
    assert worked.GELU_MIN - 1e-6 <= b.hidden.min() < 0


# ----------------------------------------------------------------------------- the lesson path


def test_the_steps_sit_where_the_deck_puts_them():
    order = lessons.ORDER
    assert order[order.index("transformer-1") + 1] == "transformer-qk-hand"
    assert order[order.index("transformer-6") + 1] == "transformer-gelu"
    for sid in ("transformer-qk-hand", "transformer-gelu"):
        s = lessons.STEPS[sid]
        assert lessons.deck_of(sid).id == "transformer" and s.text["en"] != s.text["ko"]
