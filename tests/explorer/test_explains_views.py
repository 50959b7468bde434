"""explorer/views/ablation.py and explorer/views/alignment.py (with explorer/compute/alignment.py and the figures
explorer/figures/ablation.py, explorer/figures/alignment.py): the heads a visitor types, the ablation's
before/after against the model run with that head_mask directly, one pair's AER against explorer/compute/aer.py's own
functions, the redraw from a record with no model call, and the shipped tables against docs/."""
import json
import re
from pathlib import Path

import numpy as np
import pytest
import torch

from explorer.compute import ablation, aer
from explorer.compute import alignment as al
from explorer.compute.inference import UserError
from explorer.figures import alignment as alf
from explorer.figures import ablation as abf
from explorer.views import ablation as va
from explorer.views import alignment as vl

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = (ROOT / "assets" / "bert" / "config.json").is_file() and (ROOT / "assets" / "transformer-en-fr").is_dir()
_REG = {}


def _registry():
    if "reg" not in _REG:
        from explorer.compute.inference import load_registry
        _REG["reg"] = load_registry(names={ablation.BERT, ablation.TRANSLATOR})
    return _REG["reg"]


# ----------------------------------------------------------------------------- typed heads


def test_heads_are_parsed_one_based_with_whole_layers_and_kinds():
    bert = va.shapes_of("fill-mask")
    assert bert == {"enc_self": (12, 6)}
    assert va.parse_heads("L3H5, l5h6", "fill-mask", bert) == [("enc_self", 2, 4), ("enc_self", 4, 5)]
    assert va.parse_heads("L1", "fill-mask", bert) == [("enc_self", 0, h) for h in range(6)]
    tr = va.shapes_of("translation")
    got = va.parse_heads("cross L2H6; enc L1H1, dec:L3", "translation", tr)
    assert got == sorted([("cross", 1, 5), ("enc_self", 0, 0)] + [("dec_self", 2, h) for h in range(8)])
    assert set(va.heads_text(got, tr).split(", ")) == {"enc L1H1", "dec L3", "cross L2H6"}
    assert va.heads_text([(4, h) for h in range(6)] + [(0, 1)], bert) == "L5, L1H2"


@pytest.mark.parametrize("text,key", [("L13H1", "heads_range"), ("L3H7", "heads_range"), ("head 3", "bad_heads"),
                                      ("cross L1H1", "bad_heads"), ("", "no_heads"), (" , ", "no_heads")])
def test_bad_heads_say_what_to_type(text, key):
    with pytest.raises(UserError) as e:
        va.parse_heads(text, "fill-mask", va.shapes_of("fill-mask"))
    assert e.value.key == key


# ----------------------------------------------------------------------------- figures on synthetic arrays


def test_head_grid_marks_the_heads_off_on_a_symmetric_scale():
    d = np.array([[-0.2, 0.1], [0.05, 0.0], [0.0, -0.01]])
    fig = abf.importance_grid(d, "t", rows=["enc 1", "enc 2", "cross 1"], off=[(2, 1), (0, 0)])
    heat, marks = fig.data
    assert heat.zmin == -0.2 and heat.zmax == 0.2
    assert list(marks.x) == [0, 1] and list(marks.y) == [0, 2]
    with pytest.raises(ValueError):
        abf.importance_grid(d, "t", rows=["1", "2"])


def test_alignment_map_draws_gold_squares_and_link_dots():
    att = np.array([[0.7, 0.2], [0.1, 0.8], [0.5, 0.4]])
    fig = alf.alignment_map(att, ["a", "b"], ["x", "y", "z"], {(0, 0), (1, 1), (0, 2)}, {(0, 0), (1, 2)}, "t")
    _, gold, links = fig.data
    assert sorted(zip(gold.x, gold.y)) == [(0, 0), (1, 2)] and gold.marker.symbol == "square-open"
    assert sorted(zip(links.x, links.y)) == [(0, 0), (0, 2), (1, 1)]
    assert len(alf.alignment_map(att, ["a", "b"], ["x", "y", "z"], set(), None, "t").data) == 2  # no gold: no squares
    with pytest.raises(ValueError):
        alf.alignment_map(att, ["a"], ["x", "y", "z"], set(), None, "t")


