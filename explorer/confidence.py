"""How sure the model is of each word of its translation, as HTML for the UI (issue 32: "say when the
model is unsure"). Gradio-free: a record's target tokens and their probabilities in
(`TranslationResult.token_probs`), an HTML string out, every piece of text escaped.

A word's probability is the product of its subword tokens' probabilities (each given the source and
the tokens before it), so a word the model spelled out of unlikely pieces reads as unlikely. Words are
the output's SentencePiece-style pieces grouped at each "▁" (a piece without one, such as "." or "ant",
continues the word before it); </s> and a cut step ("…") are not words.
"""
from __future__ import annotations

import html

from explorer.i18n import t

WORD_START = "▁"
SHADE_RGB = (230, 97, 0)  # orange: the shade of doubt, darker where the probability is lower
NOT_WORDS = ("</s>", "…", "<pad>", "<s>")


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
    """Background opacity for probability p: 0 at p = 1, 0.85 at p = 0 (linear in 1 - p)."""
    return round(0.85 * (1.0 - min(max(p, 0.0), 1.0)), 3)


def shaded_translation(tokens: list[str], probs: list, lang: str = "en") -> str:
    """The translation as HTML, each word on a background as dark as the model is unsure of it, its
    probability in the title (hover), and a legend line. Text is escaped; numbers come from `probs`."""
    spans = []
    for word, p in word_probabilities(tokens, probs):
        title = html.escape(t("conf.word_title", lang, p=f"{p:.3f}"), quote=True)
        r, g, b = SHADE_RGB
        spans.append(f'<span class="ae-conf-word" title="{title}" data-p="{p:.6f}" '
                     f'style="background: rgba({r}, {g}, {b}, {shade(p)}); padding: 0 0.15em; border-radius: 3px">'
                     f"{html.escape(word)}</span>")
    legend = html.escape(t("conf.legend", lang))
    return (f'<div class="ae-conf" lang="{html.escape(lang, quote=True)}">'
            f'<p class="ae-conf-text">{" ".join(spans)}</p><p class="ae-conf-legend"><small>{legend}</small></p></div>')

