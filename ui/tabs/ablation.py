"""Switching heads off: the typed sentence with chosen heads switched off (Michel et al. 2019), BERT's [MASK] or the
Transformer's translation before and after, beside the precomputed grid of each head's cost
(explorer/views/ablation.py). The language switch redraws from the kept record, no model call."""
from __future__ import annotations

import gradio as gr

from explorer.views import ablation as views
from ui.components import downloads, friendly, sentence, validator
from ui.tabs import TabBase, from_record

TITLE = "tab.ablation"


class Tab(TabBase):
    def __init__(self, page):
        L = page.L
        L(gr.Markdown, "abl.intro")
        with gr.Row():
            self.task = L(gr.Radio, "abl.task", [("BERT [MASK]", "fill-mask"), ("Transformer en→fr", "translation")],
                          value="fill-mask")
            self.text = L(gr.Textbox, "abl.text", views.EXAMPLES["fill-mask"][0], max_lines=2, scale=3)
            self.heads = L(gr.Textbox, "abl.heads", views.EXAMPLES["fill-mask"][1], max_lines=1, scale=2)
        self.run_btn = L(gr.Button, "abl.run", variant="primary")
        with gr.Row():
            with gr.Column(scale=1):
                self.result = gr.Markdown()
                self.bars = L(gr.Plot, "abl.bars")
            with gr.Column(scale=1):
                self.grid = L(gr.Plot, "abl.grid")
        self.comparison = gr.Markdown()
        self.files = downloads(L)
        self.record = self.record_state()
        drawn = [self.result, self.bars, self.grid, self.comparison, self.files]
        inputs = [self.task, self.text, self.heads, page.lang]
        gr.on([self.run_btn.click, self.text.submit, self.heads.submit], self.show, inputs, drawn + [self.record],
              concurrency_id="models", api_visibility="private", validator=validator(None, sentence()))
        self.task.input(self.example, [self.task], [self.text, self.heads], api_visibility="private",
                        show_progress="hidden")
        page.on_language(self.relabel, [self.record, page.lang], drawn)
        page.first_screen(self.show, inputs, drawn + [self.record])

    def _drawn(self, v: views.AblationView) -> dict:
        return {self.result: v.result, self.bars: v.bars, self.grid: v.grid, self.comparison: v.comparison,
                self.files: v.files}

    @friendly
    def show(self, task, text, heads, lang="en"):
        v = views.ablation_view(task, text, heads, lang)
        return {**self._drawn(v), self.record: self.keep(v.record)}

    @friendly
    def example(self, task):
        """Another model: its example sentence and heads."""
        text, heads = views.EXAMPLES.get(task, views.EXAMPLES["fill-mask"])
        return {self.text: text, self.heads: heads}

    @from_record
    def relabel(self, record, lang="en"):
        return self._drawn(views.ablation_redraw(record, lang))
