"""Beam search: its n-best with log-probabilities and length-normalised scores, the prefix tree, and the
cross attention of the hypothesis chosen.
"""
from __future__ import annotations

from dataclasses import dataclass

import pandas as pd
import plotly.graph_objects as go

from explorer import figures as fg
from explorer.compute import inference as inf
from explorer.figures import lab as lf
from explorer.i18n import figure_labels, lab_labels, localized, t
from explorer.figures.confidence import shaded_translation
from explorer.compute.inference import TranslationResult
from explorer.views import Downloads, matrix_table, md, notices_md, to_download


MAX_BEAM = inf.MAX_BEAM  # the widest beam the tab's slider offers
BEAM_COLUMNS = ["#", "translation", "log-prob", "score", "tokens"]  # English headers, i18n.localized


@dataclass(frozen=True)
class BeamChoice:
    translation: str
    grid: go.Figure  # cross attention of the chosen hypothesis, every layer x head
    mean: go.Figure  # the last layer's cross attention averaged over heads
    notice: str
    files: Downloads
    record: TranslationResult
    confidence: str  # HTML: the chosen hypothesis's words shaded by how unsure the model is (explorer.figures.confidence)


@dataclass(frozen=True)
class BeamSearch:
    """What the tab keeps of a search: its arguments, from which another hypothesis's trace is computed
    (`beam_choice`), and the record of the hypothesis on screen, from which the language switch redraws."""
    text: str
    beam: int
    result: TranslationResult  # hypotheses best first; `result.chosen` is the one whose trace it holds


@dataclass(frozen=True)
class BeamView:
    table: pd.DataFrame  # rank, translation, log-prob, score, tokens
    figure: go.Figure  # explorer.figures.lab.beam_figure: scores + prefix tree
    choices: list[tuple[str, int]]  # (label, hypothesis index) for the chooser
    chosen: BeamChoice  # the hypothesis the record shows (0, the best, after a search)
    record: BeamSearch


def beam_choice(text: str, model: str, beam: int, chosen: int = 0, lang: str = "en") -> BeamChoice:
    """Recompute the attention trace for hypothesis `chosen` (0 = best) of a beam search."""
    return choice_redraw(inf.translate(model, text, beam, chosen=chosen), lang)


def choice_redraw(r: TranslationResult, lang: str = "en") -> BeamChoice:
    """The chosen hypothesis of a search already run (its record), in `lang`: no model call."""
    a = r.trace.cross
    if a is None:
        p = fg.placeholder(t("view.no_attention_model", lang))
        grid = mean = p
        tables = {}
    else:
        one = a.shape[:2] == (1, 1)  # an RNN's attention: no layers or heads to average over
        grid = fg.head_grid(a, r.source_tokens, r.target_tokens,
                            t("view.hyp_one" if one else "view.hyp_grid", lang, i=r.chosen + 1),
                            selected=None, labels=figure_labels(lang))
        m = a[-1].mean(0)  # (T, S)
        mean = fg.heatmap(m, r.source_tokens, r.target_tokens,
                          t("view.hyp_one" if one else "view.hyp_mean", lang, i=r.chosen + 1),
                          x_title=t("fig.source", lang), y_title=t("view.target_produced", lang),
                          labels=figure_labels(lang))
        tables = {f"cross-mean-hyp{r.chosen + 1}": matrix_table(m, r.target_tokens, r.source_tokens)}
    files = to_download(f"beam-{r.model}-hyp{r.chosen + 1}", r, tables)
    alpha = t("beam.alpha", lang, model=md(r.model), alpha=r.length_penalty)  # what ranked the table's scores
    return BeamChoice(r.translation, grid, mean, notices_md(r.notices, [alpha], lang=lang), files, r,
                      confidence=shaded_translation(r.target_tokens, r.token_probs, lang))


def beam_view(text: str, model: str, beam: int = 4, lang: str = "en") -> BeamView:
    """Beam search's ranked hypotheses and the cross attention of the best one."""
    beam = inf.check_int(beam, "Beam size", 2, inf.MAX_BEAM)
    return beam_redraw(BeamSearch(text, beam, inf.translate(model, text, beam, chosen=0)), lang)


def beam_redraw(record: BeamSearch, lang: str = "en") -> BeamView:
    """The view of a search already run, on the hypothesis its record shows, in `lang`: no model call."""
    hyps = record.result.hypotheses
    table = pd.DataFrame([[i + 1, h.text, h.logprob, h.score, " ".join(h.tokens)] for i, h in enumerate(hyps)],
                         columns=BEAM_COLUMNS)
    table = localized(table, lang)
    choices = [(f"#{i + 1}  {h.text}  ({t('col.score', lang)} {h.score:.3f}, {t('col.log-prob', lang)} "
                 f"{h.logprob:.3f})", i) for i, h in enumerate(hyps)]  # ranked by the score
    return BeamView(table, lf.beam_figure(hyps, lab_labels(lang)), choices, choice_redraw(record.result, lang),
                    record)


def translation_models(reg=None) -> list[str]:
    """Transformers first, then the RNN encoder-decoders."""
    reg = reg or inf.registry()
    return reg.names("transformer") + reg.names("seq2seq")
