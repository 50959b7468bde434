"""BERT's input as the slide draws it, and its masked-LM corruption applied to a typed sentence.

Devlin et al. 2018, "BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding":
* figure 2 / sec. 3.2: input = token embedding + segment embedding + position embedding, then LayerNorm; the
  position embeddings are LEARNED (one row per position, max_len rows), where Vaswani et al. 2017 (sec. 3.5) use a
  fixed sinusoidal table. The cosine between positions shows what each table encodes.
* sec. 3.1, task #1 and appendix A.1: 15% of the tokens are chosen for prediction; of those, 80% become [MASK],
  10% a random token and 10% stay unchanged. `masking_demo` applies the very function the training data uses
  (models.data.mask_tokens) to a typed sentence with a seed and shows what the model predicts at the chosen places.
* sec. 3: BERT-base (L=12, H=768, A=12, 110M parameters) and BERT-large (L=24, H=1024, A=16, 340M), beside the
  model shipped here.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np
import torch

from explorer.compute.choices import Choice
from explorer.compute.inference import (MAX_TOP_K, Registry, UserError, _bert_ids, _bert_inputs, _pieces, check_int, registry)
from explorer.compute.lab import cosine_matrix
from models.training.data import mask_tokens
from models.transformer import sinusoidal_positions

MLM_PROB = 0.15  # the share of tokens chosen for prediction (Devlin et al. 2018, sec. 3.1)
MAX_SEED = 2**31 - 1
# Devlin et al. 2018, sec. 3 (sizes) and sec. A.2 (d_ff = 4H, 512 positions)
PAPER_SIZES = (
    {"name": "BERT-base", "layers": 12, "d_model": 768, "heads": 12, "d_ff": 3072, "max_len": 512,
     "vocab": 30522, "parameters": 110_000_000},
    {"name": "BERT-large", "layers": 24, "d_model": 1024, "heads": 16, "d_ff": 4096, "max_len": 512,
     "vocab": 30522, "parameters": 340_000_000},
)


@dataclass(frozen=True)
class BertInputs:
    model: str
    tokens: list[str]
    segments: list[int]
    token_emb: np.ndarray  # (T, d_model) E_token[id]
    segment_emb: np.ndarray  # (T, d_model) E_segment[A or B]
    position_emb: np.ndarray  # (T, d_model) E_position[i], learned
    total: np.ndarray  # (T, d_model) their sum
    normed: np.ndarray  # (T, d_model) LayerNorm(sum): what the first layer reads
    learned_cos: np.ndarray  # (P, P) cosine between the learned position rows 0..P-1
    sinusoid_cos: np.ndarray  # (P, P) the same for the sinusoidal table of the same d_model
    sizes: list[dict]  # BERT-base, BERT-large and this model

    @property
    def norms(self) -> dict[str, np.ndarray]:
        return {k: np.linalg.norm(getattr(self, k), axis=-1)
                for k in ("token_emb", "segment_emb", "position_emb", "total", "normed")}


def model_size(name: str, model, c) -> dict:
    return {"name": name, "layers": c.n_layers, "d_model": c.d_model, "heads": c.n_heads, "d_ff": c.d_ff,
            "max_len": c.max_len, "vocab": c.vocab_size,
            "parameters": sum(p.numel() for p in dict.fromkeys(model.parameters()))}  # the tied table once


@torch.inference_mode()
def bert_inputs(text: str, text_b: str | None = None, positions: int = 64, name: str = "bert",
                reg: Registry | None = None) -> BertInputs:
    """Token, segment and position embeddings of `text` (and sentence `text_b`), their sum and LayerNorm, and the
    cosine between the first `positions` rows of the learned position table and of the sinusoidal one."""
    reg = reg or registry()
    ckpt = reg.get(name, "bert")
    model, c = ckpt.model, ckpt.config
    positions = check_int(positions, "Number of positions", 2, c.max_len)
    a, b, notices = _bert_inputs(text, text_b)
    ids, segs, _ = _bert_ids(ckpt, a, b, notices)
    emb = model.embeddings
    ids_t, segs_t = torch.tensor(ids), torch.tensor(segs)
    f = lambda t: t.detach().double().numpy()  # noqa: E731
    tok, seg, pos = f(emb.tok.weight[ids_t]), f(emb.seg.weight[segs_t]), f(emb.pos.weight[: len(ids)])
    total = tok + seg + pos
    mu = total.mean(-1, keepdims=True)
    var = ((total - mu) ** 2).mean(-1, keepdims=True)
    normed = (total - mu) / np.sqrt(var + emb.norm.eps) * f(emb.norm.weight) + f(emb.norm.bias)
    learned = f(emb.pos.weight[:positions])
    sinus = sinusoidal_positions(positions, c.d_model).double().numpy()
    return BertInputs(name, _pieces(ckpt.tokenizer, ids), segs, tok, seg, pos, total, normed,
                      cosine_matrix(learned), cosine_matrix(sinus),
                      [dict(s) for s in PAPER_SIZES] + [model_size(name, model, c)])


@dataclass(frozen=True)
class MaskedToken:
    index: int  # position in tokens
    original: str
    action: str  # "mask" ([MASK]), "random" (another token) or "keep" (left as it was; the model must still predict)
    shown: str  # what the model reads there
    probability: float  # the model's probability of the original token
    rank: int  # 1 = its first choice
    top: list[Choice]


@dataclass(frozen=True)
class MaskingDemo:
    model: str
    seed: int
    prob: float
    tokens: list[str]  # the sentence as tokenised
    inputs: list[str]  # what the model reads after the 80/10/10 rule
    chosen: list[MaskedToken]  # the tokens chosen for prediction, in order
    notices: list[str]


@torch.inference_mode()
def masking_demo(text: str, seed: int = 0, prob: float = MLM_PROB, top_k: int = 5, name: str = "bert",
                 reg: Registry | None = None) -> MaskingDemo:
    """BERT's masked-LM corruption of `text`, as training draws it (models.data.mask_tokens, seeded), and the
    model's predictions where tokens were chosen. A random replacement that happens to draw the same token reads
    as "keep": the model sees the same input either way."""
    reg = reg or registry()
    ckpt = reg.get(name, "bert")
    seed = check_int(seed, "Seed", 0, MAX_SEED)
    top_k = check_int(top_k, "top-k", 1, MAX_TOP_K)
    try:
        prob = float(prob)
    except (TypeError, ValueError):
        prob = -1.0
    if not 0 < prob <= 1:
        raise UserError(f"The share of tokens chosen must be between 0 and 1 (got {prob}).", "bad_prob", value=prob)
    a, _, notices = _bert_inputs(text, None)
    ids, segs, sp = _bert_ids(ckpt, a, None, notices)
    tok = ckpt.tokenizer
    ids_t = torch.tensor([ids])
    inputs, labels = mask_tokens(ids_t, sp, tok.get_vocab_size(), random.Random(seed), prob)
    at = (labels[0] != -100).nonzero().flatten()
    chosen = []
    if len(at):
        out = ckpt.model(inputs, torch.tensor([segs]), mlm_positions=at[None])
        log_probs = torch.log_softmax(out.mlm_logits[0].double(), -1)  # (P, V)
        for row, i in zip(log_probs, at.tolist()):
            y, x = ids[i], int(inputs[0, i])
            action = "mask" if x == sp["mask"] else ("keep" if x == y else "random")
            p, j = row.exp().topk(top_k)
            chosen.append(MaskedToken(i, _pieces(tok, [y])[0], action, _pieces(tok, [x])[0], float(row[y].exp()),
                                      int((row > row[y]).sum()) + 1,
                                      [Choice(t, round(float(q), 6)) for t, q in zip(_pieces(tok, j.tolist()),
                                                                                     p.tolist())]))
    return MaskingDemo(name, seed, prob, _pieces(tok, ids), _pieces(tok, inputs[0].tolist()), chosen, notices)
