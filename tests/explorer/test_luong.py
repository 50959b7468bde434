"""explorer/compute/luong.py: Luong's four steps (and Bahdanau's order) recomputed from the weights, against the seq2seq
model's own `step` at 1e-5: scores, weights, context, the new state, h~_t and the vocabulary softmax."""
import math

import numpy as np
import pytest
import torch

from explorer.compute import luong
from explorer.compute.inference import ASSETS, UserError, registry, translate

MODELS = ["seq2seq-dot", "seq2seq-scaled_dot", "seq2seq-general", "seq2seq-additive"]
have_assets = pytest.mark.skipif(not all((ASSETS / n / "config.json").is_file() for n in MODELS + ["seq2seq-none"]),
                                 reason="shipped checkpoints under assets/ are missing")
TEXT = "I am a student."


@pytest.fixture(scope="module")
def reg():
    return registry()


def close(a, b, tol=1e-5):
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    assert a.shape == b.shape, (a.shape, b.shape)
    err = np.abs(a - b) - tol * np.abs(b)
    assert err.max(initial=0) <= tol, err.max()


@have_assets
@pytest.mark.parametrize("name", MODELS)
def test_four_steps_equal_the_models_step(reg, name):
    ckpt = reg.get(name)
    model, tok = ckpt.model, ckpt.tokenizer
    tr = translate(name, TEXT, reg=reg)
    src = torch.tensor([[tok.token_to_id(t) for t in tr.source_tokens]])
    ids = [tok.token_to_id(t) for t in tr.decoder_input_tokens]
    with torch.inference_mode():
        memory, state = model.start(src), None
        for t in range(len(ids)):
            prev = state
            logits, state, attn = model.step(memory, torch.tensor([ids[: t + 1]]), state)
            r = luong.four_steps(name, TEXT, step=t, top_k=3, reg=reg)
            assert r.source_tokens == tr.source_tokens and r.target_tokens == tr.target_tokens
            close(r.encoder_states, memory[0][0])  # given: h_i
            close(r.weights, attn[0])  # step 2: alpha_t is the model's attention ...
            close(r.weights, tr.trace.cross[0, 0, t])  # ... and the app's row
            assert r.weights.sum() == pytest.approx(1.0)
            e = np.exp(r.scores - r.scores.max())
            close(r.weights, e / e.sum(), 1e-12)  # step 1 -> 2: softmax of the raw scores
            close(r.context, r.weights @ r.encoder_states, 1e-12)  # step 3: a_t = sum alpha_t,i h_i
            close(r.probs, torch.softmax(logits[0].double(), -1))  # step 4: the vocabulary softmax
            assert r.probs.sum() == pytest.approx(1.0)
            close(r.state, state[0][0, -1])  # h_t (Luong) or s_t (Bahdanau): the model's new top state
            if r.score == "additive":
                assert r.query_name == "s_{t-1}"
                close(r.query, (prev[0] if prev else memory[2])[0, -1])  # the PREVIOUS state scores
                close(r.concat, np.concatenate([r.state, r.context, r.lstm_input[:-len(r.context)]]), 1e-12)
            else:
                assert r.query_name == "h_t"
                close(r.query, r.state, 1e-12)  # the CURRENT state scores
                close(r.attentional, state[2][0])  # h~_t is what input feeding carries to the next step
                close(r.concat, np.concatenate([r.context, r.state]), 1e-12)
            close(r.attentional, np.tanh(model.combine.weight.detach().double().numpy() @ r.concat
                                         + model.combine.bias.detach().double().numpy()), 1e-12)
            assert r.token == tr.target_tokens[t] and r.rank == 1 and r.top[0].token == r.token
            assert math.log(r.probability) == pytest.approx(tr.hypotheses[0].token_logprobs[t], abs=2e-4)


@have_assets
def test_four_steps_for_a_typed_target_and_errors(reg):
    r = luong.four_steps("seq2seq-general", TEXT, step=2, target="Je suis un étudiant.", reg=reg)
    assert r.forced and r.decoder_input_tokens[:3] == ["<s>", "▁Je", "▁suis"] and r.token == r.target_tokens[2]
    assert r.rank > 1  # "un" is not the model's word here
    assert r.to_json()["concat_name"] == "[a_t; h_t]"
    with pytest.raises(UserError):
        luong.four_steps("seq2seq-none", TEXT, reg=reg)
    with pytest.raises(UserError):
        luong.four_steps("seq2seq-dot", TEXT, step=99, reg=reg)
    with pytest.raises(UserError):
        luong.four_steps("transformer-en-fr", TEXT, reg=reg)


def test_the_earlier_name_is_the_same_function():
    assert luong.six_steps is luong.four_steps  # docs/api.md still imports six_steps
