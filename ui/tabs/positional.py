"""Positional encoding: the sinusoids of Vaswani et al. (2017, section 3.5) as a table, and how much of a
sentence's input they are (explorer/views/positional.py: positional_view)."""
from __future__ import annotations

import gradio as gr

from explorer import i18n
from explorer.views import positional as views
from ui.components import DROPDOWN_MIN_PX, Slider, downloads, friendly
from ui.tabs import TabBase, from_record

TITLE = "tab.positional"


class Tab(TabBase):
    def __init__(self, page):
        L = page.L
        L(gr.Markdown, "pos.intro")
        names = page.reg.names("transformer")
        with gr.Row():
            self.max_len = L(Slider, "pos.max_len", 1, views.MAX_POSITIONS, value=64, step=1)
            self.d_model = L(Slider, "pos.d_model", 2, 512, value=128, step=2)
        with gr.Row():
            self.text = L(gr.Textbox, "pos.text", i18n.DEFAULT_INPUTS["sentences"][0], max_lines=2, scale=3)
            self.model = L(gr.Dropdown, "pos.model", names, value=names[0] if names else None, scale=1,
                           min_width=DROPDOWN_MIN_PX)
        self.run_btn = L(gr.Button, "pos.run", variant="primary")
        self.text_md = gr.Markdown()
        self.table = L(gr.Plot, "pos.table")
        self.sentence = L(gr.Plot, "pos.sentence")
        self.files = downloads(L, "common.download_record")  # no table to give as CSV
        self.record = self.record_state()  # the last run's key (explorer.serve.cache)
        inputs = [self.max_len, self.d_model, self.text, self.model, page.lang]
        out = [self.table, self.sentence, self.text_md, self.files]
        gr.on([self.run_btn.click, self.text.submit], self.show, inputs, out + [self.record], concurrency_id="models",
              api_visibility="private")
        for slider in (self.max_len, self.d_model):  # redraw at once, whether dragged, keyed (Home, arrows) or typed
            slider.change(self.show, inputs, out + [self.record], trigger_mode="always_last", concurrency_id="models",
                          api_visibility="private")
        page.on_language(self.relabel, [self.record, page.lang], out, concurrency_id="models")
        page.first_screen(self.show, inputs, out + [self.record])

    def _drawn(self, v: views.PositionalView) -> dict:
        return {self.table: v.table, self.sentence: v.sentence, self.text_md: v.text, self.files: v.files}

    @friendly
    def show(self, max_len, d_model, text, model, lang="en"):
        v = views.positional_view(max_len, d_model, text, model, lang)
        return {**self._drawn(v), self.record: self.keep(v.record)}

    @from_record
    def relabel(self, record, lang="en"):
        """The last table in `lang`, from its record (views.positional_redraw: no model call)."""
        return self._drawn(views.positional_redraw(record, lang))
