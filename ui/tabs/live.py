"""Train it yourself, live: a toy seq2seq with attention trained in the page for a few seconds, its loss
and its alignment of a probe sentence drawn as it learns (explorer.compute.live, explorer/views/live.py)."""
from __future__ import annotations

import collections
import threading

import gradio as gr

from explorer import i18n
from explorer.views import live as views
from explorer.views.seq2seq import SCORE_FUNCTIONS
from ui.components import Slider, downloads, friendly

TITLE = "tab.live"

# The language each session's switch shows now, for its live run in progress (a generator's inputs are
# read once, at its start). Written by the switch; the oldest sessions are forgotten past the cap.
_SESSION_LANG: collections.OrderedDict[str, str] = collections.OrderedDict()
_MAX_SESSIONS = 10_000
_SESSION_LANG_LOCK = threading.Lock()


def session_language(request: gr.Request | None, lang=None) -> str | None:
    """`lang` (if given, "en" or "ko") becomes the session's language; returns the session's language (None: unknown)."""
    session = getattr(request, "session_hash", None)
    if session is None:
        return None
    with _SESSION_LANG_LOCK:  # handlers run in threads: move_to_end must not meet another's popitem
        if lang is not None:
            _SESSION_LANG[session] = lang
            _SESSION_LANG.move_to_end(session)
            while len(_SESSION_LANG) > _MAX_SESSIONS:
                _SESSION_LANG.popitem(last=False)
        return _SESSION_LANG.get(session)


class Tab:
    def __init__(self, page):
        L = page.L
        L(gr.Markdown, "live.intro")
        with gr.Row():
            # 10 s: on 2 CPU cores the probe is translated right after ~3 s and the loss is under 0.01 by ~6 s
            # (python -m explorer.compute.live --seconds 30); the 30 s it was showed 25 s of nothing changing
            self.seconds = L(Slider, "live.seconds", 5, views.MAX_SECONDS, value=10, step=5)
            self.score = L(gr.Radio, "live.score", [(SCORE_FUNCTIONS[k], k) for k in views.SCORE_FUNCTIONS],
                           value="general")
        self.probe = L(gr.Textbox, "live.probe", views.DEFAULT_PROBE, max_lines=1)
        with gr.Row():
            self.start = L(gr.Button, "live.start", variant="primary")
            self.stop_btn = L(gr.Button, "live.stop", variant="stop")
        self.status = gr.Markdown()
        self.translation = L(gr.Textbox, "live.translation", interactive=False)
        with gr.Row():
            self.loss = L(gr.Plot, "live.loss")
            self.alignment = L(gr.Plot, "live.align")
        self.files = downloads(L, "live.files")
        # what the language switch redraws: the last record (and score function), and whether Stop was pressed
        self.last, self.stopped = gr.State(None), gr.State(False)
        # One training at a time, in its own queue: other views keep their own slots (the app's
        # default_concurrency_limit). Stop cancels the event; Gradio also closes the generator when the page
        # goes away, and views.MAX_SECONDS caps it.
        run = gr.on([self.start.click, self.probe.submit], self.train,
                    [self.seconds, self.score, self.probe, page.lang],
                    [self.loss, self.alignment, self.translation, self.status, self.files, self.last, self.stopped],
                    concurrency_limit=1, concurrency_id="live-training", api_visibility="private")
        self.stop_btn.click(self.stop, [self.last, page.lang], [self.status, self.stopped, self.files], cancels=[run],
                            queue=False, concurrency_id="models", api_visibility="private")
        # a live run in progress follows the switch from its next record
        page.on_language(self.relabel, [self.last, self.stopped, page.lang], [self.loss, self.alignment, self.status])
        page.first_screen(self.untrained, [self.seconds, self.score, self.probe, page.lang],
                          [self.loss, self.alignment, self.translation, self.status, self.last, self.stopped])

    @friendly
    def train(self, seconds, attention, probe, lang, request: gr.Request = None):
        """A generator handler: Gradio streams each record and closes it on Stop or when the page goes away.
        The first update comes at once: a Stop that cancels the event before its first output made Gradio
        mark every output "Error" (and hide a finished run's results). Each record is drawn in the language
        the switch shows at that moment; the last one is kept (a State) for the switch to redraw."""
        session_language(request, lang)
        now = lambda: session_language(request) or lang  # noqa: E731
        records = views.live_view(seconds, attention, probe, lang, lang_now=now)  # a bad argument raises here
        yield {self.status: i18n.t("live.starting", lang), self.last: None, self.stopped: False}
        for v in records:
            yield {self.loss: v.loss, self.alignment: v.alignment, self.translation: v.translation,
                   self.status: v.text, self.files: v.files or None, self.last: (v.record, attention)}

    @friendly
    def untrained(self, seconds, attention, probe, lang="en"):
        """The first screen: the run's first record, before any training step (its attention near uniform), for
        Start to be compared with; nothing trains."""
        records = views.live_view(seconds, attention, probe, lang)
        try:
            v = next(records)
        finally:
            records.close()
        return {self.loss: v.loss, self.alignment: v.alignment, self.translation: v.translation,
                self.status: v.text, self.last: (v.record, attention), self.stopped: False}

    @friendly
    def stop(self, last, lang):
        """Stop: "Stopped.", the flag the language switch reads and the JSON of the last record on screen (what
        the run learned until then); after a finished run (nothing to stop) its "Done: …" stays."""
        if last and last[0].done:
            return gr.skip()
        out = {self.status: i18n.t("live.stopped", lang), self.stopped: True}
        return {**out, self.files: views.live_files(*last)} if last else out

    @friendly
    def relabel(self, last, stopped, lang, request: gr.Request = None):
        """The language switch: a run in progress draws its next records in the new language, and the last
        record on screen (`last`: record and score function; finished, `stopped` or running) is redrawn in it."""
        session_language(request, lang)
        if not last:
            return gr.skip()
        v = views.live_redraw(*last, lang, stopped=bool(stopped), downloads=False)
        return {self.loss: v.loss, self.alignment: v.alignment, self.status: v.text}
