"""Fine-tuning: a task's prediction from the shipped BERT with its adapters and head, and the fine-tuned
model's attention beside the pre-trained model's on the same tokens (explorer.views.finetune)."""
from __future__ import annotations

import gradio as gr

from explorer import i18n
from explorer.views import finetune as views
from ui.components import Slider, depth, friendly, sentence, sliders, validator
from ui.tabs import TabBase, from_record

TITLE = "tab.finetune"
EXAMPLE = {  # what the inputs hold when a task is picked (the English tasks read English)
    "sentiment": ("I love this product! It's amazing and works perfectly.", ""),
    "nli": ("A man is playing a guitar on stage .", "A man is performing music ."),
    "pos": ("I saw the man with the telescope .", ""),
    "ner": ("Tim Cook visited the Apple store in New York .", ""),
    "sentiment-ko": ("이 영화 정말 재미있어요!", ""),  # bert-ko reads Korean
    "qa": ("Who invented the piano?", "The piano was invented by Bartolomeo Cristofori in Italy around 1700. "
                                      "A modern piano has 88 keys."),
}


def task_choices(lang: str = "en") -> list[tuple[str, str]]:
    return [(i18n.t(f"ft.task_{t}", lang), t) for t in views.TASKS]


class Tab(TabBase):
    def __init__(self, page):
        L, self.reg = page.L, page.reg
        L(gr.Markdown, "ft.intro")
        layers, heads = depth(page.reg, "bert")
        with gr.Row():
            self.task = L(gr.Dropdown, "ft.task", choices=task_choices(), value="sentiment", min_width=220)
            self.layer = L(Slider, "common.layer", 1, max(layers, 2), value=layers, step=1)
            self.head = L(Slider, "common.head", 1, max(heads, 2), value=1, step=1)
        self.explanation = gr.Markdown(views.explanation("sentiment"))
        self.text = L(gr.Textbox, "ft.text", EXAMPLE["sentiment"][0], max_lines=3)
        self.text_b = L(gr.Textbox, "ft.text_b", EXAMPLE["sentiment"][1], lines=2, max_lines=8)
        self.run_btn = L(gr.Button, "ft.run", variant="primary")
        self.summary = gr.Markdown()
        self.notice = gr.Markdown()
        self.prediction = L(gr.Plot, "ft.prediction")
        self.table = L.table("ft.table", views.LABEL_COLUMNS)  # the default task's headers until a run
        with gr.Row():
            self.finetuned = gr.Plot(show_label=False)
            self.pretrained = gr.Plot(show_label=False)
        self.difference = gr.Plot(show_label=False)
        with gr.Row():
            self.change = gr.Plot(show_label=False)
            self.cls = gr.Plot(show_label=False)
        self.record = self.record_state()  # the task result's key (explorer.serve.cache)
        drawn = [self.prediction, self.table, self.summary, self.explanation, self.notice, self.finetuned,
                 self.pretrained, self.difference, self.change, self.cls]
        gr.on([self.run_btn.click, self.text.submit], self.run_finetune,
              [self.task, self.text, self.text_b, self.layer, self.head, page.lang], drawn + [self.record],
              concurrency_id="models", api_visibility="private", validator=validator(None, sentence()))
        self.task.input(self.pick_task, [self.task, page.lang],
                        [self.text, self.text_b, self.explanation, self.layer, self.head],
                        show_progress="hidden", api_visibility="private")
        for slider in (self.layer, self.head):
            slider.input(self.redraw_heads, [self.record, self.layer, self.head, page.lang], drawn,
                         trigger_mode="always_last", show_progress="hidden", api_visibility="private",
                         concurrency_id="models")  # figures redrawn: the shared queue
        page.on_language(self.relabel, [self.record, self.task, self.layer, self.head, page.lang],
                         drawn + [self.task], concurrency_id="models")
        korean = {self.task: "sentiment-ko", self.text: EXAMPLE["sentiment-ko"][0], self.text_b: ""} \
            if "sentiment-ko" in views.TASKS else None  # the Korean interface opens on the Korean task
        page.first_screen(self.run_finetune, [self.task, self.text, self.text_b, self.layer, self.head, page.lang],
                          drawn + [self.record], korean=korean)

    def _drawn(self, v: views.FinetuneView) -> dict:
        return {self.prediction: v.prediction, self.table: v.table, self.summary: v.summary,
                self.explanation: v.explanation, self.notice: v.notice, self.finetuned: v.finetuned,
                self.pretrained: v.pretrained, self.difference: v.difference, self.change: v.change, self.cls: v.cls}

    @friendly
    def run_finetune(self, task, text, text_b, layer, head, lang="en"):
        v = views.finetune_view(task, text, text_b, layer, head, lang, reg=self.reg)
        return {**self._drawn(v), self.record: self.keep(v.record)}

    @friendly
    def pick_task(self, task, lang="en"):
        a, b = EXAMPLE.get(task, ("", ""))
        layers, heads = depth(self.reg, views.base_of(task))  # bert-ko has fewer layers and heads than bert
        layer, head = sliders(layers, heads, layers, 1)
        return {self.text: a, self.text_b: b, self.explanation: views.explanation(task, lang), self.layer: layer,
                self.head: head}

    @from_record
    def redraw_heads(self, record, layer, head, lang="en"):
        return self._drawn(views.finetune_render(record, layer, head, lang))

    @friendly
    def relabel(self, record, task, layer, head, lang="en"):
        """The task chooser and, from the kept record (no model call), every figure of the last run in `lang`."""
        out = {self.task: gr.Dropdown(choices=task_choices(lang), value=task)}
        record = self.stored(record)
        if record is None:
            return {**out, self.explanation: views.explanation(task or "sentiment", lang)}
        return {**out, **self._drawn(views.finetune_render(record, layer, head, lang))}
