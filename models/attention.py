"""The one place attention weights are computed.

* `attend` is the core: scores -> masked softmax -> weighted sum of values. It returns
  the output, the post-softmax probabilities and the raw pre-softmax scores, with masked
  positions exactly -inf in the scores and exactly 0 in the probabilities.
* `scaled_dot_product` is Vaswani et al. 2017, eq. (1): softmax(QK^T / sqrt(d_k)) V.
* `MultiHeadAttention` is section 3.2.2 of the same paper, with a fast path through
  `F.scaled_dot_product_attention` used for training when weights are not requested, and
  optional QK-LayerNorm (Dehghani et al. 2023), which bounds the scores a head can reach.
* The RNN score functions are the ones of Luong et al. 2015 (dot, general) and
  Bahdanau et al. 2015 (additive, a.k.a. concat), plus the scaled dot of Vaswani et al.

Masks are boolean and broadcastable to the scores: True = this key may be attended to
(the convention of `F.scaled_dot_product_attention`). A head mask is another thing: a 0/1
weight per head on its output before W^O (Michel et al. 2019, "Are Sixteen Heads Really
Better than One?", eq. 3), so a head switched off still attends but adds nothing.
"""
from __future__ import annotations

import math
from typing import NamedTuple

import torch
import torch.nn as nn
import torch.nn.functional as F


class Attended(NamedTuple):
    out: torch.Tensor  # (..., q, d_v) weighted sum of values
    probs: torch.Tensor  # (..., q, k) post-softmax, pre-dropout; masked = 0 exactly
    scores: torch.Tensor  # (..., q, k) pre-softmax; masked = -inf exactly


def attend(scores: torch.Tensor, v: torch.Tensor, mask: torch.Tensor | None = None,
           dropout: nn.Module | None = None) -> Attended:
    """Masked softmax over the last axis of `scores`, then a weighted sum of `v`.

    A row whose keys are all masked gets probabilities of exactly 0 (not NaN), so a
    padded query never poisons a batch. Dropout, if given, is applied to the weights
    used for the output only: the returned probabilities are the pre-dropout ones.
    """
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
        # Softmax over finite stand-ins so that a fully masked row does not give NaN
        # (exp(min - max) underflows to exactly 0 for every other row), then zero the
        # masked cells so that such a row is all zeros.
        finite = scores.masked_fill(~mask, torch.finfo(scores.dtype).min)
        probs = F.softmax(finite, dim=-1) * mask
    else:
        probs = F.softmax(scores, dim=-1)
    weights = dropout(probs) if dropout is not None else probs
    return Attended(weights @ v, probs, scores)


def scaled_dot_product(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor,
                       mask: torch.Tensor | None = None,
                       dropout: nn.Module | None = None) -> Attended:
    """softmax(Q K^T / sqrt(d_k)) V (Vaswani et al. 2017, eq. 1).

    q: (..., Tq, d_k), k: (..., Tk, d_k), v: (..., Tk, d_v), mask broadcastable to (..., Tq, Tk).
    """
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))  # (..., Tq, Tk)
    return attend(scores, v, mask, dropout)


def causal_mask(size: int, device: torch.device | None = None) -> torch.Tensor:
    """(size, size) boolean mask, True on and below the diagonal: position i sees 0..i."""
    return torch.ones(size, size, dtype=torch.bool, device=device).tril()


