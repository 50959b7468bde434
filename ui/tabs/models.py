"""Models: one row per shipped checkpoint, loaded or not, with its size, training cost and held-out metrics
(explorer/views/models.py)."""
from __future__ import annotations

import gradio as gr

from explorer.views import models as views
from ui.components import Table, friendly

TITLE = "tab.models"
MODELS_WIDTHS = ["140px", "75px", "150px", "112px", "150px", "105px", "105px", "363px"]


class Tab:
    def __init__(self, page):
        page.L(gr.Markdown, "models.intro")
        self.reg = page.reg  # the app's registry: a Hub BERT loaded later adds its row
        self.table = Table(views.models_table(page.reg), interactive=False, wrap=True,  # headers whole words
                           column_widths=MODELS_WIDTHS)
        page.on_language(self.relabel, page.lang, self.table)  # its headers (and Hub-loaded rows)

    @friendly
    def relabel(self, lang):
        return views.models_table(self.reg, lang)
