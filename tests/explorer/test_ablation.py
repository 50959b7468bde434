"""Head ablation (explorer/compute/ablation.py, models' head_mask): a head switched off zeroes its slice of the concatenated
heads before W^O, and nothing else. Tiny random models for the invariants; the shipped ones for the records and
for docs/head-ablation.json, whose base numbers are recomputed here."""
import copy
import json
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
import torch

from explorer.compute import ablation
from explorer.figures import ablation as ablation_figures
from models.bert import Bert, BertConfig
from models.transformer import HeadMask, Transformer, TransformerConfig

ROOT = Path(__file__).resolve().parents[2]
TABLE = ROOT / "docs" / "head-ablation.json"
SHIPPED = all((ROOT / "assets" / n / "config.json").exists() for n in (ablation.BERT, ablation.TRANSLATOR))


def tiny_bert(pre_ln: bool) -> Bert:
    c = BertConfig(vocab_size=50, d_model=32, n_layers=3, n_heads=4, d_ff=40, max_len=32, dropout=0.0, pre_ln=pre_ln)
    return Bert(c).eval()


def tiny_transformer(pre_ln: bool) -> Transformer:
    c = TransformerConfig(src_vocab_size=30, tgt_vocab_size=30, d_model=32, n_heads=4, n_layers=2, d_ff=48,
                          dropout=0.0, max_len=32, pre_ln=pre_ln)
    return Transformer(c).eval()


def bert_batch():
    ids = torch.randint(5, 50, (3, 9))
    ids[2, 6:] = 0  # padding
    return ids


def tf_batch():
    src, tgt = torch.randint(4, 30, (3, 7)), torch.randint(4, 30, (3, 6))
    src[1, 5:], tgt[2, 4:] = 0, 0
    return src, tgt


# ----------------------------------------------------------------------------- ablating none


@pytest.mark.parametrize("pre_ln", [False, True])
@pytest.mark.parametrize("need_weights", [False, True])
def test_bert_all_ones_is_exactly_the_unmasked_model(pre_ln, need_weights):
    m, ids = tiny_bert(pre_ln), bert_batch()
    with torch.no_grad():
        plain = m(ids, need_weights=need_weights)
        ones = m(ids, need_weights=need_weights, head_mask=torch.ones(3, 4))
    assert torch.equal(plain.mlm_logits, ones.mlm_logits) and torch.equal(plain.nsp_logits, ones.nsp_logits)
    if need_weights:
        assert torch.equal(plain.trace.enc_self, ones.trace.enc_self)


@pytest.mark.parametrize("pre_ln", [False, True])
def test_transformer_all_ones_is_exactly_the_unmasked_model(pre_ln):
    m, (src, tgt) = tiny_transformer(pre_ln), tf_batch()
    ones = HeadMask(*(torch.ones(2, 4) for _ in range(3)))
    with torch.no_grad():
        assert torch.equal(m(src, tgt).logits, m(src, tgt, head_mask=ones).logits)
        assert torch.equal(m(src, tgt).logits, m(src, tgt, head_mask=HeadMask()).logits)


# ----------------------------------------------------------------------------- a whole layer off


def _zero_out_proj(attn) -> None:
    """The independent recomputation: a layer whose concatenated heads are 0 computes W^O 0 + b = b, exactly what
    it computes with W^O's weight zeroed and its bias kept."""
    with torch.no_grad():
        attn.out_proj.weight.zero_()


@pytest.mark.parametrize("pre_ln", [False, True])
@pytest.mark.parametrize("layer", [0, 2])
def test_bert_every_head_of_a_layer_off_is_that_layers_attention_zeroed(pre_ln, layer):
    m, ids = tiny_bert(pre_ln), bert_batch()
    mask = torch.ones(3, 4)
    mask[layer] = 0
    surgery = copy.deepcopy(m)
    _zero_out_proj(surgery.layers[layer].attn)
    with torch.no_grad():
        got, want, full = m(ids, head_mask=mask), surgery(ids), m(ids)
    torch.testing.assert_close(got.hidden, want.hidden, rtol=0, atol=1e-6)
    torch.testing.assert_close(got.mlm_logits, want.mlm_logits, rtol=0, atol=1e-5)
    assert not torch.allclose(got.hidden, full.hidden, atol=1e-3)  # and it did change something


