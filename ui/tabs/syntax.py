"""Heads vs syntax: each head's accuracy at pointing from a word to its dependency head on UD English EWT dev,
against the best fixed offset (Clark et al. 2019, section 4.2), and a sentence with one head's attention drawn
over it (explorer/views/syntax.py: syntax_view; the table is precomputed in assets/syntax/)."""
from __future__ import annotations

import gradio as gr

from explorer.views import syntax as views
from ui.components import DROPDOWN_MIN_PX, Slider, Table, depth, downloads, friendly
from ui.tabs import TabBase, from_record

TITLE = "tab.syntax"


class Tab(TabBase):
    def __init__(self, page):
        L, reg = page.L, page.reg
        L(gr.Markdown, "syn.intro")
        names = views.models_with_tables(reg.names("bert") + reg.names("transformer"))
        model = names[0] if names else None
        rels = views.relation_names(model) if model else []
        rel = views.DEFAULT_RELATION if views.DEFAULT_RELATION in rels else (rels[0] if rels else None)
        layer, head = views.best_head(model, rel) if rel else (1, 1)
        n_layers, n_heads = depth(reg, model)
        with gr.Row():
            self.model = L(gr.Dropdown, "syn.model", names, value=model, min_width=DROPDOWN_MIN_PX)
            self.relation = L(gr.Dropdown, "syn.relation", rels, value=rel, min_width=DROPDOWN_MIN_PX)
            self.direction = L(gr.Radio, "syn.direction", [("dep → head", "dep->head"), ("head → dep", "head->dep")],
                               value="dep->head")
        self.table = L(Table, "syn.table", interactive=False)
        self.grid = L(gr.Plot, "syn.grid")
        self.text = L(gr.Dropdown, "syn.sentence", views.EXAMPLE_TEXTS, value=views.EXAMPLE_TEXTS[0],
                      allow_custom_value=True)
        with gr.Row():
            self.layer = L(Slider, "common.layer", 1, max(n_layers, 2), value=layer, step=1)
            self.head = L(Slider, "common.head", 1, max(n_heads, 2), value=head, step=1)
        self.run_btn = L(gr.Button, "syn.run", variant="primary")
        self.arcs = L(gr.Plot, "syn.arcs")
        self.summary = gr.Markdown()
        self.files = downloads(L)
        self.record = self.record_state()  # the last run's key (explorer.serve.cache): the switch redraws it
        inputs = [self.model, self.relation, self.direction, self.text, self.layer, self.head, page.lang]
        drawn = [self.table, self.grid, self.arcs, self.summary, self.files, self.layer, self.head]
        outs = drawn + [self.record]
        gr.on([self.run_btn.click, self.text.select, self.direction.input], self.show, inputs, outs,
              concurrency_id="models", api_visibility="private")
        for slider in (self.layer, self.head):  # another head of the same run: redrawn from its record
            slider.input(self.show_head, [self.record, self.layer, self.head, page.lang], drawn,
                         trigger_mode="always_last", concurrency_id="models", api_visibility="private")
        # another relation or model: its best head drawn on the sentence
        best_inputs = [self.model, self.relation, self.direction, self.text, page.lang]
        gr.on([self.relation.input, self.model.input], self.show_best, best_inputs, outs + [self.relation],
              concurrency_id="models", api_visibility="private")
        page.on_language(self.relabel, [self.record, self.layer, self.head, page.lang], drawn,
                         concurrency_id="models")
        page.first_screen(self.show, inputs, outs)

    def _drawn(self, v: views.SyntaxView, n_layers: int, n_heads: int) -> dict:
        return {self.table: v.table, self.grid: v.grid, self.arcs: v.arcs, self.summary: v.summary,
                self.files: v.files, self.layer: gr.Slider(1, max(n_layers, 2), value=v.layer, step=1),
                self.head: gr.Slider(1, max(n_heads, 2), value=v.head, step=1)}

    def _view(self, v: views.SyntaxView) -> dict:
        t = views.table(v.record.model)
        return self._drawn(v, t["layers"], t["heads"])

    @friendly
    def show(self, model, relation, direction, text, layer, head, lang="en"):
        v = views.syntax_view(model, relation, direction, text, int(layer or 1), int(head or 1), lang)
        return {**self._view(v), self.record: self.keep(v.record)}

    def _redraw(self, record, layer, head, lang="en"):
        """The kept run at `layer`, `head`, in `lang` (views.syntax_redraw: no model call); none yet: nothing changes
        (a slider moved before the first screen landed)."""
        if record is None:
            return gr.skip()
        return self._view(views.syntax_redraw(record, int(layer or 1), int(head or 1), lang))

    @from_record(ask=True)
    def show_head(self, record, layer, head, lang="en"):
        """Another layer or head of the kept run (a record that is gone asks for a new run)."""
        return self._redraw(record, layer, head, lang)

    @from_record
    def relabel(self, record, layer, head, lang="en"):
        """The kept run in `lang` (a record that is gone changes nothing)."""
        return self._redraw(record, layer, head, lang)

    @friendly
    def show_best(self, model, relation, direction, text, lang="en"):
        """Another relation or model: the relation's best head on the sentence (a relation the model's table
        lacks: the default one)."""
        rels = views.relation_names(model)
        relation = relation if relation in rels else views.DEFAULT_RELATION
        layer, head = views.best_head(model, relation)
        out = self.show(model, relation, direction, text, layer, head, lang)
        return {**out, self.relation: gr.Dropdown(choices=rels, value=relation)}
