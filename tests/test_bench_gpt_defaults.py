"""bench/gpt_defaults.py's text statistics on hand-made token lists, the expected values counted by hand: repetition
within a continuation, distinct-n across continuations, the perplexity gap and the rule that picks a setting."""
import numpy as np
import pytest

from bench.gpt_defaults import (TOLERANCE, distinct_n, log_gap_interval, passes, repeated_ngrams, repetition,
                                text_stats)


def test_repeated_ngrams_counts_repeats_of_an_earlier_ngram_of_the_same_list():
    abab = ["a", "b", "a", "b", "a"]
    assert repeated_ngrams(abab, 2) == (2, 4)  # ab ba ab ba: the second ab and ba repeat
    assert repeated_ngrams(abab, 3) == (1, 3)  # aba bab aba
    assert repeated_ngrams(abab, 4) == (0, 2)  # abab baba
    assert repeated_ngrams(["the"] * 4, 3) == (1, 2)  # a greedy loop: "the the the" twice
    assert repeated_ngrams(["a", "b"], 3) == (0, 0)  # shorter than n: nothing to count


def test_repetition_pools_within_each_text_never_across():
    assert repetition([["a", "b", "a", "b", "a"], ["c", "d", "e"]], 3) == pytest.approx(1 / 4)  # (1 + 0) / (3 + 1)
    assert repetition([["x", "y", "z"], ["x", "y", "z"]], 3) == 0.0  # the same 3-gram in two texts is no repeat
    assert repetition([], 3) == 0.0 and repetition([["a"]], 3) == 0.0


def test_distinct_n_reads_ngrams_within_texts_and_counts_them_across_all():
    assert distinct_n([["a", "b", "a", "b", "a"], ["c", "d", "e"]], 2) == pytest.approx(4 / 6)  # ab ba cd de of 6
    assert distinct_n([["x", "y", "z"], ["x", "y", "z"]], 2) == pytest.approx(2 / 4)  # xy yz, each twice
    assert distinct_n([["z", "x"], ["y"]], 2) == 1.0  # one bigram: "x y" is not read across the two texts
    assert distinct_n([["a"]], 2) == 0.0


def test_log_gap_is_the_difference_of_pooled_mean_nll():
    gen = [np.array([1.0, 1.0]), np.array([3.0])]  # 5 nats over 3 tokens
    human = [np.array([2.0]), np.array([2.0, 2.0])]  # 6 nats over 3 tokens
    gap, lo, hi = log_gap_interval(gen, human, draws=200)
    assert gap == pytest.approx(5 / 3 - 2)
    assert lo <= hi
    assert log_gap_interval(human, human, draws=50) == (0.0, 0.0, 0.0)


def test_text_stats_leave_sep_out_of_the_ngrams_and_count_endings():
    sep = 9
    conts = [[1, 2, 1, 2, 1, sep], [3, 4]]  # one ends at [SEP], one ran to the limit
    s = text_stats(conts, [np.log([2.0] * 6), np.log([2.0] * 2)], sep, max_new=2)
    assert s["ppl"] == pytest.approx(2.0)
    assert s["rep3"] == pytest.approx(1 / 3)  # 1 2 1 | 2 1 2 | 1 2 1, and none in "3 4"
    assert s["distinct2"] == pytest.approx(3 / 5)  # 12 21 12 21 34: three distinct of five
    assert s["ends"] == 0.5 and s["length"] == 4.0


def test_the_rule_bounds_repetition_above_and_distinct_2_below_the_human_text():
    human = {"rep3": 0.01, "rep4": 0.0, "distinct2": 0.85}
    assert passes({"rep3": 0.0, "rep4": 0.0, "distinct2": 0.95}, human)  # less repetitive than people: fine
    assert passes({"rep3": 0.01 + TOLERANCE["rep"], "rep4": 0.0, "distinct2": 0.85 - TOLERANCE["distinct"]}, human)
    assert not passes({"rep3": 0.04, "rep4": 0.0, "distinct2": 0.85}, human)
    assert not passes({"rep3": 0.0, "rep4": 0.03, "distinct2": 0.85}, human)
    assert not passes({"rep3": 0.0, "rep4": 0.0, "distinct2": 0.79}, human)
