"""Guided alignment: train a seq2seq model's attention to point at the word it translates.

Why (docs/models-that-teach.md): nothing in maximum-likelihood training asks attention to be an
alignment, and the seq2seq models learn to park weight on the source's </s> ("read nothing")
wherever no one word decides the output. Guided alignment (Chen et al. 2016, "Guided Alignment
Training for Topic-Aware Neural Machine Translation"; Liu et al. 2016, "Neural Machine Translation
with Supervised Attention") adds a loss that asks each attention row to put its weight on a
reference alignment.

The reference here is the shipped Transformer's (en->fr) last-layer encoder-decoder attention,
averaged over heads, read as a word alignment exactly as the hand-aligned check reads it
(`models.training.evaluate.alignment_scores`: subwords pooled to space-separated words), with the source's
</s> left out of the argmax: each target word is linked to one source word. No external aligner.

The loss, per target token whose word has a link: -log(weight on the linked source word's
subwords, summed). The model may spread that weight over the word's subwords as it likes; the
row of the final </s> and cropped tokens have no link. `Guided` adds lambda times its mean to the
cross-entropy. The model and its attention function are unchanged: only training differs.
"""
from __future__ import annotations

import torch

from models.tokenizers import special_ids
from models.trace import ModelOutput
from models.training.data import pad
from models.training.evaluate import token_words

NO_LINK = -1


@torch.inference_mode()
def teacher_links(teacher, teacher_tok, pairs: list[tuple[str, str]], device: str = "cpu",
                  batch_size: int = 256, layer: int = -1) -> list[list[int]]:
    """For each (source, target) pair: for each space-separated target word, the index of the source
    word the teacher attends to most (last layer's cross attention, head mean, target subwords' rows
    averaged, source subwords' columns summed, </s> left out); [] for a pair longer than the teacher's
    positions (its words get no link)."""
    teacher.eval().to(device)
    sp = special_ids(teacher_tok)
    fits = teacher.config.max_len - 1  # tokens per side the teacher's positions hold, with </s> or <s>
    out = [None] * len(pairs)
    enc_s = teacher_tok.encode_batch([s for s, _ in pairs], add_special_tokens=False)
    enc_t = teacher_tok.encode_batch([t for _, t in pairs], add_special_tokens=False)
    todo = [i for i in range(len(pairs)) if len(enc_s[i].ids) <= fits and len(enc_t[i].ids) <= fits]
    for i in set(range(len(pairs))) - set(todo):
        out[i] = []  # longer than the teacher reads: no links
    for start in range(0, len(todo), batch_size):
        idx = todo[start:start + batch_size]
        chunk = [pairs[i] for i in idx]
        es, et = [enc_s[i] for i in idx], [enc_t[i] for i in idx]
        src = pad([e.ids + [sp["eos"]] for e in es], sp["pad"]).to(device)
        tgt = pad([[sp["bos"]] + e.ids for e in et], sp["pad"]).to(device)
        att = teacher(src, tgt, need_weights=True).trace.cross[:, layer].float().mean(1)  # (B, T, S)
        B, T, S = att.shape
        n_src = [len(s.split()) for s, _ in chunk]
        n_tgt = [len(t.split()) for _, t in chunk]
        W = max(n_src) + 2  # source words, then </s>, then a bin for padding
        V = max(n_tgt) + 1  # target words, then a bin for </s>'s row and padding
        src_w = torch.full((B, S), W - 1, dtype=torch.long)
        tgt_w = torch.full((B, T), V - 1, dtype=torch.long)
        for b, ((s, t), e_s, e_t) in enumerate(zip(chunk, es, et)):
            src_w[b, : len(e_s.ids)] = torch.tensor(token_words(s, e_s.offsets), dtype=torch.long)
            src_w[b, len(e_s.ids)] = W - 2  # </s>
            tgt_w[b, : len(e_t.ids)] = torch.tensor(token_words(t, e_t.offsets), dtype=torch.long)
        src_w, tgt_w = src_w.to(device), tgt_w.to(device)
        cols = torch.zeros(B, T, W, device=device).scatter_add_(2, src_w[:, None].expand(B, T, S), att)
        rows = torch.zeros(B, V, W, device=device).scatter_add_(1, tgt_w[:, :, None].expand(B, T, W), cols)
        word_att = rows[:, :-1, : W - 2]  # target words x source words (row means need no division: argmax)
        for b in range(B):
            out[idx[b]] = word_att[b, : n_tgt[b], : n_src[b]].argmax(-1).tolist()
    return out


