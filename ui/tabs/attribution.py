"""What attention explains: one prediction's attention beside rollout, the norm-based measure, value zeroing,
gradient x input and integrated gradients, with their rank correlations (explorer/views/attribution.py). A run
computes every target; choosing another [MASK] or translated word, or switching the language, redraws from the
kept record without a model call."""
from __future__ import annotations

import gradio as gr

from explorer.views import attribution as views
from ui.components import downloads, friendly, sentence, validator
from ui.tabs import TabBase, from_record

TITLE = "tab.attribution"


class Tab(TabBase):
    def __init__(self, page):
        L = page.L
        L(gr.Markdown, "attr.intro")
        with gr.Row():
            self.task = L(gr.Radio, "attr.task", [("BERT [MASK]", "fill-mask"), ("Transformer en→fr", "translation")],
                          value="fill-mask")
            self.text = L(gr.Textbox, "attr.text", views.EXAMPLES["fill-mask"], max_lines=2, scale=3)
        self.run_btn = L(gr.Button, "attr.run", variant="primary")
        self.target = L(gr.Dropdown, "attr.target", [], value=None)
        self.summary = gr.Markdown()
        self.measures = L(gr.Plot, "attr.measures")
        self.correlations = L(gr.Plot, "attr.correlations")
        self.files = downloads(L)
        self.record = self.record_state()
        drawn = [self.measures, self.correlations, self.summary, self.files, self.target]
        inputs = [self.task, self.text, page.lang]
        gr.on([self.run_btn.click, self.text.submit], self.show, inputs, drawn + [self.record],
              concurrency_id="models", api_visibility="private", validator=validator(None, sentence()))
        self.task.input(self.example, [self.task], [self.text], api_visibility="private", show_progress="hidden")
        self.target.input(self.pick, [self.record, self.target, page.lang], drawn, api_visibility="private")
        page.on_language(self.pick, [self.record, self.target, page.lang], drawn)
        page.first_screen(self.show, inputs, drawn + [self.record])

    def _drawn(self, v: views.AttributionView) -> dict:
        return {self.measures: v.measures, self.correlations: v.correlations, self.summary: v.summary,
                self.files: v.files, self.target: gr.Dropdown(choices=v.choices, value=v.target)}

    @friendly
    def show(self, task, text, lang="en"):
        v = views.attribution_view(task, text, None, lang)
        return {**self._drawn(v), self.record: self.keep(v.record)}

    @friendly
    def example(self, task):
        """Another task: its example sentence (a [MASK] for BERT, a plain sentence to translate)."""
        return {self.text: views.EXAMPLES.get(task, views.EXAMPLES["fill-mask"])}

    @from_record
    def pick(self, record, target, lang="en"):
        return self._drawn(views.attribution_redraw(record, target, lang))
