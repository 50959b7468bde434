"""Luong's six steps: one decoding step of an RNN encoder-decoder with attention, from the encoder states to the
next word's softmax (explorer.views.luong; explorer.compute.luong recomputes it from the weights)."""
from __future__ import annotations

import gradio as gr

from explorer import i18n
from explorer.views import luong as views
from ui.components import DROPDOWN_MIN_PX, Slider, downloads, first_is_a_sentence, friendly
from ui.tabs import TabBase, from_record

TITLE = "tab.luong"


class Tab(TabBase):
    def __init__(self, page):
        L, reg = page.L, page.reg
        L(gr.Markdown, "lu.intro")
        names = [n for n in reg.names("seq2seq") if reg.models[n].config.attention != "none"]
        default = "seq2seq-general" if "seq2seq-general" in names else (names[0] if names else None)
        with gr.Row():
            self.model = L(gr.Dropdown, "lu.model", names, value=default, min_width=DROPDOWN_MIN_PX)
            self.step = L(Slider, "lu.step", 0, 20, value=0, step=1)
            self.top_k = L(Slider, "lu.top_k", 1, 20, value=5, step=1)
        self.text = L(gr.Textbox, "common.sentence", i18n.DEFAULT_INPUTS["sentences"][0], max_lines=3)
        self.target = L(gr.Textbox, "ch.target", "", max_lines=2)
        self.run_btn = L(gr.Button, "lu.run", variant="primary")
        self.summary = gr.Markdown()
        self.steps = L(gr.Plot, "lu.plot_steps")
        self.vectors = L(gr.Plot, "lu.plot_vectors")
        self.table = L.table("lu.table", views.TOP_COLUMNS)
        self.files = downloads(L)
        self.record = self.record_state()  # the last step's key (explorer.serve.cache)
        inputs = [self.text, self.model, self.step, self.target, self.top_k, page.lang]
        out = [self.summary, self.steps, self.vectors, self.table, self.files, self.step]
        gr.on([self.run_btn.click, self.text.submit, self.target.submit], self.show, inputs, out + [self.record],
              concurrency_id="models", api_visibility="private", validator=first_is_a_sentence)
        for c in (self.step, self.top_k):
            c.input(self.show, inputs, out + [self.record], trigger_mode="always_last", concurrency_id="models",
                    api_visibility="private")
        page.on_language(self.relabel, [self.record, page.lang], out, concurrency_id="models")
        page.first_screen(self.show, inputs, out + [self.record])

    @friendly
    def show(self, text, model, step, target, top_k, lang="en"):
        v = views.luong_view(text, model, step, target, top_k, lang)
        return {**self._drawn(v), self.record: self.keep(v.record)}

    @from_record
    def relabel(self, record, lang="en"):
        """The last step in `lang`, from its record (views.luong_redraw: no model call)."""
        return self._drawn(views.luong_redraw(record, lang))

    def _drawn(self, v: views.LuongView) -> dict:
        return {self.summary: v.summary, self.steps: v.steps, self.vectors: v.vectors, self.table: v.table,
                self.files: v.files, self.step: gr.Slider(minimum=0, maximum=max(v.n_steps - 1, 1), step=1,
                                                          value=v.record.step)}
