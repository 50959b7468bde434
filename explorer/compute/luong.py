"""Luong's four steps: one decoding step of an RNN encoder-decoder with attention, every number from the weights.

Luong, Pham & Manning 2015, "Effective Approaches to Attention-based Neural Machine Translation", sec. 3, named
and numbered as the course's deck 000 has them (its a_t is the context vector, the paper's c_t; docs/glossary.md).
Given the encoder's hidden states h_i (one per source token) and the decoder's hidden state h_t, the LSTM run on
[E y_{t-1}; h~_{t-1}] (input feeding, sec. 3.3):
  1. Attention Score e_t,i = score(h_t, h_i): dot h_t . h_i, general h_t^T W_a h_i (eq. 8), or scaled dot;
  2. Attention Distribution alpha_t = softmax(e_t) (eq. 7, the paper's alignment a_t);
  3. Attention Value a_t = sum_i alpha_t,i h_i, the context vector (the paper's c_t);
  4. Prediction Vector h~_t = tanh(W_c [a_t; h_t]) (eq. 5), and p(y_t | y_<t, x) = softmax(W_s h~_t) (eq. 6):
     the next word and its rivals.
Bahdanau, Cho & Bengio 2015 (additive) score with the PREVIOUS state s_{t-1}, e_t,i = v^T tanh(W s_{t-1} + U h_i)
(appendix A.1.2); a_t then enters the LSTM beside E y_{t-1}, and the output reads [s_t; a_t; E y_{t-1}] (eq. 4,
with a tanh layer in place of their maxout, as models/seq2seq.py has it). The record keeps each model's own order.

The encoder states and the decoder's state before step t come from the model itself (`start`, then `step` for
the earlier tokens); step t is recomputed here in float64 from the LSTM, score, W_c and W_s weights, and
tests/explorer/test_luong.py checks every number against the model's own `step` (1e-5).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import torch

from explorer.compute.choices import Choice, decoder_inputs
from explorer.compute.inference import MAX_TOP_K, Registry, UserError, _pieces, check_int, registry
from models.seq2seq import LUONG


@dataclass(frozen=True)
class LuongResult:
    model: str
    score: str  # dot, scaled_dot, general (Luong) or additive (Bahdanau)
    step: int  # t: the decoder reads decoder_input_tokens[t] and puts out target_tokens[t]
    source_tokens: list[str]
    decoder_input_tokens: list[str]  # <s> y1 .. yn
    target_tokens: list[str]  # y1 .. yn </s>
    forced: bool  # the target was typed (teacher forcing), not the model's own translation
    encoder_states: np.ndarray  # (S, d) given: h_i
    query_name: str  # "h_t" (Luong: the current state scores) or "s_{t-1}" (Bahdanau: the previous one)
    query: np.ndarray  # (d,) given: the decoder state that scores the source
    lstm_input: np.ndarray  # (d_emb + d,) [E y_{t-1}; h~_{t-1}] (Luong) or [E y_{t-1}; a_t] (Bahdanau)
    state: np.ndarray  # (d,) the decoder's new top state: h_t (Luong) or s_t (Bahdanau)
    scores: np.ndarray  # (S,) step 1, Attention Score: e_t
    weights: np.ndarray  # (S,) step 2, Attention Distribution: alpha_t = softmax(e_t)
    context: np.ndarray  # (d,) step 3, Attention Value: a_t = sum_i alpha_t,i h_i (the context vector)
    concat_name: str  # "[a_t; h_t]" or "[s_t; a_t; E y_{t-1}]"
    concat: np.ndarray  # (2d,) or (2d + d_emb,)
    attentional: np.ndarray  # (d,) step 4, Prediction Vector: h~_t = tanh(W_c concat + b_c)
    probs: np.ndarray  # (V,) softmax(W_s h~_t + b_s)
    top: list[Choice]  # the top-k next words
    token: str  # the word put out at this step
    probability: float | None  # its probability (None where decoding was cut off)
    rank: int | None
    notices: list[str]

    def to_json(self) -> dict:
        out = {k: (np.round(v, 6).tolist() if isinstance(v, np.ndarray) else v) for k, v in self.__dict__.items()
               if k != "probs"}
        out["top"] = [c.__dict__ for c in self.top]
        return out


def _lstm_step(lstm: torch.nn.LSTM, x: torch.Tensor, h: torch.Tensor, c: torch.Tensor):
    """One step of a stacked nn.LSTM from its weights (Hochreiter & Schmidhuber 1997; PyTorch's gate order
    i, f, g, o). x (d_in,), h, c (L, d) -> new h, c (L, d)."""
    hs, cs = [], []
    for layer in range(lstm.num_layers):
        w_ih, w_hh = (getattr(lstm, f"{w}_l{layer}").double() for w in ("weight_ih", "weight_hh"))
        b = getattr(lstm, f"bias_ih_l{layer}").double() + getattr(lstm, f"bias_hh_l{layer}").double()
        i, f, g, o = (w_ih @ x + w_hh @ h[layer] + b).chunk(4)
        c_new = torch.sigmoid(f) * c[layer] + torch.sigmoid(i) * torch.tanh(g)
        h_new = torch.sigmoid(o) * torch.tanh(c_new)
        hs.append(h_new), cs.append(c_new)
        x = h_new
    return torch.stack(hs), torch.stack(cs)


def _scores(model, query: torch.Tensor, enc: torch.Tensor) -> torch.Tensor:
    """e_i = score(query, h_i) for every encoder state, (S,), from the score module's weights."""
    kind, s = model.config.attention, model.score
    if kind == "dot":
        return enc @ query
    if kind == "scaled_dot":
        return enc @ query / math.sqrt(query.numel())
    if kind == "general":  # h_t^T W_a h_i
        return (enc @ s.W.weight.double().T) @ query
    if kind == "additive":  # v^T tanh(W s + U h_i + b_U)
        pre = s.W.weight.double() @ query + enc @ s.U.weight.double().T + s.U.bias.double()  # (S, d_attn)
        return torch.tanh(pre) @ s.v.weight.double()[0]
    raise ValueError(f"no score function for attention {kind!r}")


