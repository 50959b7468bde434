"""explorer/compute/choices.py: next-word choices at every step and a typed target's probabilities, against decoding's own
numbers (beam search's per-token log-probabilities, the models' `step`), for both translation architectures."""
import math

import numpy as np
import pytest
import torch

from explorer.compute import choices
from explorer.compute.inference import ASSETS, UserError, registry, translate
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
    if getattr(tr, "token_probs", None):  # the translation record's own per-token probabilities (explorer/figures/confidence.py)
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


def test_a_word_starts_at_a_mark_at_punctuation_and_after_a_french_elision():
    s = choices.starts_word
    assert s("▁rue", "la") and s(".", "fatigué") and s("il", "qu'") and s("animal", "L'") and s("x", "")
    assert not s("'", "qu") and not s("t", "didn'") and not s("al", "anim") and not s("s", "it'")
    assert s("</s>", "fatigué", {"</s>"}) and choices.word_text(["▁L", "'"]) == "L'" and choices.word_text(["▁"]) == "▁"


IT_FR = "L'animal n'a pas traversé la rue parce qu'il était trop fatigué."


def _teacher_forced(model, tok, src_tokens, ids):
    """log p of every next piece, one `step` at a time as decoding runs it: [(log_softmax (V,), state)]."""
    src = torch.tensor([[tok.token_to_id(t) for t in src_tokens]])
    memory, state, out = model.start(src), None, []
    for t in range(len(ids)):
        logits, state, _ = model.step(memory, torch.tensor([ids[: t + 1]]), state)
        out.append(torch.log_softmax(logits[0].double(), -1))
    return memory, out


@have_assets
@pytest.mark.parametrize("name", ["transformer-en-fr", "seq2seq-general"])
def test_whole_words_of_a_typed_target_are_products_of_its_own_pieces(reg, name):
    """The typed target read in the model's own tokenization, each word the product of its pieces' teacher-forced
    probabilities, recomputed here from the model's `step`."""
    ckpt = reg.get(name)
    model, tok, sp = ckpt.model, ckpt.tokenizer, special_ids(ckpt.tokenizer)
    r = choices.next_word_choices(name, TEXT, target=IT_FR, top_k=5, reg=reg)
    assert [p for w in r.words for p in w.pieces] == tok.encode(IT_FR, add_special_tokens=False).tokens + ["</s>"]
    words = [w.word for w in r.words]
    assert words[-1] == "</s>" and ("il" in words or "qu'il" in words)  # seq2seq's vocabulary has "▁qu'il"
    ids = [sp["bos"]] + [tok.token_to_id(p) for w in r.words for p in w.pieces][:-1]
    outs = ids[1:] + [sp["eos"]]
    with torch.inference_mode():
        _, lps = _teacher_forced(model, tok, r.source_tokens, ids)
    for w in r.words:
        n = len(w.pieces)
        assert w.probability == pytest.approx(math.exp(sum(float(lps[t][outs[t]]) for t in range(w.step, w.step + n))),
                                              abs=1e-5), w
        assert w.rank is None or 1 <= w.rank <= len(w.top)
        probs = [c.probability for c in w.top]
        assert probs == sorted(probs, reverse=True) and len(set(c.token for c in w.top)) == len(w.top)
    assert math.prod(w.probability for w in r.words) == pytest.approx(math.exp(r.logprob), rel=1e-4, abs=1e-6)
    js = r.to_json()
    assert [w["word"] for w in js["words"]] == [w.word for w in r.words]


@have_assets
def test_the_it_sentence_rival_words_follow_the_models_greedy_continuation(reg):
    """At the word after "qu'" the model weighs "il" against "elle"; every rival word listed there and at
    "animal" (three pieces) is recomputed: its first piece's probability times the greedy pieces after it."""
    name = "transformer-en-fr"
    ckpt = reg.get(name)
    model, tok, sp = ckpt.model, ckpt.tokenizer, special_ids(ckpt.tokenizer)
    r = choices.next_word_choices(name, TEXT, target=IT_FR, top_k=5, reg=reg)
    by_word = {w.word: w for w in r.words}
    il = by_word["il"]
    assert {"il", "elle"} <= {c.token for c in il.top}
    ids = [sp["bos"]] + [tok.token_to_id(p) for w in r.words for p in w.pieces][:-1]
    specials = {tok.id_to_token(i) for i in sp.values()}
    with torch.inference_mode():
        memory, lps = _teacher_forced(model, tok, r.source_tokens, ids)
        src = torch.tensor([[tok.token_to_id(t) for t in r.source_tokens]])
        for w in (il, by_word["animal"]):
            prev = choices.word_text(r.words[r.words.index(w) - 1].pieces)
            starts = [i for i in lps[w.step].argsort(descending=True).tolist()[:200]
                      if choices.starts_word(tok.id_to_token(i), prev, specials)]
            for c in w.top:
                best = 0.0
                for f in (f for f in starts if c.token.startswith(choices.word_text([tok.id_to_token(f)]))):
                    # the greedy word from this first piece, by the model's full forward pass (not `step`)
                    seq, p, word = ids[: w.step + 1] + [f], math.exp(float(lps[w.step][f])), [tok.id_to_token(f)]
                    for _ in range(choices.MAX_WORD_PIECES):
                        if word[-1] in specials:
                            break
                        lp = torch.log_softmax(model(src, torch.tensor([seq])).logits[0, -1].double(), -1)
                        b = int(lp.argmax())
                        if choices.starts_word(tok.id_to_token(b), choices.word_text(word), specials):
                            break
                        seq, p, word = seq + [b], p * math.exp(float(lp[b])), word + [tok.id_to_token(b)]
                    if choices.word_text(word) == c.token:
                        best = max(best, p)
                assert c.probability == pytest.approx(best, abs=1e-5), (w.word, c)
    assert il.probability == pytest.approx(math.exp(float(lps[il.step][tok.token_to_id("il")])), abs=1e-5)
    assert il.rank == 2 and il.top[0].token == "elle"  # the model would rather say the street was tired


@have_assets
def test_the_models_own_greedy_words_are_among_their_rivals_with_the_same_probability(reg):
    r = choices.next_word_choices("transformer-en-fr", TEXT, top_k=5, reg=reg)
    assert [p for w in r.words for p in w.pieces] == r.target_tokens
    for w in r.words:
        same = [c for c in w.top if c.token == w.word]
        assert same and same[0].probability == pytest.approx(w.probability, abs=2e-6), w
        assert w.probability == pytest.approx(math.prod(s.probability for s in r.steps[w.step:w.step + len(w.pieces)]),
                                              rel=1e-4)
