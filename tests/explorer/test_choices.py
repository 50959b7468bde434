"""explorer/choices.py: next-word choices at every step and a typed target's probabilities, against decoding's own
numbers (beam search's per-token log-probabilities, the models' `step`), for both translation architectures."""
import math

import numpy as np
import pytest
import torch

from explorer import choices
from explorer.inference import ASSETS, UserError, registry, translate
from models.tokenizers import special_ids

MODELS = ["transformer-en-fr", "seq2seq-general", "seq2seq-additive"]
have_assets = pytest.mark.skipif(not all((ASSETS / n / "config.json").is_file() for n in MODELS),
                                 reason="shipped checkpoints under assets/ are missing")
TEXT = "The animal didn't cross the street because it was too tired."


@pytest.fixture(scope="module")
def reg():
    return registry()


@have_assets
@pytest.mark.parametrize("name", MODELS)
def test_greedy_choices_are_the_decoders_own_steps(reg, name):
    tr = translate(name, TEXT, reg=reg)
    r = choices.next_word_choices(name, TEXT, top_k=5, reg=reg)
    assert not r.forced and r.translation == tr.translation
    assert r.target_tokens == tr.target_tokens and r.decoder_input_tokens == tr.decoder_input_tokens
    hyp = tr.hypotheses[0]
    assert len(r.steps) == len(hyp.token_logprobs)
    for s, lp in zip(r.steps, hyp.token_logprobs):
        assert math.log(s.probability) == pytest.approx(lp, abs=2e-4)  # the record rounds to 4 decimals
        assert s.rank == 1 and s.top[0].token == s.token  # greedy takes the argmax
        probs = [c.probability for c in s.top]
        assert probs == sorted(probs, reverse=True) and sum(probs) <= 1 + 1e-6
    assert r.logprob == pytest.approx(hyp.logprob, abs=1e-3)
    if getattr(tr, "token_probs", None):  # the translation record's own per-token probabilities (explorer/confidence.py)
        assert [s.probability for s in r.steps] == pytest.approx(tr.token_probs, abs=1e-6)
    rows = r.attention_rows()
    assert rows.shape == (len(r.target_tokens), len(r.source_tokens)) and np.allclose(rows.sum(-1), 1)
    assert np.allclose(r.trace.cross, tr.trace.cross, atol=1e-6)  # the same pass as the app's attention


@have_assets
def test_a_beam_hypothesis_keeps_its_own_log_probs_and_ranks(reg):
    name = "transformer-en-fr"
    tr = translate(name, TEXT, beam=4, chosen=2, reg=reg)
    r = choices.next_word_choices(name, TEXT, beam=4, chosen=2, reg=reg)
    for s, lp in zip(r.steps, tr.hypotheses[2].token_logprobs):
        assert math.log(s.probability) == pytest.approx(lp, abs=2e-4)
        assert s.rank >= 1 and (s.rank == 1) == (s.top[0].token == s.token)


@have_assets
@pytest.mark.parametrize("name", MODELS)
def test_a_typed_target_is_scored_as_the_models_step_scores_it(reg, name):
    ckpt = reg.get(name)
    model, tok, sp = ckpt.model, ckpt.tokenizer, special_ids(ckpt.tokenizer)
    r = choices.next_word_choices(name, "I am a student.", target="Je suis un étudiant.", top_k=3, reg=reg)
    assert r.forced and r.target_tokens[-1] == "</s>" and r.decoder_input_tokens[0] == "<s>"
    src = torch.tensor([[tok.token_to_id(t) for t in r.source_tokens]])
    ids = [tok.token_to_id(t) for t in r.decoder_input_tokens]
    outs = ids[1:] + [sp["eos"]]
    with torch.inference_mode():  # the decoding interface, one step at a time (what beam search runs)
        memory, state, total = model.start(src), None, 0.0
        for t, y in enumerate(outs):
            logits, state, _ = model.step(memory, torch.tensor([ids[: t + 1]]), state)
            lp = torch.log_softmax(logits[0].double(), -1)
            assert r.steps[t].probability == pytest.approx(math.exp(lp[y]), abs=1e-5)
            assert r.steps[t].rank == int((lp > lp[y]).sum()) + 1
            assert r.steps[t].top[0].probability == pytest.approx(math.exp(lp.max()), abs=1e-5)
            total += float(lp[y])
    assert r.logprob == pytest.approx(total, abs=1e-4)
    assert r.perplexity == pytest.approx(math.exp(-total / len(outs)), rel=1e-4)
    assert any(s.rank > 1 for s in r.steps)  # "un" is not what the models say
    js = r.to_json()
    assert js["forced"] and len(js["steps"]) == len(r.target_tokens)


@have_assets
def test_target_errors(reg):
    with pytest.raises(UserError):
        choices.next_word_choices("transformer-en-fr", "I am a student.", target="</s>", reg=reg)
    with pytest.raises(UserError):
        choices.next_word_choices("bert", "I am a student.", reg=reg)
    with pytest.raises(UserError):
        choices.next_word_choices("transformer-en-fr", "I am a student.", top_k=0, reg=reg)
