"""Greedy and beam-search decoding for any encoder-decoder with the interface

    memory = model.start(src)                       # tuple of tensors, batch on dim 0
    logits, state, attn = model.step(memory, prefix, state)   # state: None or tuple, batch on dim 0

shared by models/transformer.py and models/seq2seq.py. Beam search follows Wu et al. 2016
(GNMT) for its length penalty lp(Y) = ((5 + |Y|) / 6)^alpha; alpha = 0 ranks by the plain
sum of log-probabilities.
"""
from __future__ import annotations

from dataclasses import dataclass

import torch
import torch.nn.functional as F


@dataclass(frozen=True)
class Hypothesis:
    tokens: tuple[int, ...]  # generated ids, without <s> and without </s>
    logprob: float  # sum of log-probabilities of the tokens (and of </s> when finished)
    score: float  # logprob / length penalty: what the beam ranks by
    finished: bool  # ended with </s> (False: hit max_len)
    steps: tuple[float, ...] = ()  # per-token log-probabilities, for the beam explorer


def _select(tree, idx: torch.Tensor):
    """index_select(0, idx) on every tensor of a (nested) tuple state."""
    if tree is None:
        return None
    if isinstance(tree, torch.Tensor):
        return tree.index_select(0, idx)
    return tuple(_select(t, idx) for t in tree)


def _repeat(tree, k: int):
    if isinstance(tree, torch.Tensor):
        return tree.repeat_interleave(k, dim=0)
    return tuple(_repeat(t, k) for t in tree)


def length_penalty(length: int, alpha: float) -> float:
    return ((5 + length) / 6) ** alpha


def _decode(model, src: torch.Tensor, bos: int, eos: int, max_len: int, pick) -> list[list[int]]:
    """One token at a time for a batch, `pick(logits) -> (B,)` choosing each row's next token; each row stops
    at </s> (which is not returned). greedy and sample differ only in `pick`."""
    B = src.size(0)
    memory, state = model.start(src), None
    prefix = torch.full((B, 1), bos, dtype=torch.long, device=src.device)
    done = torch.zeros(B, dtype=torch.bool, device=src.device)
    for _ in range(max_len):
        logits, state, _ = model.step(memory, prefix, state)
        nxt = pick(logits).masked_fill(done, eos)  # (B,)
        prefix = torch.cat([prefix, nxt[:, None]], dim=1)
        done |= nxt == eos
        if done.all():
            break
    return [row[: row.index(eos)] if eos in row else row for row in prefix[:, 1:].tolist()]


@torch.inference_mode()
def greedy(model, src: torch.Tensor, bos: int, eos: int, max_len: int) -> list[list[int]]:
    """Argmax decoding of a batch; each row stops at </s> (which is not returned)."""
    return _decode(model, src, bos, eos, max_len, lambda logits: logits.argmax(-1))


@torch.inference_mode()
def beam_search(model, src: torch.Tensor, bos: int, eos: int, max_len: int, beam_size: int = 4,
                alpha: float = 0.6) -> list[list[Hypothesis]]:
    """Batched beam search. Returns, per source row, up to beam_size hypotheses, best first."""
    B, K = src.size(0), beam_size
    memory = _repeat(model.start(src), K)  # every tensor (B*K, ...)
    state = None
    prefix = torch.full((B * K, 1), bos, dtype=torch.long, device=src.device)
    # only beam 0 is live at the start, so the K copies don't fill the beam with duplicates
    scores = torch.full((B, K), float("-inf"), device=src.device)
    scores[:, 0] = 0.0
    steps = [[() for _ in range(K)] for _ in range(B)]  # per-token log-probs of each live beam
    finished: list[list[Hypothesis]] = [[] for _ in range(B)]
    for t in range(max_len):
        logits, state, _ = model.step(memory, prefix, state)
        logp = F.log_softmax(logits.float(), dim=-1)  # (B*K, V)
        V = logp.size(-1)
        cand = (scores.view(B * K, 1) + logp).view(B, K * V)  # (B, K*V)
        top_scores, top_idx = cand.topk(2 * K, dim=-1)  # (B, 2K): enough to keep K alive
        keep_beam = torch.zeros(B, K, dtype=torch.long)
        keep_tok = torch.full((B, K), eos, dtype=torch.long)
        new_scores = torch.full((B, K), float("-inf"))
        new_steps = [[() for _ in range(K)] for _ in range(B)]
        top_scores, top_idx = top_scores.cpu(), top_idx.cpu()
        for b in range(B):
            if len(finished[b]) >= K:  # this row is done; keep dead beams
                continue
            n = 0
            for s, i in zip(top_scores[b].tolist(), top_idx[b].tolist()):
                if s == float("-inf"):
                    break
                beam, tok = divmod(i, V)
                prev = steps[b][beam]
                tok_lp = s - sum(prev)
                if tok == eos:
                    toks = tuple(prefix[b * K + beam, 1:].tolist())
                    finished[b].append(Hypothesis(toks, s, s / length_penalty(len(toks) + 1, alpha), True,
                                                  prev + (tok_lp,)))
                    if len(finished[b]) >= K:
                        break
                    continue
                keep_beam[b, n], keep_tok[b, n], new_scores[b, n] = beam, tok, s
                new_steps[b][n] = prev + (tok_lp,)
                n += 1
                if n == K:
                    break
        if all(len(f) >= K for f in finished):
            break
        idx = (torch.arange(B)[:, None] * K + keep_beam).view(-1).to(src.device)  # (B*K,)
        prefix = torch.cat([prefix.index_select(0, idx), keep_tok.view(-1, 1).to(src.device)], dim=1)
        state = _select(state, idx)
        scores, steps = new_scores.to(src.device), new_steps
    results = []
    for b in range(B):
        hyps = list(finished[b])
        if len(hyps) < K:  # ran out of length: the live beams count as unfinished hypotheses
            for k in range(K):
                s = float(scores[b, k])
                if s == float("-inf") or len(hyps) >= K:
                    continue
                toks = tuple(prefix[b * K + k, 1:].tolist())
                hyps.append(Hypothesis(toks, s, s / length_penalty(len(toks), alpha), False, steps[b][k]))
        results.append(sorted(hyps, key=lambda h: -h.score))
    return results


@torch.inference_mode()
def sample(model, src: torch.Tensor, bos: int, eos: int, max_len: int, top_k: int = 10,
           temperature: float = 1.0, generator: torch.Generator | None = None) -> list[list[int]]:
    """Sampled decoding of a batch, each token drawn from the model's top_k next tokens (top_k = 0:
    the whole distribution). Back-translation reads its synthetic sources this way: sampled and top-k
    sources teach a forward model more than argmax ones (Edunov et al. 2018, sec. 5.1)."""
    def pick(logits):
        logits = logits.float() / temperature  # (B, V)
        if top_k:
            kth = logits.topk(top_k, dim=-1).values[:, -1:]  # (B, 1)
            logits = logits.masked_fill(logits < kth, float("-inf"))
        return torch.multinomial(F.softmax(logits, dim=-1), 1, generator=generator)[:, 0]
    return _decode(model, src, bos, eos, max_len, pick)