def test_typed_links_are_read_as_the_gold_files_write_them():
    assert al.parse_links("0-0 2-1, 1-1", 3, 2) == [(0, 0), (1, 1), (2, 1)]
    for bad, key in (("0:1", "bad_link"), ("3-0", "link_past_end"), ("0-2", "link_past_end")):
        with pytest.raises(UserError) as e:
            al.parse_links(bad, 3, 2)
        assert e.value.key == key


# ----------------------------------------------------------------------------- the shipped tables


def test_the_shipped_importance_table_is_docs_table():
    assert va.table() == json.loads((ROOT / "docs" / "head-ablation.json").read_text(encoding="utf-8"))


def _md_rows(text: str, header: str) -> list[list[str]]:
    lines = text.splitlines()
    k = next(i for i, line in enumerate(lines) if line.startswith(header))
    rows = []
    for line in lines[k + 2:]:
        if not line.startswith("|"):
            break
        rows.append([c.strip().replace("**", "") for c in line.strip("|").split("|")])
    return rows


def test_the_shipped_aer_table_is_docs_alignment_error():
    doc = (ROOT / "docs" / "alignment-error.md").read_text(encoding="utf-8")
    tab = al.aer_table()
    att = [r for r in _md_rows(doc, "| model | check | naive AER")]
    ko = doc[doc.index("## Korean"):]
    att += _md_rows(ko, "| model | check | naive AER")
    assert [(r[0], r[1], float(r[2]), float(r[3])) for r in att] == \
        [(r["model"], r["check"], r["naive"], r["shifted"]) for r in tab["attention"]]
    ibm = _md_rows(doc, "| aligner | direction | training pairs")
    assert [(r[0], r[1], r[2], float(r[3])) for r in ibm] == \
        [(r["aligner"], r["direction"], r["training_pairs"], r["aer"]) for r in tab["ibm"]]
    pub = _md_rows(doc, "| aligner | AER on the Hansards")
    assert [(r[0], float(r[1])) for r in pub] == [(r["aligner"], r["aer"]) for r in tab["published"]]
    df = vl.table_df("ko")
    assert len(df) == len(att) + len(ibm) + len(pub) and list(df.columns)[2] == "AER (naive)"


# ----------------------------------------------------------------------------- the shipped models


@pytest.mark.skipif(not SHIPPED, reason="needs assets/bert and assets/transformer-en-fr")
def test_fill_mask_after_equals_bert_run_with_that_head_mask():
    reg = _registry()
    v = va.ablation_view("fill-mask", "the cat is sleeping on the [MASK].", "L3H5, L5", "en", reg=reg)
    ckpt = reg.get(ablation.BERT)
    ids = ckpt.tokenizer.encode("the cat is sleeping on the [MASK].").ids
    at = [ids.index(ckpt.tokenizer.token_to_id("[MASK]"))]
    mask = torch.ones(12, 6)
    mask[2, 4] = 0
    mask[4, :] = 0
    with torch.inference_mode():
        logits = ckpt.model(torch.tensor([ids]), torch.zeros(1, len(ids), dtype=torch.long),
                            mlm_positions=torch.tensor([at]), head_mask=mask).mlm_logits[0, 0]
        full = ckpt.model(torch.tensor([ids]), torch.zeros(1, len(ids), dtype=torch.long),
                          mlm_positions=torch.tensor([at])).mlm_logits[0, 0]
    p, q = torch.softmax(logits.float(), -1), torch.softmax(full.float(), -1)
    m = v.record.masks[0]
    assert m.after[0][1] == pytest.approx(float(p.max()), abs=1e-5)
    assert m.before[0][1] == pytest.approx(float(q.max()), abs=1e-5)
    assert m.after[0][1] != pytest.approx(m.before[0][1], abs=1e-3)  # these heads matter on this sentence
    assert "L3H5" in v.result and "L5" in v.result
    assert sorted(zip(v.grid.data[1].x, v.grid.data[1].y)) == sorted([(4, 2)] + [(h, 4) for h in range(6)])
    # the language switch: the record redrawn in Korean, the same numbers, no model call
    calls = []
    real = ckpt.model.forward
    ckpt.model.forward = lambda *a, **k: calls.append(1) or real(*a, **k)
    try:
        ko = va.ablation_redraw(v.record, "ko")
    finally:
        del ckpt.model.forward
    assert calls == [] and "모든 헤드" in ko.result and f"{100 * m.after[0][1]:.1f}%" in ko.result
    assert list(ko.bars.data[1].x) == list(v.bars.data[1].x)


