"""models/lora.py, models/training/task_data.py, models/training/baselines.py: LoRA's algebra, the heads, the files,
the metrics against hand-worked cases, and the training entry point's smoke mode."""
import json
from pathlib import Path

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from models.bert import Bert, BertConfig
from models.lora import (FinetuneConfig, LoRALinear, TaskModel, bio_viterbi, load_task, merged_bert_state, save_task,
                         shared_encoder, tags_of, trainable_state)
from models.training import baselines, task_data
from models.training.data import file_sha256

TINY = BertConfig(vocab_size=40, d_model=16, n_layers=2, n_heads=2, d_ff=32, max_len=32, pre_ln=True, qk_norm=True)
ROOT = Path(__file__).resolve().parents[2]


def tiny(task="sentiment", mode="lora", base=None):
    base = base or Bert(TINY).eval()
    cfg = FinetuneConfig(task=task, labels=task_data.LABELS[task], bert=TINY, mode=mode,
                         lora_r=4 if mode == "lora" else 0, lora_alpha=8.0)
    return TaskModel(cfg, shared_encoder(base) if mode == "lora" else base).eval(), base


@torch.no_grad()
def as_if_trained(model):
    """Adapters that change the function (B drawn, not zero), every trained weight at fp16 precision, as the file
    holds it: so that saving and loading must give the very same predictions."""
    for m in model.modules():
        if isinstance(m, LoRALinear):
            m.lora_B.normal_(std=0.1)
    for p in model.parameters():
        if p.requires_grad:
            p.copy_(p.half().float())


def ids(B=3, T=9):
    x = torch.randint(5, TINY.vocab_size, (B, T))
    if B > 1:
        x[1, 6:] = 0  # padding
    return x


def test_lora_starts_as_the_pretrained_model_and_merges_exactly():
    model, base = tiny()
    x = ids()
    no = torch.zeros(3, 0, dtype=torch.long)
    with torch.no_grad():
        assert torch.equal(model(x).hidden, base(x, mlm_positions=no).hidden)  # B = 0: same function
        for m in model.modules():
            if isinstance(m, LoRALinear):
                m.lora_B.normal_()
        moved = model(x).hidden
        plain = Bert(TINY).eval()
        plain.load_state_dict(merged_bert_state(model), strict=False)
        assert not torch.allclose(moved, base(x, mlm_positions=no).hidden, atol=1e-3)
        assert torch.allclose(moved, plain(x, mlm_positions=no).hidden, atol=1e-5)  # W + (alpha/r) B A


def test_lora_trains_only_adapters_and_head_and_shares_the_base():
    model, base = tiny()
    trainable = {n for n, p in model.named_parameters() if p.requires_grad}
    assert trainable and all("lora_" in n or n.startswith("head.") for n in trainable)
    assert len([n for n in trainable if "lora_A" in n]) == 4 * TINY.n_layers  # q, k, v, out of every layer
    assert model.bert.layers[0].attn.q_proj.weight.data_ptr() == base.layers[0].attn.q_proj.weight.data_ptr()
    assert not isinstance(base.layers[0].attn.q_proj, LoRALinear)  # the base's own modules are untouched
    x = ids()
    loss = model.train()(x, labels=torch.tensor([0, 1, 1])).loss
    loss.backward()
    assert all(p.grad is None for n, p in model.named_parameters() if n not in trainable)


@pytest.mark.parametrize("task", ["sentiment", "nli", "pos", "ner", "qa"])
def test_heads_shapes_losses_and_attention(task):
    model, _ = tiny(task, mode="full")
    x = ids()
    kind, n = task_data.KIND[task], len(task_data.LABELS[task])
    kw = {"sequence": {"labels": torch.tensor([0, 1, 0])},
          "token": {"labels": torch.where(x > 20, x % n, -100)},
          "span": {"start_positions": torch.tensor([1, 2, 0]), "end_positions": torch.tensor([3, 2, 0]),
                   "span_mask": x != 0}}[kind]
    out = model(x, need_weights=True, **kw)
    shape = {"sequence": (3, n), "token": (3, 9, n), "span": (3, 9, 2)}[kind]
    assert out.logits.shape == shape and torch.isfinite(out.loss)
    att = out.trace.enc_self  # (B, L, H, T, T)
    assert att.shape == (3, TINY.n_layers, TINY.n_heads, 9, 9)
    assert torch.allclose(att.sum(-1), torch.ones(att.shape[:-1]), atol=1e-5)
    assert att[1, ..., 6:].abs().max() == 0  # padding keys get nothing
    if kind == "span":
        assert (out.logits[1, 6:] <= -1e4 + 1).all()  # no answer in the padding


