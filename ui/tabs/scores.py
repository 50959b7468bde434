"""Score functions side by side: one sentence through every seq2seq model, their alignments and mean
attention entropies (explorer/views/scores.py: score_functions_view)."""
from __future__ import annotations

import gradio as gr

from explorer import i18n
from explorer.views import scores as views
from ui.components import downloads, example_clicks, first_is_a_sentence, friendly
from ui.tabs import TabBase, from_record

TITLE = "tab.scores"
SCORE_WIDTHS = ["190px", "150px", "500px", "180px", "180px"]  # model, score function, translation, two entropies


class Tab(TabBase):
    def __init__(self, page):
        L = page.L
        L(gr.Markdown, "sf.intro")
        self.text = L(gr.Textbox, "s2s.text", i18n.DEFAULT_INPUTS["sentences"][1], max_lines=3)
        self.run_btn = L(gr.Button, "sf.run", variant="primary")
        examples = L.examples("seq2seq", [self.text])
        self.notice = gr.Markdown()
        self.figure = L(gr.Plot, "sf.figure")
        self.table = L.table("sf.table", views.SCORE_COLUMNS, wrap=True, column_widths=SCORE_WIDTHS)
        self.confidence = gr.HTML()  # each model's words shaded by how unsure it is, with a legend
        self.files = downloads(L)
        self.record = self.record_state()  # the last comparison's key (explorer.serve.cache)
        out = [self.figure, self.table, self.confidence, self.notice, self.files]
        for trigger in (self.run_btn.click, self.text.submit) + example_clicks(examples):
            trigger(self.show, [self.text, page.lang], out + [self.record],
                    concurrency_id="models", api_visibility="private", validator=first_is_a_sentence)
        page.on_language(self.relabel, [self.record, page.lang], out, concurrency_id="models")
        page.first_screen(self.show, [self.text, page.lang], out + [self.record])

    def _drawn(self, v: views.ScoreFunctionsView) -> dict:
        return {self.figure: v.figure, self.table: v.table, self.confidence: v.confidence, self.notice: v.notice,
                self.files: v.files}

    @friendly
    def show(self, text, lang="en"):
        v = views.score_functions_view(text, lang)
        return {**self._drawn(v), self.record: self.keep(v.record)}

    @from_record
    def relabel(self, record, lang="en"):
        """The last comparison in `lang`, from its record (views.score_functions_redraw: no model call)."""
        return self._drawn(views.score_functions_redraw(record, lang))
