"""ui/tabs/finetune.py built alone in a Blocks over a tiny BERT with random adapters: a run draws both models'
attention and the prediction, the sliders and the language switch redraw from the record without a model
call, picking a task fills its example, and every handler is friendly."""
from pathlib import Path

import numpy as np
import pytest
import torch

gr = pytest.importorskip("gradio")

from explorer.compute import pipeline as ft  # noqa: E402
from explorer.compute.inference import load_registry  # noqa: E402
from models import checkpoint  # noqa: E402
from models.bert import Bert, BertConfig  # noqa: E402
from models.lora import FinetuneConfig, LoRALinear, TaskModel, save_task, shared_encoder  # noqa: E402
from models.training import task_data  # noqa: E402
from ui.components import Localized  # noqa: E402
from ui.tabs import Page, build_tabs  # noqa: E402
from ui.tabs import finetune  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def tab(tmp_path_factory):
    root = tmp_path_factory.mktemp("assets")
    tok = checkpoint.load(ROOT / "assets" / "bert").tokenizer
    cfg = BertConfig(vocab_size=tok.get_vocab_size(), d_model=16, n_layers=2, n_heads=2, d_ff=32, max_len=64,
                     pre_ln=True, qk_norm=True)
    torch.manual_seed(5)
    checkpoint.save(root / "bert", Bert(cfg).eval(), tok, {"name": "tiny"})
    reg = load_registry(root, names={"bert"})
    for task in ("sentiment", "qa"):
        model = TaskModel(FinetuneConfig(task=task, labels=task_data.LABELS[task], bert=cfg, lora_r=2, max_len=64),
                          shared_encoder(reg.models["bert"].model))
        with torch.no_grad():
            for m in model.modules():
                if isinstance(m, LoRALinear):
                    m.lora_B.normal_(std=0.5)
        save_task(root / "finetune" / task, model, {})
    with gr.Blocks() as demo:
        lang = gr.Radio([("English", "en"), ("한국어", "ko")], value="en")
        tabs = build_tabs(Page(reg, Localized(), lang), [finetune])
    demo.the_tab, demo.folder = tabs["finetune"], root / "finetune"
    return demo


def test_run_redraw_and_relabel(tab, monkeypatch):
    monkeypatch.setattr(ft, "FINETUNE", tab.folder)
    t = tab.the_tab
    out = t.run_finetune("sentiment", "a warm , funny film .", "", 2, 2, "en")
    r = t.stored(out[t.record])  # the page keeps a key (explorer.serve.cache)
    assert r.label in ("POSITIVE", "NEGATIVE") and r.base_trace is not None
    assert np.allclose(out[t.finetuned].data[0].z, r.trace.enc_self[1, 1])
    assert np.allclose(out[t.pretrained].data[0].z, r.base_trace.enc_self[1, 1])
    calls = []
    monkeypatch.setattr(ft, "classify", lambda *a, **k: calls.append(a))  # a redraw must not run a model
    again = t.redraw_heads(r, 1, 1, "ko")
    assert np.allclose(again[t.finetuned].data[0].z, r.trace.enc_self[0, 0]) and "확률" in again[t.summary]
    relabelled = t.relabel(r, "sentiment", 1, 1, "ko")
    assert relabelled[t.explanation].startswith("(b) 단일 문장") and not calls


def test_qa_run_and_task_pick(tab, monkeypatch):
    monkeypatch.setattr(ft, "FINETUNE", tab.folder)
    t = tab.the_tab
    picked = t.pick_task("qa", "en")
    out = t.run_finetune("qa", picked[t.text], picked[t.text_b], 1, 1, "en")
    r = t.stored(out[t.record])  # the page keeps a key (explorer.serve.cache)
    assert picked[t.text_b][r.start:r.end] == r.answer and len(out[t.prediction].data) == 2  # P(start), P(end)


def test_every_handler_is_friendly(tab):
    for f in tab.fns.values():
        if f.fn is None or f.is_cancel_function:
            continue
        assert getattr(f.fn, "friendly", False), f.fn.__qualname__


def test_api_endpoints_return_the_pipeline_records(tab, monkeypatch):
    from ui import api
    monkeypatch.setattr(ft, "FINETUNE", tab.folder)
    monkeypatch.setattr(ft, "registry", lambda: tab.the_tab.reg)
    out = api._task_endpoint("sentiment_analysis")("a warm , funny film .")  # one text: plain HTTP sends one value
    direct = ft.classify("sentiment", "a warm , funny film .", reg=tab.the_tab.reg)
    assert out["label"] == direct.label and out["score"] == direct.score and out["tokens"] == direct.tokens
    qa = api._task_endpoint("question_answering")("Who invented it?", "Cristofori invented the piano in 1700.")
    assert "Cristofori invented the piano in 1700."[qa["start"]:qa["end"]] == qa["answer"]
    with pytest.raises(gr.Error):  # not installed in this tiny assets folder: a clean error for the client
        api._task_endpoint("ner")("John lives here")
