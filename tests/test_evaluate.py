"""models/evaluate.py's scoring helpers on sentences written for the test."""
from models.evaluate import bleu_chrf, bleu_multi_ref


def test_multi_reference_bleu_counts_each_source_once_against_all_its_references():
    srcs = ["I am a student.", "I am a student.", "The cat sleeps on the old red sofa."]
    refs = ["Je suis un étudiant.", "Je suis étudiant.", "Le chat dort sur le vieux canapé rouge."]
    hyps = ["Je suis étudiant.", "Je suis étudiant.", "Le chat dort sur le vieux canapé rouge."]
    m = bleu_multi_ref(srcs, hyps, refs)
    assert (m["n_sources"], m["max_refs"]) == (2, 2)
    assert m["bleu"] == 100.0  # every output equals one of its source's references
    assert bleu_chrf(hyps, refs)["bleu"] < 100.0  # pair by pair, the first pair misses its reference
