"""GPT: a prompt continued token by token (greedy, temperature, top-k, top-p), streamed step by step with each
step's next-token distribution, the causal self-attention per layer and head with its masked scores, and the same
text through BERT and the GPT side by side (explorer/views/gpt.py)."""
from __future__ import annotations

import gradio as gr

from explorer.views import gpt as views
from ui.components import (Slider, depth, downloads, first_is_a_sentence, friendly, layer_head_sliders,
                           load_errors_md, sentence, sliders, validator)
from ui.tabs import TabBase, from_record

TITLE = "tab.gpt"
PROMPT = "The students opened their"
HEADS = {"step_plot": "step", "grid": "grid", "head_plot": "head", "scores": "scores", "files": "files"}  # tab: view
COMPARE = ("visibility", "bert_plot", "gpt_plot", "summary", "compare_notice", "compare_files")


def _settings_check(_, args):
    """The sampling settings as the run reads them (its inputs: prompt, greedy, temperature, top-k, top-p, max new
    tokens, seed, ...)."""
    views.check_settings(args[2], args[3], args[4], args[6], args[1], args[5])


class Tab(TabBase):
    def __init__(self, page):
        L, reg = page.L, page.reg
        L(gr.Markdown, "gpt.intro")
        if load_errors_md("gpt"):
            gr.Markdown(load_errors_md("gpt"))
        names = reg.names("gpt")
        self.reg = reg  # the app's registry (read-only, shared)
        self.model = names[0] if names else "gpt"
        self.prompt = L(gr.Textbox, "gpt.prompt", PROMPT, max_lines=3)
        with gr.Row():
            self.greedy = L(gr.Checkbox, "gpt.greedy", value=False)
            # the measured defaults, as the CLI's and the API's (explorer.compute.generate.DEFAULT_TEMPERATURE: why)
            self.temperature = L(Slider, "gpt.temperature", 0.05, views.MAX_TEMPERATURE,
                                 value=views.DEFAULT_TEMPERATURE, step=0.05)
            self.top_k = L(Slider, "gpt.top_k", 0, 200, value=views.DEFAULT_TOP_K, step=1)
            self.top_p = L(Slider, "gpt.top_p", 0.05, 1.0, value=views.DEFAULT_TOP_P, step=0.05)
        with gr.Row():
            self.max_new = L(Slider, "gpt.max_new", 1, views.MAX_NEW_TOKENS, value=30, step=1)
            self.seed = L(gr.Number, "gpt.seed", value=0, precision=0, minimum=0)
        with gr.Row():
            self.run_btn = L(gr.Button, "gpt.run", variant="primary")
            self.stop_btn = L(gr.Button, "gpt.stop", variant="stop")
        L(gr.Markdown, "gpt.text")
        self.text = gr.Markdown()
        self.notice = gr.Markdown()
        self.steps = L.table("gpt.steps", views.STEP_COLUMNS, wrap=True)
        self.step = L(Slider, "gpt.step", 1, views.MAX_NEW_TOKENS, value=1, step=1)
        self.step_plot = L(gr.Plot, "gpt.step_plot")
        self.layer, self.head = layer_head_sliders(L, *depth(reg, self.model))
        self.grid, self.head_plot = L(gr.Plot, "common.all_heads"), L(gr.Plot, "common.selected_head")
        self.scores = L(gr.Plot, "gpt.scores")
        self.files = downloads(L, "gpt.files")
        self.record = self.record_state()  # the generation's key (explorer.serve.cache)
        heads = [getattr(self, n) for n in HEADS]
        inputs = [self.prompt, self.greedy, self.temperature, self.top_k, self.top_p, self.max_new, self.seed,
                  self.layer, self.head, page.lang]
        # a generator: each step streams in; Stop cancels it and Gradio closes it when the page goes away, which
        # closes the generation (explorer.compute.generate.generate_stream), so nothing runs on for a visitor who left
        run = gr.on([self.run_btn.click, self.prompt.submit], self.continue_prompt, inputs,
                    [self.text, self.notice, self.steps, *heads, self.record, self.step, self.layer, self.head],
                    concurrency_id="models", api_visibility="private",
                    validator=validator(sentence("prompt"), None, _settings_check))
        self.stop_btn.click(self.stop, None, None, cancels=[run], queue=False, api_visibility="private")
        for s in (self.step, self.layer, self.head):
            s.input(self.show_heads, [self.record, self.layer, self.head, self.step, page.lang], heads,
                    trigger_mode="always_last", show_progress="hidden", api_visibility="private",
                    concurrency_id="models")  # figures redrawn: the shared queue
        page.on_language(self.relabel, [self.record, self.layer, self.head, self.step, page.lang],
                         [self.notice, self.steps, *heads], concurrency_id="models")
        page.first_screen(self.continue_prompt, inputs,  # the stream's last update: every figure and the record
                          [self.text, self.notice, self.steps, *heads, self.record, self.step, self.layer, self.head])

        with L(gr.Accordion, "gpt.compare_tab", open=True):
            L(gr.Markdown, "gpt.compare_intro")
            self.compare_text = L(gr.Textbox, "common.sentence", "The students opened their books.", max_lines=3)
            self.compare_btn = L(gr.Button, "gpt.compare_run", variant="primary")
            bert_depth = depth(reg, "bert")
            with gr.Row():
                self.bert_layer = L(Slider, "gpt.bert_layer", 1, bert_depth[0], value=bert_depth[0], step=1)
                self.bert_head = L(Slider, "gpt.bert_head_slider", 1, bert_depth[1], value=1, step=1)
                self.gpt_layer = L(Slider, "gpt.gpt_layer", 1, depth(reg, self.model)[0], value=1, step=1)
                self.gpt_head = L(Slider, "gpt.gpt_head_slider", 1, depth(reg, self.model)[1], value=1, step=1)
            self.visibility = L(gr.Plot, "gpt.visibility")
            with gr.Row():
                self.bert_plot, self.gpt_plot = L(gr.Plot, "gpt.bert_plot"), L(gr.Plot, "gpt.gpt_plot")
            self.summary, self.compare_notice = gr.Markdown(), gr.Markdown()
            self.compare_files = downloads(L)
            self.pair = self.record_state()  # the side-by-side record's key
        compare_out = [getattr(self, n) for n in COMPARE]
        knobs = [self.bert_layer, self.bert_head, self.gpt_layer, self.gpt_head]
        gr.on([self.compare_btn.click, self.compare_text.submit], self.compare, [self.compare_text, *knobs, page.lang],
              [*compare_out, self.pair, *knobs], concurrency_id="models", api_visibility="private",
              validator=first_is_a_sentence)
        for s in knobs:
            s.input(self.show_pair, [self.pair, *knobs, page.lang], compare_out, trigger_mode="always_last",
                    show_progress="hidden", api_visibility="private", concurrency_id="models")
        page.on_language(self.show_pair, [self.pair, *knobs, page.lang], compare_out, concurrency_id="models")
        page.first_screen(self.compare, [self.compare_text, *knobs, page.lang], [*compare_out, self.pair, *knobs])

    @friendly
    def stop(self):
        """Stop: the run is cancelled (its generator closed); what it streamed so far stays on screen."""
        return None

    def _heads(self, h: views.GptHeads) -> dict:
        return {getattr(self, mine): getattr(h, theirs) for mine, theirs in HEADS.items()}

    @friendly
    def continue_prompt(self, prompt, greedy, temperature, top_k, top_p, max_new, seed, layer, head, lang="en"):
        """Streams the text and the steps after every token; the last update adds every figure and the record."""
        for v in views.gpt_stream(prompt, max_new, temperature, top_k, top_p, seed, greedy, layer, head, lang,
                                  name=self.model, reg=self.reg):
            out = {self.text: v.text, self.notice: v.notice, self.steps: v.steps}
            if v.heads is not None:
                layer_slider, head_slider = sliders(v.n_layers, v.n_heads, layer, head)
                out.update(self._heads(v.heads))
                out.update({self.record: self.keep(v.record), self.layer: layer_slider, self.head: head_slider,
                            self.step: gr.Slider(minimum=1, maximum=max(v.n_steps, 1), step=1,
                                                 value=max(v.n_steps, 1))})
            yield out

    @from_record(ask=True)
    def show_heads(self, record, layer, head, step, lang="en"):
        """Another layer, head or step: the views again from the record (no model call)."""
        return self._heads(views.gpt_heads(record, layer, head, step, lang))

    @from_record
    def relabel(self, record, layer, head, step, lang="en"):
        """The notice, the steps and every figure of the last generation, in `lang` (views.gpt_redraw)."""
        v = views.gpt_redraw(record, layer, head, step, lang)
        return {self.notice: v.notice, self.steps: v.steps, **self._heads(v.heads)}

    def _pair(self, c: views.CompareView) -> dict:
        return {self.visibility: c.visibility, self.bert_plot: c.bert, self.gpt_plot: c.gpt, self.summary: c.summary,
                self.compare_notice: c.notice, self.compare_files: c.files}

    @friendly
    def compare(self, text, bert_layer, bert_head, gpt_layer, gpt_head, lang="en"):
        c = views.compare_view(text, bert_layer, bert_head, gpt_layer, gpt_head, lang, gpt=self.model,
                                 reg=self.reg)
        bl, bh = sliders(*c.bert_size, bert_layer, bert_head)
        gl, gh = sliders(*c.gpt_size, gpt_layer, gpt_head)
        return {**self._pair(c), self.pair: self.keep(c.record), self.bert_layer: bl, self.bert_head: bh, self.gpt_layer: gl,
                self.gpt_head: gh}

    @from_record
    def show_pair(self, pair, bert_layer, bert_head, gpt_layer, gpt_head, lang="en"):
        return self._pair(views.compare_redraw(pair, bert_layer, bert_head, gpt_layer, gpt_head, lang))
