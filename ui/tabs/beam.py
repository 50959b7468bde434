"""Beam search: every hypothesis of one search with its log-probability and score, and the attention of
the one chosen (explorer/views/beam.py: beam_view, beam_choice)."""
from __future__ import annotations

import gradio as gr

from explorer import i18n
from explorer.views import beam as views
from ui.components import (BESIDE_MIN_PX, DROPDOWN_MIN_PX, Slider, downloads, example_clicks, first_is_a_sentence,
                           friendly, model_or)
from ui.tabs import TabBase, from_record

TITLE = "tab.beam"
BEAM_WIDTHS = ["60px", "540px", "130px", "130px", "340px"]  # #, translation, log-prob, score, tokens


class Tab(TabBase):
    def __init__(self, page):
        L = page.L
        L(gr.Markdown, "beam.intro")
        names = views.translation_models(page.reg)
        with gr.Row():
            self.model = L(gr.Dropdown, "common.model", names, value=names[0] if names else None,
                           min_width=DROPDOWN_MIN_PX)
            self.beam = L(Slider, "beam.size", 2, views.MAX_BEAM, value=4, step=1)
        self.text = L(gr.Textbox, "common.sentence", i18n.DEFAULT_INPUTS["sentences"][1], max_lines=3)
        self.run_btn = L(gr.Button, "beam.run", variant="primary")
        examples = L.examples("transformer", [self.text, self.model], model_or(names))
        self.table = L.table("beam.table", views.BEAM_COLUMNS, wrap=True, column_widths=BEAM_WIDTHS)
        self.figure = L(gr.Plot, "beam.figure")
        self.choice = L(gr.Dropdown, "beam.choose", choices=[], value=None)
        self.translation = L(gr.Textbox, "common.translation", interactive=False)
        self.confidence = gr.HTML()  # the chosen hypothesis's words shaded by how unsure the model is, with a legend
        self.notice = gr.Markdown()
        with gr.Row():  # side by side only where each gets a wide plot's width (past figures.NARROW_PX)
            self.mean = L(gr.Plot, "beam.mean", min_width=BESIDE_MIN_PX)
            self.grid = L(gr.Plot, "beam.grid", min_width=BESIDE_MIN_PX)
        self.files = downloads(L)
        self.search = self.record_state()  # the key of the last search (explorer.serve.cache: views.BeamSearch)
        chosen = [self.translation, self.confidence, self.grid, self.mean, self.notice, self.files]
        drawn = [self.table, self.figure, self.choice, *chosen]
        every = drawn + [self.search]
        for trigger in (self.run_btn.click, self.text.submit, self.model.input) + example_clicks(examples):
            trigger(self.run, [self.text, self.model, self.beam, page.lang], every, concurrency_id="models",
                    api_visibility="private", validator=first_is_a_sentence)
        # another hypothesis's trace is a model call; the record follows it, for the language switch
        self.choice.input(self.choose, [self.search, self.choice, page.lang], chosen + [self.search],
                          trigger_mode="always_last", api_visibility="private", concurrency_id="models")
        page.on_language(self.relabel, [self.search, page.lang], drawn, concurrency_id="models")
        page.first_screen(self.run, [self.text, self.model, self.beam, page.lang], every)

    def _chosen(self, c: views.BeamChoice) -> dict:
        return {self.translation: c.translation, self.confidence: c.confidence, self.grid: c.grid, self.mean: c.mean,
                self.notice: c.notice, self.files: c.files}

    @friendly
    def run(self, text, model, beam, lang="en"):
        v = views.beam_view(text, model, beam, lang)
        return {**self._drawn(v), self.search: self.keep(v.record)}

    def _drawn(self, v: views.BeamView) -> dict:
        return {self.table: v.table, self.figure: v.figure,
                self.choice: gr.Dropdown(choices=v.choices, value=v.record.result.chosen), **self._chosen(v.chosen)}

    @from_record(ask=True)
    def choose(self, search, chosen, lang="en"):
        """Another hypothesis of the last search (its text/model/beam are kept, not the textboxes').
        Before any search the choice is empty and nothing changes (opening it raised an error toast)."""
        if search is None:
            return gr.skip()
        c = views.beam_choice(search.text, search.result.model, search.beam, chosen, lang)
        return {**self._chosen(c), self.search: self.keep(views.BeamSearch(search.text, search.beam, c.record))}

    @from_record
    def relabel(self, search, lang="en"):
        """The last search in `lang`, on the hypothesis chosen, from its record (views.beam_redraw: no model call)."""
        return self._drawn(views.beam_redraw(search, lang))