def test_mean_pooling_ignores_padding():
    model, _ = tiny()
    x = ids(1, 6)
    padded = torch.cat([x, torch.zeros(1, 4, dtype=torch.long)], 1)
    assert torch.allclose(model(x).logits, model(padded).logits, atol=1e-5)


def test_save_and_load_give_the_same_predictions(tmp_path):
    model, base = tiny("ner")
    as_if_trained(model)
    save_task(tmp_path / "ner", model, {"valid": {"score": 0.5}})
    assert set(p.name for p in (tmp_path / "ner").iterdir()) == {"config.json", "metrics.json", "adapter.safetensors"}
    loaded, metrics = load_task(tmp_path / "ner", base)
    x = ids()
    assert metrics["valid"]["score"] == 0.5 and loaded.config == model.config
    assert torch.equal(loaded(x).logits, model(x).logits)
    assert set(trainable_state(loaded)) == set(trainable_state(model))


def test_chunks_and_entity_f1_by_hand():
    assert task_data.chunks(["B-PER", "I-PER", "O", "B-LOC", "I-LOC", "I-LOC"]) == {("PER", 0, 1), ("LOC", 3, 5)}
    assert task_data.chunks(["O", "I-ORG", "I-ORG", "B-ORG"]) == {("ORG", 1, 2), ("ORG", 3, 3)}  # conlleval
    assert task_data.chunks(["B-PER", "I-LOC"]) == {("PER", 0, 0), ("LOC", 1, 1)}
    gold = [["B-PER", "I-PER", "O", "B-LOC"], ["B-ORG", "O"]]
    pred = [["B-PER", "O", "O", "B-LOC"], ["B-ORG", "B-LOC"]]
    f = task_data.entity_f1(pred, gold)  # tp 2 (LOC, ORG) of 4 predicted, 3 gold
    assert f["precision"] == pytest.approx(0.5) and f["recall"] == pytest.approx(2 / 3)
    assert f["f1"] == pytest.approx(2 * 0.5 * (2 / 3) / (0.5 + 2 / 3))


def test_entity_errors_by_hand():
    gold = [["B-PER", "I-PER", "O", "B-LOC", "O", "B-ORG", "O", "B-LOC", "O"]]
    pred = [["B-PER", "O", "O", "B-ORG", "O", "B-ORG", "O", "O", "B-PER"]]
    # Tim (Cook): boundary; LOC read as ORG on the same word: type; ORG exact: correct; LOC missed; PER spurious
    assert task_data.entity_errors(pred, gold) == {"boundary": 1, "type": 1, "correct": 1, "missed": 1, "spurious": 1}
    assert task_data.entity_errors([["B-LOC", "I-LOC", "O"]], [["B-PER", "O", "O"]]) == {"boundary+type": 1}


NER = task_data.NER_LABELS  # O, B-PER, I-PER, B-ORG, I-ORG, B-LOC, I-LOC


def ner_probs(*words: dict) -> np.ndarray:
    """(words, 7) probabilities from {tag: p} per word; the rest of each row shared evenly."""
    out = np.zeros((len(words), len(NER)))
    for i, w in enumerate(words):
        rest = [k for k in range(len(NER)) if NER[k] not in w]
        out[i, [NER.index(t) for t in w]] = list(w.values())
        out[i, rest] = (1 - sum(w.values())) / len(rest)
    return out


def valid_iob2(tags) -> bool:
    return all(not t.startswith("I-") or (i > 0 and tags[i - 1] in ("B-" + t[2:], t)) for i, t in enumerate(tags))


def test_bio_decoding_repairs_an_invalid_argmax_by_the_numbers():
    # "Barack Obama was born in Hawaii": the shipped head's two rows (rounded)
    p = ner_probs({"B-PER": 0.915, "B-LOC": 0.084}, {"I-LOC": 0.659, "I-PER": 0.337, "O": 0.003})
    assert tags_of(p, NER, "O", constrained=False) == ["B-PER", "I-LOC"]  # argmax: I-LOC cannot follow B-PER
    assert tags_of(p, NER, "O") == ["B-PER", "I-PER"]  # 0.915 * 0.337 = 0.308 > B-LOC I-LOC 0.084 * 0.659 = 0.055
    # the same argmax, but here a second entity is the better reading: 0.9 * 0.4 > 0.9 * 0.05 and > 0.1 * 0.4
    p = ner_probs({"B-PER": 0.9, "O": 0.1}, {"I-LOC": 0.5, "B-LOC": 0.4, "I-PER": 0.05, "O": 0.05})
    assert tags_of(p, NER, "O", constrained=False) == ["B-PER", "I-LOC"]
    assert tags_of(p, NER, "O") == ["B-PER", "B-LOC"]
    # I-X cannot start a sentence, nor follow O
    assert tags_of(ner_probs({"I-ORG": 0.6, "B-ORG": 0.3}), NER, "O") == ["B-ORG"]
    p = ner_probs({"O": 0.9}, {"I-PER": 0.5, "O": 0.45})
    assert tags_of(p, NER, "O") == ["O", "O"]