@pytest.mark.parametrize("pre_ln", [False, True])
@pytest.mark.parametrize("kind,layer", [("enc_self", 0), ("enc_self", 1), ("dec_self", 0), ("cross", 1)])
def test_transformer_every_head_of_a_layer_off_is_that_layers_attention_zeroed(pre_ln, kind, layer):
    m, (src, tgt) = tiny_transformer(pre_ln), tf_batch()
    masks = {k: torch.ones(2, 4) for k in ablation.KINDS}
    masks[kind][layer] = 0
    surgery = copy.deepcopy(m)
    stack = surgery.encoder if kind == "enc_self" else surgery.decoder
    _zero_out_proj(getattr(stack[layer], "cross_attn" if kind == "cross" else "self_attn"))
    with torch.no_grad():
        got, want, full = m(src, tgt, head_mask=HeadMask(**masks)), surgery(src, tgt), m(src, tgt)
    torch.testing.assert_close(got.logits, want.logits, rtol=0, atol=1e-5)
    assert not torch.allclose(got.logits, full.logits, atol=1e-3)


# ----------------------------------------------------------------------------- nothing upstream changes


@pytest.mark.parametrize("pre_ln", [False, True])
def test_bert_a_masked_head_changes_nothing_upstream(pre_ln):
    m, ids = tiny_bert(pre_ln), bert_batch()
    mask = torch.ones(3, 4)
    mask[1, 2] = 0
    with torch.no_grad():
        full, off = m(ids, need_weights=True), m(ids, need_weights=True, head_mask=mask)
    # layers 0 and 1 attend exactly as before (layer 1's own weights too: the head attends, it only adds nothing)
    assert torch.equal(full.trace.enc_self[:, :2], off.trace.enc_self[:, :2])
    assert not torch.allclose(full.trace.enc_self[:, 2], off.trace.enc_self[:, 2], atol=1e-6)


@pytest.mark.parametrize("pre_ln", [False, True])
def test_transformer_a_masked_head_changes_nothing_upstream(pre_ln):
    m, (src, tgt) = tiny_transformer(pre_ln), tf_batch()
    with torch.no_grad():
        full = m(src, tgt, need_weights=True)
        dec = m(src, tgt, need_weights=True, head_mask=ablation.transformer_head_mask(m.config, [("cross", 0, 1)]))
        enc = m(src, tgt, need_weights=True, head_mask=ablation.transformer_head_mask(m.config, [("enc_self", 1, 3)]))
    # a decoder head: the encoder is untouched, and so is the decoder up to that layer's cross attention
    assert torch.equal(full.trace.enc_self, dec.trace.enc_self)
    assert torch.equal(full.trace.dec_self[:, :1], dec.trace.dec_self[:, :1])
    assert torch.equal(full.trace.cross[:, :1], dec.trace.cross[:, :1])
    assert not torch.allclose(full.trace.dec_self[:, 1], dec.trace.dec_self[:, 1], atol=1e-6)
    # an encoder head of the last encoder layer: every encoder attention weight is the same, the memory is not
    assert torch.equal(full.trace.enc_self, enc.trace.enc_self)
    assert not torch.allclose(full.trace.cross, enc.trace.cross, atol=1e-6)


def test_a_per_example_mask_is_each_example_run_with_its_own():
    m, ids = tiny_bert(True), bert_batch()
    masks = torch.ones(3, 3, 4)
    masks[0, 0, 1] = masks[1, 2, :] = 0  # row 2 keeps every head
    with torch.no_grad():
        batched = m(ids, head_mask=masks).hidden
        for b in range(3):
            alone = m(ids[b:b + 1], attention_mask=(ids[b:b + 1] != 0), head_mask=masks[b]).hidden
            torch.testing.assert_close(batched[b:b + 1], alone, rtol=0, atol=1e-5)


