"""Inside one layer: follow one token through a Transformer block, every number recomputed from the weights.

Vaswani et al. 2017, "Attention Is All You Need": x -> Q = x W^Q, K = x W^K, V = x W^V split into h
heads of d_k = d_model / h (sec. 3.2.2) -> scores Q K^T / sqrt(d_k) (eq. 1; -inf where the decoder's
causal mask hides a key) -> softmax -> weights x V, each head's output -> Concat(head_1..head_h) W^O
-> + x (the residual) -> LayerNorm (sec. 3.1, post-LN) -> FFN(x) = act(x W_1 + b_1) W_2 + b_2 (eq. 2)
-> + residual -> LayerNorm -> the next layer's input. A pre-LN block (Xiong et al. 2020) normalises
first, x + f(LN(x)); the record keeps the order the model computes. QK-LayerNorm (Dehghani et al.
2023) normalises each head's q and k before the dot product; both the raw and the normalised ones are
kept, since the scores are made from the normalised ones.

The block is described by its weights alone (`BlockWeights`: a list of attention and feed-forward
sublayers, pre- or post-LN), so one function, `inside_block`, walks a Transformer encoder layer, a
decoder layer (masked self-attention, then Encoder-Decoder Attention), a BERT layer or a decoder-only
(GPT) block: an architecture only needs an adapter from its modules to `BlockWeights`.

The layer's input is the model's own hidden state (its modules run up to that layer); from there every
number is computed here in float64 from the weight tensors, and tests/explorer/test_inside.py checks
them against the model's own forward: the output equals the model's next hidden state and the weights
equal the Trace's attention (1e-5). "Each head's contribution" is its output through its d_k columns
of W^O, head_j W^O_j: the attention output is their sum plus W^O's bias (Kobayashi et al. 2020 weigh
attention by these norms). Each LayerNorm is kept step by step (`LayerNormStep`): the vector's mean and
standard deviation, the normalised vector (mean 0, standard deviation ~ 1) and the gain and bias that give its
output.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn.functional as F

from explorer.compute.choices import encode_target
from explorer.compute.generate import encode_prompt
from explorer.compute.inference import (Registry, UserError, _bert_ids, _bert_inputs, _pieces, check_int, encode_source,
                                registry, translate)
from models.attention import causal_mask
from models.tokenizers import special_ids

ACTIVATIONS = ("relu", "gelu", "gelu_tanh")
STACKS = ("encoder", "decoder")


# ----------------------------------------------------------------------------- a block, as weights


@dataclass(frozen=True)
class NormWeights:
    """LayerNorm(x) = (x - mean) / sqrt(var + eps) * weight + bias (Ba et al. 2016), over the last axis."""
    weight: torch.Tensor
    bias: torch.Tensor
    eps: float

    def parts(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """(mean, std, (x - mean) / std) over the last axis, std = sqrt(var + eps): the normalised vector has
        mean 0 and standard deviation sqrt(var / (var + eps)) ~ 1, before the gain and bias."""
        mu = x.mean(-1, keepdim=True)
        var = ((x - mu) ** 2).mean(-1, keepdim=True)  # biased, as nn.LayerNorm
        sigma = torch.sqrt(var + self.eps)
        return mu, sigma, (x - mu) / sigma

    def __call__(self, x: torch.Tensor) -> torch.Tensor:
        return self.parts(x)[2] * self.weight + self.bias


@dataclass(frozen=True)
class AttentionWeights:
    """One multi-head attention sublayer: y = x W^T + b for each projection (nn.Linear's layout, (out, in))."""
    kind: str  # "self", "masked_self" (causal) or "cross" (keys and values from the encoder's output)
    n_heads: int
    wq: torch.Tensor
    bq: torch.Tensor
    wk: torch.Tensor
    bk: torch.Tensor
    wv: torch.Tensor
    bv: torch.Tensor
    wo: torch.Tensor  # W^O, (d_model, h * d_k)
    bo: torch.Tensor
    norm: NormWeights  # the sublayer's LayerNorm: before it (pre-LN) or after the residual (post-LN)
    q_norm: NormWeights | None = None  # QK-LayerNorm over each head's d_k features
    k_norm: NormWeights | None = None


@dataclass(frozen=True)
class FFNWeights:
    """FFN(x) = act(x W_1^T + b_1) W_2^T + b_2 (Vaswani et al. 2017, eq. 2; GELU in BERT and GPT)."""
    w1: torch.Tensor  # (d_ff, d_model)
    b1: torch.Tensor
    w2: torch.Tensor  # (d_model, d_ff)
    b2: torch.Tensor
    activation: str  # one of ACTIVATIONS
    norm: NormWeights


@dataclass(frozen=True)
class BlockWeights:
    sublayers: tuple  # AttentionWeights and FFNWeights in the block's order
    pre_ln: bool  # True: x + f(LN(x)); False: LN(x + f(x))


def _t(p: torch.Tensor | None, like: torch.Tensor | None = None) -> torch.Tensor:
    """A parameter as a float64 copy (a missing bias as zeros shaped like `like`'s rows)."""
    if p is None:
        return torch.zeros(like.shape[0], dtype=torch.float64)
    return p.detach().to(torch.float64).clone()


def norm_weights(ln) -> NormWeights:
    return NormWeights(_t(ln.weight), _t(ln.bias, ln.weight), float(ln.eps))


def attention_weights(kind: str, mha, norm) -> AttentionWeights:
    """From a models.attention.MultiHeadAttention."""
    lin = [(_t(m.weight), _t(m.bias, m.weight)) for m in (mha.q_proj, mha.k_proj, mha.v_proj, mha.out_proj)]
    return AttentionWeights(kind, mha.n_heads, *lin[0], *lin[1], *lin[2], *lin[3], norm_weights(norm),
                            None if mha.q_norm is None else norm_weights(mha.q_norm),
                            None if mha.k_norm is None else norm_weights(mha.k_norm))


def ffn_weights(w1, w2, activation: str, norm) -> FFNWeights:
    return FFNWeights(_t(w1.weight), _t(w1.bias, w1.weight), _t(w2.weight), _t(w2.bias, w2.weight), activation,
                      norm_weights(norm))


def transformer_encoder_block(layer, pre_ln: bool) -> BlockWeights:
    """models.transformer.EncoderLayer: self-attention, ReLU FFN."""
    return BlockWeights((attention_weights("self", layer.self_attn, layer.sub1.norm),
                         ffn_weights(layer.ffn.w1, layer.ffn.w2, "relu", layer.sub2.norm)), pre_ln)


def transformer_decoder_block(layer, pre_ln: bool) -> BlockWeights:
    """models.transformer.DecoderLayer: masked self-attention, Encoder-Decoder Attention, ReLU FFN."""
    return BlockWeights((attention_weights("masked_self", layer.self_attn, layer.sub1.norm),
                         attention_weights("cross", layer.cross_attn, layer.sub2.norm),
                         ffn_weights(layer.ffn.w1, layer.ffn.w2, "relu", layer.sub3.norm)), pre_ln)


def bert_block(layer) -> BlockWeights:
    """models.bert.EncoderLayer: self-attention (QK-LayerNorm optional), exact-erf GELU FFN."""
    return BlockWeights((attention_weights("self", layer.attn, layer.attn_norm),
                         ffn_weights(layer.ff_in, layer.ff_out, "gelu", layer.ff_norm)), layer.pre_ln)


def gpt_block(block) -> BlockWeights:
    """models.gpt.Block: pre-LN masked self-attention, tanh-GELU MLP (GPT-2)."""
    return BlockWeights((attention_weights("masked_self", block.attn.mha, block.ln1),
                         ffn_weights(block.mlp.fc, block.mlp.proj, "gelu_tanh", block.ln2)), True)


# ----------------------------------------------------------------------------- the record


@dataclass(frozen=True)
class LayerNormStep:
    """One LayerNorm at the followed token: out = (u - mean) / std * gamma + beta (Ba et al. 2016), with
    std = sqrt(var + eps) over u's d_model features (biased variance, as nn.LayerNorm)."""
    u: np.ndarray  # (d_model,) the vector normalised: x + sublayer(x) post-LN, x pre-LN, the last output (final)
    mean: float
    std: float  # sqrt(var + eps): what u - mean is divided by
    normalised: np.ndarray  # (d_model,) (u - mean) / std: mean 0, standard deviation ~ 1
    gamma: np.ndarray  # (d_model,) the LayerNorm's weight
    beta: np.ndarray  # (d_model,) its bias
    eps: float
    out: np.ndarray  # (d_model,) normalised * gamma + beta: the step's `result` (post-LN) or `read` (pre-LN)


@dataclass(frozen=True)
class AttentionStep:
    """One attention sublayer at the followed token (query row `token_index`); shapes name d_model, h, d_k."""
    kind: str  # self, masked_self or cross
    key_tokens: list[str]  # the keys' tokens: the sequence itself, or the source for cross
    x: np.ndarray  # (d_model,) the residual stream entering the sublayer
    read: np.ndarray  # (d_model,) what Q is made from: LN(x) in a pre-LN block, x in a post-LN one
    q_raw: np.ndarray  # (h, d_k) x W^Q + b, split into heads
    q: np.ndarray  # (h, d_k) the query the scores use (after QK-LayerNorm when the model has it)
    k_raw: np.ndarray  # (h, Tk, d_k)
    k: np.ndarray  # (h, Tk, d_k) the keys the scores use
    v: np.ndarray  # (h, Tk, d_k)
    scores: np.ndarray  # (h, Tk) q . k_j / sqrt(d_k); -inf where masked
    probs: np.ndarray  # (h, Tk) softmax of the scores: the attention weights
    head_out: np.ndarray  # (h, d_k) weights x V: each head's output
    concat: np.ndarray  # (h * d_k,) Concat(head_1 .. head_h)
    out: np.ndarray  # (d_model,) concat W^O + b^O
    head_contrib: np.ndarray  # (h, d_model) head_j W^O_j: out = sum_j head_contrib[j] + b^O
    head_norm: np.ndarray  # (h,) |head_j W^O_j|
    residual: np.ndarray  # (d_model,) x + out
    result: np.ndarray  # (d_model,) post-LN: LN(x + out); pre-LN: x + out
    qk_norm: bool
    ln: LayerNormStep | None = None  # the sublayer's LayerNorm: of x (pre-LN, giving read) or x + out (post-LN)


@dataclass(frozen=True)
class FFNStep:
    x: np.ndarray  # (d_model,) entering the sublayer
    read: np.ndarray  # (d_model,) LN(x) pre-LN, x post-LN
    hidden_pre: np.ndarray  # (d_ff,) x W_1 + b_1
    hidden: np.ndarray  # (d_ff,) act(x W_1 + b_1)
    out: np.ndarray  # (d_model,) hidden W_2 + b_2
    residual: np.ndarray  # (d_model,) x + out
    result: np.ndarray  # (d_model,) post-LN: LN(x + out); pre-LN: x + out
    activation: str
    ln: LayerNormStep | None = None  # as AttentionStep.ln


@dataclass(frozen=True)
class InsideResult:
    model: str
    arch: str  # transformer, bert, gpt
    stack: str  # encoder or decoder
    layer: int
    n_layers: int
    token_index: int
    tokens: list[str]  # the sequence the layer runs over (query axis)
    source_tokens: list[str]  # the encoder's tokens (cross attention's keys); [] without an encoder
    d_model: int
    n_heads: int
    d_k: int
    d_ff: int
    pre_ln: bool
    x: np.ndarray  # (d_model,) the layer's input at the token (the model's own hidden state)
    steps: list  # AttentionStep / FFNStep in the order the block computes them
    next_input: np.ndarray  # (d_model,) the layer's output at the token: the next layer's input
    next_inputs: np.ndarray  # (T, d_model) the same for every token
    final: np.ndarray | None  # (d_model,) after the stack's final LayerNorm (pre-LN models, last layer only)
    notices: list[str]
    final_ln: LayerNormStep | None = None  # that final LayerNorm, step by step

    @property
    def layer_norms(self) -> list[tuple[int | None, LayerNormStep]]:
        """Every LayerNorm the token goes through, in compute order: (its step's index, or None for the stack's
        final one, the LayerNorm)."""
        out = [(i, s.ln) for i, s in enumerate(self.steps) if s.ln is not None]
        return out + ([(None, self.final_ln)] if self.final_ln is not None else [])

    @property
    def norms(self) -> dict[str, float]:
        """|v| of the vectors along the way, in compute order."""
        out = {"x": float(np.linalg.norm(self.x))}
        for i, s in enumerate(self.steps):
            name = s.kind if isinstance(s, AttentionStep) else "ffn"
            for f in ("read", "out", "residual", "result"):
                out[f"{i}.{name}.{f}"] = float(np.linalg.norm(getattr(s, f)))
        out["next_input"] = float(np.linalg.norm(self.next_input))
        return out

    def to_json(self) -> dict:
        def arr(a):
            if a is None:
                return None
            a = np.asarray(a, dtype=np.float64)
            obj = a.round(6).astype(object)
            obj[~np.isfinite(a)] = None
            return obj.tolist()
        def obj(o):
            if o is None:
                return None
            return {k: (arr(v) if isinstance(v, np.ndarray) else obj(v) if isinstance(v, LayerNormStep) else v)
                    for k, v in o.__dict__.items()}
        steps = []
        for s in self.steps:
            d = obj(s)
            d["type"] = "attention" if isinstance(s, AttentionStep) else "ffn"
            steps.append(d)
        return {"model": self.model, "arch": self.arch, "stack": self.stack, "layer": self.layer,
                "n_layers": self.n_layers, "token_index": self.token_index, "tokens": self.tokens,
                "source_tokens": self.source_tokens, "d_model": self.d_model, "n_heads": self.n_heads,
                "d_k": self.d_k, "d_ff": self.d_ff, "pre_ln": self.pre_ln, "x": arr(self.x), "steps": steps,
                "next_input": arr(self.next_input), "final": arr(self.final), "final_ln": obj(self.final_ln),
                "norms": self.norms,
                "notices": self.notices}


# ----------------------------------------------------------------------------- the walk


def _act(name: str, x: torch.Tensor) -> torch.Tensor:
    if name == "relu":
        return torch.clamp(x, min=0)
    if name == "gelu":  # x Phi(x), Hendrycks & Gimpel 2016, exact (erf)
        return 0.5 * x * (1 + torch.erf(x / math.sqrt(2)))
    if name == "gelu_tanh":  # GPT-2's tanh approximation
        return 0.5 * x * (1 + torch.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))
    raise ValueError(f"unknown activation {name!r}; choose one of {ACTIVATIONS}")