def test_bio_decoding_is_the_best_valid_sequence_by_brute_force():
    import itertools
    rng = np.random.default_rng(0)
    for trial in range(300):
        n = int(rng.integers(1, 6))
        p = rng.dirichlet(np.full(len(NER), 0.3 if trial % 2 else 2.0), size=n)  # peaked and flat rows
        logp = np.log(p)
        path = bio_viterbi(logp, NER)
        best = max((s for s in itertools.product(range(len(NER)), repeat=n) if valid_iob2([NER[k] for k in s])),
                   key=lambda s: logp[np.arange(n), list(s)].sum())
        assert valid_iob2([NER[k] for k in path])
        assert logp[np.arange(n), path].sum() == pytest.approx(logp[np.arange(n), list(best)].sum(), abs=1e-12)
    assert bio_viterbi(np.zeros((0, len(NER))), NER) == []


def test_tags_of_gives_unread_words_the_fallback_and_leaves_other_label_sets_to_argmax():
    p = ner_probs({"B-PER": 0.9}, {"I-PER": 0.8}, {"I-PER": 0.7, "B-PER": 0.25})
    p[1] = np.nan  # a word the model did not read: O, so the next I-PER cannot continue the name
    assert tags_of(p, NER, "O") == ["B-PER", "O", "B-PER"]
    assert tags_of(p, NER, "O", constrained=False) == ["B-PER", "O", "I-PER"]
    pos = np.array([[0.1, 0.9], [np.nan, np.nan], [0.7, 0.3]])
    assert tags_of(pos, ("NOUN", "VERB"), "X") == ["VERB", "X", "NOUN"]
    rng = np.random.default_rng(1)
    for _ in range(50):  # whatever the head says, NER's tags are valid IOB2, and zeros do not break the search
        p = rng.dirichlet(np.full(len(NER), 0.1), size=12)
        p[p < 1e-3] = 0.0
        assert valid_iob2(tags_of(p, NER, "O"))


def test_squad_normalisation_and_scores():
    assert task_data.normalize_answer("The  Denver Broncos!") == "denver broncos"
    s = task_data.squad_scores(["Denver Broncos", "the Carolina Panthers team"],
                               [["denver broncos."], ["Carolina Panthers", "Panthers"]])
    assert s["exact_match"] == 0.5
    assert s["f1"] == pytest.approx((1 + 2 * (2 / 3) * 1 / (2 / 3 + 1)) / 2)


def test_qa_windows_cover_the_context_and_the_answer_positions_read_back():
    from models import checkpoint
    tok = task_data.task_tokenizer(checkpoint.load(ROOT / "assets" / "bert").tokenizer, 40)
    ex = {"question": "Who invented the piano?", "answers": ["Bartolomeo Cristofori"],
          "context": "The piano was invented by Bartolomeo Cristofori in Italy around 1700. " * 4}
    ex["starts"] = [ex["context"].index("Bartolomeo")]
    windows = task_data.qa_windows(tok, ex["question"], ex["context"], 40, 8)
    n_ctx = len(tok.encode(ex["context"], add_special_tokens=False).ids)
    covered = set()
    for w in windows:
        assert len(w["input_ids"]) <= 40 and w["segment_ids"][w["ctx_start"]] == 1
        covered |= set(range(w["token_start"], w["token_start"] + len(w["offsets"])))
    assert len(windows) > 1 and covered == set(range(n_ctx))
    rows = task_data.encode_qa(tok, [ex], 40, 8)
    hits = [r for r in rows if r["start_positions"] > 0]
    assert hits
    for r, w in zip(rows, windows):
        if r["start_positions"]:
            cs = w["offsets"][r["start_positions"] - w["ctx_start"]][0]
            ce = w["offsets"][r["end_positions"] - w["ctx_start"]][1]
            assert ex["context"][cs:ce] == "Bartolomeo Cristofori"


