"""BLEU by length: the shipped translators' BLEU on held-out sentences bucketed by source length, from
their metrics files (explorer/views/length.py: length_view)."""
from __future__ import annotations

import gradio as gr

from explorer.views import length as views
from explorer.views import shared
from ui.components import Table, downloads, friendly, safe_initial

TITLE = "tab.length"


class Tab:
    def __init__(self, page):
        L = page.L
        L(gr.Markdown, "len.intro")
        with shared():  # drawn with the page for every visitor: its downloads are kept for all of them
            first = safe_initial(views.length_view)
        self.refresh = L(gr.Button, "len.refresh", size="sm")
        self.message = gr.Markdown(first.message if first else "")
        # one above the other: beside the figure, the table hid its buckets' columns
        self.figure = L(gr.Plot, "len.figure", value=first.figure if first else None)
        self.table = L(Table, "len.table", value=first.table if first else None, interactive=False)
        self.files = downloads(L, value=first.files if first else None)
        shown = [self.figure, self.table, self.message, self.files]
        self.refresh.click(self.show, [page.lang], shown, concurrency_id="models", api_visibility="private")
        page.on_language(self.show, [page.lang], shown)

    @friendly
    def show(self, lang):
        v = views.length_view(lang)
        return {self.figure: v.figure, self.table: v.table, self.message: v.message, self.files: v.files}
