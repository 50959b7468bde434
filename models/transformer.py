"""Transformer encoder-decoder (Vaswani et al. 2017, "Attention Is All You Need").

Read top to bottom: config -> positional encoding (sec. 3.5) -> encoder layer -> decoder
layer (sec. 3.1) -> model. Attention comes from models.attention (eq. 1, sec. 3.2.2) and is
returned as a Trace, never stored on the modules. Residual blocks are post-LN as in the
paper, LayerNorm(x + Sublayer(x)); pre-LN (x + Sublayer(LayerNorm(x))) is a config option
because it trains faster and more stably at small scale (Xiong et al. 2020).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

import torch
import torch.nn as nn
import torch.nn.functional as F

from models.attention import MultiHeadAttention, causal_mask
from models.trace import ModelOutput, Trace


@dataclass(frozen=True)
class TransformerConfig:
    arch: ClassVar[str] = "transformer"
    src_vocab_size: int
    tgt_vocab_size: int
    d_model: int = 256  # width of every residual stream
    n_heads: int = 4  # attention heads per layer; d_model / n_heads = d_k
    n_layers: int = 3  # encoder layers (and decoder layers unless n_dec_layers is set)
    n_dec_layers: int | None = None  # decoder layers; None = n_layers
    d_ff: int = 1024  # inner width of the position-wise feed-forward network
    dropout: float = 0.1  # P_drop of sec. 5.4
    max_len: int = 256  # longest sequence the positional table covers
    pre_ln: bool = False  # False = the paper's post-LN; True = pre-LN
    share_embeddings: bool = True  # one embedding matrix for src, tgt and the output projection (sec. 3.4)
    pad_id: int = 0  # padding token id (both sides)


@dataclass(frozen=True)
class HeadMask:
    """Which heads are on, per attention kind (Michel et al. 2019's head ablation): each field is
    (layers, n_heads) or (B, layers, n_heads), 1 = keep, 0 = the head's output is zeroed before
    W^O; None = every head of that kind. Field names are the Trace's."""
    enc_self: torch.Tensor | None = None  # encoder self-attention
    dec_self: torch.Tensor | None = None  # masked decoder self-attention
    cross: torch.Tensor | None = None  # encoder-decoder attention

    def layer(self, field: str, i: int) -> torch.Tensor | None:
        """Layer i's (n_heads,) or (B, n_heads) mask of one kind, or None."""
        m = getattr(self, field)
        return None if m is None else m[..., i, :]


def _layer_mask(head_mask: HeadMask | None, field: str, i: int) -> torch.Tensor | None:
    return None if head_mask is None else head_mask.layer(field, i)


def sinusoidal_positions(max_len: int, d_model: int) -> torch.Tensor:
    """PE(pos, 2i) = sin(pos / 10000^(2i/d_model)), PE(pos, 2i+1) = cos(...) (sec. 3.5). (max_len, d_model)"""
    pos = torch.arange(max_len, dtype=torch.float64).unsqueeze(1)  # (max_len, 1)
    two_i = torch.arange(0, d_model, 2, dtype=torch.float64)  # (d_model/2,)
    angle = pos / torch.pow(10000.0, two_i / d_model)  # (max_len, d_model/2)
    pe = torch.zeros(max_len, d_model, dtype=torch.float64)
    pe[:, 0::2] = torch.sin(angle)
    pe[:, 1::2] = torch.cos(angle[:, : d_model // 2])
    return pe.float()


class Sublayer(nn.Module):
    """Residual connection around a sublayer with LayerNorm (sec. 3.1 / 5.4).

    post-LN (paper): x = LayerNorm(x + Dropout(f(x)));  pre-LN: x = x + Dropout(f(LayerNorm(x))).
    `inp(x)` gives what f reads, `add(x, y)` folds f's output y back into the stream.
    """

    def __init__(self, d_model: int, dropout: float, pre_ln: bool):
        super().__init__()
        self.norm = nn.LayerNorm(d_model)
        self.dropout = nn.Dropout(dropout)
        self.pre_ln = pre_ln

    def inp(self, x: torch.Tensor) -> torch.Tensor:
        return self.norm(x) if self.pre_ln else x

    def add(self, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        x = x + self.dropout(y)
        return x if self.pre_ln else self.norm(x)


class FeedForward(nn.Module):
    """FFN(x) = max(0, x W1 + b1) W2 + b2 (eq. 2)."""

    def __init__(self, d_model: int, d_ff: int, dropout: float):
        super().__init__()
        self.w1, self.w2 = nn.Linear(d_model, d_ff), nn.Linear(d_ff, d_model)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.w2(self.dropout(F.relu(self.w1(x))))


class EncoderLayer(nn.Module):
    """Self-attention then FFN, each wrapped in a residual Sublayer."""

    def __init__(self, c: TransformerConfig):
        super().__init__()
        self.self_attn = MultiHeadAttention(c.d_model, c.n_heads, c.dropout)
        self.ffn = FeedForward(c.d_model, c.d_ff, c.dropout)
        self.sub1, self.sub2 = (Sublayer(c.d_model, c.dropout, c.pre_ln) for _ in range(2))

    def forward(self, x, src_mask, need_weights, head_mask=None):
        h = self.sub1.inp(x)
        attn = self.self_attn(h, h, src_mask, need_weights, head_mask)
        x = self.sub1.add(x, attn.out)
        x = self.sub2.add(x, self.ffn(self.sub2.inp(x)))
        return x, attn


class DecoderLayer(nn.Module):
    """Masked self-attention, encoder-decoder (cross) attention, FFN (sec. 3.1)."""

    def __init__(self, c: TransformerConfig):
        super().__init__()
        self.self_attn = MultiHeadAttention(c.d_model, c.n_heads, c.dropout)
        self.cross_attn = MultiHeadAttention(c.d_model, c.n_heads, c.dropout)
        self.ffn = FeedForward(c.d_model, c.d_ff, c.dropout)
        self.sub1, self.sub2, self.sub3 = (Sublayer(c.d_model, c.dropout, c.pre_ln) for _ in range(3))

    def forward(self, y, memory, tgt_mask, src_mask, need_weights, past=None, self_head_mask=None,
                cross_head_mask=None):
        """y (B, T, d_model). past (decoding, see Transformer.step): this layer's self-attention
        inputs at the earlier positions, (B, t, d_model); y is then the newest position alone and
        may see all of past and itself, so tgt_mask is None. Also returns the self-attention
        inputs of past + y: the next step's past. The head masks are (n_heads,) or (B, n_heads)."""
        h = self.sub1.inp(y)
        seen = h if past is None else torch.cat([past, h], dim=1)
        self_attn = self.self_attn(h, seen, tgt_mask, need_weights, self_head_mask)
        y = self.sub1.add(y, self_attn.out)
        cross = self.cross_attn(self.sub2.inp(y), memory, src_mask, need_weights, cross_head_mask)
        y = self.sub2.add(y, cross.out)
        y = self.sub3.add(y, self.ffn(self.sub3.inp(y)))
        return y, self_attn, cross, seen


def _stack(attns, field):
    """Per-layer (B, nh, q, k) tensors -> (B, L, nh, q, k), or None when weights were not requested."""
    xs = [getattr(a, field) for a in attns]
    return None if xs[0] is None else torch.stack(xs, dim=1)


class Transformer(nn.Module):
    def __init__(self, config: TransformerConfig):
        super().__init__()
        c = self.config = config
        self.src_emb = nn.Embedding(c.src_vocab_size, c.d_model, padding_idx=c.pad_id)
        if c.share_embeddings:
            assert c.src_vocab_size == c.tgt_vocab_size, "shared embeddings need one vocabulary"
            self.tgt_emb = self.src_emb
        else:
            self.tgt_emb = nn.Embedding(c.tgt_vocab_size, c.d_model, padding_idx=c.pad_id)
        self.register_buffer("pe", sinusoidal_positions(c.max_len, c.d_model), persistent=False)
        self.dropout = nn.Dropout(c.dropout)
        self.encoder = nn.ModuleList(EncoderLayer(c) for _ in range(c.n_layers))
        self.decoder = nn.ModuleList(DecoderLayer(c) for _ in range(c.n_dec_layers or c.n_layers))
        # pre-LN leaves the residual stream un-normalised, so it needs a final LayerNorm
        self.enc_norm = nn.LayerNorm(c.d_model) if c.pre_ln else nn.Identity()
        self.dec_norm = nn.LayerNorm(c.d_model) if c.pre_ln else nn.Identity()
        self.out_proj = nn.Linear(c.d_model, c.tgt_vocab_size)
        if c.share_embeddings:
            self.out_proj.weight = self.tgt_emb.weight  # sec. 3.4: shared with the embeddings
        self.apply(self._init)
        # The embeddings last: a shared table is also out_proj's weight, which the Linear rule had just made
        # Xavier-uniform (std 0.014 for 10k x 256, 4.5 times under d_model^-0.5, so that at step 0 the positional
        # encoding outweighed the scaled token embeddings). The <pad> row starts at zero, as nn.Embedding has it.
        for emb in dict.fromkeys((self.src_emb, self.tgt_emb)):
            self._init(emb)
            nn.init.zeros_(emb.weight[c.pad_id])

    @staticmethod
    def _init(m):
        if isinstance(m, nn.Linear):
            nn.init.xavier_uniform_(m.weight)
            nn.init.zeros_(m.bias) if m.bias is not None else None
        elif isinstance(m, nn.Embedding):
            nn.init.normal_(m.weight, std=m.embedding_dim ** -0.5)

    def embed(self, emb: nn.Embedding, ids: torch.Tensor, start: int = 0) -> torch.Tensor:
        """Token embedding * sqrt(d_model) (sec. 3.4) + positional encoding of positions
        start, start + 1, ..., then dropout."""
        end = start + ids.size(1)
        if end > self.pe.size(0):  # an empty slice of the table would broadcast into a (B, 0, d) tensor
            raise ValueError(f"position {end - 1} is past the positional table (max_len {self.pe.size(0)})")
        x = emb(ids) * math.sqrt(self.config.d_model)  # (B, T, d_model)
        return self.dropout(x + self.pe[start:end])

    def encode(self, src: torch.Tensor, need_weights: bool = False, head_mask: HeadMask | None = None):
        """src (B, S) -> memory (B, S, d_model), src_mask (B, 1, 1, S), per-layer attention."""
        src_mask = (src != self.config.pad_id)[:, None, None, :]  # (B, 1, 1, S)
        x, attns = self.embed(self.src_emb, src), []
        for i, layer in enumerate(self.encoder):
            x, a = layer(x, src_mask, need_weights, _layer_mask(head_mask, "enc_self", i))
            attns.append(a)
        return self.enc_norm(x), src_mask, attns

    def decode(self, tgt_in: torch.Tensor, memory, src_mask, need_weights: bool = False,
               head_mask: HeadMask | None = None):
        """tgt_in (B, T) -> logits (B, T, V), per-layer self and cross attention."""
        T = tgt_in.size(1)
        tgt_mask = causal_mask(T, tgt_in.device)[None, None] & (tgt_in != self.config.pad_id)[:, None, None, :]
        y, self_attns, cross_attns = self.embed(self.tgt_emb, tgt_in), [], []
        for i, layer in enumerate(self.decoder):
            y, sa, ca, _ = layer(y, memory, tgt_mask, src_mask, need_weights, None,
                                 _layer_mask(head_mask, "dec_self", i), _layer_mask(head_mask, "cross", i))
            self_attns.append(sa)
            cross_attns.append(ca)
        return self.out_proj(self.dec_norm(y)), self_attns, cross_attns

    def forward(self, src, tgt_in, tgt_out=None, need_weights: bool = False, label_smoothing: float = 0.0,
                head_mask: HeadMask | None = None):
        """src (B, S), tgt_in (B, T) = <s> y1 .. y_{T-1}, tgt_out (B, T) = y1 .. </s>.
        head_mask: heads switched off (HeadMask); None = every head, exactly as without it."""
        memory, src_mask, enc = self.encode(src, need_weights, head_mask)
        logits, dec, cross = self.decode(tgt_in, memory, src_mask, need_weights, head_mask)
        loss = None
        if tgt_out is not None:
            loss = F.cross_entropy(logits.flatten(0, 1).float(), tgt_out.flatten(),
                                   ignore_index=self.config.pad_id, label_smoothing=label_smoothing)
        trace = None
        if need_weights:
            trace = Trace(enc_self=_stack(enc, "probs"), dec_self=_stack(dec, "probs"),
                          dec_self_scores=_stack(dec, "scores"), cross=_stack(cross, "probs"))
        return ModelOutput(logits, loss, trace)

    # --- the decoding interface of models/decoding.py ----------------------------------
    def start(self, src, head_mask: HeadMask | None = None):
        memory, src_mask, _ = self.encode(src, head_mask=head_mask)
        return memory, src_mask

    def step(self, memory, prefix, state, head_mask: HeadMask | None = None):
        """Next-token logits after prefix (B, t), running the decoder on its last token only.

        A key-value cache in its plainest form: `state` holds, per decoder layer, the inputs of
        self-attention at the positions decoded before, (B, t - 1, d_model); the new position's
        query attends to them and to itself. This is exact, not an approximation: under the causal
        mask no position's layer inputs depend on later ones, so the earlier ones never change.
        (Keys and values are projected again from these inputs each step, which keeps
        MultiHeadAttention as it is.) A decoding prefix holds no padding: a finished row repeats
        </s>. The attention shown in the app comes from one teacher-forced pass afterwards."""
        memory, src_mask = memory
        t = prefix.size(1)
        y = self.embed(self.tgt_emb, prefix[:, -1:], start=t - 1)  # (B, 1, d_model)
        cache = []
        for i, (layer, past) in enumerate(zip(self.decoder, state or [None] * len(self.decoder))):
            y, _, _, seen = layer(y, memory, None, src_mask, False, past,
                                  _layer_mask(head_mask, "dec_self", i), _layer_mask(head_mask, "cross", i))
            cache.append(seen)
        return self.out_proj(self.dec_norm(y))[:, -1], tuple(cache), None
