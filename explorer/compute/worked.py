"""Worked examples for the Transformer deck: the numbers behind two of its slides, as plain records.

1. Scaled dot-product attention by hand (Vaswani et al. 2017, eq. 1): softmax(Q K^T / sqrt(d_k)) V on a 4 x 2
   Q, K and V of small integers that a class can multiply on paper, every intermediate matrix kept; then the
   same five steps on one head of a real encoder (`model_head`): its q, k, v rows are the model's own
   (explorer/compute/inside.py recomputes them from the weights on the model's hidden state), the scores and softmax
   are recomputed here by the same function as the hand example, and the record carries the model's own
   attention (its Trace) beside them: tests/explorer/test_worked.py checks they agree to 1e-5.
2. The activations of the Position-wise FFN (eq. 2): ReLU, max(0, x), in the Transformer; GELU, x Phi(x) with
   the exact erf form (Hendrycks & Gimpel 2016), in BERT. `ffn_preactivations` collects a layer's hidden
   pre-activations x W_1 + b_1 over every token of a sentence (explorer/compute/inside.py's FFN record), so the share
   each activation zeroes (ReLU: exactly 0) or damps (GELU: x Phi(x), between about -0.17 and 0) is counted
   from the model, not assumed.

Computation only (numpy, and torch through explorer/compute/inside.py); the figures are explorer/figures/worked.py.

    hand = hand_example(); hand.probs.sum(1)            # [1. 1. 1. 1.]
    real = model_head("I am a student."); real.probs    # layer 1, head 1 of transformer-en-fr's encoder
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import torch

from explorer.compute import inside
from explorer.compute.inference import Registry, encode_bert, encode_source, registry, translate
from models.tokenizers import special_ids

HAND_TOKENS = ["I", "am", "a", "student"]  # the deck's sentence, one word a row
# small integers: every product and sum of Q K^T is a digit a class checks by hand; d_k = 2
HAND_Q = np.array([[1, 0], [0, 1], [1, 1], [2, 0]], dtype=np.float64)
HAND_K = np.array([[1, 0], [0, 1], [1, 1], [0, 2]], dtype=np.float64)
HAND_V = np.array([[1, 0], [0, 1], [1, 1], [2, 2]], dtype=np.float64)

GELU_MIN = -0.1699712074794  # min of x Phi(x), at x ~ -0.7518: the most a negative input can come out as


@dataclass(frozen=True)
class WorkedAttention:
    """softmax(Q K^T / sqrt(d_k)) V, every step kept (rows = queries, columns = keys)."""
    tokens: list[str]
    q: np.ndarray  # (T, d_k)
    k: np.ndarray  # (T, d_k)
    v: np.ndarray  # (T, d_v)
    qk: np.ndarray  # (T, T) Q K^T
    scores: np.ndarray  # (T, T) Q K^T / sqrt(d_k)
    probs: np.ndarray  # (T, T) softmax of each row of the scores
    out: np.ndarray  # (T, d_v) probs V

    @property
    def d_k(self) -> int:
        return self.q.shape[1]

    def arrays(self) -> dict:
        """The record as plain arrays and tokens: what explorer/figures/worked.py draws."""
        return {"tokens": list(self.tokens), "q": self.q, "k": self.k, "v": self.v, "qk": self.qk,
                "scores": self.scores, "probs": self.probs, "out": self.out, "d_k": self.d_k}


def softmax_rows(scores: np.ndarray) -> np.ndarray:
    """softmax over each row, exp(s - max) so that no row overflows."""
    s = np.asarray(scores, dtype=np.float64)
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def worked_attention(q, k, v, tokens) -> WorkedAttention:
    """Vaswani et al. 2017, eq. 1, step by step, in float64 (no mask: every word sees every word)."""
    q, k, v = (np.asarray(a, dtype=np.float64) for a in (q, k, v))
    if q.shape != k.shape or v.shape[0] != k.shape[0] or len(tokens) != q.shape[0]:
        raise ValueError(f"Q {q.shape}, K {k.shape}, V {v.shape} and {len(tokens)} tokens do not fit together")
    qk = q @ k.T  # (T, T)
    scores = qk / math.sqrt(q.shape[1])
    probs = softmax_rows(scores)
    return WorkedAttention(list(tokens), q, k, v, qk, scores, probs, probs @ v)


def hand_example() -> WorkedAttention:
    """The 4 x 2 example of the slide: Q, K, V of small integers, d_k = 2."""
    return worked_attention(HAND_Q, HAND_K, HAND_V, HAND_TOKENS)


# ----------------------------------------------------------------------------- the same on a real model


@dataclass(frozen=True)
class ModelHead:
    model: str
    text: str
    layer: int  # 0-based
    head: int  # 0-based
    worked: WorkedAttention  # the model's q, k, v of this head (all d_k columns), the steps recomputed here
    model_probs: np.ndarray  # (T, T) the model's own attention for this head (its Trace, enc_self)
    notices: list[str]

    def arrays(self) -> dict:
        return {**self.worked.arrays(), "model_probs": self.model_probs, "layer": self.layer, "head": self.head,
                "model": self.model}


def model_head(text: str = "I am a student.", name: str = "transformer-en-fr", layer: int = 0, head: int = 0,
               reg: Registry | None = None) -> ModelHead:
    """One head of a Transformer translator's encoder self-attention on `text`: q, k, v of every source token
    (explorer/compute/inside.py, from the weights, on the model's own input to the layer), the five steps of eq. 1
    recomputed by `worked_attention`, and the model's own attention from its forward pass."""
    reg = reg or registry()
    ckpt = reg.get(name, "transformer")
    r = translate(name, text, reg=reg)  # the source tokens and the model's own Trace
    tok = ckpt.tokenizer
    src = torch.tensor([[tok.token_to_id(p) for p in r.source_tokens]])  # (1, S), ends in </s>
    enc, _, _ = inside.transformer_states(ckpt.model, src)
    block = inside.transformer_encoder_block(ckpt.model.encoder[layer], ckpt.config.pre_ln)
    x = enc[layer][0]  # (S, d_model) the model's own input to the layer
    first = inside.inside_block(block, x, 0, r.source_tokens)[1][0]  # the attention step: k, v of every token
    q = np.stack([inside.inside_block(block, x, i, r.source_tokens)[1][0].q[head]
                  for i in range(len(r.source_tokens))])  # (S, d_k): each token's query row
    worked = worked_attention(q, first.k[head], first.v[head], r.source_tokens)
    return ModelHead(name, text, layer, head, worked, np.asarray(r.trace.enc_self[layer, head], np.float64),
                     list(r.notices))


# ----------------------------------------------------------------------------- ReLU and GELU


def relu(x) -> np.ndarray:
    return np.maximum(np.asarray(x, dtype=np.float64), 0.0)


def gelu(x) -> np.ndarray:
    """GELU(x) = x Phi(x) = x (1 + erf(x / sqrt 2)) / 2, the exact form BERT uses (not the tanh approximation)."""
    x = np.asarray(x, dtype=np.float64)
    return 0.5 * x * (1.0 + np.vectorize(math.erf, otypes=[np.float64])(x / math.sqrt(2.0)))


def activation_curves(lo: float = -4.0, hi: float = 4.0, n: int = 161) -> dict:
    """x over [lo, hi] and both activations on it."""
    x = np.linspace(lo, hi, n)
    return {"x": x, "relu": relu(x), "gelu": gelu(x)}


@dataclass(frozen=True)
class FFNActivations:
    """The Position-wise FFN's hidden layer of one layer, every token of a sentence."""
    model: str
    activation: str  # "relu" or "gelu"
    layer: int  # 0-based
    tokens: list[str]
    hidden_pre: np.ndarray  # (T, d_ff) x W_1 + b_1
    hidden: np.ndarray  # (T, d_ff) act(x W_1 + b_1), as the model computes it

    @property
    def share_negative(self) -> float:
        """Share of pre-activations below 0: what ReLU zeroes and GELU damps."""
        return float((self.hidden_pre < 0).mean())

    @property
    def share_zero(self) -> float:
        """Share of hidden values exactly 0 after the activation (ReLU: every x <= 0; GELU: practically none)."""
        return float((self.hidden == 0).mean())

    def arrays(self) -> dict:
        return {"model": self.model, "activation": self.activation, "layer": self.layer,
                "hidden_pre": self.hidden_pre, "hidden": self.hidden, "share_negative": self.share_negative,
                "share_zero": self.share_zero}


def _ffn_rows(block: inside.BlockWeights, x, tokens: list[str]) -> tuple[np.ndarray, np.ndarray, str]:
    steps = [next(s for s in inside.inside_block(block, x, i, tokens)[1] if isinstance(s, inside.FFNStep))
             for i in range(len(tokens))]
    return np.stack([s.hidden_pre for s in steps]), np.stack([s.hidden for s in steps]), steps[0].activation


def ffn_preactivations(text: str = "I am a student.", name: str = "transformer-en-fr", layer: int = 0,
                       reg: Registry | None = None) -> FFNActivations:
    """The FFN hidden layer of encoder layer `layer` over every token of `text`: a Transformer translator
    (its source, ending in </s>) or BERT ([CLS] ... [SEP])."""
    reg = reg or registry()
    ckpt = reg.get(name, ("transformer", "bert"))
    tok, model = ckpt.tokenizer, ckpt.model
    if ckpt.config.arch == "bert":
        r = encode_bert(text, name=name, reg=reg)
        tokens = list(r.tokens)
        ids = torch.tensor([[tok.token_to_id(t) for t in tokens]])  # (1, T)
        xs = inside.bert_states(model, ids, torch.tensor([r.segments]))
        block = inside.bert_block(model.layers[layer])
    else:
        _, _, ids, _ = encode_source(ckpt, text)
        src = torch.tensor([ids + [special_ids(tok)["eos"]]])  # (1, S), as translate reads it
        tokens = [tok.id_to_token(i) for i in src[0].tolist()]
        xs, _, _ = inside.transformer_states(model, src)
        block = inside.transformer_encoder_block(model.encoder[layer], ckpt.config.pre_ln)
    pre, hidden, activation = _ffn_rows(block, xs[layer][0], tokens)
    return FFNActivations(name, activation, layer, tokens, pre, hidden)
