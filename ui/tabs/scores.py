"""Score functions side by side: one sentence through every seq2seq model, their alignments and mean
attention entropies (explorer/views/scores.py: score_functions_view)."""
from __future__ import annotations

import gradio as gr

from explorer import i18n
from explorer.views import scores as views
from ui.components import downloads, example_clicks, first_is_a_sentence, friendly, keeping_args, run_again

TITLE = "tab.scores"
SCORE_WIDTHS = ["190px", "150px", "500px", "180px", "180px"]  # model, score function, translation, two entropies


class Tab:
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
        self.last = gr.State(None)  # the last run's arguments, for the language switch
        out = [self.figure, self.table, self.confidence, self.notice, self.files]
        for trigger in (self.run_btn.click, self.text.submit) + example_clicks(examples):
            trigger(keeping_args(self.show, self.last), [self.text, page.lang], out + [self.last],
                    concurrency_id="models", api_visibility="private", validator=first_is_a_sentence)
        self.relabel = run_again(self.show)  # no record kept: the switch runs it again from its arguments
        page.on_language(self.relabel, [self.last, page.lang], out, concurrency_id="models")
        page.first_screen(keeping_args(self.show, self.last), [self.text, page.lang], out + [self.last])

    @friendly
    def show(self, text, lang="en"):
        v = views.score_functions_view(text, lang)
        return {self.figure: v.figure, self.table: v.table, self.confidence: v.confidence, self.notice: v.notice,
                self.files: v.files}
