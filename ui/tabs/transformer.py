"""Transformer: one translation's encoder self-, masked decoder self- and cross attention, every head
and the chosen one (Vaswani et al. 2017), and beam search's n-best (explorer/views/transformer.py)."""
from __future__ import annotations

import gradio as gr

from explorer import i18n
from explorer.views import notices_md
from explorer.views import transformer as views
from ui.components import (DROPDOWN_MIN_PX, Slider, depth, downloads, example_clicks, first_is_a_sentence, friendly,
                           layer_head_sliders, load_errors_md, model_or, sliders)
from ui.shared_runs import shared_run
from ui.tabs import TabBase, from_record

TITLE = "tab.transformer"
KOREAN_EXAMPLE = "나는 학생이다."  # the deck's "I am a student", the other way: the Korean interface's first screen
# A long translation wraps in its own column and the numbers stay in view (they were pushed off to the right).
# In pixels, not percentages: on a 1280 px screen each table fills its row; on a phone it scrolls sideways (as
# percentages of 390 px the headers broke a few letters a line, and numbers in the middle).
HYPOTHESIS_WIDTHS = ["60px", "620px", "170px", "170px", "180px"]  # #, translation, log-prob, score, attention shown
HEADS = ("enc_grid", "enc_head", "dec_grid", "dec_head", "dec_scores", "cross_grid", "cross_head", "files")


class Tab(TabBase):
    def __init__(self, page):
        L, reg = page.L, page.reg
        L(gr.Markdown, "tr.intro")
        if load_errors_md("transformer-"):
            gr.Markdown(load_errors_md("transformer-"))
        names = reg.names("transformer") + sorted(n for n in reg.errors if n.startswith("transformer-"))
        with gr.Row():
            # min_width: on a phone the row wraps, where the arrow sat on "transformer-en-f"
            self.model = L(gr.Dropdown, "common.model", names, value=names[0] if names else None,
                           min_width=DROPDOWN_MIN_PX)
            self.beam = L(Slider, "tr.beam", 1, views.MAX_BEAM, value=1, step=1)
        self.text = L(gr.Textbox, "common.sentence", i18n.DEFAULT_INPUTS["sentences"][0], max_lines=3)
        self.run_btn = L(gr.Button, "common.translate", variant="primary")
        examples = L.examples("transformer", [self.text, self.model], model_or(names))
        self.translation = L(gr.Textbox, "common.translation", interactive=False)
        self.confidence = gr.HTML()  # the words shaded by how unsure the model is, with a legend
        self.notice = gr.Markdown()
        self.hypotheses = L.table("tr.hyps", views.HYPOTHESIS_COLUMNS, wrap=True, column_widths=HYPOTHESIS_WIDTHS)
        self.layer, self.head = layer_head_sliders(L, *depth(reg, names[0] if names else None))
        with L(gr.Tab, "tab.enc"):
            self.enc_grid, self.enc_head = L(gr.Plot, "common.all_heads"), L(gr.Plot, "common.selected_head")
        with L(gr.Tab, "tab.dec"):
            self.dec_grid, self.dec_head = L(gr.Plot, "common.all_heads"), L(gr.Plot, "common.selected_head")
            self.dec_scores = L(gr.Plot, "tr.scores")
        with L(gr.Tab, "tab.cross"):
            self.cross_grid, self.cross_head = L(gr.Plot, "common.all_heads"), L(gr.Plot, "common.selected_head")
        self.files = downloads(L, "tr.files")
        self.record = self.record_state()  # the translation's key (explorer.serve.cache)
        heads = [getattr(self, n) for n in HEADS]
        # another model, picked or set by an example with its sentence: its translation at once
        for trigger in (self.run_btn.click, self.text.submit, self.model.input) + example_clicks(examples):
            trigger(self.run, [self.text, self.model, self.beam, self.layer, self.head, page.lang],
                    [self.translation, self.confidence, self.notice, self.hypotheses, *heads, self.record,
                     self.layer, self.head],
                    concurrency_id="models", api_visibility="private", validator=first_is_a_sentence)
        for s in (self.layer, self.head):
            s.input(self.show_heads, [self.record, self.layer, self.head, page.lang], heads,
                    trigger_mode="always_last", show_progress="hidden", api_visibility="private",
                    concurrency_id="models")  # every redraw of a record's figures: the shared queue
        page.on_language(self.relabel, [self.record, self.layer, self.head, page.lang],
                         [self.confidence, self.notice, self.hypotheses, *heads], concurrency_id="models")
        korean = {self.model: "transformer-ko-en", self.text: KOREAN_EXAMPLE} if "transformer-ko-en" in names else None
        page.first_screen(self.run, [self.text, self.model, self.beam, self.layer, self.head, page.lang],
                          [self.translation, self.confidence, self.notice, self.hypotheses, *heads, self.record,
                           self.layer, self.head], korean=korean)

    def _heads(self, v: views.TransformerHeads) -> dict:
        return {getattr(self, n): getattr(v, n) for n in HEADS}

    @friendly
    @shared_run  # identical inputs from any session: one run (40 students pressing the deck's example)
    def run(self, text, model, beam, layer, head, lang="en"):
        v = views.transformer_view(text, model, beam, layer, head, lang)
        layer_slider, head_slider = sliders(v.n_layers, v.n_heads, layer, head)
        return {self.translation: v.translation, self.confidence: v.confidence, self.notice: v.notice,
                self.hypotheses: v.hypotheses,
                **self._heads(v.heads), self.record: self.keep(v.record), self.layer: layer_slider,
                self.head: head_slider}

    @from_record(ask=True)
    def show_heads(self, record, layer, head, lang="en"):
        """Another layer or head: every view again from the record (no model call)."""
        return self._heads(views.transformer_heads(record, layer, head, lang))

    @from_record
    def relabel(self, record, layer, head, lang="en"):
        """The shaded words, the notice, the hypotheses and every attention view of the last translation, in
        `lang`."""
        return {self.confidence: views.shaded_translation(record.target_tokens, record.token_probs, lang),
                self.notice: notices_md(record.notices, lang=lang),
                self.hypotheses: views.hypotheses_table(record, lang),
                **self._heads(views.transformer_heads(record, layer, head, lang))}