@torch.inference_mode()
def four_steps(name: str, text: str, step: int = 0, target: str | None = None, top_k: int = 5,
               reg: Registry | None = None) -> LuongResult:
    """Step `step` of seq2seq model `name` translating `text` (its greedy translation, or the typed `target`)."""
    reg = reg or registry()
    ckpt = reg.get(name, "seq2seq")
    model, c, tok = ckpt.model, ckpt.config, ckpt.tokenizer
    if c.attention == "none":
        raise UserError(f"{name} has no attention (Sutskever et al. 2014): its decoder reads only the encoder's "
                        "last state, so there are no scores, weights or context to show. Choose a model with "
                        "attention.", "no_attention", name=name)
    top_k = check_int(top_k, "top-k", 1, MAX_TOP_K)
    src, tgt_in, _, finished, notices = decoder_inputs(ckpt, name, text, target, reg=reg)
    T = tgt_in.size(1)
    step = check_int(step, "Step", 0, T - 1)
    memory = model.start(src)
    state = None
    for t in range(step):  # the model's own steps up to this one
        _, state, _ = model.step(memory, tgt_in[:, : t + 1], state)
    enc, mask, h0, c0 = memory
    if state is None:
        state = (h0, c0) + ((h0.new_zeros(1, c.d_hidden),) if c.attention in LUONG else ())
    h, cell = state[0][0].double(), state[1][0].double()  # (L, d)
    H = enc[0].double()  # (S, d): the encoder states h_i
    e_y = model.tgt_emb.weight[tgt_in[0, step]].double()  # (d_emb,) E y_{t-1}
    if c.attention in LUONG:
        lstm_input = torch.cat([e_y, state[2][0].double()])  # input feeding: [E y_{t-1}; h~_{t-1}]
        h_new, _ = _lstm_step(model.decoder, lstm_input, h, cell)
        query = state_t = h_new[-1]  # h_t
        scores = _scores(model, query, H)
        weights = torch.softmax(scores, 0)
        context = weights @ H
        concat, concat_name, query_name = torch.cat([context, state_t]), "[a_t; h_t]", "h_t"
    else:  # Bahdanau: s_{t-1} scores, a_t enters the LSTM
        query = h[-1]  # s_{t-1}
        scores = _scores(model, query, H)
        weights = torch.softmax(scores, 0)
        context = weights @ H
        lstm_input = torch.cat([e_y, context])
        h_new, _ = _lstm_step(model.decoder, lstm_input, h, cell)
        state_t = h_new[-1]  # s_t
        concat, concat_name, query_name = torch.cat([state_t, context, e_y]), "[s_t; a_t; E y_{t-1}]", "s_{t-1}"
    attentional = torch.tanh(model.combine.weight.double() @ concat + model.combine.bias.double())
    logits = model.out.weight.double() @ attentional + model.out.bias.double()  # (V,)
    log_probs = torch.log_softmax(logits, 0)
    probs = log_probs.exp()
    k = min(top_k, probs.numel())
    p_top, i_top = probs.topk(k)
    top = [Choice(t, round(float(p), 6)) for t, p in zip(_pieces(tok, i_top.tolist()), p_top.tolist())]
    outs = tgt_in[0, 1:].tolist() + ([tok.token_to_id("</s>")] if finished else [None])
    y = outs[step]
    token, probability, rank = "…", None, None
    if y is not None:
        token, probability = _pieces(tok, [y])[0], float(probs[y])
        rank = int((log_probs > log_probs[y]).sum()) + 1
    dec_in = _pieces(tok, tgt_in[0].tolist())
    target_tokens = _pieces(tok, [o for o in outs if o is not None]) + ([] if finished else ["…"])
    forced = target is not None and bool(str(target).strip())
    f = lambda x: x.detach().cpu().numpy().astype(np.float64)  # noqa: E731
    return LuongResult(name, c.attention, step, _pieces(tok, src[0].tolist()), dec_in, target_tokens, forced,
                       f(H), query_name, f(query), f(lstm_input), f(state_t), f(scores), f(weights), f(context),
                       concat_name, f(concat), f(attentional), f(probs), top, token, probability, rank, notices)


six_steps = four_steps  # the earlier name, as docs/api.md calls it
