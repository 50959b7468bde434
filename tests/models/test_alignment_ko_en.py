"""The hand-aligned Korean-English check (models/training/alignment_ko_en.tsv): the file itself, its
independence from the Korean training data, Korean words found from the ko-en tokenizer's offsets, and the
reading on the shipped transformer-ko-en recomputed by a second, naive route."""
import json
import re
from pathlib import Path

import pytest
import torch

from models.checkpoint import load
from models.tokenizers import special_ids
from models.training.evaluate import ALIGNMENT_CHECKS, alignment_scores, read_alignment_check, token_words

ROOT = Path(__file__).resolve().parents[2]
MODEL = ROOT / "assets" / "transformer-ko-en"
DATA = ROOT.parent / "shared" / "data"
KOREAN_FILES = ["tatoeba-eng-kor/kor.txt", "parallel-ko-en-ntrex128/ntrex128_ko_en.tsv",
                "parallel-ko-en-ud-korean-pud/ko_pud_ko_en.tsv"]
needs_model = pytest.mark.skipif(not (MODEL / "config.json").is_file(), reason="assets/transformer-ko-en missing")
HANGUL = re.compile(r"[\uac00-\ud7a3]")


def check():
    return read_alignment_check(ALIGNMENT_CHECKS["ko-en"])


def bare(text: str) -> str:
    """A sentence without spaces or punctuation, so a respaced copy of a training sentence still matches."""
    return re.sub(r"[\W_]+", "", text)


def sentences(path: Path) -> set[str]:
    return {bare(cell) for line in path.read_text(encoding="utf-8").splitlines() for cell in line.split("\t")}


def test_check_file_has_forty_korean_pairs_with_links_in_range():
    pairs = check()
    assert len(pairs) >= 40
    assert len({src for src, _, _ in pairs}) == len(pairs)
    for src, tgt, gold in pairs:
        assert HANGUL.search(src) and not HANGUL.search(tgt), (src, tgt)  # Korean source, English target
        assert gold, src
        assert all(0 <= i < len(src.split()) and 0 <= j < len(tgt.split()) for i, j in gold), src


def test_check_file_says_where_it_comes_from():
    header = [line for line in ALIGNMENT_CHECKS["ko-en"].read_text(encoding="utf-8").splitlines()
              if line.startswith("#")]
    assert "not drawn from any corpus" in " ".join(header)


@pytest.mark.parametrize("root", [ROOT / "tests" / "fixtures" / "data", DATA], ids=["fixtures", "shared-data"])
def test_no_source_is_a_training_or_fixture_sentence(root):
    files = [root / f for f in KOREAN_FILES if (root / f).is_file()]
    if not files:
        pytest.skip(f"no Korean files under {root}")
    seen = set().union(*(sentences(f) for f in files))
    assert not [src for src, _, _ in check() if bare(src) in seen]


def marked_words(pieces: list[str]) -> list[int]:
    """Each piece's word from the "▁" that starts a word (the tokenizer's Metaspace), not from offsets."""
    out, w = [], -1
    for p in pieces:
        if p.startswith("▁") or w < 0:
            w += 1
        out.append(w)
    return out


@needs_model
def test_token_words_split_korean_at_its_spaces():
    tok = load(MODEL).tokenizer
    for src, tgt, _ in check():
        for text in (src, tgt):
            enc = tok.encode(text, add_special_tokens=False)
            words = token_words(text, enc.offsets)
            assert words == marked_words(enc.tokens), text
            assert sorted(set(words)) == list(range(len(text.split()))), text  # every eojeol has a token


def naive_scores(ckpt, pairs):
    """Hit rate and </s> weight by plain loops over the last layer's head-mean cross attention."""
    tok, sp = ckpt.tokenizer, special_ids(ckpt.tokenizer)
    hits = n = 0
    eos = []
    for src, tgt, gold in pairs:
        es, et = tok.encode(src, add_special_tokens=False), tok.encode(tgt, add_special_tokens=False)
        with torch.no_grad():
            cross = ckpt.model(torch.tensor([es.ids + [sp["eos"]]]), torch.tensor([[sp["bos"]] + et.ids]),
                               need_weights=True).trace.cross[0, -1].mean(0)
        sw, tw = marked_words(es.tokens), marked_words(et.tokens)
        for j in range(max(tw) + 1):
            rows = [t for t in range(len(tw)) if tw[t] == j]
            pooled = [sum(cross[t, s].item() for t in rows for s in range(len(sw)) if sw[s] == i) / len(rows)
                      for i in range(max(sw) + 1)] + [sum(cross[t, -1].item() for t in rows) / len(rows)]
            eos.append(pooled[-1])
            links = {i for i, jj in gold if jj == j}
            if links:
                n += 1
                hits += max(range(len(pooled)), key=pooled.__getitem__) in links
    return hits / n, n, sum(eos) / len(eos)


@needs_model
def test_reading_on_the_shipped_model_is_recomputed():
    ckpt = load(MODEL)
    pairs = check()
    got = alignment_scores(ckpt.model, ckpt.tokenizer, pairs)
    hit, n, eos = naive_scores(ckpt, pairs)
    assert got["pairs"] == len(pairs)
    assert got["scored_words"] == n == sum(len({j for _, j in gold}) for _, _, gold in pairs)
    assert 0 <= got["hit_rate"] <= got["hit_rate_without_eos"] <= 1
    assert abs(got["hit_rate"] - hit) < 1e-4
    assert 0 <= got["eos_weight"] <= 1 and abs(got["eos_weight"] - eos) < 1e-4


@needs_model
def test_evaluate_prints_the_check_for_the_ko_en_checkpoint(capsys):
    from models.training import evaluate
    evaluate.main([str(MODEL), "--alignment-only"])
    out = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    ckpt = load(MODEL)
    assert out["alignment"] == alignment_scores(ckpt.model, ckpt.tokenizer, check())
