"""explorer/compute/inside.py: every number of "inside one layer", recomputed from the weights in float64, against the
model's own forward (its modules, its Trace) at 1e-5, for the Transformer's encoder and decoder (masked self and
Encoder-Decoder Attention) and BERT (pre-LN, QK-LayerNorm); and a post-LN/pre-LN block on random weights."""
import html
import math

import numpy as np
import pytest
import torch

from explorer.compute import inside
from explorer.compute.inference import ASSETS, UserError, encode_bert, registry, translate
from models.attention import MultiHeadAttention
from models.bert import Bert, BertConfig
from models.transformer import Transformer, TransformerConfig

have_assets = pytest.mark.skipif(not all((ASSETS / n / "config.json").is_file() for n in ("bert", "transformer-en-fr")),
                                 reason="shipped checkpoints under assets/ are missing")
TOL = 1e-5
TEXT = "The animal didn't cross the street because it was too tired."


@pytest.fixture(scope="module")
def reg():
    return registry()


def close(a, b, tol=TOL):
    """a (float64, from the weights) == b (the model's float32 forward) within tol, absolute and relative
    (np.allclose's rule: float32 carries ~7 digits, and hidden states reach |x| ~ 50)."""
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    assert a.shape == b.shape, (a.shape, b.shape)
    assert np.array_equal(np.isinf(a), np.isinf(b))
    fin = np.isfinite(a)
    err = np.abs(a[fin] - b[fin]) - tol * np.abs(b[fin])
    assert err.max(initial=0) <= tol, err.max()


def check_attention_step(s, mha, x_read, kv, mask, trace_probs=None, trace_scores=None, token=0):
    """One AttentionStep against the model's MultiHeadAttention module on the same inputs (float32)."""
    with torch.inference_mode():
        q, k, v = mha.heads(x_read[None], kv[None])  # (1, h, T, d_k), after QK-LayerNorm if any
        a = mha(x_read[None], kv[None], mask, need_weights=True)
    h, d_k = s.q.shape
    assert h * d_k == x_read.shape[-1] and d_k == mha.d_head  # d_k = d_model / h
    close(s.q, q[0, :, token])
    close(s.k, k[0])
    close(s.v, v[0])
    close(s.scores, a.scores[0, :, token])
    close(s.probs, a.probs[0, :, token])
    assert np.allclose(s.probs.sum(-1), 1.0)
    close(s.head_out, (a.probs[0, :, token, :, None] * v[0]).sum(1))  # weights x V per head
    close(s.out, a.out[0, token])  # concat W^O + b^O
    close(s.head_contrib.sum(0) + mha.out_proj.bias.detach().double().numpy(), s.out)  # heads' slices through W^O add up
    close(s.head_norm, np.linalg.norm(s.head_contrib, axis=-1))
    close(s.residual, s.x + s.out, 1e-12)
    if trace_probs is not None:
        close(s.probs, trace_probs)
    if trace_scores is not None:
        close(s.scores, trace_scores)


@have_assets
@pytest.mark.parametrize("layer", [0, 1, 2])
def test_transformer_encoder_layer_equals_the_models_forward(reg, layer):
    ckpt = reg.get("transformer-en-fr")
    model = ckpt.model
    rec = translate("transformer-en-fr", TEXT, reg=reg)
    src = torch.tensor([[ckpt.tokenizer.token_to_id(t) for t in rec.source_tokens]])
    enc, memory, _ = inside.transformer_states(model, src)
    with torch.inference_mode():  # the stack's own output
        close(model.encode(src)[0][0], enc[-1][0])
    for token in (0, 3, len(rec.source_tokens) - 1):
        r = inside.inside_layer("transformer-en-fr", TEXT, layer=layer, token=token, reg=reg)
        assert r.tokens == rec.source_tokens and not r.pre_ln
        close(r.x, enc[layer][0, token])
        close(r.next_input, enc[layer + 1][0, token])  # the next layer's input is the model's hidden state
        close(r.next_inputs, enc[layer + 1][0])
        att, ffn = r.steps
        x = enc[layer][0]
        mask = torch.ones(1, 1, 1, x.shape[0], dtype=torch.bool)
        check_attention_step(att, model.encoder[layer].self_attn, x, x, mask, rec.trace.enc_self[layer, :, token],
                             token=token)
        sub1, sub2 = model.encoder[layer].sub1, model.encoder[layer].sub2
        with torch.inference_mode():
            close(att.result, sub1.norm(torch.tensor(att.residual, dtype=torch.float32)))  # post-LN: LN(x + attn)
            close(ffn.out, model.encoder[layer].ffn(torch.tensor(ffn.read, dtype=torch.float32)))
            close(ffn.result, sub2.norm(torch.tensor(ffn.residual, dtype=torch.float32)))
        assert (ffn.hidden >= 0).all() and np.allclose(ffn.hidden, np.maximum(ffn.hidden_pre, 0))  # ReLU


