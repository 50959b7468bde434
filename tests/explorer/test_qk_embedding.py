"""Queries and keys of many sentences (explorer/compute/qk_embedding.py, explorer/figures/qk_embedding.py, the Query · key view): the
PCA and its normalisation on synthetic vectors, the shipped asset against the model's weights, the typed sentence
projected with the stored basis, and the figure."""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

from explorer import figures as fg
from explorer.compute import qk_embedding as qe
from explorer.figures import qk_embedding as qf

ROOT = Path(__file__).resolve().parents[2]
ASSET = qe.load("bert")
needs_asset = pytest.mark.skipif(ASSET is None, reason="no assets/qk_embedding/bert.* (python -m scripts.qk_embedding)")


def _softmax(s):
    e = np.exp(s - s.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def test_the_normalisation_leaves_every_softmax_row_unchanged_and_the_pca_is_an_svd():
    rng = np.random.default_rng(0)
    q = rng.normal(1.0, 2.0, (300, 16))
    k = rng.normal(-3.0, 0.5, (300, 16))  # another centre and scale: two clouds before the normalisation
    basis, explained = qe.fit_basis(q, k)
    qn, kn = q * basis.scale, (k + basis.key_shift) / basis.scale
    np.testing.assert_allclose(qn.mean(0) / basis.scale, kn.mean(0) * basis.scale, atol=1e-9)  # means met
    np.testing.assert_allclose(np.linalg.norm(qn, axis=1).mean(), np.linalg.norm(kn, axis=1).mean(), rtol=1e-9)
    np.testing.assert_allclose(_softmax(qn @ kn.T), _softmax(q @ k.T), atol=1e-9)  # the head's attention
    np.testing.assert_allclose(basis.components @ basis.components.T, np.eye(2), atol=1e-12)
    both = np.concatenate([qn, kn])
    _, s, vt = np.linalg.svd(both - both.mean(0))
    np.testing.assert_allclose(np.abs(basis.components), np.abs(vt[:2]), atol=1e-9)
    np.testing.assert_allclose(explained, s[:2] ** 2 / (s ** 2).sum())
    q_xy, k_xy = basis.project(q, k)
    np.testing.assert_allclose(np.concatenate([q_xy, k_xy]), (both - basis.mean) @ basis.components.T, atol=1e-9)
    assert np.all(np.abs(basis.components).argmax(1) == np.abs(vt[:2]).argmax(1))
    assert np.all(basis.components[np.arange(2), np.abs(basis.components).argmax(1)] > 0)  # signs fixed
    again, _ = qe.fit_basis(q, k)
    np.testing.assert_array_equal(again.components, basis.components)  # deterministic


@needs_asset
def test_the_typed_sentence_is_projected_with_the_stored_basis():
    text = "The students opened their books ."
    tokens, q, k = qe.sentence_qk(text, 4, 1)
    p = qe.project_sentence(text, 4, 1)
    assert p.tokens == tokens and p.q_xy.shape == p.k_xy.shape == (len(tokens), 2)
    mean, comps = ASSET.mean[4, 1].astype(float), ASSET.components[4, 1].astype(float)
    shift, scale = ASSET.key_shift[4, 1].astype(float), float(ASSET.scale[4, 1])
    np.testing.assert_allclose(p.q_xy, (q * scale - mean) @ comps.T, rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(p.k_xy, ((k + shift) / scale - mean) @ comps.T, rtol=1e-6, atol=1e-6)


@needs_asset
def test_the_typed_sentences_vectors_are_the_ones_the_head_scores():
    from explorer.compute import lab
    text = "The cat sat on the mat . [SEP] Then it slept ."
    r = lab.query_key(text, 3, 2, 5)
    tokens, q, k = qe.sentence_qk(text, 3, 2)
    assert tokens == r.tokens
    np.testing.assert_allclose(q[5], r.q, atol=1e-5)
    np.testing.assert_allclose(k, r.k, atol=1e-5)


@needs_asset
def test_the_asset_matches_the_models_weights_and_its_data():
    """Recompute the queries and keys of three of the asset's sentences from the checkpoint and project them with
    the stored basis: the stored points (float16) are those."""
    import torch
    from explorer.compute.inference import registry
    ckpt = registry().get("bert", "bert")
    L, H = ASSET.shape
    assert (L, H) == (ckpt.config.n_layers, ckpt.config.n_heads)
    N = len(ASSET.tokens)
    assert ASSET.coords.shape == (L, H, 2, N, 2) and len(ASSET.position) == len(ASSET.tag) == N
    assert 2000 <= 2 * N <= 10000 and ASSET.meta["points"] == N  # a few thousand vectors
    assert set(ASSET.tags) >= {"NOUN", "VERB", "DET", qe.SPECIAL}
    for s in (0, 57, int(ASSET.sentence.max())):
        idx = np.flatnonzero(ASSET.sentence == s)
        np.testing.assert_array_equal(ASSET.position[idx], np.arange(len(idx)))
        toks = [ASSET.tokens[i] for i in idx]
        assert toks[0] == "[CLS]" and toks[-1] == "[SEP]" and ASSET.tags[ASSET.tag[idx[0]]] == qe.SPECIAL
        ids = torch.tensor([[ckpt.tokenizer.token_to_id(t) for t in toks]])
        out = qe.layers_qk(ckpt, ids, torch.zeros_like(ids), [0, 6, L - 1])
        for l, (q, k) in out.items():
            for h in range(H):
                q_xy, k_xy = ASSET.basis(l, h).project(q[0, h], k[0, h])
                span = np.abs(ASSET.coords[l, h].astype(float)).max()
                np.testing.assert_allclose(ASSET.coords[l, h, 0, idx], q_xy, atol=2e-3 * span, rtol=2e-3)
                np.testing.assert_allclose(ASSET.coords[l, h, 1, idx], k_xy, atol=2e-3 * span, rtol=2e-3)
    data = ROOT.parent / "shared" / "data" / ASSET.meta["data"]["file"]
    if data.is_file():  # the treebank is not shipped; where it is, its hash is the one recorded
        assert hashlib.sha256(data.read_bytes()).hexdigest() == ASSET.meta["data"]["sha256"]
    meta = json.loads(qe.asset_paths("bert")[1].read_text(encoding="utf-8"))
    assert meta["command"].startswith("python -m scripts.qk_embedding")


def test_a_model_without_an_embedding_has_none(tmp_path):
    assert qe.load("bert-custom", tmp_path) is None


def _synthetic(n=40, seed=1):
    rng = np.random.default_rng(seed)
    tags = ["NOUN", "VERB", "DET", "special"]
    return (rng.normal(size=(n, 2)), rng.normal(size=(n, 2)), np.arange(n) % 10, [tags[i % 4] for i in range(n)],
            [f"t{i}" for i in range(n)], np.arange(n) // 10)


@pytest.mark.parametrize("colour_by", qf.COLOUR_BY)
def test_the_figure_draws_every_point_and_the_typed_sentence_on_top(colour_by, monkeypatch):
    monkeypatch.setattr(fg, "VALIDATE", True)  # plotly's validators: a misspelt property fails
    q, k, pos, tags, toks, sent = _synthetic()
    tq, tk = np.array([[0.5, 0.5], [1.0, -1.0]]), np.array([[-0.5, 0.2], [0.0, 2.0]])
    fig = qf.qk_embedding_figure(q, k, pos, tags, toks, sent, "<b>T</b>", colour_by, [0.3, 0.2], tq, tk,
                                 ["<img>", "b"], chosen=1)
    background = [t for t in fig.data if t.mode == "markers" and t.marker.symbol != "star"]
    xs = np.concatenate([np.asarray(t.x, float) for t in background])
    assert len(xs) == 2 * len(toks)  # every query and every key once
    np.testing.assert_allclose(np.sort(xs), np.sort(np.concatenate([q[:, 0], k[:, 0]])))
    typed = [t for t in fig.data if t.mode == "markers+text"]
    np.testing.assert_allclose(np.asarray(typed[0].x, float), tq[:, 0])
    np.testing.assert_allclose(np.asarray(typed[1].y, float), tk[:, 1])
    assert typed[0].text[0] == "&lt;img&gt;" and "<b>" not in fig.layout.title.text  # user text escaped
    star = [t for t in fig.data if t.marker.symbol == "star"]
    assert star and (star[0].x[0], star[0].y[0]) == (1.0, -1.0)  # the chosen query's q
    assert fig.layout.xaxis.title.text == "PC 1 (30%)" and fig.layout.yaxis.scaleanchor == "x"
    if colour_by == "pos":
        assert sorted(t.name for t in background) == sorted(set(tags))
    if colour_by == "position":
        assert list(background[0].marker.color) == list(pos)


def test_the_figure_refuses_mismatched_arrays_and_unknown_colourings():
    q, k, pos, tags, toks, sent = _synthetic()
    with pytest.raises(ValueError):
        qf.qk_embedding_figure(q[:-1], k, pos, tags, toks, sent, "t")
    with pytest.raises(ValueError):
        qf.qk_embedding_figure(q, k, pos, tags, toks, sent, "t", colour_by="colour")


@needs_asset
def test_the_view_shows_the_typed_sentence_in_the_heads_plane(monkeypatch):
    from explorer.views import query_key as v
    text = "The cat sat on the mat ."
    view = v.query_key_view(text, 5, 2, 3, "bert", "en", "position")
    p = view.record.projection
    assert (p.layer, p.head) == (4, 1) and view.record.query_index == 3
    typed = [t for t in view.embedding.data if t.mode == "markers+text"]
    np.testing.assert_allclose(np.asarray(typed[0].x, float), p.q_xy[:, 0])
    assert "Layer 5, head 2" in view.embedding.layout.title.text and "UD English EWT" in view.embedding_text
    again = v.query_key_redraw(view.record, "ko", "pos")
    assert "레이어 5, 헤드 2" in again.embedding.layout.title.text
    plane = v.embedding_table(p, "en")
    np.testing.assert_allclose(plane["key PC 2"], p.k_xy[:, 1])
    monkeypatch.setattr(qe, "load", lambda *a, **k: None)  # a BERT with no precomputed plane: said, not drawn
    none = v.query_key_view(text, 1, 1, 0, "bert", "en")
    assert none.record.projection is None and "scripts.qk_embedding" in none.embedding_text
