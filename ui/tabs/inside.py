"""Inside a layer: one token through one Transformer, BERT or GPT layer, every vector of the computation
(explorer.views.inside; explorer.compute.inside recomputes it from the weights)."""
from __future__ import annotations

import gradio as gr

from explorer import i18n
from explorer.views import inside as views
from ui.components import DROPDOWN_MIN_PX, Slider, Table, downloads, first_is_a_sentence, friendly, no_rows
from ui.tabs import TabBase

TITLE = "tab.layer"
PARTS = 2  # attention sublayers a layer may have: a decoder's masked self-attention and Encoder-Decoder Attention


def stack_choices(lang: str = "en") -> list[tuple[str, str]]:
    return [(i18n.t("il.encoder", lang), "encoder"), (i18n.t("il.decoder", lang), "decoder")]


class Tab(TabBase):
    def __init__(self, page):
        L, reg = page.L, page.reg
        L(gr.Markdown, "il.intro")
        names = reg.names("transformer") + reg.names("bert") + reg.names("gpt")
        default = "transformer-en-fr" if "transformer-en-fr" in names else (names[0] if names else None)
        n_layers = reg.models[default].config.n_layers if default else 12
        with gr.Row():
            self.model = L(gr.Dropdown, "il.model", names, value=default, min_width=DROPDOWN_MIN_PX)
            self.stack = L(gr.Radio, "il.stack", choices=stack_choices(), value="encoder")
            self.layer = L(Slider, "common.layer", 1, n_layers, value=1, step=1)
            self.token = L(gr.Dropdown, "il.token", choices=[], value=1, allow_custom_value=True)
        self.text = L(gr.Textbox, "common.sentence", i18n.DEFAULT_INPUTS["sentences"][0], max_lines=3)
        self.target = L(gr.Textbox, "il.target", "", max_lines=2)
        self.run_btn = L(gr.Button, "il.run", variant="primary")
        self.summary = gr.Markdown()
        self.stream = L(gr.Plot, "il.plot_stream")
        # its headers before the first run, in English: the first screen fills it in the page's language
        self.layer_norms = L(Table, "il.plot_ln", value=no_rows(views.LN_COLUMNS), interactive=False)
        self.parts = []
        for i in range(PARTS):
            with gr.Column(visible=i == 0) as col:
                kv = L(gr.Plot, "il.plot_kv")  # Q, K and V first, as the deck: then the scores they give
                self.parts.append((col, L(gr.Plot, "il.plot_scores"), L(gr.Plot, "il.plot_qkv"),
                                   L(gr.Plot, "il.plot_heads"), kv))
        self.ffn = L(gr.Plot, "il.plot_ffn")
        self.files = downloads(L)
        self.record = self.record_state()  # the last run's key (explorer.serve.cache)
        inputs = [self.text, self.model, self.layer, self.token, self.stack, self.target, page.lang]
        self.outputs = ([self.summary, self.stream, self.layer_norms, self.ffn, self.files, self.token]
                        + [c for part in self.parts for c in part])
        gr.on([self.run_btn.click, self.text.submit, self.target.submit], self.show, inputs,
              self.outputs + [self.record], concurrency_id="models", api_visibility="private",
              validator=first_is_a_sentence)
        for c in (self.token, self.layer, self.stack):
            c.input(self.show, inputs, self.outputs + [self.record], trigger_mode="always_last",
                    concurrency_id="models", api_visibility="private")
        self.model.change(self.model_changed, self.model, [self.layer, self.stack], api_visibility="private")
        page.on_language(self.relabel, [self.record, page.lang], self.outputs + [self.stack], concurrency_id="models")
        page.first_screen(self.first_view, inputs, self.outputs + [self.record, self.stack])

    @friendly
    def show(self, text, model, layer, token, stack, target, lang="en"):
        try:
            token = int(token)
        except (TypeError, ValueError):
            token = 0
        v = views.inside_view(text, model, layer, max(token, 0), stack, target, lang)
        return {**self._drawn(v), self.record: self.keep(v.record)}

    def _drawn(self, v: views.InsideView) -> dict:
        out = {self.summary: v.summary, self.stream: v.stream, self.layer_norms: v.layer_norms, self.ffn: v.ffn,
               self.files: v.files,
               self.token: gr.Dropdown(choices=views.token_choices(v.record), value=v.record.token_index)}
        for i, (col, scores, qkv, heads, kv) in enumerate(self.parts):
            shown = i < len(v.attention)
            out[col] = gr.Column(visible=shown)
            if shown:
                a = v.attention[i]
                out.update({scores: a.scores, qkv: a.qkv, heads: a.heads, kv: a.keys_values})
        return out

    @friendly
    def first_view(self, text, model, layer, token, stack, target, lang="en"):
        """The first screen: the default example, and the stack's choices in `lang` (as the switch redraws them)."""
        return {**self.show(text, model, layer, token, stack, target, lang),
                self.stack: gr.Radio(choices=stack_choices(lang))}

    @friendly
    def model_changed(self, model):
        """Another model: the layer slider at its depth; BERT has an encoder only, a GPT a decoder only."""
        n, fixed = views.model_depth(model)
        stack = gr.Radio(value=fixed, interactive=False) if fixed else gr.Radio(interactive=True)
        return {self.layer: gr.Slider(minimum=1, maximum=n, step=1, value=1), self.stack: stack}

    @friendly
    def relabel(self, record, lang="en"):
        """The stack's choices and, from the kept record (views.inside_redraw: no model call), the last run in
        `lang`."""
        out = {self.stack: gr.Radio(choices=stack_choices(lang))}
        record = self.stored(record)
        if record is not None:
            out.update(self._drawn(views.inside_redraw(record, lang)))
        return out
