"""Contextual vs static: one word's vector in several sentences against its static embedding
(explorer/views/contextual.py: contextual_view)."""
from __future__ import annotations

import gradio as gr

from explorer.views import contextual as views
from ui.components import DROPDOWN_MIN_PX, downloads, example_clicks, friendly
from ui.tabs import TabBase, from_record

TITLE = "tab.contextual"


class Tab(TabBase):
    def __init__(self, page):
        L, reg = page.L, page.reg
        L(gr.Markdown, "ctx.intro")
        rows = lambda r: ([r[0], "\n".join(views.EXAMPLES[r[0]][1]), "auto"]  # noqa: E731
                          if r[0] in views.EXAMPLES and views.EXAMPLES[r[0]][0] in reg.models else None)
        with gr.Row():
            self.word = L(gr.Textbox, "ctx.word", "bank", max_lines=1)
            self.model = L(gr.Dropdown, "ctx.model", ["auto"] + reg.names("bert") + reg.names("transformer"),
                           value="auto", min_width=DROPDOWN_MIN_PX)
        self.sentences = L(gr.Textbox, "ctx.sentences", "\n".join(views.EXAMPLES["bank"][1]), lines=4, max_lines=10)
        self.run_btn = L(gr.Button, "ctx.run", variant="primary")
        examples = L.examples("contextual", [self.word, self.sentences, self.model], rows)
        self.text = gr.Markdown()
        self.figure = L(gr.Plot, "ctx.figure")
        self.table = L.table("ctx.table", views.CONTEXT_COLUMNS, wrap=True)
        self.files = downloads(L)
        self.record = self.record_state()  # the last run's key (explorer.serve.cache)
        out = [self.figure, self.table, self.text, self.files]
        for trigger in (self.run_btn.click, self.word.submit) + example_clicks(examples):
            trigger(self.show, [self.word, self.sentences, self.model, page.lang],
                    out + [self.record], concurrency_id="models", api_visibility="private")
        page.on_language(self.relabel, [self.record, page.lang], out, concurrency_id="models")
        ko = views.KOREAN_EXAMPLE  # 배 with the Korean BERT, where it is shipped
        korean = {self.word: ko, self.sentences: "\n".join(views.EXAMPLES[ko][1]), self.model: "auto"} \
            if views.EXAMPLES[ko][0] in reg.models else None
        page.first_screen(self.show, [self.word, self.sentences, self.model, page.lang], out + [self.record],
                          korean=korean)

    def _drawn(self, v: views.ContextualView) -> dict:
        return {self.figure: v.figure, self.table: v.table, self.text: v.text, self.files: v.files}

    @friendly
    def show(self, word, sentences, model, lang="en"):
        v = views.contextual_view(word, sentences, model, lang)
        return {**self._drawn(v), self.record: self.keep(v.record)}

    @from_record
    def relabel(self, record, lang="en"):
        """The last run in `lang`, from its record (views.contextual_redraw: no model call)."""
        return self._drawn(views.contextual_redraw(record, lang))