@have_assets
@pytest.mark.parametrize("layer", [0, 2])
def test_transformer_decoder_layer_masked_self_and_cross_equal_the_trace(reg, layer):
    ckpt = reg.get("transformer-en-fr")
    model, tok = ckpt.model, ckpt.tokenizer
    rec = translate("transformer-en-fr", TEXT, reg=reg)
    src = torch.tensor([[tok.token_to_id(t) for t in rec.source_tokens]])
    tgt_in = torch.tensor([[tok.token_to_id(t) for t in rec.decoder_input_tokens]])
    _, memory, dec = inside.transformer_states(model, src, tgt_in)
    with torch.inference_mode():  # the stack's output gives the model's logits
        close(model.out_proj(model.dec_norm(dec[-1]))[0], model(src, tgt_in).logits[0], 1e-4)
    T = tgt_in.size(1)
    for token in (0, T // 2, T - 1):
        r = inside.inside_layer("transformer-en-fr", TEXT, layer=layer, token=token, stack="decoder", reg=reg)
        assert r.tokens == rec.decoder_input_tokens and r.source_tokens == rec.source_tokens
        close(r.next_input, dec[layer + 1][0, token])
        close(r.next_inputs, dec[layer + 1][0])
        self_, cross, ffn = r.steps
        assert (self_.kind, cross.kind) == ("masked_self", "cross")
        assert np.isneginf(self_.scores[:, token + 1:]).all() and (self_.probs[:, token + 1:] == 0).all()
        y = dec[layer][0]
        layer_m = model.decoder[layer]
        causal = torch.ones(T, T, dtype=torch.bool).tril()[None, None]
        check_attention_step(self_, layer_m.self_attn, y, y, causal, rec.trace.dec_self[layer, :, token],
                             rec.trace.dec_self_scores[layer, :, token], token=token)
        y1 = torch.tensor(self_.result, dtype=torch.float32)[None]  # the stream after the first sublayer
        nomask = torch.ones(1, 1, 1, memory.shape[1], dtype=torch.bool)
        check_attention_step(cross, layer_m.cross_attn, y1, memory[0], nomask, rec.trace.cross[layer, :, token])
        assert cross.key_tokens == rec.source_tokens


@have_assets
@pytest.mark.parametrize("layer", [0, 5, 11])
def test_bert_layer_pre_ln_with_qk_norm_equals_the_models_forward(reg, layer):
    ckpt = reg.get("bert")
    model, c = ckpt.model, ckpt.config
    assert c.pre_ln and c.qk_norm  # the shipped BERT: the case this test is for
    rec = encode_bert(TEXT, reg=reg)
    ids = torch.tensor([[ckpt.tokenizer.token_to_id(t) for t in rec.tokens]])
    xs = inside.bert_states(model, ids, torch.tensor([rec.segments]))
    for token in (0, 4, len(rec.tokens) - 1):
        r = inside.inside_layer("bert", TEXT, layer=layer, token=token, reg=reg)
        assert r.pre_ln and r.tokens == rec.tokens
        close(r.next_input, xs[layer + 1][0, token])
        att, ffn = r.steps
        assert att.qk_norm
        blk = model.layers[layer]
        with torch.inference_mode():
            read = blk.attn_norm(xs[layer][0])  # pre-LN: attention reads LN(x)
        close(att.read, read[token])
        T = read.shape[0]
        check_attention_step(att, blk.attn, read, read, torch.ones(1, 1, 1, T, dtype=torch.bool),
                             rec.trace.enc_self[layer, :, token], token=token)
        # the normalised q is LayerNorm of the raw one, each head over d_k, with the model's q_norm weights
        qn = blk.attn.q_norm
        raw = torch.tensor(att.q_raw, dtype=torch.float32)
        with torch.inference_mode():
            close(att.q, qn(raw))
        assert not np.allclose(att.q, att.q_raw)
        close(att.result, att.x + att.out, 1e-12)  # pre-LN: no LayerNorm after the residual
        with torch.inference_mode():
            close(ffn.out, blk.ff(blk.ff_norm(torch.tensor(ffn.x, dtype=torch.float32))))
        if layer == c.n_layers - 1:
            close(r.final, rec.hidden[token])  # the final LayerNorm gives BERT's output vectors
        else:
            assert r.final is None


def _random_transformer(pre_ln):
    torch.manual_seed(1)
    c = TransformerConfig(src_vocab_size=40, tgt_vocab_size=40, d_model=16, n_heads=4, n_layers=2, d_ff=24,
                          dropout=0.0, max_len=20, pre_ln=pre_ln)
    m = Transformer(c).eval()
    with torch.no_grad():  # LayerNorm gains and biases away from 1 and 0, so a mix-up of them shows
        for p in m.parameters():
            if p.dim() == 1:
                p.add_(torch.randn_like(p) * 0.3)
    return m


@pytest.mark.parametrize("pre_ln", [False, True])
def test_inside_block_on_a_random_transformer_both_orders(pre_ln):
    m = _random_transformer(pre_ln)
    src, tgt = torch.tensor([[5, 6, 7, 8, 3]]), torch.tensor([[2, 9, 10, 11]])
    enc, memory, dec = inside.transformer_states(m, src, tgt)
    with torch.inference_mode():
        out = m(src, tgt, need_weights=True)
    for layer in range(2):
        for token in range(4):
            b = inside.transformer_decoder_block(m.decoder[layer], pre_ln)
            y, steps, ys = inside.inside_block(b, dec[layer][0], token, list("abcd"), memory[0], list("vwxyz"))
            close(ys, dec[layer + 1][0])
            close(steps[0].probs, out.trace.dec_self[0, layer, :, token])
            close(steps[0].scores, out.trace.dec_self_scores[0, layer, :, token])
            close(steps[1].probs, out.trace.cross[0, layer, :, token])
            if pre_ln:
                close(steps[0].result, steps[0].x + steps[0].out, 1e-12)
            else:
                assert abs(steps[0].result.mean()) < 1 and not np.allclose(steps[0].result, steps[0].residual)
    with torch.inference_mode():
        close(inside._final(m.dec_norm, dec[-1][0].double().numpy()) if pre_ln else dec[-1][0],
              m.dec_norm(dec[-1][0]))


def test_a_gpt_style_block_from_its_weights():
    """A decoder-only block (pre-LN, masked self-attention, GPT-2's tanh GELU) described by weights alone."""
    torch.manual_seed(2)
    d, h, T = 12, 3, 5
    mha = MultiHeadAttention(d, h).eval()
    ln1, ln2 = torch.nn.LayerNorm(d), torch.nn.LayerNorm(d)
    w1, w2 = torch.nn.Linear(d, 4 * d), torch.nn.Linear(4 * d, d)
    block = inside.BlockWeights((inside.attention_weights("masked_self", mha, ln1),
                                 inside.ffn_weights(w1, w2, "gelu_tanh", ln2)), pre_ln=True)
    x = torch.randn(T, d)
    with torch.inference_mode():
        a = mha(ln1(x)[None], ln1(x)[None], torch.ones(T, T, dtype=torch.bool).tril(), need_weights=True)
        y = x + a.out[0]
        y = y + w2(torch.nn.functional.gelu(w1(ln2(y)), approximate="tanh"))
    for token in range(T):
        out, steps, outs = inside.inside_block(block, x, token, list("abcde"))
        close(outs, y)
        close(steps[0].probs, a.probs[0, :, token])


@have_assets
def test_user_errors_and_a_typed_target(reg):
    with pytest.raises(UserError):
        inside.inside_layer("bert", TEXT, layer=12, reg=reg)
    with pytest.raises(UserError):
        inside.inside_layer("bert", TEXT, stack="decoder", reg=reg)
    with pytest.raises(UserError):
        inside.inside_layer("transformer-en-fr", "I am a student.", token=99, reg=reg)
    with pytest.raises(UserError):
        inside.inside_layer("seq2seq-dot", "I am a student.", reg=reg)
    r = inside.inside_layer("transformer-en-fr", "I am a student.", layer=1, token=3, stack="decoder",
                            target="Je suis un étudiant.", reg=reg)
    assert r.tokens[:3] == ["<s>", "▁Je", "▁suis"]
    js = r.to_json()
    assert js["steps"][0]["type"] == "attention" and js["steps"][0]["scores"][0][-1] is None  # -inf -> null
    assert js["d_k"] * js["n_heads"] == js["d_model"]


def test_a_models_gpt_block_equals_its_forward():
    from models.gpt import GPT, GPTConfig
    torch.manual_seed(3)
    m = GPT(GPTConfig(vocab_size=50, max_len=16, d_model=16, n_layers=2, n_heads=4, d_ff=32, dropout=0.0)).eval()
    ids = torch.tensor([[5, 9, 11, 7, 30, 2]])
    xs = inside.gpt_states(m, ids)
    with torch.inference_mode():
        out = m(ids, need_weights=True)
        close(m.lm_head(m.ln_f(xs[-1]))[0], out.logits[0])  # the states are the model's own
    for layer in range(2):
        for token in (0, 3, 5):
            y, steps, ys = inside.inside_block(inside.gpt_block(m.blocks[layer]), xs[layer][0], token, list("abcdef"))
            close(ys, xs[layer + 1][0])
            close(steps[0].probs, out.trace.dec_self[0, layer, :, token])
            assert np.isneginf(steps[0].scores[:, token + 1:]).all()
    with torch.inference_mode():
        close(inside._final(m.ln_f, ys), m.ln_f(xs[-1])[0])


@pytest.mark.skipif(not (ASSETS / "gpt" / "config.json").is_file(), reason="no shipped GPT under assets/")
def test_the_shipped_gpt_layer_equals_its_forward(reg):
    ckpt = reg.get("gpt")
    model = ckpt.model
    for layer in (0, ckpt.config.n_layers - 1):
        r = inside.inside_layer("gpt", "the students opened their", layer=layer, token=3, reg=reg)
        assert r.stack == "decoder" and r.tokens[0] == "[CLS]" and r.pre_ln
        ids = torch.tensor([[ckpt.tokenizer.token_to_id(t) for t in r.tokens]])
        xs = inside.gpt_states(model, ids)
        with torch.inference_mode():
            trace = model(ids, need_weights=True).trace
        close(r.next_inputs, xs[layer + 1][0])
        close(r.steps[0].probs, trace.dec_self[0, layer, :, 3])
        assert (r.steps[0].probs[:, 4:] == 0).all()
    with torch.inference_mode():
        close(r.final, model.ln_f(xs[-1])[0, 3])  # the last layer: after ln_f, what the LM head reads


def check_layer_norm(ln, module, u, out):
    """A LayerNormStep: its mean and std are numpy's of the vector it normalises (std = sqrt(var + eps), var
    biased), the normalised vector has mean 0 and std ~ 1, (u - mean) / std * gamma + beta is the step's output,
    and gamma, beta, eps are the model's LayerNorm's."""
    close(ln.u, u, 1e-12)
    assert np.isclose(ln.mean, np.mean(u), rtol=0, atol=1e-12)
    assert np.isclose(ln.std, np.sqrt(np.var(u) + ln.eps), rtol=1e-12, atol=0)
    assert abs(ln.std - np.std(u)) <= ln.eps / np.std(u)  # sqrt(var + eps) - sqrt(var) < eps / (2 sqrt(var))
    close(ln.normalised, (u - np.mean(u)) / ln.std, 1e-12)
    assert abs(np.mean(ln.normalised)) < 1e-12 and abs(np.std(ln.normalised) - 1) < 1e-4
    close((u - ln.mean) / ln.std * ln.gamma + ln.beta, out, 1e-12)
    close(ln.out, out, 0)
    close(ln.gamma, module.weight.detach().double().numpy(), 0)
    close(ln.beta, module.bias.detach().double().numpy(), 0)
    assert ln.eps == module.eps
    with torch.inference_mode():  # and the model's own LayerNorm gives that output
        close(out, module(torch.tensor(u, dtype=torch.float32)))


@have_assets
def test_every_layer_norm_keeps_its_mean_and_std_post_ln(reg):
    """The Transformer (post-LN): each Add & Norm normalises x + sublayer(x) into the step's result."""
    model = reg.get("transformer-en-fr").model
    r = inside.inside_layer("transformer-en-fr", TEXT, layer=1, token=2, stack="decoder", reg=reg)
    layer = model.decoder[1]
    assert [i for i, _ in r.layer_norms] == [0, 1, 2] and r.final_ln is None
    for s, norm in zip(r.steps, (layer.sub1.norm, layer.sub2.norm, layer.sub3.norm)):
        check_layer_norm(s.ln, norm, s.residual, s.result)
    js = r.to_json()
    assert js["steps"][0]["ln"]["mean"] == r.steps[0].ln.mean and js["final_ln"] is None
    from explorer.views import inside as vi  # the view's table: numpy's numbers of the record's vectors
    table = vi.layer_norm_rows(r)
    want = [[np.mean(s.residual), np.sqrt(np.var(s.residual) + s.ln.eps), 0.0, np.std(s.ln.normalised),
             np.mean(s.result), np.std(s.result)] for s in r.steps]
    assert np.allclose(table[vi.LN_COLUMNS[1:]].to_numpy(), want, rtol=0, atol=1e-6)
    assert list(table["LayerNorm"]) == ["masked self-attention: Add & Norm", "Encoder-Decoder Attention: Add & Norm",
                                        "FFN: Add & Norm"]


@have_assets
def test_every_layer_norm_keeps_its_mean_and_std_pre_ln_and_final(reg):
    """BERT (pre-LN): each LayerNorm normalises x into what the sublayer reads; the last layer adds the final one."""
    ckpt = reg.get("bert")
    model = ckpt.model
    last = ckpt.config.n_layers - 1
    r = inside.inside_layer("bert", TEXT, layer=last, token=3, reg=reg)
    blk = model.layers[last]
    att, ffn = r.steps
    check_layer_norm(att.ln, blk.attn_norm, att.x, att.read)
    check_layer_norm(ffn.ln, blk.ff_norm, ffn.x, ffn.read)
    assert [i for i, _ in r.layer_norms] == [0, 1, None]
    check_layer_norm(r.final_ln, model.final_norm, r.next_input, r.final)
    assert len(r.to_json()["final_ln"]["gamma"]) == r.d_model


def test_the_layer_norm_parts_are_the_layer_norm():
    """NormWeights.parts and __call__ agree with nn.LayerNorm (a gain and bias away from 1 and 0)."""
    torch.manual_seed(4)
    ln = torch.nn.LayerNorm(7)
    with torch.no_grad():
        ln.weight.add_(torch.randn(7)), ln.bias.add_(torch.randn(7))
    w, x = inside.norm_weights(ln), torch.randn(3, 7, dtype=torch.float64)
    mu, sigma, hat = w.parts(x)
    close(mu[:, 0], x.mean(-1), 1e-12)
    close(sigma[:, 0], torch.sqrt(x.var(-1, unbiased=False) + ln.eps), 1e-12)
    close(hat * w.weight + w.bias, w(x), 0)
    with torch.inference_mode():
        close(w(x), ln(x.float()))


@have_assets
def test_the_drawn_k_and_v_are_the_records_and_the_models_projections(reg):
    """The view's Q, K, V figure draws, per head, the record's q, K and V, which are the model's own projections
    (check_attention_step compares them with MultiHeadAttention.heads), key rows in token order."""
    from explorer.views import inside as vi
    ckpt = reg.get("transformer-en-fr")
    model, tok = ckpt.model, ckpt.tokenizer
    v = vi.inside_view(TEXT, "transformer-en-fr", 2, 3, "decoder", "", "en")
    r = v.record
    ids = [torch.tensor([[tok.token_to_id(t) for t in toks]]) for toks in (r.source_tokens, r.tokens)]
    _, memory, dec = inside.transformer_states(model, *ids)
    h = r.n_heads
    for a, part in zip([s for s in r.steps if isinstance(s, inside.AttentionStep)], v.attention):
        mha = model.decoder[1].self_attn if a.kind == "masked_self" else model.decoder[1].cross_attn
        kv = dec[1][0] if a.kind == "masked_self" else memory[0]
        with torch.inference_mode():
            _, k, vv = mha.heads(kv[None], kv[None])  # (1, h, Tk, d_k)
        close(a.k, k[0])
        close(a.v, vv[0])
        fig = part.keys_values
        heat = [tr for tr in fig.data if tr.hoverinfo != "skip"]
        gray = [tr for tr in fig.data if tr.hoverinfo == "skip"]
        assert len(heat) == 3 * h
        for j in range(h):  # bands q, K, V; heads left to right in the scores figure's order
            assert np.array_equal(np.array(heat[j].z), a.q[j][None])
            assert np.array_equal(np.array(heat[h + j].z), a.k[j])
            assert np.array_equal(np.array(heat[2 * h + j].z), a.v[j])
            assert f"head {j + 1}" in heat[h + j].hovertemplate
        T = len(a.key_tokens)
        assert list(heat[h].y) == [f"{i}: {html.escape(t, quote=False)}" for i, t in enumerate(a.key_tokens)]
        if a.kind == "masked_self":  # the keys after the token are grayed over, in K and V of every head
            assert len(gray) == 2 * h
            shown = ~np.isnan(np.array(gray[0].z, dtype=float))
            assert shown.all(1).tolist() == [i > r.token_index for i in range(T)]
        else:
            assert not gray