def link_spans(tok, pairs: list[tuple[str, str]], links: list[list[int]], max_len: int) -> list[tuple]:
    """The student's encoding of each pair (as `data.encode_pairs`) with, for each position of tgt_out
    (the target tokens then </s>), the [start, end) source token span of its linked source word, or
    (NO_LINK, NO_LINK). Returns [(src_ids, tgt_ids, starts, ends)]."""
    eos = tok.token_to_id("</s>")
    srcs = tok.encode_batch([s for s, _ in pairs], add_special_tokens=False)
    tgts = tok.encode_batch([t for _, t in pairs], add_special_tokens=False)
    out = []
    for (s, t), es, et, link in zip(pairs, srcs, tgts, links):
        s_ids, t_ids = es.ids[: max_len - 1], et.ids[: max_len - 1]
        s_words = token_words(s, es.offsets)[: len(s_ids)]
        first, last = {}, {}
        for i, w in enumerate(s_words):
            first.setdefault(w, i)
            last[w] = i + 1
        starts, ends = [], []
        for w in token_words(t, et.offsets)[: len(t_ids)]:
            i = link[w] if w < len(link) else None
            ok = i is not None and i in first
            starts.append(first[i] if ok else NO_LINK)
            ends.append(last[i] if ok else NO_LINK)
        starts.append(NO_LINK)  # the row that predicts </s>
        ends.append(NO_LINK)
        out.append((s_ids + [eos], t_ids, starts, ends))
    return out


def guided_batch(rows, bos: int, eos: int, pad_id: int = 0) -> dict:
    """`data.translation_batch` plus guide_start / guide_end (B, T), NO_LINK where a row has no link."""
    return {"src": pad([r[0] for r in rows], pad_id, 8),
            "tgt_in": pad([[bos] + r[1] for r in rows], pad_id, 8),
            "tgt_out": pad([r[1] + [eos] for r in rows], pad_id, 8),
            "guide_start": pad([r[2] for r in rows], NO_LINK, 8),
            "guide_end": pad([r[3] for r in rows], NO_LINK, 8)}


def alignment_loss(cross: torch.Tensor, start: torch.Tensor, end: torch.Tensor) -> torch.Tensor:
    """Mean over linked rows of -log(attention mass on [start, end)). cross (B, T, S); start, end (B, T)."""
    cum = torch.nn.functional.pad(cross.float().cumsum(-1), (1, 0))  # (B, T, S + 1): cum[..., k] = sum of first k
    linked = start != NO_LINK
    s, e = start.clamp(min=0), end.clamp(min=0)
    mass = cum.gather(-1, e[..., None])[..., 0] - cum.gather(-1, s[..., None])[..., 0]  # (B, T)
    nll = -torch.log(mass.clamp(min=1e-6))
    return (nll * linked).sum() / linked.sum().clamp(min=1)


class Guided(torch.nn.Module):
    """The seq2seq model with the guided-alignment loss added: loss = CE + weight * alignment_loss."""

    def __init__(self, m: torch.nn.Module, weight: float):
        super().__init__()
        self.m, self.weight = m, weight

    def forward(self, src, tgt_in, tgt_out, guide_start, guide_end):
        out = self.m(src, tgt_in, tgt_out, need_weights=True)
        cross = out.trace.cross[:, 0, 0]  # (B, T, S): the seq2seq model's one attention
        return ModelOutput(out.logits, out.loss + self.weight * alignment_loss(cross, guide_start, guide_end))