def test_decoding_with_a_mask_matches_the_masked_forward():
    """The cached decoder step (Transformer.step) takes the same mask as the teacher-forced pass."""
    m, (src, _) = tiny_transformer(False), tf_batch()
    mask = ablation.transformer_head_mask(m.config, [("dec_self", 1, 0), ("cross", 0, 2), ("enc_self", 0, 3)])
    model = ablation._Ablated(m, mask)
    with torch.no_grad():
        memory, state = model.start(src[:1]), None
        prefix = torch.tensor([[1]])
        for _ in range(4):
            logits, state, _ = model.step(memory, prefix, state)
            prefix = torch.cat([prefix, logits.argmax(-1)[:, None]], 1)
        full = m(src[:1], prefix[:, :-1], head_mask=mask).logits[0].argmax(-1)
    assert full.tolist() == prefix[0, 1:].tolist()


def test_head_masks_name_heads_and_refuse_bad_ones():
    assert ablation.bert_head_mask(2, 3, [(1, 2)]).tolist() == [[1, 1, 1], [1, 1, 0]]
    c = tiny_transformer(False).config
    hm = ablation.transformer_head_mask(c, [("cross", 1, 0)])
    assert hm.cross[1, 0] == 0 and hm.cross.sum() == 7 and hm.enc_self.sum() == hm.dec_self.sum() == 8
    for bad in ([("cross", 2, 0)], [("cross", 0, 4)], [("ffn", 0, 0)]):
        with pytest.raises(ValueError):
            ablation.transformer_head_mask(c, bad)


# ----------------------------------------------------------------------------- the fixed sentences, the table


def test_fixed_sets_have_about_a_hundred_distinct_items():
    assert len(ablation.CLOZE) == len(ablation.EN_FR) == 100
    assert all(t.count("[MASK]") == 1 for t, _ in ablation.CLOZE)
    assert len({t for t, _ in ablation.CLOZE}) == 100 and len({e for e, _ in ablation.EN_FR}) == 100


@pytest.mark.skipif(not SHIPPED, reason="needs the shipped BERT's tokenizer")
def test_importance_on_a_tiny_model_reads_every_head():
    tok = _registry().get(ablation.BERT).tokenizer
    config = BertConfig(vocab_size=tok.get_vocab_size(), d_model=16, n_layers=2, n_heads=2, d_ff=20, max_len=64,
                        dropout=0.0)
    ckpt = SimpleNamespace(tokenizer=tok, config=config, model=Bert(config).eval())
    reg = SimpleNamespace(get=lambda name, kind=None, weights=True: ckpt)
    imp = ablation.bert_importance("tiny", reg, items=ablation.CLOZE[:8], fractions=(0.0, 0.5, 1.0))
    assert np.asarray(imp.delta["enc_self"]).shape == (2, 2) and imp.n == 8
    assert [p["heads"] for p in imp.pruning] == [0, 2, 4]
    assert imp.pruning[0]["metric"] == pytest.approx(imp.base, abs=1e-5)
    everything_off = ablation.bert_scores(ckpt.model, ablation.cloze_batch(ckpt, ablation.CLOZE[:8]),
                                          torch.zeros(2, 2))["logprob"]
    assert imp.pruning[-1]["metric"] == pytest.approx(everything_off, abs=1e-5)


_REG = {}


def _registry():
    if "reg" not in _REG:
        from explorer.compute.inference import load_registry
        _REG["reg"] = load_registry(names={ablation.BERT, ablation.TRANSLATOR})
    return _REG["reg"]


@pytest.mark.skipif(not SHIPPED, reason="needs assets/bert and assets/transformer-en-fr")
def test_every_cloze_answer_is_one_wordpiece_and_every_pair_encodes():
    reg = _registry()
    ids, pos, ans = ablation.cloze_batch(reg.get(ablation.BERT))
    assert ids.shape[0] == pos.shape[0] == ans.shape[0] == 100
    src, tgt_in, tgt_out = ablation.pairs_batch(reg.get(ablation.TRANSLATOR))
    assert src.shape[0] == 100 and (tgt_in[:, 0] == 2).all()  # <s>
    real = tgt_in[:, 1:] != 0  # teacher forcing: the input is the output shifted right by one
    assert torch.equal(tgt_in[:, 1:][real], tgt_out[:, :-1][real])
    assert ((tgt_out == 3).sum(1) == 1).all()  # one </s> per reference


