"""Attention beside attribution: each measure against an independent computation on the shipped models
(hooks and finite differences here are the tests' own; the module never uses them), integrated gradients'
completeness, and Spearman's rho against scipy's."""
from __future__ import annotations

import copy

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from explorer.compute import attribution as at
from explorer.compute import lab
from explorer.compute.inference import registry
from models.tokenizers import special_ids

TEXT = "the cat sat on the [MASK]."


@pytest.fixture(scope="module")
def reg():
    torch.set_num_threads(1)
    return registry()


@pytest.fixture(scope="module")
def bert(reg):
    return reg.get("bert", "bert")


@pytest.fixture(scope="module")
def fill(reg):
    return at.fill_mask_attribution(TEXT, reg=reg)


def _ids(bert):
    tok, sp = bert.tokenizer, special_ids(bert.tokenizer)
    ids = tok.encode(TEXT).ids
    return ids, [0] * len(ids), ids.index(sp["mask"])


def test_spearman_matches_scipy():
    stats = pytest.importorskip("scipy.stats")
    rng = np.random.default_rng(0)
    for _ in range(20):
        a, b = rng.integers(0, 5, 9).astype(float), rng.normal(size=9)  # ties in a
        assert at.spearman(a, b) == pytest.approx(stats.spearmanr(a, b).statistic, abs=1e-12)
    assert np.isnan(at.spearman([1, 1, 1], [1, 2, 3]))


def test_record_shapes_and_raw_attention(bert, fill):
    ids, segs, q = _ids(bert)
    assert fill.tokens[q] == "[MASK]" and [x.query for x in fill.targets] == [q]
    with torch.no_grad():
        out = bert.model(torch.tensor([ids]), need_weights=True, mlm_positions=torch.tensor([[q]]))
    x = fill.targets[0]
    assert x.word == bert.tokenizer.id_to_token(int(out.mlm_logits[0, 0].argmax()))
    for m in at.MEASURES:
        assert len(x.scores[m]) == len(fill.tokens)
    att = out.trace.enc_self[0, -1, :, q].mean(0).numpy()  # the model's own last layer, heads averaged
    np.testing.assert_allclose(x.scores["attention"], att, atol=1e-5)
    assert sum(x.scores["attention"]) == pytest.approx(1.0, abs=1e-4)
    roll = lab.rollout(out.trace.enc_self[0].numpy())[q]
    np.testing.assert_allclose(x.scores["rollout"], roll, atol=1e-5)


def test_bert_from_embeddings_is_the_model(bert):
    ids, segs, q = _ids(bert)
    ids_t = torch.tensor([ids])
    with torch.no_grad():
        ref = bert.model(ids_t).hidden
        mine = at.bert_from_embeddings(bert.model, bert.model.embeddings.tok(ids_t), torch.tensor([segs]),
                                       (ids_t != 0)[:, None, None, :])
    torch.testing.assert_close(mine, ref, atol=1e-5, rtol=1e-5)


def test_norm_vectors_sum_to_the_attention_output(bert):
    """Kobayashi's decomposition: Σ_j Σ_h α f(x_j) + W^O's bias is the attention sub-layer's own output."""
    m = bert.model
    ids, segs, q = _ids(bert)
    ids_t = torch.tensor([ids])
    key_mask = (ids_t != 0)[:, None, None, :]
    with torch.no_grad():
        last = at.bert_last_layer(m, ids_t, torch.tensor([segs]), q)
        x = at.bert_from_embeddings(m, m.embeddings.tok(ids_t), torch.tensor([segs]), key_mask, upto=len(m.layers) - 1)
        layer = m.layers[-1]
        h = layer.attn_norm(x) if layer.pre_ln else x
        ref = layer.attn(h, h, key_mask, True).out[0, q]
    torch.testing.assert_close(last["vectors"].sum(0) + layer.attn.out_proj.bias, ref, atol=1e-5, rtol=1e-5)
    np.testing.assert_allclose(last["norm"].numpy(), last["vectors"].norm(dim=-1).numpy(), rtol=1e-6)


def test_value_zeroing_against_hooks(bert, fill):
    """Token j's value zeroed by a hook on the model's own v_proj, the model's own last layer run: the cosine
    distance of the query's output is the record's."""
    m = copy.deepcopy(bert.model)  # hooks only on a private copy
    ids, segs, q = _ids(bert)
    ids_t = torch.tensor([ids])
    got = {}
    m.layers[-1].register_forward_hook(lambda mod, inp, out: got.__setitem__("out", out[0][0, q].clone()))
    with torch.no_grad():
        m(ids_t)
        full = got["out"]
        for j in (1, q, len(ids) - 1):
            h = m.layers[-1].attn.v_proj.register_forward_hook(
                lambda mod, inp, out, j=j: out.index_fill(1, torch.tensor([j]), 0.0))
            m(ids_t)
            h.remove()
            want = 1 - F.cosine_similarity(got["out"], full, dim=0)
            assert fill.targets[0].scores["value_zeroing"][j] == pytest.approx(float(want), abs=1e-5)


