"""explorer/compute/aer.py: Och & Ney's AER on hand-made links (exact values), the naive and shifted readings of a
synthetic cross attention, IBM Models 1 and 2 on a toy corpus, and the attention reading against the repo's
alignment check (models.evaluate) on a shipped model. scripts/aer_table.py's page from fixed rows."""
from fractions import Fraction

import numpy as np
import pytest

from explorer.compute import aer
from explorer.compute.aer import PassAttention

have_dot = pytest.mark.skipif(not (aer.ASSETS / "seq2seq-dot" / "config.json").is_file(),
                              reason="the shipped checkpoint assets/seq2seq-dot is missing")


def test_aer_exact_on_a_toy_alignment():
    sure, possible = {(0, 0), (1, 1), (2, 2)}, {(2, 1)}
    pred = {(0, 0), (1, 1), (2, 1), (0, 2)}  # two sure hits, one possible hit, one wrong link
    r = aer.aer([pred], [sure], [possible])
    assert r["aer"] == pytest.approx(float(1 - Fraction(2 + 3, 4 + 3)))  # 2/7
    assert r["precision"] == pytest.approx(3 / 4) and r["recall"] == pytest.approx(2 / 3)
    assert aer.aer([sure], [sure])["aer"] == 0.0
    assert aer.aer([set()], [sure])["aer"] == 1.0
    # P defaults to S: the possible hit becomes a miss
    assert aer.aer([pred], [sure])["aer"] == pytest.approx(1 - (2 + 2) / (4 + 3))


def test_aer_sums_counts_over_the_corpus_before_the_ratio():
    s1, s2 = {(0, 0)}, {(0, 0), (1, 1), (2, 2), (3, 3)}
    p1, p2 = {(0, 1)}, set(s2)  # sentence AERs 1 and 0; the corpus: 1 - 2*4 / (5 + 5)
    assert aer.aer([p1, p2], [s1, s2])["aer"] == pytest.approx(0.2)


def test_scored_only_drops_links_of_target_words_without_gold():
    assert aer.scored_only({(0, 0), (1, 1), (2, 2)}, {(0, 0), (2, 2)}) == {(0, 0), (2, 2)}


def test_reversed_check_flips_links():
    fwd, rev = aer.check_pairs("ko-en"), aer.check_pairs("ko-en", reverse=True)
    assert rev[0] == (fwd[0][1], fwd[0][0], {(j, i) for i, j in fwd[0][2]})


def synthetic_pass() -> PassAttention:
    """Source "a b c" + </s> (4 columns); decoder inputs <s> y1 y2 y3 (4 rows). Row t+1 (input y_t) looks at
    source word t, the gold link of y_t; row 0 (input <s>) looks at word 2: the naive reading is off by one."""
    cross = np.zeros((1, 4, 4))
    cross[0, 0, 2] = cross[0, 1, 0] = cross[0, 2, 1] = cross[0, 3, 2] = 1.0
    return PassAttention(cross, [0, 1, 2, 3], [0, 1, 2], 3, 3)


def test_shifted_reads_the_step_whose_input_is_the_word():
    gold = {(0, 0), (1, 1), (2, 2)}
    p = synthetic_pass()
    shifted, naive = aer.attention_links(p, 0, "shifted"), aer.attention_links(p, 0, "naive")
    assert shifted == gold and naive == {(2, 0), (0, 1), (1, 2)}
    assert aer.aer([shifted], [gold])["aer"] == 0.0 and aer.aer([naive], [gold])["aer"] == 1.0
    with pytest.raises(ValueError):
        aer.step_rows(p.cross[0], "sideways")


def test_word_pooling_averages_target_pieces_and_sums_source_pieces():
    # target word 1 is two pieces whose rows disagree; source word 0 is two pieces; the last column is </s>
    rows = np.array([[0.1, 0.1, 0.7, 0.1],   # piece of target word 0: source word 1
                     [0.6, 0.0, 0.2, 0.2],   # first piece of target word 1
                     [0.0, 0.4, 0.6, 0.0]])  # second piece of target word 1
    w = aer.word_attention(rows, [0, 0, 1, 2], [0, 1, 1], 2, 2)
    assert w.shape == (2, 2)  # </s> dropped
    np.testing.assert_allclose(w, [[0.2, 0.7], [0.5, 0.4]])
    assert aer.argmax_links(w) == {(1, 0), (0, 1)}


