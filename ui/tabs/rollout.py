"""Rollout & entropy: attention rollout through the layers (Abnar & Zuidema 2020) and each head's
entropy, for a BERT or a Transformer encoder (explorer/views/rollout.py: rollout_view)."""
from __future__ import annotations

import gradio as gr

from explorer import i18n
from explorer.views import rollout as views
from ui.components import (DROPDOWN_MIN_PX, Slider, depth, downloads, example_clicks, first_is_a_sentence, friendly,
                           model_or)
from ui.tabs import TabBase

TITLE = "tab.rollout"


class Tab(TabBase):
    def __init__(self, page):
        L, reg = page.L, page.reg
        L(gr.Markdown, "ro.intro")
        names = reg.names("bert") + reg.names("transformer")
        with gr.Row():
            self.model = L(gr.Dropdown, "ro.model", names, value=names[0] if names else None,
                           min_width=DROPDOWN_MIN_PX)
            n = depth(reg, names[0] if names else None)[0]  # rollout through all layers
            self.layer = L(Slider, "common.layer", 1, max(n, 2), value=n, step=1)
        self.text = L(gr.Textbox, "common.sentence", i18n.DEFAULT_INPUTS["sentences"][1], max_lines=3)
        self.run_btn = L(gr.Button, "ro.run", variant="primary")
        self.notice = gr.Markdown()
        examples = L.examples("rollout", [self.text, self.model], model_or(names))
        # full width, one under the other: in half a row the token labels ran together
        self.rollout = L(gr.Plot, "ro.rollout")
        self.row_entropy = L(gr.Plot, "ro.row_entropy")
        with gr.Row():
            self.grid = L(gr.Plot, "ro.grid")
            self.entropy = L(gr.Plot, "ro.entropy")
        self.files = downloads(L)
        self.record = gr.State(None)  # TabBase.keep: a key, the record stays on the server
        drawn = [self.grid, self.entropy, self.rollout, self.row_entropy, self.files, self.notice]
        outs = drawn + [self.record, self.layer]
        gr.on([self.run_btn.click, self.text.submit], self.run, [self.text, self.model, self.layer, page.lang], outs,
              concurrency_id="models", api_visibility="private", validator=first_is_a_sentence)

        @friendly
        def _rollout_layers(name):  # another model: its rollout through all of its layers
            n = depth(reg, name)[0]
            return gr.Slider(1, max(n, 2), value=n)

        # the slider at the new model's depth at once, outside the "models" queue the run waits in
        self.model.input(_rollout_layers, self.model, self.layer, show_progress="hidden", api_visibility="private")
        # another model, or an example (its sentence and model): the rollout through all of its layers
        for trigger in (self.model.input,) + example_clicks(examples):
            trigger(self.run_model, [self.text, self.model, page.lang], outs, concurrency_id="models",
                    api_visibility="private", validator=first_is_a_sentence)
        self.layer.input(self.show_layer, [self.record, self.layer, page.lang], [self.rollout, self.row_entropy],
                         trigger_mode="always_last", show_progress="hidden", api_visibility="private",
                         concurrency_id="models")  # figures redrawn: the shared queue
        page.on_language(self.relabel, [self.record, self.layer, page.lang], drawn, concurrency_id="models")
        page.first_screen(self.run, [self.text, self.model, self.layer, page.lang], outs)

    def _drawn(self, v: views.RolloutView) -> dict:
        return {self.grid: v.grid, self.entropy: v.entropy, self.rollout: v.layer.rollout,
                self.row_entropy: v.layer.row_entropy, self.files: v.files, self.notice: v.notice}

    @friendly
    def run(self, text, model, layer, lang="en"):
        v = views.rollout_view(text, model, layer, lang)
        return {**self._drawn(v), self.record: self.keep(v.record),
                self.layer: gr.Slider(1, max(v.n_layers, 2), step=1, value=min(int(layer or v.n_layers), v.n_layers),
                                      interactive=v.n_layers > 1)}

    @friendly
    def run_model(self, text, model, lang="en"):
        """Another model: the sentence through it at once, over all of its layers (the record on screen was
        the other model's, which the layer slider went on redrawing)."""
        return self.run(text, model, None, lang)

    @friendly
    def show_layer(self, record, layer, lang="en"):
        record = self.stored(record)
        v = views.rollout_redraw(record, min(int(layer or 1), record.rollout.shape[0]) if record else None, lang)
        return {self.rollout: v.rollout, self.row_entropy: v.row_entropy}

    @friendly
    def relabel(self, record, layer, lang="en"):
        """Every view of the last rollout, in `lang` (from its record: no model call)."""
        record = self.stored(record, None)
        return gr.skip() if record is None else self._drawn(views.rollout_render(record, layer, lang))
