"""models/training/export_hf.py: a folder that transformers' own pipeline loads and that gives this repo's labels and
scores (explorer.compute.pipeline) at 1e-5, for a tiny pre-LN, QK-normed BERT with random adapters, and for the
shipped sentiment task on the lecture's two sentences when assets/finetune/sentiment is there."""
import json
from pathlib import Path

import pytest
import torch

transformers = pytest.importorskip("transformers")

from explorer.compute import pipeline as ft  # noqa: E402
from explorer.compute.inference import load_registry  # noqa: E402
from models import checkpoint  # noqa: E402
from models.bert import Bert, BertConfig  # noqa: E402
from models.lora import FinetuneConfig, LoRALinear, TaskModel, save_task, shared_encoder  # noqa: E402
from models.training import task_data  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
LECTURE = ["I love this product! It's amazing and works perfectly.",
           "This is the worst experience I've ever had. Completely disappointed."]


def tiny_assets(root: Path, task: str) -> Path:
    tok = checkpoint.load(ROOT / "assets" / "bert").tokenizer
    cfg = BertConfig(vocab_size=tok.get_vocab_size(), d_model=16, n_layers=2, n_heads=2, d_ff=32, max_len=256,
                     pre_ln=True, qk_norm=True)
    torch.manual_seed(1)
    base = Bert(cfg).eval()
    checkpoint.save(root / "bert", base, tok, {"name": "tiny"})
    base = checkpoint.load(root / "bert").model
    model = TaskModel(FinetuneConfig(task=task, labels=task_data.LABELS[task], bert=cfg, lora_r=4, lora_alpha=8.0),
                      shared_encoder(base))
    with torch.no_grad():
        for m in model.modules():
            if isinstance(m, LoRALinear):
                m.lora_B.normal_(std=0.5)
        model.head.weight.normal_(std=1.0)
    save_task(root / "finetune" / task, model, {"valid": {}})
    return root


def test_sentiment_pipeline_matches_this_repo(tmp_path):
    from models.training.export_hf import main
    assets = tiny_assets(tmp_path / "assets", "sentiment")
    out = main([str(assets / "finetune" / "sentiment"), str(tmp_path / "hf"), "--base", str(assets / "bert")])
    cfg = json.loads((out / "config.json").read_text())
    assert cfg["model_type"] == "attention-explorer-bert" and cfg["bert"]["qk_norm"] and cfg["bert"]["pre_ln"]
    hf = transformers.pipeline("sentiment-analysis", model=str(out), device="cpu")(LECTURE + ["a dull film ."])
    reg = load_registry(assets, names={"bert"})
    ours = [ft.classify("sentiment", s, reg=reg, folder=assets / "finetune") for s in LECTURE + ["a dull film ."]]
    for h, r in zip(hf, ours):
        assert h["label"] == r.label
        assert abs(h["score"] - r.score) < 1e-5
    assert max(abs(h["score"] - 0.5) for h in hf) > 1e-3  # a real decision, not a constant


def test_token_and_qa_models_load_with_the_auto_classes(tmp_path):
    from models.training.export_hf import export
    for task, auto in (("ner", transformers.AutoModelForTokenClassification),
                       ("qa", transformers.AutoModelForQuestionAnswering)):
        assets = tiny_assets(tmp_path / task, task)
        out = export(assets / "finetune" / task, tmp_path / f"hf-{task}", assets / "bert")
        model = auto.from_pretrained(str(out)).eval()
        tok = transformers.AutoTokenizer.from_pretrained(str(out))
        enc = tok("John lives in London", return_tensors="pt")
        with torch.no_grad():
            o = model(**enc)
        reg = load_registry(assets, names={"bert"})
        if task == "ner":
            r = ft.tag("ner", "John lives in London", reg=reg, folder=assets / "finetune")
            probs = torch.softmax(o.logits[0], -1)
            for w, pos in enumerate(r.word_index):
                assert torch.allclose(probs[pos], torch.tensor(r.probs[w], dtype=torch.float32), atol=1e-5)
        else:
            assert o.start_logits.shape == o.end_logits.shape == enc["input_ids"].shape


@pytest.mark.slow
@pytest.mark.skipif(not (ROOT / "assets" / "finetune" / "sentiment").is_dir(), reason="no shipped sentiment task")
def test_shipped_sentiment_exports_with_the_same_scores(tmp_path):
    from models.training.export_hf import export
    out = export(ROOT / "assets" / "finetune" / "sentiment", tmp_path / "hf")
    hf = transformers.pipeline("sentiment-analysis", model=str(out), device="cpu")(LECTURE)
    ours = ft.pipeline("sentiment-analysis", reg=load_registry(ROOT / "assets", names={"bert"}))(LECTURE)
    for h, r in zip(hf, ours):
        assert h["label"] == r["label"] and abs(h["score"] - r["score"]) < 1e-5
