"""explorer/glossary.py: every interface string (explorer/i18n/, both languages) uses the decks' words where the
glossary says it shows them, and no string uses a variant the decks never do, nor does README.md; docs/glossary.md is
the generator's."""
from pathlib import Path

import pytest

from explorer import glossary, i18n


@pytest.mark.parametrize("term", glossary.TERMS, ids=lambda term: term.en)
def test_every_term_is_shown_where_the_glossary_says(term):
    assert term.keys, term
    for key in term.keys:
        assert key in i18n.STRINGS, f"{key} (for {term.en}) is no i18n key"
        ko, en = i18n.STRINGS[key]["ko"], i18n.STRINGS[key]["en"]
        assert term.ko in ko, f"{key}'s Korean lacks {term.ko!r}: {ko!r}"
        assert term.en.lower() in en.lower(), f"{key}'s English lacks {term.en!r}: {en!r}"


@pytest.mark.parametrize("variant", list(glossary.AVOID))
def test_no_string_uses_a_variant_the_decks_never_do(variant):
    found = [(key, lang) for key, both in i18n.STRINGS.items() for lang, s in both.items() if variant in s]
    assert not found, f"{variant!r} (use {glossary.AVOID[variant]!r}) in {found}"


def test_the_readme_uses_the_decks_words():
    """README.md's lines per tab name things as the interface does: none of the variants, in any case (an interface
    string may gloss a term in lower case, "Encoder-Decoder Attention (cross attention)"; the README does not)."""
    readme = (Path(glossary.__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8").lower()
    found = [bad for bad in glossary.AVOID if bad.lower() in readme]
    assert not found, [(bad, glossary.AVOID[bad]) for bad in found]


def test_the_variants_are_not_the_terms():
    for term in glossary.TERMS:
        assert not any(bad in term.ko or bad in term.en for bad in glossary.AVOID), term


def test_luongs_steps_are_numbered_as_deck_000():
    """Step 1 is the score, 4 the prediction vector; a_t is the context vector, alpha_t the weights."""
    order = ["lu.panel_scores", "lu.panel_weights", "lu.row_context", "lu.row_attentional"]
    for n, (key, name) in enumerate(zip(order, ["Attention Score", "Attention Distribution", "Attention Value",
                                                 "Prediction Vector"]), 1):
        assert i18n.STRINGS[key]["en"].startswith(f"{n}. {name}")
        assert i18n.STRINGS[key]["ko"].startswith(f"{n}. ")
    assert "a_t = Σ α_t,i h_i" in i18n.t("lu.row_context") and "α_t = softmax" in i18n.t("lu.panel_weights")
    for lang in i18n.LANGS:
        intro = i18n.t("lu.intro", lang)
        places = [intro.index(f"{n}. ") for n in range(1, 5)]
        assert places == sorted(places) and "c_t" not in intro


def test_the_nli_labels_have_korean_names():
    assert [i18n.label_text(x, "ko") for x in ("entailment", "neutral", "contradiction")] == [
        "함의 (entailment)", "중립 (neutral)", "모순 (contradiction)"]
    assert i18n.label_text("entailment", "en") == "entailment" and i18n.label_text("POSITIVE", "ko") == "POSITIVE"


def test_docs_glossary_is_what_the_generator_writes():
    assert glossary.DOC.read_text(encoding="utf-8") == glossary.markdown(), "run python -m explorer.glossary"
    for term in glossary.TERMS:
        assert f"| {term.ko} | {term.en} |" in glossary.markdown()