def _heads(x: torch.Tensor, n_heads: int) -> torch.Tensor:
    T, d = x.shape
    return x.view(T, n_heads, d // n_heads).transpose(0, 1)  # (h, T, d_k)


def _attention(a: AttentionWeights, x: torch.Tensor, memory: torch.Tensor | None, pre_ln: bool):
    """Every row of one attention sublayer: returns the new stream (T, d) and the per-row pieces."""
    read = a.norm(x) if pre_ln else x  # (T, d)
    kv = memory if a.kind == "cross" else read  # (Tk, d)
    h = a.n_heads
    q_raw = _heads(read @ a.wq.T + a.bq, h)  # (h, T, d_k)
    k_raw = _heads(kv @ a.wk.T + a.bk, h)  # (h, Tk, d_k)
    v = _heads(kv @ a.wv.T + a.bv, h)  # (h, Tk, d_k)
    q = a.q_norm(q_raw) if a.q_norm is not None else q_raw
    k = a.k_norm(k_raw) if a.k_norm is not None else k_raw
    d_k = q.size(-1)
    scores = q @ k.transpose(-2, -1) / math.sqrt(d_k)  # (h, T, Tk)
    if a.kind == "masked_self":
        scores = scores.masked_fill(~causal_mask(scores.size(-1))[: scores.size(1)], float("-inf"))
    probs = torch.softmax(scores, dim=-1)  # (h, T, Tk); exp(-inf) = 0 exactly
    head_out = probs @ v  # (h, T, d_k)
    T = x.size(0)
    concat = head_out.transpose(0, 1).reshape(T, h * d_k)  # (T, h * d_k)
    out = concat @ a.wo.T + a.bo  # (T, d)
    wo_heads = a.wo.view(a.wo.size(0), h, d_k).permute(1, 2, 0)  # (h, d_k, d): W^O_j for each head
    contrib = torch.einsum("htk,hkd->thd", head_out, wo_heads)  # (T, h, d)
    residual = x + out
    result = residual if pre_ln else a.norm(residual)
    return result, dict(read=read, q_raw=q_raw, q=q, k_raw=k_raw, k=k, v=v, scores=scores, probs=probs,
                        head_out=head_out, concat=concat, out=out, contrib=contrib, residual=residual, result=result,
                        ln_in=x if pre_ln else residual, ln_out=read if pre_ln else result)


def _ffn(f: FFNWeights, x: torch.Tensor, pre_ln: bool):
    read = f.norm(x) if pre_ln else x
    hidden_pre = read @ f.w1.T + f.b1  # (T, d_ff)
    hidden = _act(f.activation, hidden_pre)
    out = hidden @ f.w2.T + f.b2  # (T, d)
    residual = x + out
    result = residual if pre_ln else f.norm(residual)
    return result, dict(read=read, hidden_pre=hidden_pre, hidden=hidden, out=out, residual=residual, result=result,
                        ln_in=x if pre_ln else residual, ln_out=read if pre_ln else result)


def _np(t: torch.Tensor) -> np.ndarray:
    return t.detach().cpu().numpy().astype(np.float64)


def _ln_step(norm: NormWeights, u: torch.Tensor, out: torch.Tensor) -> LayerNormStep:
    """The LayerNorm `norm` of one vector u (d,), whose output `out` the walk has already computed (the same
    operations, so `normalised * gamma + beta` is `out` to the last bit)."""
    mu, sigma, hat = norm.parts(u)
    return LayerNormStep(_np(u), float(mu), float(sigma), _np(hat), _np(norm.weight), _np(norm.bias), norm.eps,
                         _np(out))


def inside_block(block: BlockWeights, x, token: int, key_tokens: list[str], memory=None,
                 memory_tokens: list[str] = ()) -> tuple[np.ndarray, list, np.ndarray]:
    """Walk `block` over the sequence x (T, d_model) (and the encoder's `memory` (S, d_model) for cross
    attention), in float64. Returns (token's output (d,), the sublayer steps at row `token`, every row's
    output (T, d)). Single sequence, no padding."""
    x = torch.as_tensor(x).to(torch.float64)
    memory = None if memory is None else torch.as_tensor(memory).to(torch.float64)
    steps, i = [], token
    for sub in block.sublayers:
        x_in = x
        if isinstance(sub, AttentionWeights):
            if sub.kind == "cross" and memory is None:
                raise ValueError("a cross-attention sublayer needs the encoder's memory")
            x, p = _attention(sub, x, memory, block.pre_ln)
            keys = list(memory_tokens) if sub.kind == "cross" else list(key_tokens)
            contrib = p["contrib"][i]  # (h, d)
            steps.append(AttentionStep(
                sub.kind, keys, _np(x_in[i]), _np(p["read"][i]), _np(p["q_raw"][:, i]), _np(p["q"][:, i]),
                _np(p["k_raw"]), _np(p["k"]), _np(p["v"]), _np(p["scores"][:, i]), _np(p["probs"][:, i]),
                _np(p["head_out"][:, i]), _np(p["concat"][i]), _np(p["out"][i]), _np(contrib),
                _np(contrib.norm(dim=-1)), _np(p["residual"][i]), _np(p["result"][i]), sub.q_norm is not None,
                _ln_step(sub.norm, p["ln_in"][i], p["ln_out"][i])))
        else:
            x, p = _ffn(sub, x, block.pre_ln)
            steps.append(FFNStep(_np(x_in[i]), _np(p["read"][i]), _np(p["hidden_pre"][i]), _np(p["hidden"][i]),
                                 _np(p["out"][i]), _np(p["residual"][i]), _np(p["result"][i]), sub.activation,
                                 _ln_step(sub.norm, p["ln_in"][i], p["ln_out"][i])))
    return _np(x[i]), steps, _np(x)


# ----------------------------------------------------------------------------- the models' own hidden states


@torch.inference_mode()
def transformer_states(model, src: torch.Tensor, tgt_in: torch.Tensor | None = None):
    """The model's own forward, layer by layer (its modules, as Transformer.encode/decode run them): the input
    of every encoder layer and the encoder's output ([L + 1] tensors (1, S, d)), the memory, and with tgt_in
    the input of every decoder layer and the decoder's output ([L + 1] tensors (1, T, d))."""
    c = model.config
    src_mask = (src != c.pad_id)[:, None, None, :]  # (1, 1, 1, S), as Transformer.encode builds it
    x, enc = model.embed(model.src_emb, src), []
    for layer in model.encoder:
        enc.append(x)
        x, _ = layer(x, src_mask, False)
    enc.append(x)
    memory = model.enc_norm(x)
    dec = []
    if tgt_in is not None:
        T = tgt_in.size(1)
        tgt_mask = causal_mask(T)[None, None] & (tgt_in != c.pad_id)[:, None, None, :]
        y = model.embed(model.tgt_emb, tgt_in)
        for layer in model.decoder:
            dec.append(y)
            y, _, _, _ = layer(y, memory, tgt_mask, src_mask, False)
        dec.append(y)
    return enc, memory, dec


@torch.inference_mode()
def bert_states(model, ids: torch.Tensor, segs: torch.Tensor):
    """BERT's own forward, layer by layer: [L + 1] tensors (1, T, d), the input of each layer and the last output
    (before the final LayerNorm of a pre-LN model)."""
    key_mask = (ids != model.config.pad_id)[:, None, None, :]  # (1, 1, 1, T), as Bert.forward builds it
    x, _ = model.embeddings(ids, segs)
    xs = []
    for layer in model.layers:
        xs.append(x)
        x, _ = layer(x, key_mask, False)
    xs.append(x)
    return xs


@torch.inference_mode()
def gpt_states(model, ids: torch.Tensor):
    """A GPT's own forward, block by block: [L + 1] tensors (1, T, d), the input of each block and the last output
    (before the final LayerNorm ln_f)."""
    positions = torch.arange(ids.size(1))
    x = model.drop(model.tok(ids) + model.pos(positions))
    xs = []
    for block in model.blocks:
        xs.append(x)
        x, _, _, _ = block(x)
    xs.append(x)
    return xs


def _final(norm, x: np.ndarray) -> np.ndarray | None:
    """A pre-LN stack's final LayerNorm applied to the last layer's output, from its weights."""
    if norm is None or not isinstance(norm, torch.nn.LayerNorm):
        return None
    return _np(norm_weights(norm)(torch.as_tensor(x, dtype=torch.float64)))


def _final_ln(norm, x: np.ndarray) -> LayerNormStep | None:
    """That final LayerNorm, step by step (None where `_final` is None)."""
    if norm is None or not isinstance(norm, torch.nn.LayerNorm):
        return None
    w, u = norm_weights(norm), torch.as_tensor(x, dtype=torch.float64)
    return _ln_step(w, u, w(u))


def inside_layer(name: str, text: str, layer: int = 0, token: int = 0, stack: str = "encoder",
                 target: str | None = None, reg: Registry | None = None) -> InsideResult:
    """Follow token `token` through layer `layer` of model `name` on `text`.

    Transformer translation models: stack "encoder" (the source) or "decoder" (the decoder's input
    <s> y1 .. : the model's greedy translation, or the typed `target`). BERT: its encoder."""
    reg = reg or registry()
    ckpt = reg.get(name, ("transformer", "bert", "gpt"))
    model, c, tok = ckpt.model, ckpt.config, ckpt.tokenizer
    if stack not in STACKS:
        raise UserError(f"Stack must be one of {', '.join(STACKS)} (got {stack!r}).", "bad_stack", stack=str(stack))
    memory = None
    src_tokens: list[str] = []
    if c.arch == "gpt":  # a decoder-only model: the text as the GPT tab reads a prompt ([CLS] first)
        stack = "decoder"
        _, ids, notices = encode_prompt(ckpt, text)
        states = gpt_states(model, torch.tensor([ids]))
        tokens = _pieces(tok, ids)
        layer = check_int(layer, "Layer", 0, c.n_layers - 1)
        block = gpt_block(model.blocks[layer])
        final_norm = model.ln_f
        n_layers = c.n_layers
    elif c.arch == "bert":
        if stack != "encoder":
            raise UserError("BERT has an encoder only.", "bert_encoder_only")
        a, b, notices = _bert_inputs(text, None)
        ids, segs, _ = _bert_ids(ckpt, a, b, notices)
        ids_t, segs_t = torch.tensor([ids]), torch.tensor([segs])
        states = bert_states(model, ids_t, segs_t)
        tokens = _pieces(tok, ids)
        layer = check_int(layer, "Layer", 0, c.n_layers - 1)
        block = bert_block(model.layers[layer])
        final_norm = model.final_norm
        n_layers = c.n_layers
    else:
        sp = special_ids(tok)
        if target is not None and str(target).strip():
            _, _, ids, notices = encode_source(ckpt, text)
            _, out_ids, more = encode_target(ckpt, target)
            notices += more
        else:
            r = translate(name, text, reg=reg)
            ids = [tok.token_to_id(p) for p in r.source_tokens[:-1]]
            out_ids = [tok.token_to_id(p) for p in r.decoder_input_tokens[1:]]
            notices = list(r.notices)
        src = torch.tensor([ids + [sp["eos"]]])
        tgt_in = torch.tensor([[sp["bos"]] + out_ids])
        enc, memory_t, dec = transformer_states(model, src, tgt_in if stack == "decoder" else None)
        src_tokens = _pieces(tok, src[0].tolist())
        n_layers = len(model.encoder) if stack == "encoder" else len(model.decoder)
        layer = check_int(layer, "Layer", 0, n_layers - 1)
        if stack == "encoder":
            states, tokens = enc, src_tokens
            block = transformer_encoder_block(model.encoder[layer], c.pre_ln)
            final_norm = model.enc_norm
        else:
            states, tokens = dec, _pieces(tok, tgt_in[0].tolist())
            block = transformer_decoder_block(model.decoder[layer], c.pre_ln)
            memory = memory_t[0]
            final_norm = model.dec_norm
    token = check_int(token, "Token", 0, len(tokens) - 1)
    x = states[layer][0]  # (T, d) the model's own input to this layer
    out, steps, outs = inside_block(block, x, token, tokens, memory, src_tokens)
    last = layer == n_layers - 1
    att = next(s for s in steps if isinstance(s, AttentionStep))
    h, d_k = att.q.shape
    d_ff = next(s for s in steps if isinstance(s, FFNStep)).hidden.shape[0]
    return InsideResult(name, c.arch, stack, layer, n_layers, token, tokens, src_tokens if stack == "decoder" else [],
                        x.shape[-1], h, d_k, d_ff, block.pre_ln, _np(x[token]), steps, out, outs,
                        _final(final_norm, out) if last else None, notices,
                        _final_ln(final_norm, out) if last else None)
