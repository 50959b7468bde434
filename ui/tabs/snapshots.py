"""Attention over training: one probe sentence's attention at the checkpoints a training run saved on its
way (explorer/views/snapshots.py: snapshot_view)."""
from __future__ import annotations

import gradio as gr

from explorer.views import shared
from explorer.views import snapshots as views
from ui.components import DROPDOWN_MIN_PX, Slider, downloads, friendly, safe_initial

TITLE = "tab.snapshots"


class Tab:
    def __init__(self, page):
        L = page.L
        L(gr.Markdown, "snap.intro")
        names = views.snapshot_models()
        meta = safe_initial(views.snapshot_meta, names[0]) if names else None
        with shared():  # drawn with the page for every visitor: its downloads are kept for all of them
            first = safe_initial(views.snapshot_view, names[0]) if meta else None
        with gr.Row():
            self.model = L(gr.Dropdown, "snap.model", names, value=names[0] if names else None,
                           min_width=DROPDOWN_MIN_PX)
            self.probe = L(gr.Dropdown, "snap.probe", choices=meta.probes if meta else [], value=0,
                           min_width=DROPDOWN_MIN_PX)
        with gr.Row():
            self.k = L(Slider, "snap.slider", 1, max(meta.n_snapshots if meta else 2, 2), step=1,
                       value=meta.n_snapshots if meta else 1, scale=3)
            self.layer = L(Slider, "common.layer", 1, max(meta.n_layers if meta else 2, 2), step=1,
                           value=meta.n_layers if meta else 1, interactive=bool(meta and meta.n_layers > 1),
                           visible=bool(meta and meta.n_layers > 1))
        self.text = gr.Markdown(first.text if first else "")
        with gr.Row():
            self.heatmap = L(gr.Plot, "snap.heatmap", value=first.heatmap if first else None)
            self.entropy = L(gr.Plot, "snap.entropy", value=first.entropy if first else None)
        self.files = downloads(L, "common.download_record", value=first.files if first else None)
        shown = [self.heatmap, self.entropy, self.text, self.files]
        inputs = [self.model, self.probe, self.k, self.layer, page.lang]
        self.model.input(self.pick_model, [self.model, page.lang], [self.probe, self.k, self.layer] + shown,
                         api_visibility="private")
        for c in (self.probe, self.k, self.layer):
            c.input(self.show, inputs, shown, trigger_mode="always_last", show_progress="hidden",
                    api_visibility="private", concurrency_id="models")  # figures redrawn: the shared queue
        if names:
            page.on_language(self.show, inputs, shown, concurrency_id="models")

    @friendly
    def show(self, model, probe, k, layer, lang):
        v = views.snapshot_view(model, probe, k, layer, lang)
        return {self.heatmap: v.heatmap, self.entropy: v.entropy, self.text: v.text, self.files: v.files}

    @friendly
    def pick_model(self, model, lang):
        """A new model: its probes, snapshot and layer ranges, and its last snapshot."""
        m = views.snapshot_meta(model)
        return {self.probe: gr.Dropdown(choices=m.probes, value=0),
                self.k: gr.Slider(1, max(m.n_snapshots, 2), step=1, value=m.n_snapshots),
                # a one-layer model has no layer to choose (it read 1–2)
                self.layer: gr.Slider(1, max(m.n_layers, 2), step=1, value=m.n_layers, interactive=m.n_layers > 1,
                                      visible=m.n_layers > 1),
                **self.show(model, 0, m.n_snapshots, m.n_layers, lang)}
