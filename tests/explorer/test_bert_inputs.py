"""explorer/compute/bert_inputs.py: BERT's input embeddings against the model's own Embeddings module, the position tables'
cosines, and the 80/10/10 rule as training applies it, with the predictions of the model's own forward."""
import random

import numpy as np
import pytest
import torch

from explorer.compute import bert_inputs as bi
from explorer.compute.inference import ASSETS, UserError, encode_bert, registry
from models.tokenizers import special_ids
from models.training.data import mask_tokens
from models.transformer import sinusoidal_positions

have_assets = pytest.mark.skipif(not (ASSETS / "bert" / "config.json").is_file(),
                                 reason="shipped checkpoints under assets/ are missing")


@pytest.fixture(scope="module")
def reg():
    return registry()


@have_assets
def test_inputs_are_the_sum_the_model_normalises(reg):
    r = bi.bert_inputs("The cat sat on the mat.", "It was warm.", positions=32, reg=reg)
    enc = encode_bert("The cat sat on the mat.", "It was warm.", reg=reg)
    assert r.tokens == enc.tokens and r.segments == enc.segments
    assert np.allclose(r.token_emb, enc.static, atol=1e-6)  # the static lookup the app already shows
    assert np.allclose(r.total, r.token_emb + r.segment_emb + r.position_emb)
    model = reg.get("bert").model
    ids = torch.tensor([[reg.get("bert").tokenizer.token_to_id(t) for t in enc.tokens]])
    with torch.inference_mode():
        first_input, _ = model.embeddings(ids, torch.tensor([enc.segments]))  # the model's own forward
    assert np.allclose(r.normed, first_input[0].double().numpy(), atol=1e-5, rtol=1e-5)
    seg = np.asarray(enc.segments)
    assert np.allclose(r.segment_emb[seg == 1], r.segment_emb[seg == 1][0])  # one vector per segment
    assert not np.allclose(r.segment_emb[seg == 0][0], r.segment_emb[seg == 1][0])
    learned = model.embeddings.pos.weight[:32].detach().double().numpy()
    n = learned / np.linalg.norm(learned, axis=1, keepdims=True)
    assert np.allclose(r.learned_cos, n @ n.T)
    pe = sinusoidal_positions(32, 384).double().numpy()
    assert np.allclose(np.diag(r.sinusoid_cos), 1) and r.sinusoid_cos[3, 7] == pytest.approx(
        pe[3] @ pe[7] / np.linalg.norm(pe[3]) / np.linalg.norm(pe[7]))
    ours = r.sizes[-1]
    assert (ours["layers"], ours["d_model"], ours["heads"]) == (12, 384, 6)
    assert ours["parameters"] == reg.get("bert").metrics.get("parameters", ours["parameters"])
    assert [s["name"] for s in r.sizes[:2]] == ["BERT-base", "BERT-large"]


@have_assets
def test_masking_demo_is_the_training_rule_and_the_models_predictions(reg):
    text = "the quick brown fox jumps over the lazy dog near the river bank"
    r = bi.masking_demo(text, seed=3, prob=0.5, top_k=3, reg=reg)
    ckpt = reg.get("bert")
    tok, sp = ckpt.tokenizer, special_ids(ckpt.tokenizer)
    ids = torch.tensor([[tok.token_to_id(t) for t in r.tokens]])
    inputs, labels = mask_tokens(ids, sp, tok.get_vocab_size(), random.Random(3), 0.5)  # what training draws
    assert [m.index for m in r.chosen] == (labels[0] != -100).nonzero().flatten().tolist()
    assert r.inputs == [tok.id_to_token(i) for i in inputs[0].tolist()]
    assert r.chosen and all(r.tokens[m.index] == m.original and r.inputs[m.index] == m.shown for m in r.chosen)
    for m in r.chosen:
        assert (m.action == "mask") == (m.shown == "[MASK]")
        assert (m.action == "keep") == (m.shown == m.original)
    with torch.inference_mode():
        logits = ckpt.model(inputs, torch.zeros_like(inputs)).mlm_logits[0]  # every position, the plain forward
    for m in r.chosen:
        p = torch.softmax(logits[m.index].double(), -1)
        assert m.probability == pytest.approx(float(p[tok.token_to_id(m.original)]), abs=1e-5)
        assert m.top[0].probability == pytest.approx(float(p.max()), abs=1e-5)
        assert m.rank == int((p > p[tok.token_to_id(m.original)]).sum()) + 1
    assert bi.masking_demo(text, seed=3, prob=0.5, reg=reg).inputs == r.inputs  # seeded


@have_assets
def test_the_rule_is_80_10_10_over_many_draws(reg):
    text = " ".join(["the river bank was wide and the water was cold"] * 10)
    counts = {"mask": 0, "random": 0, "keep": 0}
    n_tokens = 0
    for seed in range(12):
        r = bi.masking_demo(text, seed=seed, prob=0.5, top_k=1, reg=reg)
        n_tokens += len(r.tokens) - 2
        for m in r.chosen:
            counts[m.action] += 1
    n = sum(counts.values())
    assert abs(n / n_tokens - 0.5) < 0.05  # about half chosen at prob=0.5 (n ~ 660)
    assert abs(counts["mask"] / n - 0.8) < 0.05 and abs(counts["random"] / n - 0.1) < 0.04
    assert abs(counts["keep"] / n - 0.1) < 0.04


@have_assets
def test_masking_errors(reg):
    for bad in (dict(prob=0), dict(prob=1.5), dict(seed=-1), dict(top_k=0)):
        with pytest.raises(UserError):
            bi.masking_demo("a b c", reg=reg, **bad)
    with pytest.raises(UserError):
        bi.bert_inputs("a b c", positions=10**6, reg=reg)
