"""Query · key: one query token's scores q·k/√d_k against every key, their softmax, and the model's own
attention beside it (Vaswani et al. 2017, eq. 1); under them the head's queries and keys of many sentences in one
plane with the typed sentence's own (AttentionViz, Yeh et al. 2023). explorer.views.query_key computes both."""
from __future__ import annotations

import gradio as gr

from explorer import i18n
from explorer.views import query_key as views
from ui.components import (DROPDOWN_MIN_PX, depth, downloads, first_is_a_sentence, friendly, layer_head_sliders,
                           safe_initial, sliders)
from ui.tabs import TabBase, from_record

TITLE = "tab.qk"


class Tab(TabBase):
    def __init__(self, page):
        L, reg = page.L, page.reg
        L(gr.Markdown, "qk.intro")
        names = reg.names("bert")
        default = "bert" if "bert" in names else (names[0] if names else None)
        text = i18n.DEFAULT_INPUTS["query_key"]
        with gr.Row():
            self.model = L(gr.Dropdown, "bert.model", names, value=default, visible=len(names) > 1,
                           min_width=DROPDOWN_MIN_PX)
            first = safe_initial(views.query_tokens, text, default) if default else None
            self.query = L(gr.Dropdown, "qk.query", choices=first or [], value=0, allow_custom_value=True)
        self.layer, self.head = layer_head_sliders(L, *depth(reg, default))
        self.text = L(gr.Textbox, "common.sentence", text, max_lines=3)
        self.run_btn = L(gr.Button, "qk.run", variant="primary")
        self.text_md = gr.Markdown()
        self.figure = L(gr.Plot, "qk.figure")
        self.table = L.table("qk.table", views.QK_COLUMNS)
        self.files = downloads(L)
        L(gr.Markdown, "qke.heading")
        self.colour = L(gr.Radio, "qke.colour_by", choices=views.colour_choices("en"), value="kind")
        self.embedding = L(gr.Plot, "qke.figure")
        self.embedding_md = gr.Markdown()
        self.record = self.record_state()  # the last run's key in explorer.serve.cache: the switch redraws it, no model call
        inputs = [self.text, self.model, self.layer, self.head, self.query, self.colour, page.lang]
        drawn = [self.figure, self.table, self.text_md, self.files, self.embedding, self.embedding_md]
        out = drawn + [self.query, self.record]
        gr.on([self.run_btn.click, self.text.submit], self.show, inputs, out, concurrency_id="models",
              api_visibility="private", validator=first_is_a_sentence)
        for c in (self.query, self.layer, self.head):
            c.input(self.show, inputs, out, trigger_mode="always_last", concurrency_id="models",
                    api_visibility="private")
        self.colour.input(self.recolour, [self.record, self.colour, page.lang], [self.embedding],
                          trigger_mode="always_last", show_progress="hidden", concurrency_id="models",
                          api_visibility="private")
        self.model.change(self.model_sliders, self.model, [self.layer, self.head], api_visibility="private")
        for c in (self.text, self.model):
            c.change(self.query_choices, [self.text, self.model, self.query], self.query, trigger_mode="always_last",
                     show_progress="hidden", concurrency_id="models", api_visibility="private")
        page.on_language(self.relabel, [self.record, self.colour, page.lang], drawn + [self.colour],
                         concurrency_id="models")
        page.first_screen(self.show, inputs, out)

    def _drawn(self, v: views.QueryKeyView) -> dict:
        shown = v.table.round(6)  # on screen: "softmax" and "model attention" agree to these digits (the CSV has all)
        return {self.figure: v.figure, self.table: shown, self.text_md: v.text, self.files: v.files,
                self.embedding: v.embedding, self.embedding_md: v.embedding_text}

    @friendly
    def show(self, text, model, layer, head, query, colour, lang):
        v = views.query_key_view(text, layer, head, query, model, lang, colour)
        return {**self._drawn(v), self.query: gr.Dropdown(choices=v.choices, value=v.record.query_index),
                self.record: self.keep(v.record)}

    @from_record
    def relabel(self, record, colour, lang="en"):
        """The last run in `lang`, from its record (no model call): the figures, table, texts and colour choices."""
        v = views.query_key_redraw(record, lang, colour)
        return {**self._drawn(v), self.colour: gr.Radio(choices=views.colour_choices(lang), value=colour)}

    @from_record
    def recolour(self, record, colour, lang="en"):
        """The plane of many sentences coloured another way, from the record (no model call)."""
        return {self.embedding: views.embedding_view(record, lang, colour)[0]}

    @friendly
    def model_sliders(self, model):
        """Another BERT: the layer and head sliders at its depth."""
        c = views.registry().get(model, "bert").config
        layer, head = sliders(c.n_layers, c.n_heads, 1, 1)
        return {self.layer: layer, self.head: head}

    @friendly
    def query_choices(self, text, model, query):
        """The query-token chooser follows the sentence as it is typed (and the model), before Show runs: its
        choices are this text's tokens, the chosen position kept where it still exists. An input Show would
        refuse (empty) leaves the chooser as it is; Show says what is wrong."""
        try:
            choices = views.query_tokens(text, model)
        except views.UserError:
            return gr.skip()
        try:
            q = int(query)
        except (TypeError, ValueError):
            q = 0
        return gr.Dropdown(choices=choices, value=min(max(q, 0), len(choices) - 1))