@pytest.mark.skipif(not SHIPPED, reason="needs assets/bert and assets/transformer-en-fr")
def test_no_heads_off_changes_no_prediction():
    reg = _registry()
    r = ablation.fill_mask_ablated("the cat sat on the [MASK].", [], reg=reg)
    assert r.masks[0].before == r.masks[0].after and r.heads_off == []
    t = ablation.translate_ablated("I am a student.", [], reg=reg)
    assert t.before == t.after and t.before_logprob[0] == t.before_logprob[1]
    json.dumps(r.to_json()), json.dumps(t.to_json())


@pytest.mark.skipif(not SHIPPED, reason="needs assets/bert and assets/transformer-en-fr")
def test_a_whole_layer_of_cross_attention_off_changes_the_translation_record():
    reg = _registry()
    t = ablation.translate_ablated("I am a student.", [("cross", l, h) for l in range(3) for h in range(8)], reg=reg)
    # without any cross attention the decoder cannot read the source: the ablated model prefers its own output
    assert t.after_logprob[1] >= t.before_logprob[1] and t.before_logprob[0] >= t.after_logprob[0]
    assert t.before_logprob[0] > t.before_logprob[1]


@pytest.mark.skipif(not TABLE.exists() or not SHIPPED, reason="docs/head-ablation.json not written")
def test_the_table_loads_and_its_base_numbers_are_the_models():
    tables = json.loads(TABLE.read_text(encoding="utf-8"))
    reg = _registry()
    b, t = tables["bert"], tables["transformer"]
    bc, tc = reg.get(ablation.BERT).config, reg.get(ablation.TRANSLATOR).config
    assert np.asarray(b["delta"]["enc_self"]).shape == (bc.n_layers, bc.n_heads)
    assert set(t["delta"]) == set(ablation.KINDS)
    assert all(np.asarray(g).shape == (tc.n_layers, tc.n_heads) for g in t["delta"].values())
    assert [p["fraction"] for p in b["pruning"]] == list(ablation.PRUNE_FRACTIONS)
    base = ablation.bert_scores(reg.get(ablation.BERT).model, ablation.cloze_batch(reg.get(ablation.BERT)))
    assert base["logprob"] == pytest.approx(b["base"], abs=1e-3)
    assert base["top1"] == pytest.approx(b["extra"]["top1"]["base"], abs=1e-6)
    tb = ablation.transformer_scores(reg.get(ablation.TRANSLATOR).model, ablation.pairs_batch(reg.get(ablation.TRANSLATOR)))
    assert tb["logprob"] == pytest.approx(t["base"], abs=1e-3)
    # the page is what the numbers render to
    from scripts import ablation_table
    assert ablation_table.render(tables) == (ROOT / "docs" / "head-ablation.md").read_text(encoding="utf-8")


# ----------------------------------------------------------------------------- figures


def test_figures_on_synthetic_arrays():
    grid = np.array([[0.0, -0.3], [0.1, -0.02], [0.0, 0.0]])
    fig = ablation_figures.importance_grid(grid, "t")
    assert fig.data[0].zmin == -0.3 and fig.data[0].zmax == 0.3
    assert ablation_figures.importance_grid(np.zeros((2, 2)), "t").data[0].zmax == 1.0
    with pytest.raises(ValueError):
        ablation_figures.importance_grid(np.zeros(3), "t")
    curve = ablation_figures.pruning_curve([0, 0.5, 1], [-1.0, -1.5, -6.0], "t")
    assert list(curve.data[0].y) == [-1.0, -1.5, -6.0]
    with pytest.raises(ValueError):
        ablation_figures.pruning_curve([0, 1], [1.0], "t")
    bars = ablation_figures.before_after_bars([("a", 0.5), ("b", 0.2)], [("b", 0.4), ("c", 0.1)], "t")
    assert list(bars.data[0].y) == ["a", "b", "c"] and list(bars.data[0].x) == [0.5, 0.2, 0.0]
    assert list(bars.data[1].x) == [0.0, 0.4, 0.1]
