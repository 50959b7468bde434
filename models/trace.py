"""The one record of attention that every model returns.

A `Trace` holds attention as data, never as module state (a concurrent web app must not
race on `self.attn`). Inside the models its fields are torch tensors with a batch axis,
(B, layers, heads, q, k); `Trace.example(i, ...)` gives one example's record as numpy
arrays without the batch axis, cropped to its token counts, which is what the explorer,
the CLI and the tests consume (the records beside it carry the tokens).

Conventions for every field:
* post-softmax and PRE-dropout probabilities, [layers, heads, q, k];
* `dec_self_scores` are the raw decoder self-attention scores QK^T/sqrt(d_k) with -inf
  where the causal (or padding) mask hides a key;
* an RNN encoder-decoder fills only `cross`, as [1, 1, tgt, src];
* BERT fills only `enc_self`.
"""
from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

import numpy as np
import torch


@dataclass(frozen=True)
class Trace:
    enc_self: Any = None  # [L, H, src, src] encoder (or BERT) self-attention
    dec_self: Any = None  # [L, H, tgt, tgt] masked decoder self-attention
    dec_self_scores: Any = None  # [L, H, tgt, tgt] pre-softmax, -inf where masked
    cross: Any = None  # [L, H, tgt, src] encoder-decoder attention

    ARRAYS = ("enc_self", "dec_self", "dec_self_scores", "cross")

    def example(self, i: int = 0, src_tokens=(), tgt_tokens=()) -> "Trace":
        """One example of a batched tensor trace as numpy arrays, cropped to the token counts.

        Cropping drops the padding of a batch; when no tokens are given the full arrays
        are kept.
        """
        S, T = len(src_tokens), len(tgt_tokens)
        out = {}
        for name in self.ARRAYS:
            a = getattr(self, name)
            if a is None:
                out[name] = None
                continue
            a = a[i].detach().float().cpu().numpy() if isinstance(a, torch.Tensor) else np.asarray(a[i])
            q_len = S if name == "enc_self" else T
            k_len = T if name.startswith("dec_self") else S
            out[name] = a[..., : q_len or None, : k_len or None]
        return Trace(**out)

    def to_json(self, decimals: int = 6, heads: bool = True) -> dict:
        """Plain JSON-able dict; -inf (masked scores) become None, since JSON has no infinity. Values are
        rounded to `decimals` (the API sends 4: a 12-word /translate record 321 -> 211 KB, bench/payload.py);
        heads=False keeps each array's head axis as one entry, the mean over heads ([L, 1, q, k]; masked
        scores stay None)."""
        d: dict = {}
        for f in fields(self):
            v = getattr(self, f.name)
            if v is not None and not heads:
                v = np.asarray(v, dtype=np.float64)
                v = np.where(np.isneginf(v).all(1, keepdims=True), -np.inf,
                             np.where(np.isfinite(v), v, 0).mean(1, keepdims=True))
            d[f.name] = None if v is None else json_array(np.asarray(v), decimals)
        return d


def json_array(a: np.ndarray, decimals: int = 6):
    """An array as nested JSON lists: float64 rounded to `decimals`, non-finite values (a masked score's -inf) as
    None, since JSON has no infinity. The one encoding of arrays in records, API JSON and downloads."""
    a = a.astype(np.float64)
    if np.isfinite(a).all():
        return a.round(decimals).tolist()
    obj = a.round(decimals).astype(object)
    obj[~np.isfinite(a)] = None
    return obj.tolist()


@dataclass(frozen=True)
class ModelOutput:
    """What a translation model's forward returns (nanoGPT style: loss only with targets)."""
    logits: torch.Tensor  # (B, T, V)
    loss: torch.Tensor | None = None  # scalar, when targets were given
    trace: Trace | None = None  # batched tensor trace, when need_weights=True


COLLAPSED_TOP_WEIGHT = 0.99  # a head's mean top weight above this: a one-hot pointer, logits saturated


def head_sharpness(att: torch.Tensor, query_mask: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor]:
    """How peaked each head's attention is: (mean row entropy in nats, mean top weight), each [L, H].

    att: (B, L, H, q, k) probabilities, as in a batched Trace; query_mask: (B, q), True for the
    rows to count (real tokens), default all. A head whose mean top weight is near 1 puts all of
    every row on one key: its logits have saturated, the attention entropy collapse that Zhai et
    al. 2023 tie to loss spikes and divergence.
    """
    att = att.double()
    keep = torch.ones(att.shape[0], att.shape[3], dtype=torch.bool) if query_mask is None else query_mask.bool()
    w = keep.to(att.device, att.dtype)[:, None, None, :]  # (B, 1, 1, q)
    ent = -(att * torch.where(att > 0, att, torch.ones_like(att)).log()).sum(-1)  # 0 log 0 = 0
    n = w.sum()
    return (ent * w).sum((0, 3)) / n, (att.amax(-1) * w).sum((0, 3)) / n
