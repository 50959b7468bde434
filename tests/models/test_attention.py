"""The attention primitive: invariants and parity with PyTorch's own implementations."""
import math

import pytest
import torch
import torch.nn as nn
import torch.nn.functional as F

from models.attention import (MultiHeadAttention, attend, causal_mask, make_score, scaled_dot_product,
                              SCORE_FUNCTIONS)


def test_rows_sum_to_one_and_masked_cells_exact():
    q, k, v = torch.randn(2, 3, 5, 8), torch.randn(2, 3, 7, 8), torch.randn(2, 3, 7, 4)
    mask = torch.ones(2, 1, 1, 7, dtype=torch.bool)
    mask[1, ..., 4:] = False  # padding columns of the second example
    out, probs, scores = scaled_dot_product(q, k, v, mask)
    torch.testing.assert_close(probs.sum(-1), torch.ones(2, 3, 5))
    assert (probs[1, ..., 4:] == 0).all()
    assert torch.isneginf(scores[1, ..., 4:]).all()
    assert torch.isfinite(scores[0]).all()


def test_causal_upper_triangle_is_exactly_zero():
    x = torch.randn(1, 2, 6, 8)
    _, probs, scores = scaled_dot_product(x, x, x, causal_mask(6))
    upper = torch.triu(torch.ones(6, 6, dtype=torch.bool), diagonal=1)
    assert (probs[..., upper] == 0).all()
    assert torch.isneginf(scores[..., upper]).all()
    assert probs[0, 0, 0, 0] == 1.0  # the first query can only see itself


def test_fully_masked_row_gives_zeros_not_nan():
    q, k, v = torch.randn(1, 1, 3, 4), torch.randn(1, 1, 3, 4), torch.randn(1, 1, 3, 4)
    mask = torch.ones(1, 1, 3, 3, dtype=torch.bool)
    mask[0, 0, 1] = False
    out, probs, _ = scaled_dot_product(q, k, v, mask)
    assert not torch.isnan(out).any() and not torch.isnan(probs).any()
    assert (probs[0, 0, 1] == 0).all() and (out[0, 0, 1] == 0).all()


@pytest.mark.parametrize("causal", [False, True])
def test_equals_torch_sdpa(causal):
    q, k, v = torch.randn(2, 4, 6, 16), torch.randn(2, 4, 6, 16), torch.randn(2, 4, 6, 16)
    mask = causal_mask(6) if causal else (torch.rand(2, 1, 1, 6) > 0.3) | (torch.arange(6) == 0)
    ours = scaled_dot_product(q, k, v, mask).out
    ref = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
    torch.testing.assert_close(ours, ref, atol=1e-5, rtol=1e-5)


def test_pre_dropout_probs_are_returned():
    x = torch.randn(1, 1, 4, 8)
    drop = nn.Dropout(0.5).train()
    _, probs, _ = scaled_dot_product(x, x, x, None, drop)
    torch.testing.assert_close(probs.sum(-1), torch.ones(1, 1, 4))


def test_multihead_equals_torch_multiheadattention():
    d, h = 32, 4
    ours, ref = MultiHeadAttention(d, h).eval(), nn.MultiheadAttention(d, h, batch_first=True).eval()
    with torch.no_grad():
        ref.in_proj_weight.copy_(torch.cat([ours.q_proj.weight, ours.k_proj.weight, ours.v_proj.weight]))
        ref.in_proj_bias.copy_(torch.cat([ours.q_proj.bias, ours.k_proj.bias, ours.v_proj.bias]))
        ref.out_proj.weight.copy_(ours.out_proj.weight)
        ref.out_proj.bias.copy_(ours.out_proj.bias)
    xq, xkv = torch.randn(2, 5, d), torch.randn(2, 7, d)
    pad = torch.zeros(2, 7, dtype=torch.bool)
    pad[1, 5:] = True  # torch: True = ignore
    ref_out, ref_w = ref(xq, xkv, xkv, key_padding_mask=pad, average_attn_weights=False)
    a = ours(xq, xkv, (~pad)[:, None, None, :], need_weights=True)
    torch.testing.assert_close(a.out, ref_out, atol=1e-5, rtol=1e-5)
    torch.testing.assert_close(a.probs, ref_w, atol=1e-5, rtol=1e-5)
    fast = ours(xq, xkv, (~pad)[:, None, None, :], need_weights=False)  # the SDPA fast path
    assert fast.probs is None
    torch.testing.assert_close(fast.out, ref_out, atol=1e-5, rtol=1e-5)