def test_gradient_x_input_is_a_directional_derivative(bert, fill):
    """g·e_j = d/dε F(e with e_j scaled by 1 + ε) at 0: a central difference, in float64."""
    m = copy.deepcopy(bert.model).double()
    ids, segs, q = _ids(bert)
    ids_t, segs_t = torch.tensor([ids]), torch.tensor([segs])
    word = bert.tokenizer.token_to_id(fill.targets[0].word)
    emb = m.embeddings.tok(ids_t).detach()

    def F_(e):
        with torch.no_grad():
            h = at.bert_from_embeddings(m, e, segs_t, (ids_t != 0)[:, None, None, :])
            return float(F.log_softmax(m.mlm(h[0, q]), -1)[word])

    eps = 1e-4
    for j in range(len(ids)):
        up, down = emb.clone(), emb.clone()
        up[0, j] *= 1 + eps
        down[0, j] *= 1 - eps
        fd = (F_(up) - F_(down)) / (2 * eps)
        assert fill.targets[0].scores["grad_input"][j] == pytest.approx(fd, abs=2e-3, rel=2e-2)


def test_integrated_gradients_completeness_bert(fill):
    x = fill.targets[0]
    assert sum(x.scores["integrated_gradients"]) == pytest.approx(x.ig_sum, rel=1e-5)
    assert x.completeness_error() <= at.TOLERANCE


def test_integrated_gradients_exact_on_a_quadratic():
    """F(e) = Σ (a·e_j)^2: IG_j = (a·e_j)^2 exactly in the limit; the midpoint rule is exact for a linear
    integrand, which the gradient of a quadratic is."""
    torch.manual_seed(0)
    a, e = torch.randn(4, dtype=torch.float64), torch.randn(5, 4, dtype=torch.float64)

    def forward(x):  # (B, T, d) -> (B, 1)
        return ((x @ a) ** 2).sum(-1, keepdim=True)

    ig = at.integrated_gradients(forward, e, torch.zeros_like(e), steps=3)[0]
    torch.testing.assert_close(ig, (e @ a) ** 2)


def test_translation_record(reg):
    rec = at.translation_attribution("I am a student.", reg=reg)
    ck = reg.get("transformer-en-fr")
    sp = special_ids(ck.tokenizer)
    assert rec.tokens[-1] == "</s>" and len(rec.targets) == len(rec.outputs) >= 2
    out = [ck.tokenizer.token_to_id(w) for w in rec.outputs]
    src = torch.tensor([[ck.tokenizer.token_to_id(tk) for tk in rec.tokens]])
    with torch.no_grad():
        o = ck.model(src, torch.tensor([[sp["bos"]] + out[:-1]]), need_weights=True)
    cross = o.trace.cross[0, -1].mean(0).numpy()  # (T, S)
    for t, x in enumerate(rec.targets):
        np.testing.assert_allclose(x.scores["attention"], cross[t], atol=1e-5)
        assert np.isfinite(x.ig_sum) and x.ig_gap != 0
        for m in at.MEASURES:
            assert len(x.scores[m]) == len(rec.tokens)
    # the decomposed last layer's output is the model's: its logits predict the same words
    with torch.no_grad():
        last = at.transformer_last_cross(ck.model, src, torch.tensor([[sp["bos"]] + out[:-1]]))
        logits = ck.model.out_proj(ck.model.dec_norm(last["output"]))
    torch.testing.assert_close(logits, o.logits[0], atol=1e-4, rtol=1e-4)


def test_correlations_use_magnitudes_and_skip_specials():
    scores = {m: [0.0, 1.0, 2.0, 3.0, 9.0] for m in at.MEASURES}
    scores["grad_input"] = [5.0, -1.0, -2.0, -3.0, 0.0]  # same magnitudes' ranks on the content tokens
    keep = at.content_tokens(["[CLS]", "a", "b", "c", "[SEP]"])
    rho = at.correlations(scores, keep)
    assert rho[0, at.MEASURES.index("grad_input")] == pytest.approx(1.0)
    rho_all = at.correlations(scores)
    assert rho_all[0, at.MEASURES.index("grad_input")] < 1.0
