"""explorer/compute/pipeline.py, the CLI's classify / tag / qa and explorer/views/finetune.py on a tiny pre-LN,
QK-normed BERT with random adapters for every task (the real tokenizer): the numbers shown are recomputed
from the model, the contract's shapes hold, and bad input gives a clear message, never a traceback."""
import json
from pathlib import Path

import numpy as np
import pytest
import torch

from explorer import cli
from explorer.compute import pipeline as ft
from explorer.compute.inference import UserError, load_registry
from models import checkpoint
from models.bert import Bert, BertConfig
from models.lora import FinetuneConfig, LoRALinear, TaskModel, save_task, shared_encoder
from models.training import task_data

ROOT = Path(__file__).resolve().parents[2]
PIANO = "The piano was invented by Bartolomeo Cristofori in Italy around 1700. It has 88 keys."


@pytest.fixture(scope="module")
def assets(tmp_path_factory):
    root = tmp_path_factory.mktemp("assets")
    tok = checkpoint.load(ROOT / "assets" / "bert").tokenizer
    cfg = BertConfig(vocab_size=tok.get_vocab_size(), d_model=16, n_layers=2, n_heads=2, d_ff=32, max_len=64,
                     pre_ln=True, qk_norm=True)
    torch.manual_seed(3)
    checkpoint.save(root / "bert", Bert(cfg).eval(), tok, {"name": "tiny"})
    base = checkpoint.load(root / "bert").model
    for task in task_data.TASKS:
        model = TaskModel(FinetuneConfig(task=task, labels=task_data.LABELS[task], bert=cfg, lora_r=2,
                                         max_len=64, stride=16), shared_encoder(base))
        with torch.no_grad():
            for m in model.modules():
                if isinstance(m, LoRALinear):
                    m.lora_B.normal_(std=0.5)
            model.head.weight.normal_(std=2.0)
        save_task(root / "finetune" / task, model, {"valid": {"score": 0.5}})
    return root


@pytest.fixture(scope="module")
def reg(assets):
    return load_registry(assets, names={"bert"})


def test_sentiment_pipeline_is_the_record_and_the_model(assets, reg):
    r = ft.classify("sentiment", "a warm , funny film .", reg=reg, folder=assets / "finetune")
    assert r.probs.sum() == pytest.approx(1, abs=1e-6) and r.label == r.labels[int(r.probs.argmax())]
    assert r.score == pytest.approx(r.probs.max(), abs=1e-6)
    model, _, base = ft.load("sentiment", reg, assets / "finetune")
    ids = base.tokenizer.encode("a warm , funny film .").ids
    with torch.no_grad():
        direct = torch.softmax(model(torch.tensor([ids])).logits[0], -1).numpy()
    assert np.allclose(direct, r.probs, atol=1e-6)
    a = r.trace.enc_self
    assert a.shape == (2, 2, len(r.tokens), len(r.tokens)) and np.allclose(a.sum(-1), 1, atol=1e-5)
    assert r.base_trace is None


def test_pipeline_outputs_follow_the_lecture_shapes(assets, reg, monkeypatch):
    monkeypatch.setattr(ft, "FINETUNE", assets / "finetune")
    out = ft.pipeline("sentiment-analysis", reg=reg)(["I love this product!", "This is the worst."])
    assert [set(o) for o in out] == [{"label", "score"}] * 2 and all(o["label"] in ("POSITIVE", "NEGATIVE") for o in out)
    assert ft.pipeline("nli", reg=reg)([("A man plays .", "A man sleeps .")])[0]["label"] in task_data.NLI_LABELS
    tagged = ft.pipeline("ner", reg=reg)("John lives in New  York")[0]
    assert tagged["words"] == ["John", "lives", "in", "New", "York"] and len(tagged["tags"]) == 5
    assert all(t in task_data.NER_LABELS for t in tagged["tags"])
    qa = ft.pipeline("question-answering", reg=reg)({"question": "Who invented the piano?", "context": PIANO})[0]
    assert PIANO[qa["start"]:qa["end"]] == qa["answer"] and qa["answer"]
    import explorer.compute.pipeline as module
    assert module("pos", reg=reg)("The cat sat .")[0]["tags"][0] in task_data.UPOS  # the module is callable


def test_tags_are_read_at_each_words_first_subword(assets, reg):
    r = ft.tag("pos", "Cristofori played pianos", reg=reg, folder=assets / "finetune", with_base=True)
    assert len(r.tags) == len(r.words) == 3 and r.word_index[0] == 1
    model, _, base = ft.load("pos", reg, assets / "finetune")
    with torch.no_grad():
        p = torch.softmax(model(torch.tensor([base.tokenizer.encode(r.words, is_pretokenized=True).ids])).logits[0], -1)
    for w, pos in enumerate(r.word_index):
        assert np.allclose(r.probs[w], p[pos].numpy(), atol=1e-6)
    assert r.base_trace.enc_self.shape == r.trace.enc_self.shape


def test_answer_span_and_probabilities_over_every_token(assets, reg):
    r = ft.answer("Who invented the piano?", PIANO * 3, reg=reg, folder=assets / "finetune", with_base=True)
    assert len(r.probs[0]) == len(r.tokens)
    seg = np.array(r.segments)
    for p in r.probs:  # a softmax over the paragraph's tokens: 0 on [CLS], the question and the [SEP]s
        assert p.sum() == pytest.approx(1, abs=1e-5) and p[seg == 0].max() == 0 and p[-1] == 0
    assert (PIANO * 3)[r.start:r.end] == r.answer
    i, j = r.token_span
    assert i <= j and seg[i] == seg[j] == 1
    assert any("windows" in n for n in r.notices)  # 3 paragraphs at 64 tokens: several windows