def test_rnn_score_functions():
    s, h = torch.randn(2, 6), torch.randn(2, 4, 6)
    torch.testing.assert_close(make_score("dot", 6, 6)(s, h), (h @ s[:, :, None]).squeeze(-1))
    torch.testing.assert_close(make_score("scaled_dot", 6, 6)(s, h), (h @ s[:, :, None]).squeeze(-1) / math.sqrt(6))
    general = make_score("general", 6, 5)
    h5 = torch.randn(2, 4, 5)
    torch.testing.assert_close(general(s, h5), torch.einsum("bd,de,bse->bs", s, general.W.weight, h5))
    add = make_score("additive", 6, 5, 3)
    expect = add.v(torch.tanh(add.W(s)[:, None] + add.U(h5))).squeeze(-1)
    torch.testing.assert_close(add(s, h5), expect)
    for name in SCORE_FUNCTIONS:  # every score function goes through the same masked softmax
        sc = make_score(name, 6, 6)(s, h)
        a = attend(sc[:, None], h, torch.tensor([[1, 1, 1, 0], [1, 1, 1, 1]], dtype=torch.bool)[:, None])
        torch.testing.assert_close(a.probs.sum(-1), torch.ones(2, 1))
        assert (a.probs[0, 0, 3] == 0)
    with pytest.raises(ValueError):
        make_score("dot", 6, 5)
    with pytest.raises(ValueError):
        make_score("cosine", 6, 6)


def test_head_sharpness_reads_one_hot_uniform_and_skips_masked_rows():
    """Mean row entropy and top weight per head: 0 and 1 for one-hot rows, log k and 1/k for
    uniform ones; rows outside the query mask do not count, whatever they hold."""
    from models.trace import head_sharpness
    k = 5
    att = torch.zeros(2, 1, 2, 3, k, dtype=torch.float64)  # (B, L, H, q, k)
    att[:, 0, 0, :, 1] = 1.0  # head 0: one-hot
    att[:, 0, 1] = 1.0 / k  # head 1: uniform
    keep = torch.tensor([[True, True, False], [True, False, False]])
    att[0, 0, :, 2] = torch.softmax(torch.randn(2, k, dtype=torch.float64), -1)  # masked rows: anything
    ent, top = head_sharpness(att, keep)
    assert ent.shape == top.shape == (1, 2)
    assert torch.allclose(ent[0], torch.tensor([0.0, math.log(k)], dtype=torch.float64))
    assert torch.allclose(top[0], torch.tensor([1.0, 1.0 / k], dtype=torch.float64))
    ent_all, _ = head_sharpness(att)  # counting the masked rows changes the figures
    assert not torch.allclose(ent_all, ent)


def test_qk_layernorm_bounds_scores_and_both_paths_agree():
    """QK-LayerNorm (Dehghani et al. 2023): with unit gains and zero biases every head's q and k
    have norm sqrt(d_head), so |q . k| / sqrt(d_head) <= sqrt(d_head) however large W_q grows;
    and the fused path (training) computes what the explicit one (the views) shows."""
    torch.manual_seed(0)
    d, h = 32, 4
    attn = MultiHeadAttention(d, h, qk_norm=True).eval()
    plain = MultiHeadAttention(d, h).eval()
    plain.load_state_dict(attn.state_dict(), strict=False)  # the same projections, no norms
    x = torch.randn(2, 6, d)
    mask = torch.ones(2, 1, 1, 6, dtype=torch.bool)
    mask[1, ..., 4:] = False
    with torch.no_grad():
        attn.q_proj.weight.mul_(1000)
        plain.q_proj.weight.mul_(1000)
        explicit = attn(x, x, mask, need_weights=True)
        fast = attn(x, x, mask)
        unbounded = plain(x, x, mask, need_weights=True).scores
    finite = explicit.scores[torch.isfinite(explicit.scores)]
    assert finite.abs().max() <= math.sqrt(d // h) + 1e-4
    assert unbounded[torch.isfinite(unbounded)].abs().max() > 100 * math.sqrt(d // h)  # what the norms prevent
    torch.testing.assert_close(fast.out, explicit.out, atol=1e-5, rtol=1e-5)
    torch.testing.assert_close(explicit.probs.sum(-1), torch.ones(2, h, 6))
    assert (explicit.probs[1, ..., 4:] == 0).all()
    q, k, _ = attn.heads(x, x)  # what the views read: normalised, zero mean per head
    torch.testing.assert_close(q.mean(-1), torch.zeros(2, h, 6), atol=1e-4, rtol=0)
    assert {n for n, _ in plain.named_parameters()} < {n for n, _ in attn.named_parameters()}
