"""How sure the model is of each word of its translation, as HTML for the UI, so that a
student sees where the model is unsure. Gradio-free: a record's target tokens and their probabilities in
(`TranslationResult.token_probs`), an HTML string out, every piece of text escaped.

A word's probability is the product of its subword tokens' probabilities (each given the source and
the tokens before it), so a word the model spelled out of unlikely pieces reads as unlikely. Words are
the output's SentencePiece-style pieces grouped at each "▁" (a piece without one, such as "." or "ant",
continues the word before it); </s> and a cut step ("…") are not words.
"""
from __future__ import annotations

import html

from explorer.i18n import lang_code, t

WORD_START = "▁"
SHADE_RGB = (230, 97, 0)  # orange: the shade of doubt, darker where the probability is lower
# The darkest shade: body text on it reads at >= 4.5:1 (WCAG AA) in both themes, 6.2:1 on white with the light
# text colour, 4.9:1 on the dark blocks and 5.4:1 on the dark page with the dark one (0.85 read 3.9:1 there).
# Test: test_confidence_ui.
MAX_SHADE = 0.7
UNSURE = 0.5  # a word below this probability is also underlined: the shade is not the only sign of doubt
NOT_WORDS = ("</s>", "…", "<pad>", "<s>")
# Out of sight, not out of a screen reader's reach (as figures.VALUE_TABLES_CSS): each word's probability read
# after it, where a hover's title is never announced reliably. Inline, so the HTML needs no stylesheet.
_SR_ONLY = ("position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0; border: 0; overflow: hidden; "
            "clip: rect(0 0 0 0); clip-path: inset(50%); white-space: nowrap")


def word_probabilities(tokens: list[str], probs: list) -> list[tuple[str, float]]:
    """(word, probability) per output word: tokens grouped at each WORD_START, probabilities multiplied."""
    words: list[list] = []
    for tok, p in zip(tokens, probs):
        if tok in NOT_WORDS or p is None:
            continue
        text = tok.replace(WORD_START, "")
        if tok.startswith(WORD_START) or not words:
            words.append([text, p])
        else:
            words[-1][0] += text
            words[-1][1] *= p
    return [(w, p) for w, p in words if w]


def shade(p: float) -> float:
    """Background opacity for probability p: 0 at p = 1, MAX_SHADE at p = 0 (linear in 1 - p)."""
    return round(MAX_SHADE * (1.0 - min(max(p, 0.0), 1.0)), 3)


def shaded_words(tokens: list[str], probs: list, lang: str = "en") -> str:
    """The translation's words as HTML spans: the shade, a dotted underline below UNSURE, the probability in the
    title (hover) and in hidden text a screen reader reads after the word. Text is escaped."""
    spans = []
    r, g, b = SHADE_RGB
    for word, p in word_probabilities(tokens, probs):
        said = html.escape(t("conf.word_title", lang, p=f"{p:.3f}"), quote=True)
        under = "; text-decoration: underline dotted; text-underline-offset: 0.2em" if p < UNSURE else ""
        spans.append(f'<span class="ae-conf-word" title="{said}" data-p="{p:.6f}" '
                     f'style="background: rgba({r}, {g}, {b}, {shade(p)}); padding: 0 0.15em; border-radius: 3px'
                     f'{under}">{html.escape(word)}<span style="{_SR_ONLY}"> ({said})</span></span>')
    return " ".join(spans)


def legend(lang: str = "en") -> str:
    """The line under a shaded translation: what the shade, the underline and a hover mean."""
    return f'<p class="ae-conf-legend"><small>{html.escape(t("conf.legend", lang, u=UNSURE))}</small></p>'


def shaded_translation(tokens: list[str], probs: list, lang: str = "en") -> str:
    """The translation as HTML, each word on a background as dark as the model is unsure of it, its
    probability in the title (hover), and a legend line. Text is escaped; numbers come from `probs`."""
    lang = lang_code(lang)  # "en"/"ko" for the lang attribute, also from the switch's label
    return (f'<div class="ae-conf" lang="{lang}">'
            f'<p class="ae-conf-text">{shaded_words(tokens, probs, lang)}</p>{legend(lang)}</div>')


def shaded_rows(rows: list[tuple[str, list[str], list]], lang: str = "en") -> str:
    """Several translations of one sentence, one line each (`label`: its shaded words), and one legend."""
    lang = lang_code(lang)
    lines = "".join(f'<p class="ae-conf-text"><b>{html.escape(label)}</b>: {shaded_words(tokens, probs, lang)}</p>'
                    for label, tokens, probs in rows)
    return f'<div class="ae-conf" lang="{lang}">{lines}{legend(lang)}</div>'
