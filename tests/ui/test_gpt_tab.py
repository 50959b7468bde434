"""ui/tabs/gpt.py built alone in a Blocks: the streamed run gives the text and steps first and the figures last,
sliders redraw from the record, the comparison runs, and every handler is friendly."""
from pathlib import Path

import pytest
import torch
from tokenizers import Tokenizer

gr = pytest.importorskip("gradio")

from explorer.compute.inference import load_registry  # noqa: E402
from models import checkpoint  # noqa: E402
from models.gpt import GPT, GPTConfig  # noqa: E402
from models.training.lm_data import TOKENIZER  # noqa: E402
from ui.components import Localized  # noqa: E402
from ui.tabs import Page, build_tabs  # noqa: E402
from ui.tabs import gpt  # noqa: E402

ASSETS = Path(__file__).resolve().parents[2] / "assets"


@pytest.fixture(scope="module")
def tab(tmp_path_factory):
    folder = tmp_path_factory.mktemp("assets") / "gpt"
    torch.manual_seed(0)
    model = GPT(GPTConfig(vocab_size=16000, max_len=32, d_model=32, n_layers=2, n_heads=4, d_ff=64, dropout=0.0))
    checkpoint.save(folder, model, Tokenizer.from_file(str(TOKENIZER)), {"arch": "gpt"})
    reg = load_registry(folder.parent)
    if (ASSETS / "bert").is_dir():
        reg.models.update(load_registry(ASSETS, names={"bert"}).models)
    with gr.Blocks() as demo:
        lang = gr.Radio([("English", "en"), ("한국어", "ko")], value="en")
        tabs = build_tabs(Page(reg, Localized(), lang), [gpt])
    demo.the_tab = tabs["gpt"]
    return demo


def test_stream_then_figures(tab):
    t = tab.the_tab
    outs = list(t.continue_prompt("The students opened their", True, 0.7, 50, 0.95, 5, 0, 1, 1, "en"))
    assert len(outs) >= 1 and all(t.text in o and t.steps in o for o in outs)
    assert all(t.grid not in o for o in outs[:-1]) and t.grid in outs[-1] and t.record in outs[-1]
    record = t.stored(outs[-1][t.record])  # the page keeps a key (explorer.serve.cache)
    assert len(outs[-1][t.steps]) == len(record.steps)
    redrawn = t.show_heads(record, 2, 4, 1, "ko")
    assert set(redrawn) == {t.step_plot, t.grid, t.head_plot, t.scores, t.files}


def test_every_handler_is_friendly(tab):
    for f in tab.fns.values():
        if f.fn is None or f.is_cancel_function:
            continue
        assert getattr(f.fn, "friendly", False), f.fn.__qualname__


@pytest.mark.skipif(not (ASSETS / "bert").is_dir(), reason="the shipped BERT (assets/bert) is not here")
def test_compare_and_redraw(tab):
    t = tab.the_tab
    out = t.compare("The students opened their books.", 12, 1, 2, 4, "en")
    pair = t.stored(out[t.pair])
    assert pair.tokens[0] == "[CLS]" and pair.tokens[-1] == "[SEP]"
    again = t.show_pair(out[t.pair], 1, 2, 1, 1, "ko")
    assert "BERT" in again[t.bert_plot].layout.title.text


def test_generate_endpoint(tab, monkeypatch):
    from explorer.compute import inference as inf
    from ui import api
    monkeypatch.setattr(inf, "_REGISTRY", tab.the_tab.reg)
    text, record = api.generate_api("The students opened their", 4, 0.7, 50, 0.95, 3, False)
    assert text == record["text"] and text.startswith("the students opened their")
    assert record["steps"] and {"token", "probability", "top"} <= set(record["steps"][0])
    assert api.generate_api("The students opened their", 4, 0.7, 50, 0.95, 3, False)[0] == text  # same seed
    with pytest.raises(gr.Error, match="Temperature must be above 0"):
        api.generate_api("hello", 4, 0, 0, 1.0, 0, False)
