"""BERT: fill-mask, next-sentence prediction and every head's self-attention of one pass (Devlin et al.
2019), for the shipped BERT, a custom one ($ATTN_EXPLORER_BERT_DIR) or, where allowed, a Hub model
(explorer/views/bert.py)."""
from __future__ import annotations

import os

import gradio as gr

from explorer import i18n
from explorer.views import keep, stored
from explorer.views import bert as views
from ui.components import (Slider, depth, downloads, example_clicks, friendly, layer_head_sliders, load_errors_md,
                           sentence, sliders, validator)
from ui.shared_runs import shared_run

TITLE = "tab.bert"
KOREAN_EXAMPLE = ("오늘 날씨가 정말 [MASK]아요.", "그래서 공원에 산책을 갔어요.")  # bert-ko's first screen (좋 is its top guess)
DRAWN = ("tokens", "notice", "masks", "topk", "nsp", "nsp_text", "grid", "head", "files")  # BertView's fields shown


class Tab:
    def __init__(self, page):
        L, reg = page.L, page.reg
        L(gr.Markdown, "bert.intro")
        if load_errors_md("bert"):
            gr.Markdown(load_errors_md("bert"))
        names = reg.names("bert")
        self.default = "bert" if "bert" in names else (names[0] if names else None)
        self.hub = os.environ.get(views.HUB_ENV) == "1"
        self.model = L(gr.Dropdown, "bert.model", names, value=self.default, visible=len(names) > 1 or self.hub)
        if self.hub:  # a Hub id only (never a local path): see explorer/views/bert.py load_hub_bert
            with gr.Group():
                L(gr.Markdown, "bert.hub_intro", fields={"cap": views.hub_max_bytes() // 1_000_000})
                with gr.Row():
                    self.repo = L(gr.Textbox, "bert.hub_repo", max_lines=1, scale=3)
                    self.load_btn = L(gr.Button, "bert.hub_load", scale=1)
                self.loaded = gr.Markdown()
        self.a = L(gr.Textbox, "bert.a", i18n.DEFAULT_INPUTS["mask"], max_lines=3)
        self.b = L(gr.Textbox, "bert.b", i18n.DEFAULT_INPUTS["next"], max_lines=3)
        self.k = L(Slider, "bert.k", 1, 20, value=5, step=1)
        with gr.Row():
            self.fill_btn = L(gr.Button, "bert.fill", variant="primary")
            self.nsp_btn = L(gr.Button, "bert.nsp")
            self.enc_btn = L(gr.Button, "bert.enc")
        examples = L.examples("bert", [self.a, self.b])  # an English BERT: the rows stay English, the headers follow
        self.notice = gr.Markdown()
        with gr.Row():
            self.tokens = L.table("bert.tokens", views.TOKEN_COLUMNS, max_height=300)
            self.masks = L.table("bert.masks", views.MASK_COLUMNS, max_height=300)
        with gr.Row():
            self.topk = L(gr.Plot, "bert.topk")
            with gr.Column():
                self.nsp = L(gr.Plot, "bert.nspfig")
                self.nsp_text = gr.Markdown()
        self.layer, self.head_slider = layer_head_sliders(L, *depth(reg, self.default))
        self.grid, self.head = L(gr.Plot, "common.all_heads"), L(gr.Plot, "common.selected_head")
        self.files = downloads(L, "bert.files")
        self.record = gr.State(None)  # explorer.serve.cache.keep: a key, the record stays on the server
        self._wire(page, examples)

    def _wire(self, page, examples):
        drawn = [getattr(self, n) for n in DRAWN]
        outs = drawn + [self.record, self.layer, self.head_slider]
        lh = [self.layer, self.head_slider, page.lang]
        run = dict(concurrency_id="models", api_visibility="private")
        self.fill_btn.click(self.fill, [self.model, self.a, self.b, self.k, *lh], outs, **run,
                            validator=validator(None, lambda a, args: views.masked_texts(a, args[2])))
        self.nsp_btn.click(self.next_sentence, [self.model, self.a, self.b, *lh], outs, **run,
                           validator=validator(None, sentence("first sentence"), sentence("second sentence")))
        self.enc_btn.click(self.encode, [self.model, self.a, self.b, *lh], outs, **run,
                           validator=validator(None, sentence()))
        # Enter, or an example: what its sentences ask for (fill-mask, next sentence or the encoding alone)
        for trigger in (self.a.submit, self.b.submit) + example_clicks(examples):
            trigger(self.enter, [self.model, self.a, self.b, self.k, *lh], outs, **run,
                    validator=validator(None, sentence()))
        shows_guesses = lambda args: getattr(stored(args[0], None), "masks", None)  # noqa: E731
        self.k.input(self.top_k, [self.record, self.model, self.a, self.b, self.k, *lh], outs, **run,
                     trigger_mode="always_last",
                     validator=validator(None, None, lambda a, args: shows_guesses(args) and
                                         views.masked_texts(a, args[3])))
        for s in (self.layer, self.head_slider):
            s.input(self.show_heads, [self.record, *lh], drawn, trigger_mode="always_last", show_progress="hidden",
                    api_visibility="private", concurrency_id="models")  # figures redrawn: the shared queue
        page.on_language(self.relabel, [self.record, *lh], drawn, concurrency_id="models")
        korean = ({self.model: "bert-ko", self.a: KOREAN_EXAMPLE[0], self.b: KOREAN_EXAMPLE[1]}
                  if "bert-ko" in page.reg.models else None)  # the Korean interface opens on the Korean BERT
        page.first_screen(self.enter, [self.model, self.a, self.b, self.k, *lh], outs, korean=korean)

    def connect(self, page):
        """A Hub BERT, once loaded, is offered by every view that takes a BERT (this tab, rollout, query-key,
        contextual vectors)."""
        if not self.hub:
            return
        tabs = page.tabs
        trans_names = page.reg.names("transformer")

        @friendly
        def _after_hub_load(repo_id, lang):
            text, name = views.hub_bert_load(repo_id, lang)
            names = views.registry().names("bert")
            return {self.loaded: text, self.model: gr.Dropdown(choices=names, value=name),
                    tabs["rollout"].model: gr.Dropdown(choices=names + trans_names),
                    tabs["query_key"].model: gr.Dropdown(choices=names),
                    tabs["contextual"].model: gr.Dropdown(choices=["auto"] + names + trans_names)}

        self.load_btn.click(_after_hub_load, [self.repo, page.lang],
                            [self.loaded, self.model, tabs["rollout"].model, tabs["query_key"].model,
                             tabs["contextual"].model], concurrency_limit=1, concurrency_id="hub-load",
                            api_visibility="private")

    def _drawn(self, v: views.BertView) -> dict:
        return {getattr(self, n): getattr(v, n) for n in DRAWN}

    def _shown(self, v: views.BertView, layer, head) -> dict:
        layer_slider, head_slider = sliders(v.n_layers, v.n_heads, layer, head)
        return {**self._drawn(v), self.record: keep(v.record), self.layer: layer_slider,
                self.head_slider: head_slider}

    @friendly
    @shared_run  # identical inputs from any session: one run (Enter and top-k come here too)
    def fill(self, model, a, b, k, layer, head, lang="en"):
        return self._shown(views.bert_model_view("fill", model, a, b, k, layer, head, lang), layer, head)

    @friendly
    @shared_run
    def next_sentence(self, model, a, b, layer, head, lang="en"):
        return self._shown(views.bert_model_view("nsp", model, a, b, 5, layer, head, lang), layer, head)

    @friendly
    @shared_run
    def encode(self, model, a, b, layer, head, lang="en"):
        return self._shown(views.bert_model_view("encode", model, a, b, 5, layer, head, lang), layer, head)

    @friendly
    def enter(self, model, a, b, k, layer, head, lang="en"):
        """Enter in a sentence box: fill-mask where there is a [MASK] (any case), else next-sentence prediction
        when sentence B is given, else the encoding alone, as the matching button would."""
        if views.has_mask(a, b):
            return self.fill(model, a, b, k, layer, head, lang)
        if isinstance(b, str) and b.strip():
            return self.next_sentence(model, a, b, layer, head, lang)
        return self.encode(model, a, b, layer, head, lang)

    @friendly
    def top_k(self, record, model, a, b, k, layer, head, lang="en"):
        """Top-k moved: the fill-mask again with k guesses (as Fill [MASK] would); after NSP or embeddings,
        which show no guesses, nothing changes."""
        record = stored(record, None)
        if record is None or not record.masks:
            return gr.skip()
        return self.fill(model, a, b, k, layer, head, lang)

    @friendly
    def show_heads(self, record, layer, head, lang="en"):
        """Another layer or head: every view again from the record (no model call)."""
        return self._drawn(views.bert_render(stored(record), layer, head, lang))

    @friendly
    def relabel(self, record, layer, head, lang="en"):
        record = stored(record, None)
        return gr.skip() if record is None else self.show_heads(record, layer, head, lang)
