"""Attention beside attribution: for one prediction, six answers to "which input tokens mattered?", on the same
tokens, with their rank correlations (Jain & Wallace 2019; Wiegreffe & Pinter 2019: attention is not, or not
always, an explanation).

A prediction is BERT's top word at a [MASK] (`fill_mask_attribution`) or a word of transformer-en-fr's greedy
translation (`translation_attribution`). Per input token (BERT's tokens with [CLS]/[SEP]; the source with </s>):

* attention: the last layer's attention row of the query (the [MASK]; the decoder step that predicts the word:
  its cross attention), averaged over heads;
* rollout (Abnar & Zuidema 2020): BERT's self-attention rolled out through every layer with the residual
  (`explorer.compute.lab.rollout`); for the translator, the last cross-attention row carried through the encoder's
  rollout (the decoder's own mixing of earlier steps is left out: the rule is for self-attention);
* norm (Kobayashi et al. 2020, "Attention is Not Only a Weight"): ||Σ_h α^h_ij f^h(x_j)||, where
  f^h(x_j) = (x_j W_V^h + b_V^h) W_O^h is what token j sends through head h; same layer and row as attention;
* value zeroing (Mohebbi et al. 2023): token j's value vector set to 0 in that attention, the rest of the
  layer (W^O, residual, LayerNorm, feed-forward) run again, the cosine distance of the query's output to the
  unchanged one;
* gradient × input (Shrikumar et al. 2016; Denil et al. 2014): ∂F/∂e_j · e_j summed over the embedding, for
  F = the log-probability of the predicted word and e_j token j's token embedding (positions and segments kept);
* integrated gradients (Sundararajan et al. 2017): (e_j − e'_j) · the mean gradient along the straight path from
  the baseline e' = 0 (every token embedding zero, positions and segments kept), a midpoint Riemann sum of
  `steps` points (`integrated_gradients`); completeness, Σ_j IG_j = F(e) − F(e'), is reported, and tests hold it within 1%.

The two gradient measures are signed; their ranks, and the figure, use magnitudes. Spearman's ρ between every
two measures is over the tokens that are not special ([CLS], [SEP], </s>), where attention famously parks
(Clark et al. 2019).

The last-layer measures (norm, value zeroing) re-run one layer from the model's own submodules (the layer's
attention projections, W^O, LayerNorms, feed-forward), never through hooks or state on the shared model, so
concurrent visitors do not race; tests check that this re-run equals the model's own forward pass.
Gradients are taken with `torch.autograd.grad` on the input embeddings only: nothing accumulates in the shared
parameters' `.grad`. Figures: explorer/figures/attribution.py; the view: explorer/views/attribution.py.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import torch
import torch.nn.functional as F

from explorer.compute import lab
from explorer.compute.inference import (Registry, UserError, _bert_ids, _pieces, check_int, encode_source, masked_texts,
                                registry)
from models.attention import causal_mask, scaled_dot_product
from models.decoding import greedy
from models.tokenizers import special_ids

BERT = "bert"
TRANSLATOR = "transformer-en-fr"
MEASURES = ("attention", "rollout", "norm", "value_zeroing", "grad_input", "integrated_gradients")
SIGNED = ("grad_input", "integrated_gradients")
STEPS = 32  # integrated gradients' points on the path (`integrated_gradients`)
MAX_STEPS = 256
TOLERANCE = 0.01  # completeness: |Σ IG - (F(e) - F(e'))| within 1% of F(e) - F(e') (tests; the view flags a miss)
SPECIALS = ("[CLS]", "[SEP]", "</s>", "<s>", "[PAD]", "<pad>")


@dataclass(frozen=True)
class Target:
    """One prediction and what each measure credits each input token with."""
    query: int  # BERT: the [MASK]'s position among the tokens; translator: the output word's step (0-based)
    word: str  # the predicted token
    prob: float  # its probability
    scores: dict  # measure -> [one value per input token]
    ig_sum: float  # Σ_j IG_j
    ig_gap: float  # F(e) - F(e'): what the sum should equal (completeness)

    def completeness_error(self) -> float:
        """|Σ IG − (F(e) − F(e'))| / |F(e) − F(e')|."""
        return abs(self.ig_sum - self.ig_gap) / max(abs(self.ig_gap), 1e-12)


@dataclass(frozen=True)
class Attribution:
    model: str
    task: str  # "fill-mask" or "translation"
    tokens: list[str]  # the input tokens every score is over
    outputs: list[str]  # the translation's tokens (the targets' words in order); BERT: the [MASK]s' top words
    targets: list[Target]
    steps: int  # integrated gradients' points on the path
    notices: list[str] = field(default_factory=list)

    def to_json(self) -> dict:
        return {"model": self.model, "task": self.task, "tokens": self.tokens, "outputs": self.outputs,
                "steps": self.steps, "notices": list(self.notices),
                "targets": [{**t.__dict__, "completeness_error": t.completeness_error()} for t in self.targets]}


# ----------------------------------------------------------------------------- rank correlation


def ranks(x) -> np.ndarray:
    """1-based ranks, ties given their mean rank (as Spearman's ρ needs)."""
    x = np.asarray(x, dtype=float)
    order = np.argsort(x, kind="stable")
    r = np.empty(len(x))
    r[order] = np.arange(1, len(x) + 1)
    for v in np.unique(x):  # ties: the mean of their ranks
        tie = x == v
        if tie.sum() > 1:
            r[tie] = r[tie].mean()
    return r


def spearman(a, b) -> float:
    """Spearman's ρ: Pearson's correlation of the ranks; NaN when either is constant or under 3 values."""
    ra, rb = ranks(a), ranks(b)
    if len(ra) < 3 or ra.std() == 0 or rb.std() == 0:
        return float("nan")
    return float(np.corrcoef(ra, rb)[0, 1])


def magnitude(scores: dict) -> dict:
    """Each measure as a magnitude (the signed gradient measures as |value|)."""
    return {m: np.abs(np.asarray(v, dtype=float)) for m, v in scores.items()}


def correlations(scores: dict, keep=None, measures=MEASURES) -> np.ndarray:
    """Spearman's ρ between every two measures' magnitudes, over the tokens where `keep` is True (all: None)."""
    mag = magnitude(scores)
    keep = np.ones(len(mag[measures[0]]), bool) if keep is None else np.asarray(keep, bool)
    return np.array([[spearman(mag[a][keep], mag[b][keep]) for b in measures] for a in measures])


def content_tokens(tokens) -> np.ndarray:
    """True where a token is not a special one ([CLS], [SEP], </s>, ...)."""
    return np.array([t not in SPECIALS for t in tokens])


# ----------------------------------------------------------------------------- one layer, decomposed


def head_vectors(attn, probs: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    """Kobayashi et al.'s decomposition of a multi-head attention's output: (B, Tq, Tk, d_model), the vector
    Σ_h α^h_ij f^h(x_j) each key j sends to each query i. Summed over j, plus W^O's bias, it is the output.
    probs (B, nh, Tq, Tk), v (B, nh, Tk, hs): the layer's own (`attn.heads`)."""
    nh, hs = v.shape[1], v.shape[-1]
    w = attn.out_proj.weight.view(-1, nh, hs)  # (d_model, nh, hs): W^O's columns per head
    f = torch.einsum("bhkc,dhc->bhkd", v, w)  # (B, nh, Tk, d_model): f^h(x_j)
    return torch.einsum("bhqk,bhkd->bqkd", probs, f)  # (B, Tq, Tk, d_model)


def _attend_parts(attn, x_q, x_kv, mask):
    """The attention's probabilities and values, computed as models.attention does (the explicit path)."""
    q, k, v = attn.heads(x_q, x_kv)  # (B, nh, T, hs)
    return scaled_dot_product(q, k, v, mask).probs, v  # probs (B, nh, Tq, Tk)


def _combine(attn, probs, v) -> torch.Tensor:
    """The attention's output from probabilities and values (B, nh, Tk, hs): concat heads, W^O."""
    out = probs @ v  # (B, nh, Tq, hs)
    B, nh, Tq, hs = out.shape
    return attn.out_proj(out.transpose(1, 2).reshape(B, Tq, nh * hs))  # (B, Tq, d_model)


def _zeroed_values(v: torch.Tensor) -> torch.Tensor:
    """(Tk, nh, Tk, hs) from v (1, nh, Tk, hs): copy j has key j's value vector zeroed in every head."""
    Tk = v.shape[2]
    keep = 1.0 - torch.eye(Tk, dtype=v.dtype)  # (Tk copies, Tk keys)
    return v.expand(Tk, -1, -1, -1) * keep[:, None, :, None]


def _cosine_distance(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return 1.0 - F.cosine_similarity(a, b, dim=-1)


# ----------------------------------------------------------------------------- BERT


def _bert_layer_rest(layer, x, a_out):
    """What models.bert.EncoderLayer does after its attention (eval: no dropout)."""
    if layer.pre_ln:
        x = x + a_out
        return x + layer.ff(layer.ff_norm(x))
    x = layer.attn_norm(x + a_out)
    return layer.ff_norm(x + layer.ff(x))


def bert_from_embeddings(model, static: torch.Tensor, segs: torch.Tensor, key_mask: torch.Tensor,
                         upto: int | None = None) -> torch.Tensor:
    """models.bert.Bert's forward from its token embeddings `static` (B, T, d_model) instead of ids: the hidden
    states after `upto` layers (all: None, then the final LayerNorm of a pre-LN model)."""
    e = model.embeddings
    x = e.norm(static + e.pos(torch.arange(static.shape[1])) + e.seg(segs))  # (B, T, d_model)
    layers = model.layers if upto is None else model.layers[:upto]
    for layer in layers:
        x, _ = layer(x, key_mask, False)
    if upto is None and model.final_norm is not None:
        x = model.final_norm(x)
    return x


def bert_last_layer(model, ids: torch.Tensor, segs: torch.Tensor, query: int) -> dict:
    """The last layer at `query`: attention (nh, T), norm (T,), value zeroing (T,) and the layer's output, from
    its input (the hidden states after the layers before it)."""
    key_mask = (ids != model.config.pad_id)[:, None, None, :]
    x = bert_from_embeddings(model, model.embeddings.tok(ids), segs, key_mask, upto=len(model.layers) - 1)
    layer = model.layers[-1]
    h = layer.attn_norm(x) if layer.pre_ln else x
    probs, v = _attend_parts(layer.attn, h, h, key_mask)
    vec = head_vectors(layer.attn, probs, v)[0, query]  # (T, d_model)
    full = _bert_layer_rest(layer, x, _combine(layer.attn, probs, v))[0, query]
    zeroed = _combine(layer.attn, probs.expand(v.shape[2], -1, -1, -1), _zeroed_values(v))  # (T copies, T, d)
    outs = _bert_layer_rest(layer, x.expand(v.shape[2], -1, -1), zeroed)[:, query]  # (T copies, d)
    return {"attention": probs[0, :, query], "norm": vec.norm(dim=-1), "vectors": vec,
            "value_zeroing": _cosine_distance(outs, full[None]), "output": full}


def _path_terms(forward, emb, baseline, alphas, n_targets) -> torch.Tensor:
    """(m, n, T): at each point alpha of the path, each target's gradient times (e - e'), summed over the
    embedding, per token."""
    path = (baseline + alphas[:, None, None] * (emb - baseline)).detach().requires_grad_(True)  # (m, T, d)
    fp = forward(path)  # (m, n)
    out = []
    for t in range(n_targets):
        (g,) = torch.autograd.grad(fp[:, t].sum(), path, retain_graph=t < n_targets - 1)
        out.append((g * (emb - baseline)).sum(-1))  # (m, T)
    return torch.stack(out, 1)


def integrated_gradients(forward, emb, baseline, steps: int = STEPS) -> torch.Tensor:
    """Integrated gradients of every target, (n, T): (e - e') times the mean gradient at the midpoints of `steps`
    equal pieces of the straight path from e' to e, summed over the embedding. Completeness holds as the sum
    converges; where a translator's word switches on within a few hundredths of alpha (its gradient peaks tenfold
    there) it converges slowly, which is why each target reports its completeness error (docs/attribution.md)."""
    alphas = (torch.arange(steps, dtype=emb.dtype) + 0.5) / steps
    return _path_terms(forward, emb, baseline, alphas, forward(emb[None]).shape[1]).mean(0)


def _gradients(forward, emb: torch.Tensor, baseline: torch.Tensor, steps: int, n_targets: int):
    """forward(batch of token embeddings (B, T, d)) -> (B, n_targets) values F. Returns F(e) (n,), F(e') (n,),
    gradient x input (n, T) and integrated gradients (n, T), summed over the embedding."""
    with torch.enable_grad():
        x = emb.detach().clone().requires_grad_(True)
        f = forward(x[None])[0]  # (n,)
        gxi = []
        for t in range(n_targets):
            (g,) = torch.autograd.grad(f[t], x, retain_graph=t < n_targets - 1)
            gxi.append((g * x).sum(-1))
        with torch.no_grad():
            f0 = forward(baseline[None])[0]
        ig = integrated_gradients(forward, emb, baseline, steps)
    return f.detach(), f0.detach(), torch.stack(gxi).detach(), ig.detach()


def bert_attribution(model, tok, ids: list[int], segs: list[int], at: list[int], steps: int = STEPS,
                     name: str = BERT, notices=()) -> Attribution:
    """Every measure for the top word at each position of `at` (the [MASK]s), on a loaded BERT."""
    ids_t, segs_t = torch.tensor([ids]), torch.tensor([segs])
    key_mask = (ids_t != model.config.pad_id)[:, None, None, :]
    with torch.no_grad():
        out = model(ids_t, segs_t, need_weights=True, mlm_positions=torch.tensor([at]))
        logp = F.log_softmax(out.mlm_logits[0].float(), -1)  # (masks, V)
        words = logp.argmax(-1)  # (masks,)
        att = out.trace.enc_self[0].float().numpy()  # (L, H, T, T)
        roll = lab.rollout(att)  # (T, T)
    pos = torch.tensor(at)

    def forward(static):  # (B, T, d) -> (B, masks): log p(top word) at each [MASK]
        h = bert_from_embeddings(model, static, segs_t.expand(len(static), -1), key_mask)
        lp = F.log_softmax(model.mlm(h[:, pos]), -1)  # (B, masks, V)
        return lp.gather(2, words[None, :, None].expand(len(static), -1, 1))[..., 0]

    emb = model.embeddings.tok(ids_t)[0].detach()
    f, f0, gxi, ig = _gradients(forward, emb, torch.zeros_like(emb), steps, len(at))
    targets = []
    for n, q in enumerate(at):
        with torch.no_grad():
            last = bert_last_layer(model, ids_t, segs_t, q)
        scores = {"attention": att[-1, :, q].mean(0), "rollout": roll[q],
                  "norm": last["norm"].numpy(), "value_zeroing": last["value_zeroing"].numpy(),
                  "grad_input": gxi[n].numpy(), "integrated_gradients": ig[n].numpy()}
        targets.append(Target(q, _pieces(tok, [int(words[n])])[0], float(logp[n, words[n]].exp()),
                              {m: np.asarray(v, dtype=float).tolist() for m, v in scores.items()},
                              float(ig[n].sum()), float(f[n] - f0[n])))
    return Attribution(name, "fill-mask", _pieces(tok, ids), [t.word for t in targets], targets, steps,
                       list(notices))


def fill_mask_attribution(text: str, steps: int = STEPS, name: str = BERT,
                          reg: Registry | None = None) -> Attribution:
    """The six measures for BERT's top word at every [MASK] of `text`."""
    ckpt = (reg or registry()).get(name, "bert")
    steps = check_int(steps, "Integrated-gradients steps", 1, MAX_STEPS)
    text, _, notices = masked_texts(text)
    ids, segs, sp = _bert_ids(ckpt, text, None, notices)
    at = [i for i, t in enumerate(ids) if t == sp["mask"]]
    if not at:
        raise UserError("Every [MASK] fell beyond BERT's length limit; put one earlier in the text.", "mask_too_late")
    return bert_attribution(ckpt.model, ckpt.tokenizer, ids, segs, at, steps, name, notices)


# ----------------------------------------------------------------------------- the Transformer


def encode_embeddings(model, tok_emb: torch.Tensor, src_mask: torch.Tensor) -> torch.Tensor:
    """models.transformer.Transformer.encode from the source's token embeddings (B, S, d_model), unscaled, instead
    of ids (eval: no dropout): the memory (B, S, d_model)."""
    x = tok_emb * math.sqrt(model.config.d_model) + model.pe[:tok_emb.shape[1]]
    for layer in model.encoder:
        x, _ = layer(x, src_mask, False)
    return model.enc_norm(x)


def _decoder_layer_rest(layer, y, cross_out):
    """What models.transformer.DecoderLayer does after its cross attention (eval)."""
    y = layer.sub2.add(y, cross_out)
    return layer.sub3.add(y, layer.ffn(layer.sub3.inp(y)))


def transformer_last_cross(model, src: torch.Tensor, tgt_in: torch.Tensor) -> dict:
    """The last decoder layer's cross attention at every step: attention (nh, T, S), norm (T, S), value zeroing
    (T, S) and the layer's output (T, d_model), from the layer's own inputs."""
    memory, src_mask, _ = model.encode(src)
    T = tgt_in.size(1)
    tgt_mask = causal_mask(T)[None, None] & (tgt_in != model.config.pad_id)[:, None, None, :]
    y = model.embed(model.tgt_emb, tgt_in)
    for layer in model.decoder[:-1]:
        y, _, _, _ = layer(y, memory, tgt_mask, src_mask, False)
    layer = model.decoder[-1]
    h = layer.sub1.inp(y)
    y = layer.sub1.add(y, layer.self_attn(h, h, tgt_mask, False).out)  # the masked self-attention sub-layer
    probs, v = _attend_parts(layer.cross_attn, layer.sub2.inp(y), memory, src_mask)  # (1, nh, T, S)
    vec = head_vectors(layer.cross_attn, probs, v)[0]  # (T, S, d)
    full = _decoder_layer_rest(layer, y, _combine(layer.cross_attn, probs, v))[0]  # (T, d)
    S = v.shape[2]
    zeroed = _combine(layer.cross_attn, probs.expand(S, -1, -1, -1), _zeroed_values(v))  # (S copies, T, d)
    outs = _decoder_layer_rest(layer, y.expand(S, -1, -1), zeroed)  # (S copies, T, d)
    vz = _cosine_distance(outs, full[None]).T  # (T, S)
    return {"attention": probs[0], "norm": vec.norm(dim=-1), "vectors": vec, "value_zeroing": vz, "output": full}


def transformer_attribution(model, tok, src_ids: list[int], out_ids: list[int], steps: int = STEPS,
                            name: str = TRANSLATOR, notices=()) -> Attribution:
    """Every measure for each word of `out_ids` (a translation of `src_ids`, which end in </s>), teacher-forced:
    step t predicts out_ids[t] from <s> out_ids[:t]."""
    sp = special_ids(tok)
    src = torch.tensor([src_ids])
    tgt_in = torch.tensor([[sp["bos"]] + out_ids[:-1]])
    words = torch.tensor(out_ids)
    src_mask = (src != model.config.pad_id)[:, None, None, :]
    with torch.no_grad():
        o = model(src, tgt_in, need_weights=True)
        logp = F.log_softmax(o.logits[0].float(), -1)  # (T, V)
        enc_roll = lab.rollout(o.trace.enc_self[0].float().numpy())  # (S, S)
        last = transformer_last_cross(model, src, tgt_in)
    cross = last["attention"].mean(0).numpy()  # (T, S), heads averaged

    def forward(tok_emb):  # (B, S, d) -> (B, T): log p(word t) at every step
        memory = encode_embeddings(model, tok_emb, src_mask)
        logits = model.decode(tgt_in.expand(len(tok_emb), -1), memory, src_mask)[0]  # (B, T, V)
        return F.log_softmax(logits, -1).gather(2, words[None, :, None].expand(len(tok_emb), -1, 1))[..., 0]

    emb = model.src_emb(src)[0].detach()
    f, f0, gxi, ig = _gradients(forward, emb, torch.zeros_like(emb), steps, len(out_ids))
    targets = []
    for t in range(len(out_ids)):
        scores = {"attention": cross[t], "rollout": cross[t] @ enc_roll, "norm": last["norm"][t].numpy(),
                  "value_zeroing": last["value_zeroing"][t].numpy(), "grad_input": gxi[t].numpy(),
                  "integrated_gradients": ig[t].numpy()}
        targets.append(Target(t, _pieces(tok, [out_ids[t]])[0], float(logp[t, out_ids[t]].exp()),
                              {m: np.asarray(v, dtype=float).tolist() for m, v in scores.items()},
                              float(ig[t].sum()), float(f[t] - f0[t])))
    return Attribution(name, "translation", _pieces(tok, src_ids), _pieces(tok, out_ids), targets, steps,
                       list(notices))


def translation_attribution(text: str, steps: int = STEPS, name: str = TRANSLATOR,
                            reg: Registry | None = None) -> Attribution:
    """The six measures for every word of the Transformer's greedy translation of `text`."""
    ckpt = (reg or registry()).get(name, "transformer")
    steps = check_int(steps, "Integrated-gradients steps", 1, MAX_STEPS)
    text, _, ids, notices = encode_source(ckpt, text)
    model, tok, sp = ckpt.model, ckpt.tokenizer, special_ids(ckpt.tokenizer)
    src = ids + [sp["eos"]]
    with torch.inference_mode():
        out = greedy(model, torch.tensor([src]), sp["bos"], sp["eos"], min(ckpt.config.max_len - 2, 2 * len(src) + 10))[0]
    if not out:
        raise UserError("The model translated this sentence to nothing; try a longer one.", "attr_empty")
    return transformer_attribution(model, tok, src, out, steps, name, notices)
