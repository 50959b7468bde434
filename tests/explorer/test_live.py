"""explorer/compute/live.py: the toy grammar and its shipped pairs, and the live training
generator (loss falls, alignments are row-stochastic and fit the tokens, the time cap
holds, closing the generator stops it, no global state is touched)."""
import time

import numpy as np
import pytest
import torch

from explorer.compute import live
from explorer.figures import live as live_figures
from explorer.compute.inference import UserError


def test_shipped_pairs_are_the_grammar_output():
    pairs = live.read_pairs()
    assert 300 <= len(pairs) <= 600
    assert pairs == live.grammar_pairs(len(pairs))  # the TSV and the generator cannot drift apart
    assert len({en for en, _ in pairs}) == len(pairs)
    assert live.DEFAULT_PROBE not in {en for en, _ in pairs}
    assert all(live.grammar_translate(en) == fr for en, fr in pairs)
    # colour adjectives flip: "the red car" -> "la voiture rouge"; negation wraps the verb
    assert any("red car" in en and "voiture rouge" in fr for en, fr in pairs)
    assert any("does not" in en and " ne " in fr and " pas " in fr for en, fr in pairs)


def test_grammar_translate():
    assert live.grammar_translate("the black dog does not see the red car") == \
        "le chien noir ne voit pas la voiture rouge"
    assert live.grammar_translate("the small girl eats the green apple") == "la petite fille mange la pomme verte"
    assert live.grammar_translate("the dog sees") is None
    assert live.grammar_translate("dog the sees the car") is None


def check_record(p: live.LiveProgress):
    T, S = len(p.target_tokens), len(p.source_tokens)
    assert p.alignment.shape == (T, S) and len(p.decoder_input_tokens) == T
    assert p.decoder_input_tokens[0] == "<s>" and p.source_tokens[-1] == "</s>"
    capped = T == 2 * S + 6  # greedy output at its cap (2 S + 5 tokens) and the row after it
    assert p.target_tokens[-1] == ("…" if capped else "</s>")
    assert p.target_tokens[:-1] == p.decoder_input_tokens[1:]
    assert (p.alignment >= 0).all()
    np.testing.assert_allclose(p.alignment.sum(-1), 1.0, atol=1e-5)
    assert len(p.losses) == len(p.loss_steps) and isinstance(p.translation, str)


@pytest.mark.slow
def test_ten_seconds_of_training_make_the_loss_fall():
    rng_state = torch.random.get_rng_state()
    threads = torch.get_num_threads()
    records = list(live.train_live(10, "additive"))
    assert torch.equal(rng_state, torch.random.get_rng_state())  # the global RNG was not used
    assert torch.get_num_threads() == threads  # restored after every chunk of work
    for p in records:
        check_record(p)
    first, last = records[0], records[-1]
    assert first.step == 0 and first.losses == () and not first.done
    assert last.done and sum(p.done for p in records) == 1
    assert list(last.loss_steps) == sorted(last.loss_steps) and last.step == last.loss_steps[-1]
    assert last.losses[-1] < 0.6 * last.losses[0], last.losses
    # the alignment is teacher-forced on the grammar's French for the probe
    assert " ".join(last.target_tokens[:-1]) == live.grammar_translate(live.DEFAULT_PROBE)
    # figures take the record as it is
    fig = live_figures.alignment_heatmap(last.alignment, last.source_tokens, last.target_tokens)
    np.testing.assert_array_equal(np.asarray(fig.data[0].z), last.alignment)
    cd = np.asarray(fig.data[0].customdata)  # hover: positions first, as the other heatmaps
    assert cd[1, 0] == f"#1 {last.target_tokens[1]} → #0 {last.source_tokens[0]}"
    assert fig.data[0].colorbar.title.side == "right"  # beside the bar, not on its "1"
    fig = live_figures.loss_figure(last.loss_steps, last.losses)
    assert list(fig.data[0].y) == list(last.losses)
    lo, hi = fig.layout.yaxis.range  # set, not autoranged: every loss drawn inside it, the first one too
    assert lo == 0 and max(last.losses) < hi


@pytest.mark.parametrize("steps", [[1], [52], [1, 50, 100], list(range(50, 3001, 50))])
def test_the_loss_axis_shows_whole_steps(steps):
    """One point at step 52 had ticks at 51.5, 52 and 52.5: the axis runs from 0 in whole steps, every point on it."""
    fig = live_figures.loss_figure(steps, np.linspace(3, 1, len(steps)))
    x = fig.layout.xaxis
    assert x.tickmode == "linear" and x.tick0 == 0 and x.dtick == int(x.dtick) >= 1
    assert x.range[0] == 0 and max(steps) < x.range[1] and x.range[1] / x.dtick <= 12


@pytest.mark.slow
def test_time_cap_is_respected():
    t0 = time.monotonic()
    records = list(live.train_live(3, "dot", every=0.5))
    assert time.monotonic() - t0 < 6
    assert records[-1].done and records[-1].elapsed < 6
    assert len(records) >= 3


def test_closing_the_generator_stops_it():
    gen = live.train_live(60, "general", every=0.2)
    t0 = time.monotonic()
    first, second = next(gen), next(gen)
    check_record(first)
    check_record(second)
    gen.close()  # what the web session does when the visitor leaves
    assert time.monotonic() - t0 < 10
    assert gen.gi_frame is None  # finished: no frame left to resume
    with pytest.raises(StopIteration):
        next(gen)


def test_probe_is_normalised_and_may_lie_outside_the_grammar():
    gen = live.train_live(2, "scaled_dot", probe="The red car sees the DOG!")
    p = next(gen)
    gen.close()
    check_record(p)
    assert p.source_tokens == ("the", "red", "car", "sees", "the", "dog", "</s>")
    assert p.target_tokens == ("la", "voiture", "rouge", "voit", "le", "chien", "</s>")
    # not a sentence of the grammar: no reference, so the rows are the model's own greedy output
    gen = live.train_live(2, "scaled_dot", probe="the dog the car sees")
    p = next(gen)
    gen.close()
    check_record(p)
    # untrained, the greedy output runs to the cap (2 * 6 source tokens + 5) without </s>: the last
    # row's output was never decoded, so it must not read </s>
    assert len(p.translation.split()) == 17 and len(p.target_tokens) == 18
    assert p.target_tokens[-1] == "…" and "</s>" not in p.target_tokens


def test_bad_arguments_are_user_errors_before_any_training():
    with pytest.raises(UserError, match="between 1 and 120"):
        live.train_live(121)
    with pytest.raises(UserError, match="between 1 and 120"):
        live.train_live("soon")
    with pytest.raises(UserError, match="score function"):
        live.train_live(5, "none")
    with pytest.raises(UserError, match="unknown: spaceship"):
        live.train_live(5, "dot", probe="the spaceship sees the car")
    with pytest.raises(UserError, match="probe"):
        live.train_live(5, "dot", probe="   ")
