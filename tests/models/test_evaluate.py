"""models/training/evaluate.py's scoring helpers on sentences written for the test."""
from pathlib import Path

import pytest

from models.checkpoint import load
from models.training.evaluate import bleu_chrf, bleu_multi_ref, bleu_other_reference, translate

ASSETS = Path(__file__).resolve().parents[2] / "assets"


def test_multi_reference_bleu_counts_each_source_once_against_all_its_references():
    srcs = ["I am a student.", "I am a student.", "The cat sleeps on the old red sofa."]
    refs = ["Je suis un étudiant.", "Je suis étudiant.", "Le chat dort sur le vieux canapé rouge."]
    hyps = ["Je suis étudiant.", "Je suis étudiant.", "Le chat dort sur le vieux canapé rouge."]
    m = bleu_multi_ref(srcs, hyps, refs)
    assert (m["n_sources"], m["max_refs"]) == (2, 2)
    assert m["bleu"] == 100.0  # every output equals one of its source's references
    assert bleu_chrf(hyps, refs)["bleu"] < 100.0  # pair by pair, the first pair misses its reference


def test_other_reference_scores_a_human_translation_of_the_same_source_in_place_of_the_output():
    srcs = ["I am a student.", "I am a student.", "I am a student.", "The cat sleeps on the old red sofa.",
            "Run!", "Run!"]
    refs = ["Je suis un étudiant.", "Je suis étudiant.", "Je suis étudiante.",
            "Le chat dort sur le vieux canapé rouge.", "Cours !", "Cours !"]
    hyps = ["Je suis étudiant.", "Je suis étudiant.", "Je suis étudiant.", "Le chat dort.", "Fuyez !", "Fuyez !"]
    m = bleu_other_reference(srcs, hyps, refs)
    # the single-reference source and the two identical references ("Cours !") have no other translation
    assert m["n_pairs"] == 3
    # each pair's stand-in is the next reference: étudiant / étudiante / un étudiant against the three
    human = ["Je suis étudiant.", "Je suis étudiante.", "Je suis un étudiant."]
    assert m["human_bleu"] == round(bleu_chrf(human, refs[:3])["bleu"], 2) < 100.0
    assert m["model_bleu"] == bleu_chrf(hyps[:3], refs[:3])["bleu"]
    assert bleu_other_reference(["a"], ["b"], ["c"]) == {"n_pairs": 0, "human_bleu": None, "model_bleu": None}


def test_translate_cuts_a_long_source_to_the_transformers_positions():
    """The Transformer has max_len + 2 = 66 positions; a 120-word source (and its decoding) used to
    run past them and crash with a size mismatch."""
    ckpt = load(ASSETS / "transformer-en-fr")
    positions = ckpt.config.max_len
    src = " ".join(["the cat sleeps"] * 40) + "."
    assert len(ckpt.tokenizer.encode(src, add_special_tokens=False).ids) > positions
    for beam in (1, 2):
        out = translate(ckpt.model, ckpt.tokenizer, [src, "I am a student."], beam=beam)
        assert out[0] and out[1] == "Je suis étudiant."


def test_nbest_is_the_whole_beam_best_first_and_its_head_is_the_translation():
    ckpt = load(ASSETS / "transformer-en-fr")
    sents = ["I am a student.", "The cat sleeps on the old red sofa.", "Where is the station?"]
    top = translate(ckpt.model, ckpt.tokenizer, sents, beam=4, alpha=1.0)
    beams = translate(ckpt.model, ckpt.tokenizer, sents, beam=4, alpha=1.0, nbest=True)
    for best, hyps in zip(top, beams):
        assert len(hyps) == 4 and hyps[0][0] == best
        scores = [score for _, _, score in hyps]
        assert scores == sorted(scores, reverse=True) and all(lp <= 0 for _, lp, _ in hyps)
    with pytest.raises(ValueError):
        translate(ckpt.model, ckpt.tokenizer, sents, beam=1, nbest=True)


def test_beam_and_alpha_are_chosen_by_validation_bleu_and_ties_keep_the_cheaper_setting(monkeypatch):
    """--choose reads the validation split only, once per setting (greedy once, it has no alpha), and
    keeps the best BLEU; a tie keeps the smaller beam, then the smaller alpha."""
    from models.training import evaluate
    table = {(1, 0.6): 40.0, (4, 0.6): 41.5, (4, 1.0): 42.0, (8, 0.6): 41.0, (8, 1.0): 42.0}
    calls = []

    reads = []

    def fake(ckpt, data_dir, beam, progress=True, alpha=0.6, split_name="test", device="cpu", pairs=None):
        calls.append((beam, alpha, split_name))
        assert pairs == [("src", "ref")]  # the validation pairs read once, not again per setting
        return {"bleu": table[(beam, alpha)]}

    monkeypatch.setattr(evaluate, "translation_test", fake)
    monkeypatch.setattr(evaluate, "heldout_pairs", lambda ckpt, d, split: reads.append(split) or [("src", "ref")])
    chosen = evaluate.choose_beam_alpha(None, Path("."))
    assert reads == ["valid"]
    assert (chosen["beam"], chosen["alpha"]) == (4, 1.0)  # 42.0 twice: beam 4 beats beam 8
    assert sorted((b, a) for b, a, _ in calls) == sorted(table) and {s for *_, s in calls} == {"valid"}
    assert [g["bleu"] for g in chosen["grid"]] == [table[(g["beam"], g["alpha"])] for g in chosen["grid"]]
    table[(8, 0.6)] = 42.5
    again = evaluate.choose_beam_alpha(None, Path("."))
    assert (again["beam"], again["alpha"]) == (8, 0.6)
