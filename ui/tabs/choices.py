"""Next-word choices: the top-k words of every decoding step beside its attention row, for the model's own
translation or one the user types (explorer.views.choices)."""
from __future__ import annotations

import gradio as gr

from explorer import i18n
from explorer.views import choices as views
from ui.components import DROPDOWN_MIN_PX, Slider, downloads, example_clicks, first_is_a_sentence, friendly
from ui.tabs import TabBase, from_record

TITLE = "tab.choices"


class Tab(TabBase):
    def __init__(self, page):
        L, reg = page.L, page.reg
        L(gr.Markdown, "ch.intro")
        names = reg.names("transformer") + [n for n in reg.names("seq2seq")]
        default = "transformer-en-fr" if "transformer-en-fr" in names else (names[0] if names else None)
        with gr.Row():
            self.model = L(gr.Dropdown, "ch.model", names, value=default, min_width=DROPDOWN_MIN_PX)
            self.top_k = L(Slider, "ch.top_k", 1, 10, value=5, step=1)
        self.text = L(gr.Textbox, "common.sentence", i18n.DEFAULT_INPUTS["sentences"][0], max_lines=3)
        self.target = L(gr.Textbox, "ch.target", "", max_lines=2)
        # the presets: the deck's "it ... too tired" sentence first (elle or il: the lesson), with and without
        # a typed translation to score
        examples = L.examples("choices", [self.text, self.model, self.target], lambda r: r if r[1] in names else None)
        self.run_btn = L(gr.Button, "ch.run", variant="primary")
        self.summary = gr.Markdown()
        self.figure = L(gr.Plot, "ch.plot")
        self.table = L.table("ch.table", views.CHOICE_COLUMNS, wrap=True)
        self.files = downloads(L)
        self.record = self.record_state()  # the last run's key (explorer.serve.cache)
        inputs = [self.text, self.model, self.target, self.top_k, page.lang]
        out = [self.summary, self.figure, self.table, self.files]
        gr.on([self.run_btn.click, self.text.submit, self.target.submit], self.show, inputs, out + [self.record],
              concurrency_id="models", api_visibility="private", validator=first_is_a_sentence)
        for trigger in example_clicks(examples):  # a preset runs at once, as a model picked by hand does
            trigger(self.show, inputs, out + [self.record], concurrency_id="models", api_visibility="private")
        self.top_k.input(self.show, inputs, out + [self.record], trigger_mode="always_last", concurrency_id="models",
                         api_visibility="private")
        page.on_language(self.relabel, [self.record, page.lang], out, concurrency_id="models")
        page.first_screen(self.show, inputs, out + [self.record])

    def _drawn(self, v: views.ChoicesView) -> dict:
        return {self.summary: v.summary, self.figure: v.figure, self.table: v.table, self.files: v.files}

    @friendly
    def show(self, text, model, target, top_k, lang="en"):
        v = views.choices_view(text, model, target, top_k, 1, lang)
        return {**self._drawn(v), self.record: self.keep(v.record)}

    @from_record
    def relabel(self, record, lang="en"):
        """The last run in `lang`, from its record (views.choices_redraw: no model call)."""
        return self._drawn(views.choices_redraw(record, lang))
