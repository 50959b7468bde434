"""The seq2seq tab's composition: one RNN encoder-decoder's greedy translation, its alignment (cross
attention, target x source) and one decoding step's attention over the source (Bahdanau et al. 2015,
Luong et al. 2015). Records come from explorer.compute.inference; figures from explorer.figures.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go

from explorer import figures as fg
from explorer import i18n
from explorer.compute import inference as inf
from explorer.figures.confidence import shaded_translation
from explorer.compute.inference import TranslationResult
from explorer.views import Downloads, matrix_table, md, notices_md, to_download

SCORE_FUNCTIONS = {  # seq2seq-<key> -> label; score(s_t, h_i) as in Luong et al. (2015) and Bahdanau et al. (2015)
    "dot": "dot  sᵀh",
    "scaled_dot": "scaled dot  sᵀh/√d",
    "general": "general  sᵀWh",
    "additive": "additive  vᵀtanh(W₁s + W₂h)",
    "none": "none (no attention)",
}


@dataclass(frozen=True)
class Seq2SeqView:
    translation: str
    notice: str  # markdown
    alignment: go.Figure  # target x source, cross[0, 0]
    step_bars: go.Figure  # one decoding step's attention over the source
    step_text: str  # markdown: which source tokens fed the context vector
    files: Downloads
    record: TranslationResult
    steps: int  # decoding steps (the step slider's maximum)
    confidence: str  # HTML: the translation's words shaded by how unsure the model is (explorer.figures.confidence)


def seq2seq_choices(reg, lang: str = "en") -> list[tuple[str, str]]:
    """(label, model name) of every seq2seq checkpoint (loaded or not), the score functions' first."""
    names = set(reg.names("seq2seq")) | {n for n in reg.errors if n.startswith("seq2seq-")}
    order = [f"seq2seq-{k}" for k in SCORE_FUNCTIONS] + sorted(names)
    labels = {**SCORE_FUNCTIONS, "none": i18n.t("s2s.none_choice", lang)}  # the formulas read the same in Korean
    return [(labels.get(n.removeprefix("seq2seq-"), n), n) for n in dict.fromkeys(order) if n in names]


def alignment(r: TranslationResult, step: int | None = None, lang: str = "en") -> go.Figure:
    """The whole alignment (target x source), step `step` (1-based) outlined."""
    if r.trace.cross is None:
        return fg.placeholder(i18n.t("s2s.align_none", lang), i18n.t("s2s.align_title_none", lang, model=r.model))
    return fg.heatmap(r.trace.cross[0, 0], r.source_tokens, r.target_tokens,
                      i18n.t("s2s.align_title", lang, model=r.model), x_title=i18n.t("fig.source", lang),
                      y_title=i18n.t("view.target_produced", lang), highlight_row=None if step is None else step - 1,
                      labels=i18n.figure_labels(lang))


def seq2seq_step(r: TranslationResult | None, step, lang: str = "en") -> tuple[go.Figure, go.Figure, str]:
    """(alignment with step `step` outlined, bars of that step's attention, text); step is 1-based."""
    if r is None:
        msg = i18n.t("view.translate_first", lang)
        return fg.placeholder(msg), fg.placeholder(msg), msg
    T = len(r.target_tokens)
    t = int(np.clip(int(step or 1), 1, T))
    produced, fed = r.target_tokens[t - 1], r.decoder_input_tokens[t - 1]
    end = "" if produced.rstrip()[-1:] in (".", "!", "?") else "."
    head = i18n.t("s2s.step_head", lang, t=t, T=T, fed=md(fed), produced=md(produced), end=end)
    if r.trace.cross is None:
        return (alignment(r, lang=lang), fg.placeholder(i18n.t("s2s.bars_none", lang)),
                f"{head} {i18n.t('s2s.step_none', lang)}")
    w = r.trace.cross[0, 0, t - 1]  # (S,)
    top, total = [], 0.0
    for i in np.argsort(-w, kind="stable")[:3]:
        top.append(f"**{md(r.source_tokens[i])}** ({w[i]:.3f})")
        total += float(w[i])
        if total >= 0.9:
            break
    text = f"{head} {i18n.t('s2s.step_context', lang, t=t, top=', '.join(top), share=f'{total:.0%}')}"
    bars = fg.attention_bars(w, r.source_tokens, i18n.t("s2s.bars_title", lang, t=t, produced=produced),
                             labels=i18n.figure_labels(lang))
    return alignment(r, t, lang), bars, text


def seq2seq_view(text: str, model: str, step: int = 1, lang: str = "en") -> Seq2SeqView:
    """Translate with one of the RNN encoder-decoders (greedy) and show its alignment."""
    r = inf.translate(model, text, 1)
    shown, bars, step_text = seq2seq_step(r, step, lang)
    tables = {} if r.trace.cross is None else {
        "alignment": matrix_table(r.trace.cross[0, 0], r.target_tokens, r.source_tokens)}
    # the downloads hold every step (the whole alignment, unmarked), so they stay true when the step slider moves
    files = to_download(r.model, r, tables, {"alignment": fg.without_row_outline(shown)}, lang)
    return Seq2SeqView(r.translation, seq2seq_notice(r, lang), shown, bars, step_text, files, r,
                       len(r.target_tokens), confidence=shaded_translation(r.target_tokens, r.token_probs, lang))


def seq2seq_notice(r: TranslationResult, lang: str) -> str:
    """The notices beside a seq2seq translation; the no-attention model's explanation first."""
    return notices_md(r.notices, [i18n.t("s2s.no_attention", lang)] if r.trace.cross is None else [], lang)
