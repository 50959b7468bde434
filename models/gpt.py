"""GPT: a decoder-only Transformer language model (Radford et al. 2018, "Improving Language
Understanding by Generative Pre-Training"; the block layout of GPT-2, Radford et al. 2019).

Read top to bottom: config -> causal self-attention -> block -> model -> sampling. Every
position reads only itself and the positions before it (the causal mask of Vaswani et al.
2017, sec. 3.2.3), so the model predicts the next token at every position at once.

* Pre-LN blocks, x + Attn(LN(x)), x + MLP(LN(x)), and a final LayerNorm (GPT-2, sec. 2.3);
  learned positions; the output projection is the token embedding (tied, Press & Wolf 2017);
  GELU in its tanh form, as GPT-2 has it.
* Attention comes from models.attention (`scaled_dot_product`) and is returned in a `Trace`
  (`dec_self`: post-softmax, pre-dropout; `dec_self_scores`: QK^T/sqrt(d_k) with -inf above the
  diagonal), never stored on the modules. Training uses F.scaled_dot_product_attention
  (is_causal) when no weights are asked for.
* `step` is the key/value cache for generation: each layer keeps the keys and values of the
  positions already read, so a new token costs one position's work instead of the whole prefix's.

tests/models/test_gpt.py pins it to Hugging Face's GPT2LMHeadModel with converted weights.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar, NamedTuple

import torch
import torch.nn as nn
import torch.nn.functional as F

from models.attention import MultiHeadAttention, causal_mask, scaled_dot_product
from models.trace import ModelOutput, Trace


@dataclass(frozen=True)
class GPTConfig:
    arch: ClassVar[str] = "gpt"
    vocab_size: int  # tokens (the shipped BERT's WordPiece vocabulary: 16,000)
    max_len: int = 128  # context length: learned positions 0 .. max_len - 1
    d_model: int = 256  # width of the residual stream
    n_layers: int = 6  # Transformer blocks
    n_heads: int = 8  # attention heads per block; d_model / n_heads = d_k
    d_ff: int = 1024  # inner width of the MLP (4 d_model, as GPT)
    dropout: float = 0.1  # on embeddings, attention weights and residual branches
    layer_norm_eps: float = 1e-5  # GPT-2's
    pad_id: int = 0  # never predicted: a target of -100 is ignored instead


class KV(NamedTuple):
    """One layer's cache: the keys and values of every position read so far."""
    k: torch.Tensor  # (B, nh, t, hs)
    v: torch.Tensor  # (B, nh, t, hs)


class CausalSelfAttention(nn.Module):
    """Masked multi-head self-attention. The projections are models.attention's MultiHeadAttention;
    the weights come from its `scaled_dot_product`. With `past`, x holds the new positions only and
    their queries read the cached keys and values as well as their own."""

    def __init__(self, c: GPTConfig):
        super().__init__()
        self.mha = MultiHeadAttention(c.d_model, c.n_heads, c.dropout)

    def forward(self, x: torch.Tensor, past: KV | None = None, need_weights: bool = False):
        """x (B, T, d_model) -> (out (B, T, d_model), probs, scores (B, nh, T, t+T) or None, KV of t+T positions)."""
        B, T, _ = x.shape
        m = self.mha
        q, k, v = m.heads(x, x)  # (B, nh, T, hs) each
        if past is not None:
            k, v = torch.cat([past.k, k], dim=2), torch.cat([past.v, v], dim=2)  # (B, nh, t+T, hs)
        S = k.size(2)
        if need_weights or (past is not None and T > 1):
            mask = causal_mask(S, x.device)[S - T:]  # (T, S): the last T rows of the causal mask
            out, probs, scores = scaled_dot_product(q, k, v, mask, m.dropout)
        else:  # fused kernel; a single new position after a cache may read every key
            out = F.scaled_dot_product_attention(q, k, v, is_causal=past is None and T > 1,
                                                 dropout_p=m.dropout.p if self.training else 0.0)
            probs = scores = None
        out = out.transpose(1, 2).reshape(B, T, m.n_heads * m.d_head)  # (B, T, d_model)
        return m.out_proj(out), probs, scores, KV(k, v)


class MLP(nn.Module):
    """Position-wise feed-forward: d_model -> d_ff -> GELU (tanh form) -> d_model."""

    def __init__(self, c: GPTConfig):
        super().__init__()
        self.fc = nn.Linear(c.d_model, c.d_ff)
        self.proj = nn.Linear(c.d_ff, c.d_model)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.proj(F.gelu(self.fc(x), approximate="tanh"))


class Block(nn.Module):
    """x + Attn(LN(x)), then x + MLP(LN(x)) (pre-LN, GPT-2)."""

    def __init__(self, c: GPTConfig):
        super().__init__()
        self.ln1 = nn.LayerNorm(c.d_model, eps=c.layer_norm_eps)
        self.attn = CausalSelfAttention(c)
        self.ln2 = nn.LayerNorm(c.d_model, eps=c.layer_norm_eps)
        self.mlp = MLP(c)
        self.drop = nn.Dropout(c.dropout)

    def forward(self, x, past=None, need_weights=False):
        a, probs, scores, kv = self.attn(self.ln1(x), past, need_weights)
        x = x + self.drop(a)
        x = x + self.drop(self.mlp(self.ln2(x)))
        return x, probs, scores, kv


