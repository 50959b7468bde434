"""seq2seq + attention: one RNN encoder-decoder per score function (Luong et al. 2015, Bahdanau et al.
2015), its alignment and one decoding step at a time (explorer/views/seq2seq.py)."""
from __future__ import annotations

import gradio as gr

from explorer import i18n
from explorer.views import seq2seq as views
from ui.components import (Slider, downloads, example_clicks, first_is_a_sentence, friendly, load_errors_md)
from ui.shared_runs import shared_run
from ui.tabs import TabBase, from_record

TITLE = "tab.seq2seq"


class Tab(TabBase):
    def __init__(self, page):
        L, reg = page.L, page.reg
        L(gr.Markdown, "s2s.intro")
        if load_errors_md("seq2seq-"):
            gr.Markdown(load_errors_md("seq2seq-"))
        choices = views.seq2seq_choices(reg)
        with gr.Row():
            self.model = L(gr.Radio, "s2s.score", choices, value=choices[0][1] if choices else None)
        self.text = L(gr.Textbox, "s2s.text", i18n.DEFAULT_INPUTS["sentences"][0], max_lines=3)
        self.run_btn = L(gr.Button, "common.translate", variant="primary")
        examples = L.examples("seq2seq", [self.text])
        self.translation = L(gr.Textbox, "common.translation", interactive=False)
        self.confidence = gr.HTML()  # the words shaded by how unsure the model is, with a legend
        self.notice = gr.Markdown()
        self.alignment = L(gr.Plot, "s2s.align")
        self.step = L(Slider, "s2s.step", 1, 2, value=1, step=1)
        self.step_text = gr.Markdown()
        self.bars = L(gr.Plot, "s2s.bars")
        self.files = downloads(L, "s2s.files")
        self.record = self.record_state()  # the translation's key (explorer.serve.cache)
        drawn = [self.alignment, self.bars, self.step_text]
        # another score function, or an example's sentence: its translation at once
        for trigger in (self.run_btn.click, self.text.submit, self.model.input) + example_clicks(examples):
            trigger(self.run, [self.text, self.model, page.lang],
                    [self.translation, self.confidence, self.notice, *drawn, self.files, self.record, self.step],
                    concurrency_id="models", api_visibility="private", validator=first_is_a_sentence)
        self.step.input(self.show_step, [self.record, self.step, page.lang], drawn,
                        trigger_mode="always_last", show_progress="hidden", api_visibility="private",
                        concurrency_id="models")  # every redraw of a record's figures: the shared queue
        # what is drawn before anyone presses a button follows the switch too (it was drawn in English)
        page.on_language(friendly(lambda lang: gr.Radio(choices=views.seq2seq_choices(reg, lang))),
                         page.lang, self.model)
        page.on_language(self.relabel, [self.record, self.step, page.lang], [self.confidence, self.notice, *drawn],
                         concurrency_id="models")
        page.first_screen(self.run, [self.text, self.model, page.lang],
                          [self.translation, self.confidence, self.notice, *drawn, self.files, self.record,
                           self.step])

    def _step(self, record, step, lang) -> dict:
        alignment, bars, text = views.seq2seq_step(record, step, lang)
        return {self.alignment: alignment, self.bars: bars, self.step_text: text}

    @friendly
    @shared_run  # identical inputs from any session: one run
    def run(self, text, model, lang="en"):
        v = views.seq2seq_view(text, model, 1, lang)
        return {self.translation: v.translation, self.confidence: v.confidence, self.notice: v.notice,
                self.alignment: v.alignment,
                self.bars: v.step_bars, self.step_text: v.step_text, self.files: v.files,
                self.record: self.keep(v.record),
                self.step: gr.Slider(minimum=1, maximum=max(v.steps, 2), step=1, value=1, interactive=v.steps > 1)}

    @from_record(ask=True)
    def show_step(self, record, step, lang="en"):
        return self._step(record, step, lang)

    @from_record
    def relabel(self, record, step, lang="en"):
        """The shaded words, the notice and step views of the last translation, in `lang` (from its record: no
        model call)."""
        return {self.confidence: views.shaded_translation(record.target_tokens, record.token_probs, lang),
                self.notice: views.seq2seq_notice(record, lang), **self._step(record, step, lang)}
