"""Attention Explorer: look inside the attention models trained in this repo.

Tabs: an RNN encoder-decoder with each of Luong/Bahdanau's score functions (or none), and the
five side by side; the Transformer (encoder self-, masked decoder self- and cross-attention,
Vaswani et al. 2017) and its beam search; BERT (fill-mask, next-sentence prediction and
per-head self-attention, Devlin et al. 2019; a custom BERT from $ATTN_EXPLORER_BERT_DIR, or
from the Hub when $ATTN_EXPLORER_ALLOW_HUB=1); inside attention (rollout and entropy,
query/key arithmetic, contextual vs static vectors, positional encodings); training
(attention snapshots, a toy seq2seq trained live, BLEU by length); the shipped checkpoints.
A switch at the top turns every label, explanation and example into Korean (explorer/i18n/).

This file only composes the page: each tab is a module of ui/tabs/ (layout, events, language
redraw; see ui/tabs/__init__.py to add one), whose numbers come from explorer/views/; the public
API endpoints /translate, /fill_mask and /nsp are ui/api.py's.

    python app.py      # serves on $GRADIO_SERVER_PORT or 7860
"""
from __future__ import annotations

import functools
import logging
import os
from dataclasses import replace

if __name__ == "__main__":  # a server: without Gradio's type stubs and IPython hooks (a third of start-up),
    from ui.boot import cap_malloc_arenas, lean_gradio  # and two malloc arenas (ui/boot.py says why)
    cap_malloc_arenas()
    lean_gradio()
import gradio as gr
import torch

from explorer.compute import byo_bert
from explorer.serve import downloads as dl
from explorer import i18n
from explorer.compute import inference as inf
from ui.api import build_api
from ui.components import (Localized, empty_table_headers, friendly, keep_disk_budget, language_from_url,
                           language_updates, load_errors_md)
from ui.tabs import Group, Page, build_tabs
from ui.tabs import bert_inputs, choices, elmo, inside, luong
from ui.tabs import finetune
from ui.tabs import lessons
from ui.tabs import ablation, alignment, attribution, syntax
from ui.tabs import (beam, bert, contextual, gpt, length, live, models, positional, query_key, rollout, scores,
                     seq2seq, snapshots, transformer)
from ui.limits import LIMITS, apply_limits, launch_kwargs
from ui.theme import CSS, PAGE_JS, PAGE_LANG_JS, RELAYOUT_JS, THEME

log = logging.getLogger("attention_explorer")

TABS = [  # the page's tabs, in order; a Group is a tab of sub-tabs
    lessons,  # the course's path through the other tabs
    seq2seq,
    scores,
    transformer,
    beam,
    bert,
    finetune,
    gpt,
    Group("tab.inside", [rollout, query_key, contextual, positional, syntax, attribution, ablation, alignment]),
    Group("tab.computation", [inside, luong, choices, bert_inputs, elmo]),
    Group("tab.training", [snapshots, live, length]),
    models,
]


def load_custom_bert(reg) -> None:
    """ATTN_EXPLORER_BERT_DIR, set by whoever runs the app, adds "bert-custom" (once per registry)."""
    if "bert-custom" not in reg.models and "bert-custom" not in reg.errors:
        byo_bert.load_from_env(reg, "bert-custom")


def build_demo() -> gr.Blocks:
    """The whole app; reads the registry once (checkpoints that failed to load are listed, not fatal)."""
    reg = inf.registry()
    load_custom_bert(reg)
    L = Localized()
    # Gradio's own clean-up of the files it served, beside the disk budget (ui.components.keep_disk_budget)
    with gr.Blocks(title="Attention Explorer", delete_cache=(dl.SWEEP_EVERY_S, dl.MAX_AGE_S)) as demo:
        with gr.Row(elem_classes="ae-header"):  # presenter mode (ui/tabs/lessons.py) folds it to one line
            with gr.Column(scale=4):
                L(gr.Markdown, "app.intro")
            lang = gr.Radio(list(i18n.CHOICES.items()), value="en", label=i18n.SWITCH_LABEL, scale=1)  # "en", "ko"
        if reg.errors:
            gr.Markdown(load_errors_md())
        page = Page(reg, L, lang)
        demo.tabs = build_tabs(page, TABS)  # module name -> its Tab, for tests and Python callers

        lang.change(friendly(functools.partial(language_updates, L)), lang, L.outputs, show_progress="hidden",
                    api_visibility="private")
        lang.change(None, lang, None, js=PAGE_LANG_JS, show_progress="hidden", api_visibility="private")
        demo.load(language_from_url, None, lang, show_progress="hidden", api_visibility="private", queue=False)
        path = demo.tabs["lessons"]  # a link's ?lesson=<step> opens the page at that step of the course
        demo.load(path.from_url, lang, path.outputs + [path.presenter], show_progress="hidden",
                  api_visibility="private", concurrency_id="models")
        tables = [t for t, _ in L.tables]  # the results tables: headers of the empty ones follow the switch
        headers = lang.change(empty_table_headers([cols for _, cols in L.tables]), [lang] + tables, tables,
                              show_progress="hidden", api_visibility="private")
        page.first.wire(lang, after_switch=headers)  # every tab opens with its default example drawn
        demo.first_screens = page.first  # computed from the first visit on (ui/first_screen.py); the tests read it
        demo.localized = L  # the tests check every registered component against explorer/i18n/
        for block in list(demo.blocks.values()):  # a plot drawn while its tab was hidden: laid out when shown
            if isinstance(block, gr.Tab):
                block.select(None, js=RELAYOUT_JS, queue=False, api_visibility="private")
        build_api()
    # Every event that runs a model joins ONE queue ("models") of 2 workers: a free Space has 2 vCPUs
    # and each request runs torch on 1 thread (main guard), so 2 at a time fills the machine without
    # oversubscribing it. Live training has its own queue of 1 (ui/tabs/live.py), so it takes at most one core.
    return demo.queue(default_concurrency_limit=2)


# Behind deploy/replicas.py's nginx (ATTN_EXPLORER_BEHIND_PROXY=1) a visitor's address is the X-Forwarded-For entry
# nginx appends, not the proxy's: otherwise every visitor of a course counts as one address against the caps.
LIMITS_HERE = replace(LIMITS, trust_proxy=True) if os.environ.get("ATTN_EXPLORER_BEHIND_PROXY") == "1" else LIMITS
demo = apply_limits(build_demo(), LIMITS_HERE)  # queue size, fair order; the ASGI layer: launch_kwargs (ui/limits.py)

if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    # One torch thread per request: measured on 2 cores, a 12-word Transformer forward took 122 ms
    # with 1 thread and 460-3,228 ms with 2 while another request ran (bench/latency.py).
    torch.set_num_threads(int(os.environ.get("ATTN_EXPLORER_TORCH_THREADS", "1")))
    keep_disk_budget()  # downloads and Gradio's cache under explorer.serve.downloads.BUDGET_MB, old files deleted
    demo.launch(server_port=int(os.environ.get("GRADIO_SERVER_PORT", 7860)), js=PAGE_JS, css=CSS, theme=THEME,
                **launch_kwargs(LIMITS_HERE))