class GPT(nn.Module):
    def __init__(self, config: GPTConfig):
        super().__init__()
        c = self.config = config
        self.tok = nn.Embedding(c.vocab_size, c.d_model)
        self.pos = nn.Embedding(c.max_len, c.d_model)
        self.drop = nn.Dropout(c.dropout)
        self.blocks = nn.ModuleList(Block(c) for _ in range(c.n_layers))
        self.ln_f = nn.LayerNorm(c.d_model, eps=c.layer_norm_eps)
        self.lm_head = nn.Linear(c.d_model, c.vocab_size, bias=False)
        self.lm_head.weight = self.tok.weight  # tied (GPT-2; Press & Wolf 2017)
        self.apply(self._init)
        for b in self.blocks:  # GPT-2 sec. 2.3: residual projections scaled by 1/sqrt(number of residual layers)
            for p in (b.attn.mha.out_proj.weight, b.mlp.proj.weight):
                nn.init.normal_(p, std=0.02 / math.sqrt(2 * c.n_layers))

    @staticmethod
    def _init(m):
        if isinstance(m, (nn.Linear, nn.Embedding)):
            nn.init.normal_(m.weight, std=0.02)
        if isinstance(m, nn.Linear) and m.bias is not None:
            nn.init.zeros_(m.bias)

    def _run(self, ids: torch.Tensor, cache=None, need_weights: bool = False):
        """ids (B, T) at positions t .. t+T-1, where t is the cache's length -> hidden states, per-layer
        attention and the new cache."""
        t = 0 if cache is None else cache[0].k.size(2)
        T = ids.size(1)
        if t + T > self.config.max_len:
            raise ValueError(f"position {t + T - 1} is past the context ({self.config.max_len} positions)")
        positions = torch.arange(t, t + T, device=ids.device)  # (T,)
        x = self.drop(self.tok(ids) + self.pos(positions))  # (B, T, d_model)
        probs, scores, new = [], [], []
        for i, block in enumerate(self.blocks):
            x, p, s, kv = block(x, None if cache is None else cache[i], need_weights)
            probs.append(p)
            scores.append(s)
            new.append(kv)
        return self.ln_f(x), probs, scores, tuple(new)

    def forward(self, ids: torch.Tensor, targets: torch.Tensor | None = None,
                need_weights: bool = False) -> ModelOutput:
        """ids (B, T) -> logits (B, T, V) for the token after each position; the mean cross-entropy
        only when targets (B, T) are given (-100 = not counted)."""
        h, probs, scores, _ = self._run(ids, None, need_weights)
        logits = self.lm_head(h)  # (B, T, V)
        loss = None
        if targets is not None:
            loss = F.cross_entropy(logits.flatten(0, 1).float(), targets.flatten(), ignore_index=-100)
        trace = None
        if need_weights:  # (B, L, nh, T, T) each
            trace = Trace(dec_self=torch.stack(probs, dim=1), dec_self_scores=torch.stack(scores, dim=1))
        return ModelOutput(logits, loss, trace)

    def step(self, ids: torch.Tensor, cache: tuple[KV, ...] | None = None):
        """Key/value-cached decoding: ids (B, T) are the tokens after the cached ones (the whole prompt
        at first, then one token a step). Returns (logits of the last position (B, V), the cache).

        Exact, not an approximation: under the causal mask no earlier position's keys or values
        depend on later tokens, so they never change. What it saves: a step without the cache runs
        every layer over all t positions (the projections, the MLP and t x t attention); with it,
        over one position, reading t cached keys and values. tests/models/test_gpt.py checks that both
        give the same logits and the same generated text."""
        h, _, _, cache = self._run(ids, cache)
        return self.lm_head(h[:, -1]), cache


# ---------------------------------------------------------------------------------------
# Choosing the next token.


def next_token_distribution(logits: torch.Tensor, temperature: float = 1.0, top_k: int = 0,
                            top_p: float = 1.0) -> torch.Tensor:
    """The distribution a token is drawn from: softmax(logits / temperature), cut to the top_k most likely
    tokens (0 = no cut) and to the smallest set whose probability reaches top_p (nucleus sampling,
    Holtzman et al. 2020), renormalised. logits (..., V) -> probabilities (..., V)."""
    probs = F.softmax(logits.float() / temperature, dim=-1)
    if top_k and top_k < probs.size(-1):
        kth = probs.topk(top_k, dim=-1).values[..., -1:]  # (..., 1)
        probs = probs.masked_fill(probs < kth, 0.0)
    if top_p < 1.0:
        sorted_p, order = probs.sort(dim=-1, descending=True)
        before = sorted_p.cumsum(-1) - sorted_p  # mass of the tokens ranked above each one
        sorted_p = sorted_p.masked_fill(before >= top_p, 0.0)  # the most likely token always stays
        probs = torch.zeros_like(probs).scatter(-1, order, sorted_p)
    return probs / probs.sum(-1, keepdim=True)
