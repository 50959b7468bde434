"""LSTM encoder-decoder, with or without attention, in one readable file.

One encoder, three decoders (chosen by `Seq2SeqConfig.attention`):

* "none": Sutskever, Vinyals & Le 2014, "Sequence to Sequence Learning with Neural
  Networks". The encoder's final (h, c) initialises the decoder and is the ONLY thing it
  knows of the source. Reversing each source sentence (their sec. 3.3) puts the first
  source words next to the first target words.
* "additive": Bahdanau, Cho & Bengio 2015, "Neural Machine Translation by Jointly
  Learning to Align and Translate". The PREVIOUS decoder state s_{t-1} scores the
  encoder states (appendix A.1.2), the context c_t enters the LSTM together with
  y_{t-1}, and the output is read from (s_t, c_t, y_{t-1}) (eq. 4; a tanh deep output
  instead of their maxout, for simplicity).
* "dot", "scaled_dot", "general": Luong, Pham & Manning 2015, "Effective Approaches to
  Attention-based Neural Machine Translation". The CURRENT top state h_t scores the
  encoder states (eq. 8), h~_t = tanh(W_c [c_t; h_t]) (eq. 5), logits = W_s h~_t (eq. 6),
  and h~_{t-1} is fed into the next step's input ("input feeding", sec. 3.3).

In every variant the decoder starts from the encoder's final state (projected to
d_hidden when the encoder is bidirectional). Attention is computed only by
`models.attention.attend` and returned in the `Trace` as cross (B, 1, 1, tgt, src).
Teacher-forced `forward` runs the very `step` that beam search calls, one token at a
time, so the two cannot drift apart.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

from models.attention import SCORE_FUNCTIONS, attend, make_score
from models.trace import ModelOutput, Trace

ATTENTIONS = ("none",) + SCORE_FUNCTIONS
LUONG = ("dot", "scaled_dot", "general")


@dataclass(frozen=True)
class Seq2SeqConfig:
    src_vocab_size: int  # source vocabulary size
    tgt_vocab_size: int  # target vocabulary size (equal to src when the vocab is shared)
    d_emb: int = 64  # token embedding size
    d_hidden: int = 128  # LSTM state size (per direction); also the attention size
    n_layers: int = 1  # stacked LSTM layers, in the encoder and in the decoder
    dropout: float = 0.0  # on embeddings, between LSTM layers and before the output layer
    attention: str = "general"  # one of ATTENTIONS; "none" is Sutskever et al. 2014
    bidirectional: bool = False  # bidirectional encoder, its states projected to d_hidden
    reverse_source: bool = False  # reverse each source sentence (Sutskever et al. sec. 3.3)
    pad_id: int = 0  # padding token id, in src and tgt
    tie_embeddings: bool = False  # one embedding table for src and tgt (needs a shared vocab); when
    # d_emb == d_hidden the output projection shares it too (Press & Wolf 2017)

    arch: ClassVar[str] = "seq2seq"

    def __post_init__(self):
        if self.attention not in ATTENTIONS:
            raise ValueError(f"unknown attention {self.attention!r}; choose one of {ATTENTIONS}")
        if self.tie_embeddings and self.src_vocab_size != self.tgt_vocab_size:
            raise ValueError("tie_embeddings needs src_vocab_size == tgt_vocab_size")


def reverse_padded(x: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
    """Reverse the first lengths[b] positions of each row of x (B, S, ...), padding stays at the end.

    It is its own inverse, which is how encoder states are put back in source order.
    """
    B, S = x.shape[:2]
    pos = torch.arange(S, device=x.device).expand(B, S)  # (B, S)
    n = lengths.to(x.device)[:, None]  # (B, 1)
    idx = torch.where(pos < n, n - 1 - pos, pos)  # (B, S)
    idx = idx.view(B, S, *(1,) * (x.dim() - 2)).expand_as(x)  # (B, S, ...)
    return x.gather(1, idx)


class Seq2Seq(nn.Module):
    def __init__(self, config: Seq2SeqConfig):
        super().__init__()
        self.config = cfg = config
        d, L = cfg.d_hidden, cfg.n_layers
        self.src_emb = nn.Embedding(cfg.src_vocab_size, cfg.d_emb, padding_idx=cfg.pad_id)
        self.tgt_emb = (self.src_emb if cfg.tie_embeddings else
                        nn.Embedding(cfg.tgt_vocab_size, cfg.d_emb, padding_idx=cfg.pad_id))
        between = cfg.dropout if L > 1 else 0.0  # nn.LSTM warns about dropout with one layer
        self.encoder = nn.LSTM(cfg.d_emb, d, L, batch_first=True, dropout=between,
                               bidirectional=cfg.bidirectional)
        if cfg.bidirectional:
            # [forward; backward] (2d) -> d, so the dot scores and the decoder state fit.
            self.enc_proj = nn.Linear(2 * d, d)
            self.bridge_h = nn.Linear(2 * d, d)
            self.bridge_c = nn.Linear(2 * d, d)
        # Decoder input: E y_{t-1}, plus h~_{t-1} (Luong input feeding) or c_t (Bahdanau).
        d_in = cfg.d_emb + (0 if cfg.attention == "none" else d)
        self.decoder = nn.LSTM(d_in, d, L, batch_first=True, dropout=between)
        if cfg.attention != "none":
            self.score = make_score(cfg.attention, d, d, d)
            # Luong eq. 5: [c_t; h_t] -> h~_t.  Bahdanau eq. 4: [s_t; c_t; E y_{t-1}] -> t_i.
            self.combine = nn.Linear(2 * d + (cfg.d_emb if cfg.attention == "additive" else 0), d)
        self.drop = nn.Dropout(cfg.dropout)
        self.out = nn.Linear(d, cfg.tgt_vocab_size)
        if cfg.tie_embeddings and cfg.d_emb == d:
            self.out.weight = self.tgt_emb.weight

    # ---- encoder -------------------------------------------------------------------

    def start(self, src: torch.Tensor) -> tuple[torch.Tensor, ...]:
        """Encode src (B, S) into memory = (enc (B, S, d), src_mask (B, S), h0, c0 (B, L, d)).

        Every tensor has batch on dim 0, so beam search can repeat or reorder it.
        Columns of enc are in the original source order even when reverse_source is set.
        """
        cfg = self.config
        mask = src != cfg.pad_id  # (B, S) True = real token, may be attended to
        lengths = mask.sum(1)  # (B,)
        if cfg.reverse_source:
            src = reverse_padded(src, lengths)
        x = self.drop(self.src_emb(src))  # (B, S, d_emb)
        # Packing makes (h, c) those of each row's last REAL token and starts the backward
        # direction there, so padding changes nothing. An empty row is read as one pad.
        packed = pack_padded_sequence(x, lengths.clamp(min=1).cpu(), batch_first=True,
                                      enforce_sorted=False)
        enc, (h, c) = self.encoder(packed)  # h, c: (L * dirs, B, d)
        enc, _ = pad_packed_sequence(enc, batch_first=True, total_length=src.size(1))  # (B, S, dirs*d)
        if cfg.bidirectional:
            enc = self.enc_proj(enc)  # (B, S, d)
            # h_n interleaves directions per layer: forward at 2l, backward at 2l + 1.
            h = torch.tanh(self.bridge_h(torch.cat([h[0::2], h[1::2]], -1)))  # (L, B, d)
            c = self.bridge_c(torch.cat([c[0::2], c[1::2]], -1))  # (L, B, d)
        if cfg.reverse_source:
            enc = reverse_padded(enc, lengths)  # back to source order, for the cross view
        return enc, mask, h.transpose(0, 1), c.transpose(0, 1)  # h, c: (B, L, d)

    # ---- decoder -------------------------------------------------------------------

    def _attend(self, query: torch.Tensor, enc: torch.Tensor, mask: torch.Tensor):
        """query (N, d) against enc (N, S, d) -> context (N, d), probs (N, S)."""
        scores = self.score(query, enc)[:, None]  # (N, 1, S)
        a = attend(scores, enc, mask[:, None])  # out (N, 1, d), probs (N, 1, S)
        return a.out[:, 0], a.probs[:, 0]

    def step(self, memory: tuple[torch.Tensor, ...], prefix: torch.Tensor,
             state: tuple[torch.Tensor, ...] | None = None):
        """One decoder step: the last token of prefix (N, t) -> next-token logits.

        Returns (logits (N, V), new_state, attn (N, S) or None). state is None at the
        first step (taken from memory), else the tuple returned by the previous step:
        (h, c) as (N, L, d), plus h~ (N, d) for the Luong variants.
        """
        cfg = self.config
        enc, mask, h0, c0 = memory
        if state is None:
            state = (h0, c0) + ((h0.new_zeros(h0.size(0), cfg.d_hidden),) if cfg.attention in LUONG else ())
        h, c = (s.transpose(0, 1).contiguous() for s in state[:2])  # (L, N, d)
        emb = self.drop(self.tgt_emb(prefix[:, -1]))  # (N, d_emb)
        probs = None
        if cfg.attention == "none":
            top, (h, c) = self.decoder(emb[:, None], (h, c))  # top: (N, 1, d)
            pre = top[:, 0]  # (N, d)
        elif cfg.attention == "additive":
            ctx, probs = self._attend(h[-1], enc, mask)  # Bahdanau: query is s_{t-1}
            top, (h, c) = self.decoder(torch.cat([emb, ctx], -1)[:, None], (h, c))
            pre = torch.tanh(self.combine(torch.cat([top[:, 0], ctx, emb], -1)))  # (N, d)
        else:
            top, (h, c) = self.decoder(torch.cat([emb, state[2]], -1)[:, None], (h, c))
            ctx, probs = self._attend(top[:, 0], enc, mask)  # Luong: query is h_t
            pre = torch.tanh(self.combine(torch.cat([ctx, top[:, 0]], -1)))  # h~_t (N, d)
        logits = self.out(self.drop(pre))  # (N, V)
        new_state = (h.transpose(0, 1), c.transpose(0, 1)) + ((pre,) if cfg.attention in LUONG else ())
        return logits, new_state, probs

    # ---- teacher forcing -----------------------------------------------------------

    def forward(self, src: torch.Tensor, tgt_in: torch.Tensor, tgt_out: torch.Tensor | None = None,
                need_weights: bool = False) -> ModelOutput:
        """src (B, S), tgt_in (B, T) -> logits (B, T, V); loss when tgt_out (B, T) is given.

        With need_weights the trace holds cross (B, 1, 1, T, S) (None for attention="none").
        """
        memory = self.start(src)
        state, logits, cross = None, [], []
        for t in range(tgt_in.size(1)):
            step_logits, state, probs = self.step(memory, tgt_in[:, : t + 1], state)
            logits.append(step_logits)
            cross.append(probs)
        logits = torch.stack(logits, 1)  # (B, T, V)
        loss = None
        if tgt_out is not None:
            loss = F.cross_entropy(logits.flatten(0, 1), tgt_out.flatten(),
                                   ignore_index=self.config.pad_id)
        trace = None
        if need_weights:
            has_cross = self.config.attention != "none"
            trace = Trace(cross=torch.stack(cross, 1)[:, None, None] if has_cross else None)  # (B, 1, 1, T, S)
        return ModelOutput(logits, loss, trace)