@pytest.mark.skipif(not SHIPPED, reason="needs assets/bert and assets/transformer-en-fr")
def test_translation_after_is_greedy_decoding_of_the_ablated_transformer():
    reg = _registry()
    v = va.ablation_view("translation", "The cat is sleeping on the bed.", "cross L1, cross L2, cross L3", "en",
                         reg=reg)
    ckpt = reg.get(ablation.TRANSLATOR)
    mask = ablation.transformer_head_mask(ckpt.config, [("cross", l, h) for l in range(3) for h in range(8)])
    from models.decoding import greedy
    from models.tokenizers import special_ids
    sp = special_ids(ckpt.tokenizer)
    src = torch.tensor([ckpt.tokenizer.encode("The cat is sleeping on the bed.", add_special_tokens=False).ids
                        + [sp["eos"]]])
    with torch.inference_mode():
        out = greedy(ablation._Ablated(ckpt.model, mask), src, sp["bos"], sp["eos"], 2 * src.size(1) + 10)[0]
    assert v.record.after == ckpt.tokenizer.decode(out) and v.record.after != v.record.before
    assert va.t("abl.no_bars") in v.bars.layout.annotations[0].text and "cross L1, cross L2, cross L3" in v.result


@pytest.mark.skipif(not SHIPPED, reason="needs assets/transformer-en-fr")
def test_one_pair_aer_is_explorer_aer_on_that_pair_and_redraws_without_the_model():
    reg = _registry()
    src, tgt, links = vl.gold_pair("transformer-en-fr", 0)
    v = vl.alignment_view("transformer-en-fr", src, tgt, links, None, "en", reg=reg)
    ckpt = reg.get("transformer-en-fr")
    p = aer.teacher_forced(ckpt.model, ckpt.tokenizer, src, tgt)
    gold = set(al.gold_pairs("transformer-en-fr")[0][2])
    for r, fig in (("naive", v.naive), ("shifted", v.shifted)):
        want = aer.aer([aer.scored_only(aer.attention_links(p, 2, r), gold)], [gold])["aer"]
        assert v.record.score(r, 2)["aer"] == pytest.approx(want)
        assert f"{100 * want:.1f}" in fig.layout.title.text
    assert v.layer == 3 and v.layers == 3
    calls = []
    real = ckpt.model.forward
    ckpt.model.forward = lambda *a, **k: calls.append(1) or real(*a, **k)
    try:
        ko = vl.alignment_redraw(v.record, 2, "ko")
    finally:
        del ckpt.model.forward
    assert calls == [] and ko.layer == 2 and "AER" in ko.summary and "Naive" in ko.naive.layout.title.text
    np.testing.assert_allclose(ko.naive.data[0].z, v.record.attention["naive"][1], rtol=1e-6)


@pytest.mark.skipif(not SHIPPED, reason="needs assets/transformer-en-fr")
def test_the_shipped_check_reproduces_the_table_for_transformer_en_fr():
    """The asset's 12.0 / 69.3 are what explorer/compute/aer.py computes on the check now."""
    reg = _registry()
    pairs = al.gold_pairs("transformer-en-fr")
    recs = [al.pair_alignment("transformer-en-fr", s, t, " ".join(f"{i}-{j}" for i, j in g), reg=reg)
            for s, t, g in pairs]
    row = next(r for r in al.aer_table()["attention"] if r["model"] == "transformer-en-fr")
    for r in al.READINGS:
        got = aer.aer([aer.scored_only(x.links(r, 2), set(x.gold)) for x in recs], [set(x.gold) for x in recs])
        assert round(100 * got["aer"], 1) == row[r]


@pytest.mark.skipif(not SHIPPED, reason="needs assets/transformer-en-fr")
def test_a_typed_pair_without_target_reads_the_models_translation_and_scores_nothing():
    v = vl.alignment_view("transformer-en-fr", "The cat is sleeping on the bed.", "", "0-0", None, "en",
                          reg=_registry())
    assert v.record.translated and v.record.gold is None and v.record.target.startswith("Le chat")
    assert len(v.naive.data) == 2  # the heatmap and the links: no gold squares
