"""BERT's inputs & masking: token + segment + learned position embeddings, the position tables, BERT's sizes,
and the 80/10/10 rule on a typed sentence (explorer.views.bert_inputs)."""
from __future__ import annotations

import gradio as gr

from explorer import i18n
from explorer.views import bert_inputs as views
from ui.components import DROPDOWN_MIN_PX, Slider, downloads, first_is_a_sentence, friendly
from ui.tabs import TabBase, from_record

TITLE = "tab.bert_inputs"


class Tab(TabBase):
    def __init__(self, page):
        L, reg = page.L, page.reg
        names = reg.names("bert")
        default = "bert" if "bert" in names else (names[0] if names else None)
        L(gr.Markdown, "bi.intro")
        with gr.Row():
            self.model = L(gr.Dropdown, "bert.model", names, value=default, visible=len(names) > 1,
                           min_width=DROPDOWN_MIN_PX)
            self.positions = L(Slider, "bi.positions", 2, 256, value=64, step=1)
        self.text = L(gr.Textbox, "common.sentence", i18n.DEFAULT_INPUTS["query_key"], max_lines=3)
        self.text_b = L(gr.Textbox, "bi.text_b", i18n.DEFAULT_INPUTS["next"], max_lines=3)
        self.run_btn = L(gr.Button, "bi.run", variant="primary")
        self.summary = gr.Markdown()
        self.sum_plot = L(gr.Plot, "bi.plot_sum")
        self.pos_plot = L(gr.Plot, "bi.plot_pos")
        self.files = downloads(L)
        L(gr.Markdown, "bi.mask_intro")
        with gr.Row():
            self.seed = L(gr.Number, "bi.seed", value=0, precision=0, minimum=0)
            self.prob = L(Slider, "bi.prob", 0.05, 1.0, value=views.MLM_PROB, step=0.05)
            self.top_k = L(Slider, "ch.top_k", 1, 10, value=5, step=1)
        self.mask_btn = L(gr.Button, "bi.mask_run", variant="primary")
        self.mask_summary = gr.Markdown()
        self.mask_table = L.table("bi.mask_table", views.MASK_COLUMNS, wrap=True)
        self.mask_files = downloads(L)
        self.record, self.mask_record = self.record_state(), self.record_state()  # the last runs' keys
        out = [self.summary, self.sum_plot, self.pos_plot, self.files]
        gr.on([self.run_btn.click, self.text.submit], self.show,
              [self.text, self.text_b, self.positions, self.model, page.lang], out + [self.record],
              concurrency_id="models", api_visibility="private", validator=first_is_a_sentence)
        mask_out = [self.mask_summary, self.mask_table, self.mask_files]
        gr.on([self.mask_btn.click], self.mask,
              [self.text, self.seed, self.prob, self.top_k, self.model, page.lang], mask_out + [self.mask_record],
              concurrency_id="models", api_visibility="private", validator=first_is_a_sentence)
        page.on_language(self.relabel, [self.record, page.lang], out, concurrency_id="models")
        page.on_language(self.relabel_mask, [self.mask_record, page.lang], mask_out, concurrency_id="models")
        page.first_screen(self.show, [self.text, self.text_b, self.positions, self.model, page.lang],
                          out + [self.record])
        page.first_screen(self.mask, [self.text, self.seed, self.prob, self.top_k, self.model, page.lang],
                          mask_out + [self.mask_record])

    def _drawn(self, v: views.BertInputsView) -> dict:
        return {self.summary: v.summary, self.sum_plot: v.sum_figure, self.pos_plot: v.positions_figure,
                self.files: v.files}

    def _masked(self, v: views.MaskingView) -> dict:
        return {self.mask_summary: v.summary, self.mask_table: v.table, self.mask_files: v.files}

    @friendly
    def show(self, text, text_b, positions, model, lang="en"):
        v = views.bert_inputs_view(text, text_b, positions, model or "bert", lang)
        return {**self._drawn(v), self.record: self.keep(v.record)}

    @friendly
    def mask(self, text, seed, prob, top_k, model, lang="en"):
        v = views.masking_view(text, 0 if seed is None else seed, prob, top_k, model or "bert", lang)
        return {**self._masked(v), self.mask_record: self.keep(v.record)}

    @from_record
    def relabel(self, record, lang="en"):
        """The inputs of the last run in `lang`, from its record (views.bert_inputs_redraw: no model call)."""
        return self._drawn(views.bert_inputs_redraw(record, lang))

    @from_record
    def relabel_mask(self, record, lang="en"):
        """The last masking in `lang`, from its record (views.masking_redraw: no model call)."""
        return self._masked(views.masking_redraw(record, lang))
