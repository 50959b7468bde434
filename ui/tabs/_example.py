"""The smallest complete tab: copy this file to add one (it is not in app.TABS; tests/ui/test_tab_contract.py
builds and runs it). A new tab touches three files: this module (layout, events, language), its gradio-free
view in explorer/views/<name>.py (here explorer/views/gpt.py: a run returns figures and a record, a redraw
draws the record again), and its strings in explorer/i18n/<name>.py (here the GPT tab's keys; a new tab adds that module with
its `tab.<name>` and `<prefix>.*` keys in both languages). Then one line in app.py's TABS."""
from __future__ import annotations

import gradio as gr

from explorer.views import gpt as views  # the only explorer modules a tab imports: explorer.views, explorer.i18n
from ui.components import first_is_a_sentence, friendly
from ui.tabs import TabBase, from_record

TITLE = "tab.gpt"  # the i18n key of the tab's label
NEW_TOKENS = 5


class Tab(TabBase):
    def __init__(self, page):
        L = page.L  # L(cls, key, ...): a component labelled by an i18n key, relabelled by the language switch
        L(gr.Markdown, "gpt.intro")
        self.text = L(gr.Textbox, "gpt.prompt", "The students opened their", max_lines=3)
        self.run_btn = L(gr.Button, "gpt.run", variant="primary")
        self.figure = L(gr.Plot, "gpt.step_plot")
        self.record = self.record_state()  # the key of the last result's record in the server-side cache
        outputs = [self.figure]
        self.run_btn.click(self.show, [self.text, page.lang], outputs + [self.record], concurrency_id="models",
                           api_visibility="private", validator=first_is_a_sentence)
        page.on_language(self.relabel, [self.record, page.lang], outputs)  # redrawn from the record, no model call
        page.first_screen(self.show, [self.text, page.lang], outputs + [self.record])  # no tab opens blank

    @friendly  # a UserError reaches the page as its message; outputs keep what they showed
    def show(self, text, lang="en"):
        v = views.gpt_view(text, max_new_tokens=NEW_TOKENS, greedy=True, lang=lang)
        return {self.figure: v.heads.step, self.record: self.keep(v.record)}  # outputs by component

    @from_record  # gets the record of the key the State holds; nothing on screen yet: nothing to redraw
    def relabel(self, record, lang="en"):
        return {self.figure: views.gpt_redraw(record, lang=lang).heads.step}
