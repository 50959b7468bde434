"""Trace.to_json's compact options (a smaller API payload): rounding keeps every key and shape and each value within
half a unit of the last decimal; heads=False is the mean over heads, [L, 1, q, k], whose rows still sum to 1,
and masked scores stay null."""
import numpy as np
import pytest
import torch

from models.trace import Trace


def trace(L=2, H=3, T=5, S=4):
    g = torch.Generator().manual_seed(0)
    cross = torch.softmax(torch.randn(L, H, T, S, generator=g), -1).numpy()
    scores = torch.randn(L, H, T, T, generator=g)
    scores = scores.masked_fill(torch.triu(torch.ones(T, T, dtype=torch.bool), 1), float("-inf"))
    return Trace(dec_self=torch.softmax(scores, -1).numpy(), dec_self_scores=scores.numpy(), cross=cross)


def arr(x):
    return np.array([[[[np.nan if v is None else v for v in row] for row in q] for q in h] for h in x])


@pytest.mark.parametrize("decimals", [4, 3])
def test_rounding_keeps_shapes_and_values(decimals):
    t = trace()
    full, short = t.to_json(), t.to_json(decimals=decimals)
    assert full.keys() == short.keys() and short["enc_self"] is None
    for name in ("cross", "dec_self", "dec_self_scores"):
        a, b = arr(full[name]), arr(short[name])
        assert a.shape == b.shape == getattr(t, name).shape
        assert np.array_equal(np.isnan(a), np.isnan(b))  # masked scores: null in both
        assert np.nanmax(np.abs(b - getattr(t, name).astype(np.float64))) <= 0.5 * 10 ** -decimals + 1e-12
    assert np.allclose(arr(short["cross"]).sum(-1), 1, atol=4 * 0.5 * 10 ** -decimals)


def test_heads_false_is_the_mean_over_heads():
    t = trace()
    d = t.to_json(heads=False)
    cross = arr(d["cross"])
    assert cross.shape == (2, 1, 5, 4)
    np.testing.assert_allclose(cross[:, 0], t.cross.mean(1), atol=1e-6)
    np.testing.assert_allclose(cross.sum(-1), 1, atol=1e-5)
    scores = arr(d["dec_self_scores"])
    assert np.array_equal(np.isnan(scores[0, 0]), np.triu(np.ones((5, 5), bool), 1))  # the causal mask stays null
    np.testing.assert_allclose(np.nan_to_num(scores[:, 0]), np.where(np.isfinite(t.dec_self_scores),
                                                                     t.dec_self_scores, 0).mean(1), atol=1e-6)