TOY = [("the house", "la maison"), ("the blue house", "la maison bleue"), ("the flower", "la fleur"),
       ("a house", "une maison"), ("a blue flower", "une fleur bleue"), ("the book", "le livre"),
       ("a book", "un livre")]


@pytest.mark.parametrize("model", [1, 2])
def test_ibm_learns_the_obvious_links_of_a_toy_corpus(model):
    m = aer.train_ibm(TOY, model=model, iterations=20)
    t = dict(zip(m.t_keys.tolist(), m.t.tolist()))
    n_f = len(m.tgt_vocab)
    prob = lambda f, e: t.get(m.src_vocab[e] * n_f + m.tgt_vocab[f], 0.0)  # noqa: E731
    assert prob("maison", "house") > 0.9 and prob("bleue", "blue") > 0.9
    for e, f in [("house", "maison"), ("blue", "bleue"), ("book", "livre"), ("flower", "fleur"), ("the", "la")]:
        assert max(m.tgt_vocab, key=lambda w: prob(w, e)) == f  # each source word's likeliest translation
    assert aer.ibm_align(m, "the blue house", "la maison bleue") == {(0, 0), (2, 1), (1, 2)}
    assert aer.ibm_align(m, "A blue house.", "Une maison bleue.") == {(0, 0), (2, 1), (1, 2)}  # case, punctuation
    assert aer.ibm_align(m, "the house", "la maison zzz") == {(0, 0), (1, 1)}  # an unseen word: no link


def test_ibm_tables_are_distributions():
    m = aer.train_ibm(TOY, model=2, iterations=3)
    n_f = len(m.tgt_vocab)
    np.testing.assert_allclose(np.bincount(m.t_keys // n_f, m.t), 1.0)  # Σ_f t(f | e) = 1 for every e
    _, jlm = np.unique(m.a_keys // 256, return_inverse=True)
    np.testing.assert_allclose(np.bincount(jlm, m.a), 1.0)  # Σ_i a(i | j, l, m) = 1


@have_dot
def test_naive_reading_agrees_with_the_repos_alignment_check():
    """On the scored words, A∩S is the check's hits with </s> out of the argmax and |A| its scored words."""
    from models.checkpoint import load
    from models.training.evaluate import alignment_check
    naive = next(r for r in aer.model_rows("seq2seq-dot") if r["method"] == "attention-naive")
    check = alignment_check(load(aer.ASSETS / "seq2seq-dot"))
    n, hits = check["scored_words"], round(check["hit_rate_without_eos"] * check["scored_words"])
    assert naive["links"] == n
    assert naive["aer"] == pytest.approx(1 - 2 * hits / (n + naive["gold_links"]), abs=1e-4)


def test_table_page_from_fixed_rows():
    from scripts import aer_table
    base = {"check": "alignment_en_fr.tsv", "direction": "en-fr", "gold_links": 10, "precision": 0.9,
            "recall": 0.8, "aer_all_words": 0.2}
    rows = [{**base, "model": "transformer-en-fr", "method": "attention-naive", "aer": 0.15, "layers": 3,
             "by_layer": [{"layer": 0, "aer": 0.5}, {"layer": 1, "aer": 0.1}, {"layer": 2, "aer": 0.15}]},
            {**base, "model": "transformer-en-fr", "method": "attention-shifted", "aer": 0.6, "layers": 3, "links": 10,
             "links_on_next_words_source": 7,
             "by_layer": [{"layer": 0, "aer": 0.7}, {"layer": 1, "aer": 0.6}, {"layer": 2, "aer": 0.65}]},
            {**base, "model": "ibm1", "method": "ibm1", "aer": 0.16, "iterations": 5, "train_pairs": 100,
             "train_pairs_in_split": 200, "check_sources_in_training": 3, "check_target_words_unseen": 1}]
    page = aer_table.render(rows)
    assert "| transformer-en-fr | alignment_en_fr.tsv | **15.0** | 60.0 | 90.0 / 80.0 | 10.0 (layer 2 of 3) |" in page
    assert "| IBM Model 1, 5 EM rounds | en-fr | 100 of 200 | **16.0** |" in page
    assert "70% to 70% of them" in page  # the shifted links one word late
    assert all(v in page for _, v in aer_table.PUBLISHED) and page == aer_table.render(rows)
