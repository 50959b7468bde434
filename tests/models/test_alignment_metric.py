"""models.evaluate's alignment metric: the hand-aligned check file, subword-to-word pooling, and
the hit rate and </s> weight recomputed by a second, naive route on the shipped models."""
import json
from pathlib import Path

import pytest
import torch

from models.checkpoint import load
from models.training.evaluate import (ALIGNMENT_CHECKS, alignment_scores, pool_words,
                                      read_alignment_check, token_words)
from models.tokenizers import special_ids

ASSETS = Path(__file__).resolve().parents[2] / "assets"
needs = lambda name: pytest.mark.skipif(not (ASSETS / name / "config.json").is_file(), reason=f"assets/{name} missing")


def test_check_file_has_forty_linked_pairs():
    check = read_alignment_check(ALIGNMENT_CHECKS["en-fr"])
    assert len(check) >= 40
    for src, tgt, gold in check:
        assert gold, src
        assert all(0 <= i < len(src.split()) and 0 <= j < len(tgt.split()) for i, j in gold)


def test_check_file_refuses_a_link_past_the_last_word(tmp_path):
    bad = tmp_path / "bad.tsv"
    bad.write_text("# comment\nI am.\tJe suis.\t0-0 2-1\n", encoding="utf-8")
    with pytest.raises(ValueError, match="past the last word"):
        read_alignment_check(bad)


def test_pool_words_averages_rows_and_sums_columns():
    att = torch.softmax(torch.randn(5, 6, dtype=torch.float64), -1)  # 5 target tokens, 6 source tokens
    src_words, tgt_words = [0, 0, 1, 2, 2, 3], [0, 1, 1, 1, 2]
    w = pool_words(att, src_words, tgt_words, 4, 3)
    assert torch.allclose(w.sum(1), torch.ones(3, dtype=torch.float64), atol=1e-12)  # rows still sum to 1
    expected = (att[1:4, 3] + att[1:4, 4]).mean()  # target word 1 = tokens 1..3, source word 2 = tokens 3, 4
    assert abs(w[1, 2].item() - expected.item()) < 1e-12


def test_token_words_follow_the_spaces():
    text = "Pouvez-vous m'aider ?"
    # offsets as Metaspace tokenizers give them: a piece may start on the space before its word, and a lone
    # "▁" (the space before a French "?") covers only that space
    offsets = [(0, 6), (6, 7), (7, 11), (11, 13), (13, 14), (14, 19), (19, 20), (20, 21)]
    assert token_words(text, offsets) == [0, 0, 0, 1, 1, 1, 2, 2]


def naive_scores(ckpt, check):
    """The protocol again, by another route: words from the pieces' "▁" marks (not from offsets), rows and
    columns pooled with plain loops."""
    tok, model, sp = ckpt.tokenizer, ckpt.model, special_ids(ckpt.tokenizer)

    def words(pieces):
        out, w = [], -1
        for i, p in enumerate(pieces):
            if p.startswith("▁") or w < 0:
                w += 1
            out.append(w)
        return out

    hits = n = 0
    eos = []
    for src, tgt, gold in check:
        es, et = tok.encode(src, add_special_tokens=False), tok.encode(tgt, add_special_tokens=False)
        with torch.no_grad():
            cross = model(torch.tensor([es.ids + [sp["eos"]]]), torch.tensor([[sp["bos"]] + et.ids]),
                          need_weights=True).trace.cross[0, -1].mean(0)
        sw, tw = words(es.tokens), words(et.tokens)
        n_src = max(sw) + 1
        for j in range(max(tw) + 1):
            rows = [t for t in range(len(tw)) if tw[t] == j]
            pooled = [sum(cross[t, s].item() for t in rows for s in range(len(sw)) if sw[s] == i) / len(rows)
                      for i in range(n_src)] + [sum(cross[t, -1].item() for t in rows) / len(rows)]
            eos.append(pooled[-1])
            links = {i for i, jj in gold if jj == j}
            if links:
                n += 1
                hits += max(range(len(pooled)), key=pooled.__getitem__) in links
    return hits / n, sum(eos) / len(eos)


@pytest.mark.parametrize("name", ["transformer-en-fr", "seq2seq-additive"])
def test_hit_rate_and_eos_weight_recomputed(name):
    if not (ASSETS / name / "config.json").is_file():
        pytest.skip(f"assets/{name} missing")
    ckpt = load(ASSETS / name)
    check = read_alignment_check(ALIGNMENT_CHECKS["en-fr"])
    got = alignment_scores(ckpt.model, ckpt.tokenizer, check)
    hit, eos = naive_scores(ckpt, check)
    assert got["pairs"] == len(check)
    assert abs(got["hit_rate"] - hit) < 1e-4
    assert abs(got["eos_weight"] - eos) < 1e-4
    assert got["hit_rate_without_eos"] >= got["hit_rate"]  # leaving </s> out can only turn misses into hits


@needs("seq2seq-none")
def test_no_attention_has_no_alignment():
    ckpt = load(ASSETS / "seq2seq-none")
    assert alignment_scores(ckpt.model, ckpt.tokenizer, read_alignment_check(ALIGNMENT_CHECKS["en-fr"])[:2]) is None


@needs("seq2seq-dot")
def test_evaluate_prints_the_check_for_an_en_fr_checkpoint(capsys):
    from models.training import evaluate
    evaluate.main([str(ASSETS / "seq2seq-dot"), "--alignment-only"])
    out = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    ckpt = load(ASSETS / "seq2seq-dot")
    assert out["alignment"] == alignment_scores(ckpt.model, ckpt.tokenizer, read_alignment_check(ALIGNMENT_CHECKS["en-fr"]))