@pytest.mark.parametrize("call,key", [
    (lambda a, reg: ft.classify("sentiment", "   ", reg=reg, folder=a), "empty"),
    (lambda a, reg: ft.classify("sentiment", "x" * 10_000, reg=reg, folder=a), "too_long"),
    (lambda a, reg: ft.classify("nli", "A man .", None, reg=reg, folder=a), "empty"),
    (lambda a, reg: ft.tag("pos", "", reg=reg, folder=a), "empty"),
    (lambda a, reg: ft.answer("Who?", "", reg=reg, folder=a), "no_context"),
    (lambda a, reg: ft.answer("Who invented the piano in Italy?", "Cristofori.", reg=reg, folder=a), "question_longer"),
    (lambda a, reg: ft.answer("Who?", "y " * 5000, reg=reg, folder=a), "too_long"),
    (lambda a, reg: ft.classify("translation", "x", reg=reg, folder=a), "unknown_task"),
    (lambda a, reg: ft.tag("sentiment", "x", reg=reg, folder=a), "wrong_task"),
])
def test_bad_input_is_a_user_error_with_a_translated_message(assets, reg, call, key):
    from explorer import i18n
    with pytest.raises(UserError) as e:
        call(assets / "finetune", reg)
    assert e.value.key == key and str(e.value)
    assert i18n.error_text(e.value, "ko") != str(e.value)  # a Korean message exists


def run_cli(capsys, *argv):
    status = cli.main(list(argv))
    out = capsys.readouterr()
    return status, [json.loads(line) for line in out.out.splitlines()], out.err


def test_cli_contract(assets, capsys, tmp_path):
    a = ["--assets", str(assets)]
    status, rows, _ = run_cli(capsys, "classify", *a, "--task", "sentiment", "I love this product!")
    assert status == 0 and rows[0]["label"] in ("POSITIVE", "NEGATIVE") and 0.5 <= rows[0]["score"] <= 1
    status, rows, _ = run_cli(capsys, "classify", *a, "--task", "nli", "A man plays .", "A man sleeps .")
    assert status == 0 and rows[0]["label"] in task_data.NLI_LABELS
    status, rows, _ = run_cli(capsys, "tag", *a, "--task", "ner", "John lives in London")
    assert rows[0]["words"] == ["John", "lives", "in", "London"] and len(rows[0]["tags"]) == 4
    status, rows, _ = run_cli(capsys, "qa", *a, "--question", "Who invented the piano?", "--context", PIANO)
    assert status == 0 and PIANO[rows[0]["start"]:].startswith(rows[0]["answer"])
    f = tmp_path / "in.txt"
    f.write_text("A man plays .\tA man sleeps .\nno tab here\n\n")
    status, rows, err = run_cli(capsys, "classify", *a, "--task", "nli", "--input", str(f))
    assert status == 2 and "label" in rows[0] and "error" in rows[1] and "line 2" in err
    f.write_text(json.dumps({"question": "Who invented the piano?", "context": PIANO}) + "\n{bad json\n")
    status, rows, _ = run_cli(capsys, "qa", *a, "--input", str(f))
    assert status == 2 and "answer" in rows[0] and "error" in rows[1]
    status, rows, _ = run_cli(capsys, "tag", *a, "--task", "pos", "--attention", "The cat sat")
    att = np.array(rows[0]["attention"]["finetuned"])
    assert att.shape == (2, 2, len(rows[0]["tokens"]), len(rows[0]["tokens"]))
    assert np.array(rows[0]["attention"]["pretrained"]).shape == att.shape


@pytest.mark.parametrize("argv", [
    ["classify", "--task", "bogus", "text"],
    ["classify", "--task", "sentiment", ""],
    ["classify", "--task", "sentiment", "x" * 10_000],
    ["qa", "--question", "Who?", "--context", ""],
    ["qa", "--question", "Who invented the piano, and when?", "--context", "Cristofori."],
])
def test_cli_errors_are_json_and_exit_2(assets, capsys, argv):
    status, rows, err = run_cli(capsys, argv[0], "--assets", str(assets), *argv[1:])
    assert status == 2 and list(rows[0]) == ["error"] and "Traceback" not in err


def test_view_draws_both_models_and_their_difference(assets, reg):
    from explorer.views import finetune as v
    r = v.run_task("nli", "A man plays a guitar .", "A man makes music .", reg=reg, folder=assets / "finetune")
    view = v.finetune_render(r, layer=2, head=2, lang="ko")
    change = v.head_change(r.trace.enc_self, r.base_trace.enc_self)
    assert change.shape == (2, 2) and ((change >= 0) & (change <= 1)).all() and change.max() > 0
    diff = np.array(view.difference.data[0].z)
    assert np.allclose(diff, r.trace.enc_self[1, 1] - r.base_trace.enc_self[1, 1])
    assert np.allclose(view.cls.data[0].y, r.trace.enc_self[1, 1, 0]) and np.allclose(view.cls.data[1].y,
                                                                                      r.base_trace.enc_self[1, 1, 0])
    assert np.allclose(view.change.data[0].z, change)
    assert view.explanation.startswith("(a)") and "레이블" in view.table.columns
    with pytest.raises(UserError):
        v.run_task("nli", "A man plays .", "", reg=reg, folder=assets / "finetune")
    assert v.finetune_render(None).record is None
