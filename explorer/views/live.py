"""Train it yourself, live: a toy seq2seq with attention trained for a few seconds (explorer.compute.live), drawn
as it learns; a generator of views.
"""
from __future__ import annotations

from dataclasses import dataclass

import plotly.graph_objects as go

from explorer.compute import live
from explorer.compute.live import DEFAULT_PROBE, MAX_SECONDS, SCORE_FUNCTIONS  # noqa: F401 (the tab's inputs and limit)
from explorer.figures import live as lvf
from explorer.i18n import live_labels, t
from explorer.views import Downloads, NO_DOWNLOADS, to_download


@dataclass(frozen=True)
class LiveView:
    loss: go.Figure
    alignment: go.Figure
    translation: str
    text: str  # markdown status
    files: Downloads  # the record's JSON once training ends or is stopped
    record: live.LiveProgress


def live_view(seconds=20, attention: str = "general", probe: str = live.DEFAULT_PROBE, lang: str = "en",
              lang_now=None):
    """Iterator of LiveView, about one per second, until the time cap (at most live.MAX_SECONDS).
    The arguments are checked at the call (UserError), the model is built at the first next();
    closing the iterator ends training. `lang_now()`, where given, is read at every record: the
    language the switch shows now (a run follows it while it trains); else `lang` throughout."""
    run = live.train_live(seconds, attention, probe)
    return (live_redraw(p, attention, lang_now() if lang_now else lang) for p in run)


def live_redraw(p: live.LiveProgress, attention: str, lang: str = "en", stopped: bool = False,
                downloads: bool = True) -> LiveView:
    """One record of a live run drawn in `lang`: what the run shows at that record, and what the
    language switch redraws a finished (or `stopped`) run from. The record's JSON is written once it is
    done or stopped (with `downloads`): a stopped run's is what it learned until then."""
    words = live_labels(lang)
    loss = lvf.loss_figure(p.loss_steps, p.losses, words)
    align = lvf.alignment_heatmap(p.alignment, p.source_tokens, p.target_tokens,
                                  t("live.align_title", lang, step=p.step), words)
    last = f"{p.losses[-1]:.3f}" if p.losses else "–"
    key = "live.done" if p.done else "live.stopped" if stopped else "live.status"
    text = t(key, lang, s=p.elapsed, step=p.step, loss=last)
    files = live_files(p, attention) if (p.done or stopped) and downloads else NO_DOWNLOADS
    return LiveView(loss, align, p.translation, text, files, p)


def live_files(p: live.LiveProgress, attention: str) -> Downloads:
    """The JSON of a live run's record (finished, or stopped: what it learned until then)."""
    return to_download(f"live-{attention}", p, {})