class MultiHeadAttention(nn.Module):
    """Multi-head attention (Vaswani et al. 2017, section 3.2.2).

    MultiHead(Q, K, V) = Concat(head_1..head_h) W^O,  head_i = Attention(Q W_i^Q, K W_i^K, V W_i^V).

    qk_norm=True LayerNorms every head's queries and keys before the dot product (QK-LayerNorm,
    Dehghani et al. 2023, "Scaling Vision Transformers to 22 Billion Parameters"), so a score
    grows only through the two norms' learned gains, not through ever larger projection weights:
    a guard against the attention entropy collapse of Zhai et al. 2023.
    """

    def __init__(self, d_model: int, n_heads: int, dropout: float = 0.0, qk_norm: bool = False):
        super().__init__()
        assert d_model % n_heads == 0, "d_model must be divisible by n_heads"
        self.n_heads = n_heads
        self.d_head = d_model // n_heads
        self.q_proj = nn.Linear(d_model, d_model)
        self.k_proj = nn.Linear(d_model, d_model)
        self.v_proj = nn.Linear(d_model, d_model)
        self.out_proj = nn.Linear(d_model, d_model)
        self.dropout = nn.Dropout(dropout)
        # one LayerNorm over each head's d_head features, shared by the heads (as in ViT-22B)
        self.q_norm = nn.LayerNorm(self.d_head, eps=1e-6) if qk_norm else None
        self.k_norm = nn.LayerNorm(self.d_head, eps=1e-6) if qk_norm else None

    def heads(self, x_q: torch.Tensor, x_kv: torch.Tensor):
        """The per-head queries, keys and values: (B, nh, Tq, hs), (B, nh, Tk, hs), (B, nh, Tk, hs)."""
        B, Tq, _ = x_q.shape
        Tk = x_kv.size(1)
        q = self.q_proj(x_q).view(B, Tq, self.n_heads, self.d_head).transpose(1, 2)  # (B, nh, Tq, hs)
        k = self.k_proj(x_kv).view(B, Tk, self.n_heads, self.d_head).transpose(1, 2)  # (B, nh, Tk, hs)
        v = self.v_proj(x_kv).view(B, Tk, self.n_heads, self.d_head).transpose(1, 2)  # (B, nh, Tk, hs)
        if self.q_norm is not None:
            q, k = self.q_norm(q), self.k_norm(k)
        return q, k, v

    def forward(self, x_q: torch.Tensor, x_kv: torch.Tensor, mask: torch.Tensor | None = None,
                need_weights: bool = False, head_mask: torch.Tensor | None = None) -> Attended:
        """x_q: (B, Tq, d_model), x_kv: (B, Tk, d_model), mask broadcastable to (B, nh, Tq, Tk).

        Returns Attended(out (B, Tq, d_model), probs, scores); probs and scores are
        (B, nh, Tq, Tk) when need_weights, else None (the fused SDPA kernel never
        materialises them, which is why training uses it).
        head_mask: (nh,) or (B, nh), 1 = keep, 0 = off: multiplies each head's output, its slice of
        the concatenation, before out_proj (Michel et al. 2019, eq. 3), so out_proj's bias stays. The
        probabilities returned are the head's own, unmasked. None computes exactly what it did before.
        """
        B, Tq, _ = x_q.shape
        q, k, v = self.heads(x_q, x_kv)
        if need_weights:
            out, probs, scores = scaled_dot_product(q, k, v, mask, self.dropout)
        else:
            out = F.scaled_dot_product_attention(
                q, k, v, attn_mask=mask, dropout_p=self.dropout.p if self.training else 0.0)
            probs = scores = None
        if head_mask is not None:
            out = out * head_mask.to(out.dtype)[..., None, None]  # (B, nh, Tq, hs) * (nh | B nh, 1, 1)
        out = out.transpose(1, 2).reshape(B, Tq, self.n_heads * self.d_head)  # (B, Tq, d_model)
        return Attended(self.out_proj(out), probs, scores)


# ---------------------------------------------------------------------------------------
# Score functions for RNN encoder-decoders: score(s, h) for a decoder state s (B, d_dec)
# against every encoder state h (B, S, d_enc), giving (B, S). Softmax and context are
# computed by `attend`, like everywhere else.


class DotScore(nn.Module):
    """Luong et al. 2015, eq. (8) 'dot': score = s . h (needs d_dec == d_enc)."""

    def forward(self, s: torch.Tensor, h: torch.Tensor) -> torch.Tensor:
        return torch.einsum("bd,bsd->bs", s, h)  # (B, S)


class ScaledDotScore(nn.Module):
    """Scaled dot, score = s . h / sqrt(d) (Vaswani et al. 2017 applied to an RNN)."""

    def forward(self, s: torch.Tensor, h: torch.Tensor) -> torch.Tensor:
        return torch.einsum("bd,bsd->bs", s, h) / math.sqrt(s.size(-1))  # (B, S)


class GeneralScore(nn.Module):
    """Luong et al. 2015, eq. (8) 'general' (multiplicative): score = s^T W h."""

    def __init__(self, d_dec: int, d_enc: int):
        super().__init__()
        self.W = nn.Linear(d_enc, d_dec, bias=False)

    def forward(self, s: torch.Tensor, h: torch.Tensor) -> torch.Tensor:
        return torch.einsum("bd,bsd->bs", s, self.W(h))  # (B, S)


class AdditiveScore(nn.Module):
    """Bahdanau et al. 2015, appendix A.1.2: score = v^T tanh(W s + U h)."""

    def __init__(self, d_dec: int, d_enc: int, d_attn: int):
        super().__init__()
        self.W = nn.Linear(d_dec, d_attn, bias=False)
        self.U = nn.Linear(d_enc, d_attn, bias=True)
        self.v = nn.Linear(d_attn, 1, bias=False)

    def forward(self, s: torch.Tensor, h: torch.Tensor) -> torch.Tensor:
        return self.v(torch.tanh(self.W(s).unsqueeze(1) + self.U(h))).squeeze(-1)  # (B, S)


SCORE_FUNCTIONS = ("dot", "scaled_dot", "general", "additive")


def make_score(name: str, d_dec: int, d_enc: int, d_attn: int | None = None) -> nn.Module:
    """Build one of SCORE_FUNCTIONS by name."""
    if name in ("dot", "scaled_dot") and d_dec != d_enc:
        raise ValueError(f"'{name}' attention needs d_dec == d_enc, got {d_dec} and {d_enc}")
    if name == "dot":
        return DotScore()
    if name == "scaled_dot":
        return ScaledDotScore()
    if name == "general":
        return GeneralScore(d_dec, d_enc)
    if name == "additive":
        return AdditiveScore(d_dec, d_enc, d_attn or d_dec)
    raise ValueError(f"unknown score function {name!r}; choose one of {SCORE_FUNCTIONS}")