def test_first_subword_labels():
    from models import checkpoint
    tok = task_data.task_tokenizer(checkpoint.load(ROOT / "assets" / "bert").tokenizer, 64)
    rows = task_data.encode_tagging(tok, [(["Cristofori", "played", "pianos"], ["PROPN", "VERB", "NOUN"])],
                                    task_data.UPOS)
    y = rows[0]["labels"]
    labelled = [i for i, v in enumerate(y) if v != -100]
    assert len(labelled) == 3 and labelled[0] == 1  # right after [CLS]
    assert [task_data.UPOS[y[i]] for i in labelled] == ["PROPN", "VERB", "NOUN"]


def test_baselines_by_hand():
    tag = baselines.most_frequent_tagger([(["the", "run"], ["DET", "NOUN"]), (["I", "run"], ["PRON", "VERB"]),
                                          (["we", "run"], ["PRON", "VERB"])])
    assert tag(["The", "run", "zebra"]) == ["DET", "VERB", "PRON"]  # lower-case fallback; unseen -> most frequent
    assert baselines.repair_iob2(["O", "I-PER", "I-PER", "I-LOC"]) == ["O", "B-PER", "I-PER", "B-LOC"]
    nb = baselines.NaiveBayes().fit([["good", "fun"], ["bad", "dull"], ["good"], ["bad"]], [1, 0, 1, 0])
    assert nb.predict([["fun", "good"], ["dull"], ["unseen"]])[:2] == [1, 0]
    ans, start = baselines.sliding_window_answer("Where were cats first kept?",
                                                 "Cats were first kept in the Near East around 7500 BC.")
    assert "Near" in ans and ans == "Cats were first kept in the Near East around 7500 BC."[start:start + len(ans)]


@pytest.mark.parametrize("task,init", [("sentiment", "assets/bert"), ("qa", "scratch")])
def test_smoke_run_writes_metrics_with_command_hashes_and_baseline(tmp_path, task, init):
    from models.training.train import main
    out = tmp_path / task
    argv = ["finetune", "--task", task, "--init", str(ROOT / init) if init != "scratch" else init,
            "--smoke", "--out", str(out), "--device", "cpu"]
    main(argv)
    m = json.loads((out / "metrics.json").read_text())
    assert m["command"].startswith("python -m models.training.train finetune --task " + task)
    assert m["seed"] == 0 and m["steps"] >= 1 and 0 <= m["valid"]["score"] <= 1 and "score" in m["baseline"]
    fixtures = ROOT / "tests" / "fixtures" / "finetune"
    assert m["data"]["files"] == {f: file_sha256(fixtures / f) for f in task_data.FILES[task]}
    if init == "scratch":
        assert not (out / "checkpoint").exists() and m["ship_bytes"]["whole_model_int8"] > 20e6
    else:
        files = list((out / "checkpoint").iterdir())
        assert all(f.stat().st_size < 9_500_000 for f in files)
        assert (out / "checkpoint" / "adapter.safetensors").stat().st_size < 3_000_000


# ----------------------------------------------------------------------------- a base read under inference_mode
# as explorer.compute.inference reads the registry's checkpoints, used from code that runs outside it (explorer.compute.pipeline)


def inference_base() -> Bert:
    torch.manual_seed(0)
    plain = Bert(TINY).eval()
    with torch.inference_mode():
        base = Bert(TINY).eval()
        base.load_state_dict(plain.state_dict())  # copied inside inference_mode: inference tensors
    assert base.layers[0].attn.q_proj.weight.is_inference()
    return base


def test_shared_encoder_of_an_inference_mode_base_shares_its_tensors():
    base = inference_base()
    bert = shared_encoder(base)  # outside inference_mode
    assert bert.layers[0].attn.q_proj.weight.data_ptr() == base.layers[0].attn.q_proj.weight.data_ptr()
    assert not any(p.requires_grad for p in bert.parameters())
    x = torch.randint(5, TINY.vocab_size, (2, 7))
    no = torch.zeros(2, 0, dtype=torch.long)
    with torch.inference_mode():
        assert torch.equal(bert(x, mlm_positions=no).hidden, base(x, mlm_positions=no).hidden)


def test_load_task_on_an_inference_mode_base_gives_the_saved_predictions(tmp_path):
    torch.manual_seed(1)
    plain = Bert(TINY).eval()
    model, _ = tiny(base=plain)
    as_if_trained(model)
    save_task(tmp_path / "sentiment", model, {"valid": {"score": 0.5}})
    with torch.inference_mode():
        base = Bert(TINY).eval()
        base.load_state_dict(plain.state_dict())
    loaded, _ = load_task(tmp_path / "sentiment", base)  # outside inference_mode
    x = torch.randint(5, TINY.vocab_size, (3, 9))
    with torch.inference_mode():
        assert torch.equal(loaded(x).logits, model(x).logits)
