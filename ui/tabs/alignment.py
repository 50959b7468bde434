"""Attention as alignment: one pair's Encoder-Decoder Attention read as word links the naive way and shifted
(Chen et al. 2020), over the gold links with each reading's AER, beside the checks' table
(explorer/views/alignment.py). Another layer or the language switch redraws from the kept record, no model call."""
from __future__ import annotations

import gradio as gr

from explorer.views import alignment as views
from ui.components import DROPDOWN_MIN_PX, Slider, Table, downloads, friendly, sentence, validator
from ui.tabs import TabBase, from_record

TITLE = "tab.alignment"


class Tab(TabBase):
    def __init__(self, page):
        L, reg = page.L, page.reg
        L(gr.Markdown, "aln.intro")
        names = views.models(reg.names("transformer") + reg.names("seq2seq"))
        model = views.DEFAULT_MODEL if views.DEFAULT_MODEL in names else (names[0] if names else None)
        src, tgt, links = views.gold_pair(model, views.DEFAULT_PAIR) if model else ("", "", "")
        with gr.Row():
            self.model = L(gr.Dropdown, "aln.model", names, value=model, min_width=DROPDOWN_MIN_PX)
            self.pair = L(gr.Dropdown, "aln.pair", views.pair_choices(model) if model else [],
                          value=views.DEFAULT_PAIR if model else None, scale=3)
        with gr.Row():
            self.source = L(gr.Textbox, "aln.source", src, max_lines=2)
            self.target = L(gr.Textbox, "aln.target", tgt, max_lines=2)
            self.links = L(gr.Textbox, "aln.links", links, max_lines=2)
        self.run_btn = L(gr.Button, "aln.run", variant="primary")
        self.summary = gr.Markdown()
        self.layer = L(Slider, "common.layer", 1, 3, value=3, step=1)
        with gr.Row():
            self.naive = L(gr.Plot, "aln.naive_plot")
            self.shifted = L(gr.Plot, "aln.shifted_plot")
        self.table = L(Table, "aln.table", interactive=False)
        self.files = downloads(L)
        self.record = self.record_state()
        drawn = [self.naive, self.shifted, self.summary, self.table, self.files, self.layer]
        inputs = [self.model, self.source, self.target, self.links, page.lang]
        gr.on([self.run_btn.click, self.source.submit, self.target.submit, self.links.submit], self.show, inputs,
              drawn + [self.record], concurrency_id="models", api_visibility="private",
              validator=validator(None, sentence()))
        self.pair.input(self.pick, [self.model, self.pair, page.lang], [self.source, self.target, self.links] + drawn
                        + [self.record], concurrency_id="models", api_visibility="private")
        self.model.input(self.pick_model, [self.model, page.lang], [self.pair, self.source, self.target, self.links]
                         + drawn + [self.record], concurrency_id="models", api_visibility="private")
        self.layer.input(self.redraw, [self.record, self.layer, page.lang], drawn, trigger_mode="always_last",
                         api_visibility="private")
        page.on_language(self.redraw, [self.record, self.layer, page.lang], drawn)
        page.first_screen(self.show, inputs, drawn + [self.record])

    def _drawn(self, v: views.AlignmentView) -> dict:
        return {self.naive: v.naive, self.shifted: v.shifted, self.summary: v.summary, self.table: v.table,
                self.files: v.files, self.layer: gr.Slider(1, max(v.layers, 2), value=v.layer, step=1)}

    @friendly
    def show(self, model, source, target, links, lang="en"):
        v = views.alignment_view(model, source, target, links, None, lang)
        return {**self._drawn(v), self.record: self.keep(v.record)}

    @friendly
    def pick(self, model, pair, lang="en"):
        """A hand-aligned pair: its words and gold links filled in, and read."""
        src, tgt, links = views.gold_pair(model, pair)
        return {self.source: src, self.target: tgt, self.links: links, **self.show(model, src, tgt, links, lang)}

    @friendly
    def pick_model(self, model, lang="en"):
        """Another model: the pairs of its check, the first one read."""
        out = self.pick(model, 0, lang)
        return {**out, self.pair: gr.Dropdown(choices=views.pair_choices(model), value=0)}

    @from_record(ask=False)
    def redraw(self, record, layer, lang="en"):
        return self._drawn(views.alignment_redraw(record, layer, lang))
