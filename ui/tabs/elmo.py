"""ELMo: mixing layers. ELMo_k = gamma sum_j s_j h_k,j on this repo's encoders, and the cosine between two senses
of a word as the mix changes (explorer.views.elmo)."""
from __future__ import annotations

import gradio as gr

from explorer.views import elmo as views
from ui.components import DROPDOWN_MIN_PX, downloads, friendly
from ui.tabs import TabBase, from_record

TITLE = "tab.elmo"


class Tab(TabBase):
    def __init__(self, page):
        L, reg = page.L, page.reg
        L(gr.Markdown, "el.intro")
        with gr.Row():
            self.word = L(gr.Textbox, "el.word", "bank", max_lines=1)
            self.model = L(gr.Dropdown, "el.model", ["auto"] + reg.names("bert") + reg.names("transformer"),
                           value="auto", min_width=DROPDOWN_MIN_PX)
        self.sentences = L(gr.Textbox, "el.sentences", "\n".join(views.EXAMPLES["bank"][1][:2]), lines=3, max_lines=8)
        with gr.Row():
            self.weights = L(gr.Textbox, "el.weights", "", max_lines=1)
            self.gamma = L(gr.Number, "el.gamma", value=1.0, minimum=0.01)
            self.normalize = L(gr.Checkbox, "el.normalize", value=True)
        self.run_btn = L(gr.Button, "el.run", variant="primary")
        self.summary = gr.Markdown()
        self.figure = L(gr.Plot, "el.plot")
        self.vectors = L(gr.Plot, "el.plot_vectors")
        self.table = L.table("el.table", views.LAYER_COLUMNS)
        self.files = downloads(L)
        self.record = self.record_state()  # the last mix's key (explorer.serve.cache)
        inputs = [self.word, self.sentences, self.weights, self.gamma, self.normalize, self.model, page.lang]
        out = [self.summary, self.figure, self.vectors, self.table, self.files]
        gr.on([self.run_btn.click, self.word.submit, self.weights.submit], self.show, inputs,
              out + [self.record], concurrency_id="models", api_visibility="private")
        page.on_language(self.relabel, [self.record, page.lang], out, concurrency_id="models")
        ko = views.KOREAN_EXAMPLE  # 배 with the Korean BERT, where it is shipped
        korean = {self.word: ko, self.sentences: "\n".join(views.EXAMPLES[ko][1]), self.model: "auto"} \
            if views.EXAMPLES[ko][0] in reg.models else None
        page.first_screen(self.show, inputs, out + [self.record], korean=korean)

    def _drawn(self, v: views.ElmoView) -> dict:
        return {self.summary: v.summary, self.figure: v.figure, self.vectors: v.vectors, self.table: v.table,
                self.files: v.files}

    @friendly
    def show(self, word, sentences, weights, gamma, normalize, model, lang="en"):
        v = views.elmo_view(word, sentences, weights, 1.0 if gamma is None else gamma, bool(normalize),
                            None if model in (None, "", "auto") else model, lang)
        return {**self._drawn(v), self.record: self.keep(v.record)}

    @from_record
    def relabel(self, record, lang="en"):
        """The last mix in `lang`, from its record (views.elmo_redraw: no model call)."""
        return self._drawn(views.elmo_redraw(record, lang))
