"""Each output token's probability in the translation record (so the UI can say when the model
is unsure),
recomputed from the model's own logits step by step, greedy and beam; and its shaded HTML."""
from pathlib import Path

import pytest
import torch

from explorer.figures.confidence import UNSURE, shade, shaded_translation, word_probabilities
from explorer.i18n import t
from explorer.compute.inference import load_registry, translate
from models.tokenizers import special_ids

ASSETS = Path(__file__).resolve().parents[2] / "assets"


@pytest.mark.parametrize("name,beam,chosen", [("seq2seq-dot", 1, 0), ("seq2seq-additive", 3, 1),
                                              ("transformer-en-fr", 1, 0), ("transformer-en-fr", 4, 2)])
def test_token_probs_are_the_softmax_of_the_logits_at_each_step(name, beam, chosen):
    if not (ASSETS / name / "config.json").is_file():
        pytest.skip(f"assets/{name} missing")
    reg = load_registry(ASSETS, names=[name])
    r = translate(name, "The cat is sleeping on my bed.", beam=beam, chosen=chosen, reg=reg)
    ckpt = reg.get(name)
    tok, model, sp = ckpt.tokenizer, ckpt.model, special_ids(ckpt.tokenizer)
    assert len(r.token_probs) == len(r.target_tokens)
    src = torch.tensor([[tok.token_to_id(p) for p in r.source_tokens]])
    ids = [tok.token_to_id(p) for p in r.target_tokens]
    memory, state, prefix = model.start(src), None, torch.tensor([[sp["bos"]]])
    with torch.no_grad():
        for step, (token_id, got) in enumerate(zip(ids, r.token_probs)):
            logits, state, _ = model.step(memory, prefix, state)  # the decoder's own step, not the forward
            want = torch.softmax(logits[0].double(), -1)[token_id].item()
            assert got is not None and abs(got - want) < 1e-5, (step, r.target_tokens[step])
            prefix = torch.cat([prefix, torch.tensor([[token_id]])], 1)
    hyp = r.hypotheses[r.chosen]  # beam search's per-token log-probabilities agree
    assert all(abs(torch.tensor(p).log().item() - lp) < 1e-3 for p, lp in zip(r.token_probs, hyp.token_logprobs))
    out = r.to_json(decimals=4)
    assert out["token_probs"] == [round(p, 4) for p in r.token_probs]


def test_words_multiply_their_pieces_and_skip_the_end():
    words = word_probabilities(["▁Je", "▁suis", "▁étudi", "ant", ".", "</s>"], [0.9, 0.5, 0.4, 0.5, 0.8, 0.99])
    assert [w for w, _ in words] == ["Je", "suis", "étudiant."]
    assert abs(words[2][1] - 0.4 * 0.5 * 0.8) < 1e-12
    assert word_probabilities(["▁a", "…"], [0.5, None]) == [("a", 0.5)]  # a step cut by the length limit


def test_shaded_html_is_escaped_and_darker_where_unsure():
    html = shaded_translation(["▁<b>x</b>", "▁&", "</s>"], [0.2, 0.95, 0.9], "en")
    assert "<b>" not in html and "&lt;b&gt;x&lt;/b&gt;" in html and "&amp;" in html
    assert f"rgba(230, 97, 0, {shade(0.2)})" in html and f"rgba(230, 97, 0, {shade(0.95)})" in html
    assert shade(0.2) > shade(0.95) > shade(1.0) == 0
    assert 'title="probability 0.200"' in html
    ko = shaded_translation(["▁x"], [0.5], "ko")
    assert t("conf.legend", "ko", u=UNSURE) in ko and 'lang="ko"' in ko
