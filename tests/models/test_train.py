"""Smoke training of every architecture through the real command line (what CI runs)."""
import json
import math
import time

import pytest
import torch

from models.checkpoint import load
from models.training import train


@pytest.mark.parametrize("argv", [["transformer"], ["seq2seq", "--attention", "additive"],
                                  ["seq2seq", "--attention", "none"], ["bert"]])
def test_smoke_training_writes_a_loadable_checkpoint(tmp_path, argv):
    out = tmp_path / "run"
    folder = train.main(argv + ["--smoke", "--out", str(out), "--device", "cpu", "--max-steps", "40"])
    ck = load(folder)
    m = ck.metrics
    for key in ("command", "git_commit", "seed", "data", "wall_seconds", "device", "valid", "steps"):
        assert key in m
    assert m["command"].startswith("python -m models.training.train " + argv[0]) and "--smoke" in m["command"]
    assert all(len(h) == 64 for h in m["data"]["files"].values())  # sha256 of every data file used
    log = [json.loads(line) for line in (out / "log.jsonl").read_text().splitlines()]
    losses = [r["loss"] for r in log if "loss" in r]
    assert losses[-1] < losses[0], "loss did not fall"
    assert any("eval" in r for r in log)


def test_translation_split_is_deterministic_and_disjoint():
    from models.training import data
    pairs = data.read_pairs(train.FIXTURES, "en-fr")
    a = data.split_by_source(pairs, 0, 0.1, 0.1)
    b = data.split_by_source(pairs, 0, 0.1, 0.1)
    assert a == b
    src = {k: {s for s, _ in v} for k, v in a.items()}
    assert not (src["train"] & src["test"]) and not (src["train"] & src["valid"])


def test_a_split_by_pair_partitions_the_pairs_and_evaluate_reads_the_same_one(tmp_path):
    """--split-by pair (for comparison with figures read on such splits): every pair in exactly one
    part, deterministic, sources shared between parts allowed; the checkpoint records it and
    models.evaluate recreates that split, not the by-source one."""
    from models.training import data
    from models.training.evaluate import bleu_by_seen_source, heldout_pairs, translation_test
    pairs = [(f"Sentence {i // 2}.", f"Voici la phrase numéro {i} de ce test.") for i in range(400)]  # sources twice
    split, dropped = data.translation_split(pairs, "en-fr", 0, 0.1, 0.1, by="pair")
    assert split == data.translation_split(pairs, "en-fr", 0, 0.1, 0.1, by="pair")[0]
    assert dropped == {"valid": 0, "test": 0}
    assert sorted(split["train"] + split["valid"] + split["test"]) == sorted(pairs)
    assert (len(split["valid"]), len(split["test"])) == (40, 40)
    assert {s for s, _ in split["train"]} & {s for s, _ in split["test"]}  # what a split by source never has
    folder = train.main(["transformer", "--smoke", "--split-by", "pair", "--valid-frac", "0.1", "--test-frac", "0.1",
                         "--out", str(tmp_path / "run"), "--device", "cpu", "--max-steps", "2"])
    with pytest.raises(SystemExit):  # BERT holds out the translation split's English sentences, by source
        train.parse(["bert", "--smoke", "--split-by", "pair", "--out", str(tmp_path / "bert")])
    ck = load(folder)
    assert ck.metrics["data"]["split_by"] == "pair"
    fixture_pairs = data.read_pairs(train.FIXTURES, "en-fr")
    m = ck.metrics["data"]
    by_pair = data.split_by_pair(fixture_pairs, m["split_seed"], m["valid_frac"], m["test_frac"])["test"]
    assert heldout_pairs(ck, train.FIXTURES, "test") == by_pair != data.split_by_source(
        fixture_pairs, m["split_seed"], m["valid_frac"], m["test_frac"])["test"]
    # the fixture's sources are all distinct; on the synthetic pairs (each source twice) the checkpoint's split
    # holds both parts, and evaluate's "seen" part is the test pairs whose source is a training source
    corpus = tmp_path / "data" / data.TRANSLATION_FILES["en-fr"].removesuffix(".gz")
    corpus.parent.mkdir(parents=True)
    corpus.write_text("".join(f"{en}\t{fr}\n" for en, fr in pairs), encoding="utf-8")
    res = translation_test(ck, tmp_path / "data", beam=1, progress=False)
    seen = {s for s, _ in split["train"]}  # the same seed and fractions as the checkpoint's
    assert (m["split_seed"], m["valid_frac"], m["test_frac"]) == (0, 0.1, 0.1)
    parts = res["bleu_by_seen_source"]
    assert parts["seen"]["n"] == sum(s in seen for s, _ in split["test"]) > 0
    assert parts["seen"]["n"] + parts["unseen"]["n"] == res["n"] == 40
    srcs, refs = [s for s, _ in split["test"]], [t for _, t in split["test"]]
    hyps = [t if s in {s for s, _ in split["train"]} else "wrong" for s, t in split["test"]]
    parts = bleu_by_seen_source(srcs, hyps, refs, {s for s, _ in split["train"]})
    assert parts["seen"]["n"] > 0 and parts["unseen"]["n"] > 0 and parts["seen"]["n"] + parts["unseen"]["n"] == 40
    assert parts["seen"]["bleu"] == 100 and parts["unseen"]["bleu"] < 1


def test_no_validation_or_test_source_is_a_training_source_in_either_direction():
    """The split groups by English; into English, a Korean sentence with two English translations
    must not be a training source and a test source at once (the pair is dropped from the test), nor a
    validation source and a test source."""
    from models.training import data
    pairs = [(f"Sentence number {i}.", f"문장 {i}") for i in range(200)]
    pairs += [(f"Another way to say {i}.", f"문장 {i}") for i in range(0, 200, 2)]  # 100 Korean with two translations
    split = data.split_by_source(pairs, 0, 0.1, 0.1)
    for direction in ("en-ko", "ko-en"):
        out, dropped = data.oriented_split(split, direction)
        seen = {src for src, _ in out["train"]}
        assert not seen & {src for src, _ in out["valid"] + out["test"]}
        assert not {src for src, _ in out["valid"]} & {src for src, _ in out["test"]}  # alpha is chosen on valid
        assert out["train"] == data.orient(split["train"], direction)  # training data untouched
        for k in ("valid", "test"):
            assert len(out[k]) + dropped[k] == len(split[k])
    assert data.oriented_split(split, "en-ko")[1] == {"valid": 0, "test": 0}  # English sources: the split's own key
    assert sum(data.oriented_split(split, "ko-en")[1].values()) > 0  # the leak this guards against exists here


def test_a_new_wordpiece_vocabulary_never_reads_held_out_text():
    from models.training import data
    raw = data.load_bert_corpora(train.FIXTURES, required=False)
    pairs = data.read_pairs(train.FIXTURES, "en-fr")
    texts = set(data.wordpiece_texts(raw, pairs, 0, 0.2))
    held = [s for name, docs in raw.items() for d in
            (docs if name == "wikitext2-valid" else data.split_docs(docs, 0, 0.2)[1]) for s in d]
    trained = {s for name, docs in raw.items() if name != "wikitext2-valid"
               for d in data.split_docs(docs, 0, 0.2)[0] for s in d}
    split = data.split_by_source(pairs, 0, 0.01, 0.015)
    held_en = {en for en, _ in split["valid"] + split["test"]}
    assert held and held_en and trained <= texts
    assert not (set(held) - trained) & texts  # a held-out sentence only where a training document has it too
    assert not held_en & texts


def test_mlm_masking_is_80_10_10():
    import random

    from models.training import data
    sp = {"pad": 0, "unk": 1, "cls": 2, "sep": 3, "mask": 4}
    ids = torch.randint(5, 1000, (200, 100))
    inputs, labels = data.mask_tokens(ids, sp, 1000, random.Random(0))
    chosen = labels >= 0
    assert abs(chosen.float().mean().item() - 0.15) < 0.01
    masked = (inputs == 4) & chosen
    kept = (inputs == ids) & chosen
    assert abs(masked.sum().item() / chosen.sum().item() - 0.8) < 0.02
    assert abs(kept.sum().item() / chosen.sum().item() - 0.1) < 0.02  # (+ ~0.1% random ids equal to the original)
    assert (labels[chosen] == ids[chosen]).all() and (inputs[~chosen] == ids[~chosen]).all()


def test_cooldown_anneals_to_zero_and_leaves_warmup_alone():
    base = train.noam(256, 100)
    lr = train.with_cooldown(base, 0.2)
    assert lr(10, 0.05) == base(10, 0.05)  # warmup and the stable part: unchanged
    assert lr(5000, 0.7) == base(5000, 0.7)
    assert lr(5000, 0.9) == pytest.approx(base(5000, 0.9) * 0.5)
    assert lr(5000, 1.0) == 0.0
    assert train.with_cooldown(base, 0.0) is base


class _Blows(torch.nn.Module):
    """A linear regression whose loss is NaN on the batches marked bad."""

    def __init__(self):
        super().__init__()
        self.w = torch.nn.Parameter(torch.zeros(3))

    def forward(self, x, y, bad):
        loss = ((x @ self.w - y) ** 2).mean() * (float("nan") if bad.item() else 1.0)  # NaN gradients too
        return type("Out", (), {"loss": loss})()


@pytest.mark.parametrize("fused", [False, True])
def test_non_finite_steps_are_skipped_not_applied(tmp_path, fused):
    """The fused path skips on the device (no host sync per step); both must leave the weights finite
    and apply exactly the finite steps."""
    torch.manual_seed(0)
    x, w_true = torch.randn(64, 3), torch.tensor([1.0, -2.0, 0.5])
    batches = iter([{"x": x, "y": x @ w_true, "bad": torch.tensor(int(i % 3 == 1))} for i in range(30)])
    model = _Blows()
    opt = torch.optim.AdamW(model.parameters(), lr=0.1, weight_decay=0.0, fused=fused)
    t = train.Trainer(model, opt, lambda s, p: 0.1, batches, lambda m: {"score": -float(((x @ m.w.detach() - x @ w_true) ** 2).mean())},
                      tmp_path, "cpu", max_steps=30, eval_every=10)
    t.run()
    assert torch.isfinite(model.w).all()
    assert opt.state[model.w]["step"].item() == 20  # 10 of the 30 batches were NaN
    assert torch.allclose(model.w, w_true, atol=0.3)


def test_bert_continues_from_a_checkpoint(tmp_path):
    first = train.main(["bert", "--smoke", "--out", str(tmp_path / "a"), "--device", "cpu", "--max-steps", "40"])
    # one warmup step (lr = peak / warmup): Adam moves each weight by at most ~lr from where it started
    second = train.main(["bert", "--smoke", "--out", str(tmp_path / "b"), "--device", "cpu", "--max-steps", "1",
                         "--init-from", str(first)])
    a, b = load(first), load(second)
    assert a.tokenizer.get_vocab() == b.tokenizer.get_vocab() and a.config == b.config
    lineage = b.metrics["continued_from"]
    assert lineage[0]["command"] == a.metrics["command"] and lineage[0]["steps"] == 40
    assert b.metrics["total_wall_seconds"] >= a.metrics["wall_seconds"]
    sa, sb = a.model.state_dict(), b.model.state_dict()
    moved = max((sa[k] - sb[k]).abs().max().item() for k in sa)
    assert moved < 5 * b.metrics["hyperparameters"]["lr"] / b.metrics["hyperparameters"]["warmup"]
    assert (sa["embeddings.tok.weight"] - sb["embeddings.tok.weight"]).abs().max() > 0  # it did train


def test_bert_trains_with_qk_layernorm_and_continuing_keeps_it(tmp_path):
    first = train.main(["bert", "--smoke", "--qk-norm", "--out", str(tmp_path / "a"), "--device", "cpu",
                        "--max-steps", "4"])
    a = load(first)
    assert a.config.qk_norm and a.metrics["hyperparameters"]["qk_norm"]
    assert "layers.0.attn.q_norm.weight" in a.model.state_dict()
    assert not load(train.main(["bert", "--smoke", "--out", str(tmp_path / "p"), "--device", "cpu",
                                "--max-steps", "1"])).config.qk_norm  # off unless asked: older recipes' commands reproduce
    b = load(train.main(["bert", "--smoke", "--out", str(tmp_path / "b"), "--device", "cpu", "--max-steps", "1",
                         "--init-from", str(first)]))
    assert b.config.qk_norm
    with pytest.raises(SystemExit):  # argparse's error: a BERT option
        train.parse(["transformer", "--qk-norm", "--out", "x"])
    with pytest.raises(SystemExit, match="with QK-LayerNorm"):
        train.main(["bert", "--smoke", "--no-qk-norm", "--out", str(tmp_path / "c"), "--device", "cpu",
                    "--init-from", str(first)])


def test_bert_grows_deeper_from_a_checkpoint(tmp_path):
    first = train.main(["bert", "--smoke", "--out", str(tmp_path / "a"), "--device", "cpu", "--max-steps", "4"])
    grown = load(train.main(["bert", "--smoke", "--out", str(tmp_path / "b"), "--device", "cpu", "--max-steps", "1",
                             "--lr", "0", "--init-from", str(first), "--grow-layers", "3"]))
    a = load(first)
    assert (a.config.n_layers, grown.config.n_layers) == (1, 3) and grown.metrics["hyperparameters"]["grow_layers"] == 3
    ids = torch.tensor([[2, 7, 8, 9, 3, 10, 11, 3]])
    segs = torch.tensor([[0, 0, 0, 0, 0, 1, 1, 1]])
    torch.testing.assert_close(grown.model(ids, segs).mlm_logits, a.model(ids, segs).mlm_logits)
    with pytest.raises(SystemExit):  # argparse: only with --init-from
        train.parse(["bert", "--out", "x", "--grow-layers", "3"])
    with pytest.raises(SystemExit, match="fewer layers"):
        train.main(["bert", "--smoke", "--out", str(tmp_path / "c"), "--device", "cpu", "--init-from", str(first),
                    "--grow-layers", "1"])


def test_bert_selection_draw_defaults_to_the_shipped_runs():
    """The shipped BERT runs selected checkpoints on 10 batches of 64 per held-out set; the default
    must stay so their recorded commands reproduce, while --valid-n draws more."""
    assert train.parse(["bert", "--out", "x"]).valid_n == 640
    assert train.parse(["bert", "--out", "x", "--valid-n", "2560"]).valid_n == 2560
    assert train.parse(["transformer", "--out", "x"]).valid_n == 1000


def test_continuing_refuses_longer_sequences_than_the_parent(tmp_path):
    first = train.main(["bert", "--smoke", "--out", str(tmp_path / "a"), "--device", "cpu", "--max-steps", "2"])
    with pytest.raises(SystemExit, match="exceeds the parent's 64 positions"):
        train.main(["bert", "--smoke", "--out", str(tmp_path / "b"), "--device", "cpu", "--max-len", "128",
                    "--init-from", str(first)])
    # on request, the longer table starts as the parent's repeated: positions 64.. begin where 0.. are
    longer = load(train.main(["bert", "--smoke", "--out", str(tmp_path / "d"), "--device", "cpu", "--max-len", "128",
                              "--max-steps", "1", "--lr", "0", "--init-from", str(first), "--extend-positions"]))
    pos_a, pos_b = load(first).model.state_dict()["embeddings.pos.weight"], longer.model.state_dict()["embeddings.pos.weight"]
    assert longer.config.max_len == 128 and pos_b.shape[0] == 128
    assert torch.equal(pos_b[:64], pos_a) and torch.equal(pos_b[64:], pos_a)
    with pytest.raises(SystemExit, match="another held-out split"):
        train.main(["bert", "--smoke", "--out", str(tmp_path / "c"), "--device", "cpu", "--split-seed", "1",
                    "--init-from", str(first)])


def _tiny_transformer(dropout):
    from models.transformer import Transformer, TransformerConfig
    torch.manual_seed(0)
    return Transformer(TransformerConfig(src_vocab_size=40, tgt_vocab_size=40, d_model=16, n_heads=2, n_layers=1,
                                         d_ff=32, dropout=dropout, max_len=16))


def _pairs():
    g = torch.Generator().manual_seed(1)
    src, tgt = torch.randint(3, 40, (4, 7), generator=g), torch.randint(3, 40, (4, 6), generator=g)
    src[0, 5:], tgt[1, 4:] = 0, 0  # padding, which the consistency term must ignore
    return {"src": src, "tgt_in": tgt[:, :-1], "tgt_out": tgt[:, 1:]}


def test_rdrop_without_dropout_is_the_plain_loss():
    """Two passes with no dropout predict the same distributions: the KL term is exactly 0."""
    model = _tiny_transformer(0.0).train()
    b = _pairs()
    plain = train.Bound(model, label_smoothing=0.1)(**b).loss
    rdrop = train.RDrop(model, 5.0, label_smoothing=0.1)(**b).loss
    assert torch.allclose(plain, rdrop, atol=1e-6)


def test_rdrop_adds_alpha_times_the_symmetric_kl_of_two_dropout_passes():
    model = _tiny_transformer(0.3).train()
    b = _pairs()
    torch.manual_seed(5)
    total = train.RDrop(model, 5.0)(**b).loss
    torch.manual_seed(5)  # same dropout masks: the same two passes, recomputed by hand
    out = model(torch.cat([b["src"]] * 2), torch.cat([b["tgt_in"]] * 2), torch.cat([b["tgt_out"]] * 2))
    p, q = out.logits.softmax(-1).chunk(2)
    kl = 0.5 * ((p * (p / q).log()).sum(-1) + (q * (q / p).log()).sum(-1))
    keep = b["tgt_out"] != 0
    assert kl[keep].min() > 0
    assert torch.allclose(total, out.loss + 5.0 * kl[keep].sum() / (2 * keep.sum()), atol=1e-5)
    total.backward()
    assert all(p.grad is not None and torch.isfinite(p.grad).all() for p in model.parameters() if p.requires_grad)


def test_rdrop_training_through_the_command_line(tmp_path):
    folder = train.main(["transformer", "--smoke", "--out", str(tmp_path / "r"), "--device", "cpu", "--max-steps", "30",
                         "--rdrop", "5"])
    m = load(folder).metrics
    assert m["hyperparameters"]["rdrop"] == 5.0 and "--rdrop 5" in m["command"]
    losses = [json.loads(line)["loss"] for line in (tmp_path / "r" / "log.jsonl").read_text().splitlines()
              if "loss" in line]
    assert losses[-1] < losses[0]


def _replicas(rank, world, store, perturb, results):
    import torch.distributed as dist

    from models.training import trainer
    dist.init_process_group("gloo", init_method=f"file://{store}", rank=rank, world_size=world)
    torch.manual_seed(0)
    m = torch.nn.Linear(3, 3)
    if perturb and rank == 1:
        with torch.no_grad():
            m.weight[0, 0] += 1e-6
    try:
        trainer.check_replicas(m)
        results.put((rank, "same"))
    except RuntimeError as e:
        results.put((rank, str(e)))
    dist.destroy_process_group()


@pytest.mark.parametrize("perturb", [False, True])
def test_diverged_data_parallel_replicas_are_caught(tmp_path, perturb):
    import torch.multiprocessing as mp
    ctx = mp.get_context("spawn")
    results = ctx.SimpleQueue()
    mp.spawn(_replicas, args=(2, tmp_path / "store", perturb, results), nprocs=2)
    got = dict(results.get() for _ in range(2))
    if perturb:
        assert all("diverged" in v for v in got.values())
    else:
        assert got == {0: "same", 1: "same"}


def test_data_parallel_training_under_torchrun(tmp_path):
    """Two CPU processes (gloo): one checkpoint and one log from rank 0, the same stopping step for
    both (a time budget read off one agreed clock), and replicas still identical at the end
    (check_replicas raises otherwise, failing the run)."""
    import subprocess
    import sys
    out = tmp_path / "ddp"
    r = subprocess.run([sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc_per_node", "2",
                        "-m", "models.training.train", "bert", "--smoke", "--out", str(out), "--device", "cpu",
                        "--max-steps", "40"], capture_output=True, text=True, timeout=300,
                       env={**__import__("os").environ, "OMP_NUM_THREADS": "1"})
    assert r.returncode == 0, r.stderr[-3000:]
    m = load(out / "checkpoint").metrics
    assert m["processes"] == 2 and m["device"].startswith("2 x ") and m["steps"] == 40
    assert m["command"].startswith("torchrun --standalone --nproc_per_node 2 -m models.training.train bert --smoke")
    log = [json.loads(line) for line in (out / "log.jsonl").read_text().splitlines()]
    assert sum("eval" in rec for rec in log) == 3  # steps 15, 30, 40: written once, not once per process
    assert r.stdout.count("saved ") == 1


@pytest.mark.parametrize("arch", ["bert", "transformer"])
def test_each_data_parallel_process_draws_its_own_batches(monkeypatch, arch):
    """Same seed, another rank: other batches (identical ones would make extra GPUs useless)."""
    made = {}  # one tokenizer for all three setups: training one is not deterministic (see agree_tokenizer)
    real = train.train_wordpiece
    monkeypatch.setattr(train, "train_wordpiece", lambda texts, v: made.setdefault(v, real(texts, v)))
    first = {}
    for r in (0, 1, 0):
        monkeypatch.setattr(train, "rank", lambda r=r: r)
        args = train.parse([arch, "--smoke", "--out", "unused", "--device", "cpu"])
        setup = train.setup_bert if arch == "bert" else train.setup_translation
        stream, key = setup(args, "cpu")[3], "input_ids" if arch == "bert" else "src"
        drawn = [next(stream)[key].tolist() for _ in range(5)]
        if r in first:
            assert first[r] == drawn  # deterministic per rank
        first[r] = drawn
    assert first[0] != first[1]


def _agree(rank, world, store, results):
    import torch.distributed as dist
    from models.tokenizers import train_wordpiece
    dist.init_process_group("gloo", init_method=f"file://{store}", rank=rank, world_size=world)
    texts = ["the cat sat on the mat", "a dog ran"] if rank == 0 else ["zebras quietly graze", "xylophones"]
    tok = train.agree_tokenizer(train_wordpiece(texts * 3, 60), "cpu")
    results.put((rank, tok.to_str()))
    dist.destroy_process_group()


def test_every_process_takes_rank_zeros_tokenizer(tmp_path):
    import torch.multiprocessing as mp
    from models.tokenizers import train_wordpiece
    results = mp.get_context("spawn").SimpleQueue()
    mp.spawn(_agree, args=(2, tmp_path / "store", results), nprocs=2)
    got = dict(results.get() for _ in range(2))
    assert got[0] == got[1]
    assert "cat" in got[1] and "zebras" not in got[1]
    assert train.agree_tokenizer(train_wordpiece(["alone here"] * 3, 60), "cpu").token_to_id("alone") is not None


def test_bert_test_metrics_read_other_documents_than_selection(tmp_path, capsys, monkeypatch):
    """models.evaluate must not score BERT on what chose its checkpoint: validation and test read
    disjoint halves of the held-out documents and sentences, none of them trained on, and draw
    with their own seeds."""
    from models.training import data, evaluate
    folder = train.main(["bert", "--smoke", "--out", str(tmp_path / "b"), "--device", "cpu", "--max-steps", "2"])
    ck = load(folder)
    _, trained, held, singles = data.bert_split(ck.tokenizer, train.FIXTURES, 0, ck.metrics["data"]["heldout_frac"],
                                                False)
    as_set = lambda docs: {tuple(map(tuple, d)) for d in docs}
    assert held["valid"]["wikitext2-valid"] and held["test"]["wikitext2-valid"]
    for name in held["test"]:
        valid, test = as_set(held["valid"][name]), as_set(held["test"][name])
        assert not valid & test and not (valid | test) & as_set(trained.get(name, []))
    valid, test, seen_in_training = (set(map(tuple, singles[k])) for k in ("valid", "test", "train"))
    assert valid and test and not valid & test and not (valid | test) & seen_in_training
    got = data.bert_heldout_data(ck.tokenizer, train.FIXTURES, ck.metrics["data"])
    assert got == (held["test"], singles["test"])
    calls, real = [], evaluate.bert_heldout_eval
    monkeypatch.setattr(evaluate, "bert_heldout_eval",
                        lambda *a, **k: calls.append((a[2], k.get("seed"))) or real(*a, **k))
    evaluate.main([str(folder), "--data-dir", str(train.FIXTURES), "--bert-batches", "2"])
    assert calls == [(held["test"], evaluate.TEST_DRAW)] and evaluate.TEST_DRAW != evaluate.VALID_DRAW
    assert "fill_mask_top1_wiki" in capsys.readouterr().out



def test_nsp_by_corpus_reads_each_corpus_alone(tmp_path, capsys):
    """--nsp-by-corpus: one NSP number per held-out corpus that can give pairs, with its document and
    sentence counts; a corpus alone gives exactly what the headline NSP gives when it is the only one."""
    from models.training import data, evaluate
    folder = train.main(["bert", "--smoke", "--out", str(tmp_path / "b"), "--device", "cpu", "--max-steps", "2"])
    ck = load(folder)
    held, _ = data.bert_heldout_data(ck.tokenizer, train.FIXTURES, ck.metrics["data"])
    pairs = data.pair_corpora(held)
    assert pairs
    got = evaluate.nsp_by_corpus(ck.model, ck.tokenizer, held, 64, n_batches=2, batch=8)
    assert set(got) == set(pairs)
    for name, r in got.items():
        assert r["documents"] == len(pairs[name]) and r["sentences"] == sum(map(len, pairs[name]))
        assert r["nsp_pairs"] == 16 and 0 <= r["nsp_acc"] <= 1
    only_wiki = {"wikitext2-valid": held["wikitext2-valid"]}
    headline = evaluate.bert_heldout_eval(ck.model, ck.tokenizer, only_wiki, [[5, 6]], 64, n_batches=2, batch=8,
                                          seed=evaluate.TEST_DRAW)
    alone = evaluate.nsp_by_corpus(ck.model, ck.tokenizer, only_wiki, 64, n_batches=2, batch=8)["wikitext2-valid"]
    assert (headline["nsp_acc"], headline["n"]["nsp_pairs"]) == (alone["nsp_acc"], alone["nsp_pairs"])
    assert got["wikitext2-valid"] == alone
    two = dict(only_wiki, reversed=[d[::-1] for d in only_wiki["wikitext2-valid"]])  # a second corpus
    probe = _SegmentBProbe(ck.tokenizer.get_vocab_size())  # NSP guesses that follow the drawn text closely
    both = evaluate.nsp_by_corpus(probe, ck.tokenizer, two, 64, n_batches=4, batch=16)
    assert set(both) == {"wikitext2-valid", "reversed"}
    assert both["wikitext2-valid"] == evaluate.nsp_by_corpus(probe, ck.tokenizer, only_wiki, 64, n_batches=4,
                                                             batch=16)["wikitext2-valid"]  # no draws from the other
    evaluate.main([str(folder), "--data-dir", str(train.FIXTURES), "--bert-batches", "1", "--nsp-by-corpus", "1"])
    printed = [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.startswith('{"checkpoint"')]
    assert set(printed[-1]["nsp_by_corpus"]) == set(pairs)


class _SegmentBProbe(torch.nn.Module):
    """Stands in for a BERT: its NSP guess is the parity of the sum of segment B's token ids."""

    def __init__(self, vocab_size):
        super().__init__()
        self.vocab_size = vocab_size

    def forward(self, ids, segments):
        from types import SimpleNamespace
        parity = (ids * (segments == 1)).sum(1) % 2
        return SimpleNamespace(mlm_logits=torch.zeros(*ids.shape, self.vocab_size),
                               nsp_logits=torch.stack([parity, 1 - parity], -1).float())


def test_transformer_with_fewer_decoder_than_encoder_layers(tmp_path):
    """--n-dec-layers: a deep encoder with a shallow decoder trains, saves and loads with that shape."""
    folder = train.main(["transformer", "--smoke", "--out", str(tmp_path / "run"), "--device", "cpu",
                         "--max-steps", "4", "--n-layers", "3", "--n-dec-layers", "1"])
    ck = load(folder)
    assert (len(ck.model.encoder), len(ck.model.decoder)) == (3, 1)
    assert ck.metrics["hyperparameters"]["n_dec_layers"] == 1


def test_bpe_dropout_varies_training_encodings_but_not_the_saved_tokenizer(tmp_path):
    """--bpe-dropout: the extra encodings split words further (more, shorter pieces) and differ from
    one another; the canonical encoding, the saved tokenizer and evaluation stay dropout-free."""
    from argparse import Namespace

    from models.tokenizers import train_bpe
    from models.training import data
    pairs = data.read_pairs(train.FIXTURES, "en-fr")
    tok = train_bpe((s for p in pairs for s in p), 300, split_punct=True)
    canonical = data.encode_pairs(tok, pairs, 64)
    args = Namespace(bpe_dropout=0.3, bpe_variants=3, max_len=64, space_noise=0.0, seed=0)
    first, *variants = train.training_variants(tok, pairs, args)
    assert first == canonical
    assert len(variants) == 2 and all(len(v) == len(pairs) for v in variants)
    n = lambda enc: sum(len(s) + len(t) for s, t in enc)  # noqa: E731
    assert all(n(v) > n(canonical) for v in variants)
    assert variants[0] != variants[1]
    assert all(s[-1] == tok.token_to_id("</s>") for v in variants for s, _ in v)  # still end with </s>
    assert tok.model.dropout is None and data.encode_pairs(tok, pairs, 64) == canonical
    off = Namespace(bpe_dropout=0.0, bpe_variants=8, max_len=64, space_noise=0.0, seed=0)
    assert train.training_variants(tok, pairs, off) == [canonical]

    folder = train.main(["transformer", "--smoke", "--out", str(tmp_path / "run"), "--device", "cpu",
                         "--max-steps", "6", "--bpe-dropout", "0.1", "--bpe-variants", "2"])
    ck = load(folder)
    assert ck.tokenizer.model.dropout is None
    assert ck.metrics["hyperparameters"]["bpe_dropout"] == 0.1


def _sampler(rng_seed=0, max_len=48):
    import random

    from models.training import data
    g = random.Random(7)
    sent = lambda: [g.randrange(5, 200) for _ in range(g.randint(4, 14))]  # noqa: E731
    docs = {"a": [[sent() for _ in range(g.randint(2, 8))] for _ in range(30)]}
    singles = [sent() for _ in range(100)]
    sp = {"pad": 0, "unk": 1, "cls": 2, "sep": 3, "mask": 4}
    return data.BertSampler(docs, {"a": 1.0}, singles, 1.0, sp, 200, max_len, random.Random(rng_seed))


def test_split_batches_part_rows_by_length_and_pad_each_part_to_its_own():
    b = _sampler().batch(64, short_len=20)
    long_len, short_len = (b["input_ids"] != 0).sum(1), (b["short_input_ids"] != 0).sum(1)
    assert len(long_len) + len(short_len) == 64 and len(short_len) > 10 and len(long_len) > 10
    assert (long_len > 20).all() and (short_len <= 20).all()
    assert b["short_input_ids"].shape[1] == short_len.max() and b["input_ids"].shape[1] == long_len.max()
    assert (b["short_nsp_labels"] == -100).sum() > 0 and set(b["nsp_labels"].tolist()) <= {0, 1, -100}
    for p in ("", "short_"):
        assert b[p + "input_ids"].shape == b[p + "segment_ids"].shape == b[p + "mlm_labels"].shape
    none_short = _sampler().batch(8, short_len=2)  # no row is that short: an empty part, still a valid batch
    assert none_short["short_input_ids"].shape == (0, 1) and none_short["input_ids"].shape[0] == 8


def test_split_batch_loss_is_the_loss_of_the_batch_in_one_piece():
    """SplitBatch weights the parts' MLM means by their masked-token counts and NSP by labelled pairs:
    with dropout off, cropping the short rows into their own part must not change the loss."""
    from models.bert import Bert, BertConfig
    torch.manual_seed(0)
    model = Bert(BertConfig(vocab_size=200, d_model=32, n_layers=2, n_heads=4, d_ff=64, max_len=48)).eval()
    whole = _sampler(3).batch(48)
    parts = train.data.split_batch(whole, 20)
    assert parts["short_input_ids"].shape[1] < whole["input_ids"].shape[1]  # the split did crop padding
    assert len(parts["input_ids"]) + len(parts["short_input_ids"]) == 48
    one = train.Bound(model, mlm_labelled_only=True)(**whole).loss
    g_one = torch.autograd.grad(one, list(model.parameters()), allow_unused=True)
    split = train.SplitBatch(model, mlm_labelled_only=True)(**parts).loss
    g_split = torch.autograd.grad(split, list(model.parameters()), allow_unused=True)
    assert torch.allclose(one, split, atol=1e-5), (one, split)
    for a, b in zip(g_one, g_split):  # the same gradients, so the same training step
        assert (a is None) == (b is None) and (a is None or torch.allclose(a, b, atol=1e-5))
    # and the short part counts: the loss is not the long part's alone
    a = model(parts["input_ids"], parts["segment_ids"], mlm_labels=parts["mlm_labels"],
              nsp_labels=parts["nsp_labels"], mlm_labelled_only=True).loss
    assert not torch.allclose(split, a, atol=1e-3)


def test_nsp_weight_scales_only_the_nsp_term():
    """loss(w) = MLM + w * NSP, in one piece or split: w=0 leaves MLM alone, and two weights
    recover the NSP term exactly."""
    from models.bert import Bert, BertConfig
    torch.manual_seed(0)
    model = Bert(BertConfig(vocab_size=200, d_model=32, n_layers=2, n_heads=4, d_ff=64, max_len=48)).eval()
    whole = _sampler(5).batch(32)
    out = model(whole["input_ids"], whole["segment_ids"], mlm_labels=whole["mlm_labels"], mlm_labelled_only=True)
    labelled = whole["nsp_labels"] != -100
    nsp = torch.nn.functional.cross_entropy(out.nsp_logits[labelled], whole["nsp_labels"][labelled])
    for batch in (whole, train.data.split_batch(whole, 20)):
        at = {w: train.SplitBatch(model, nsp_weight=w, mlm_labelled_only=True)(**batch).loss for w in (0.0, 1.0, 3.0)}
        assert torch.allclose(at[0.0], out.loss, atol=1e-5)  # MLM alone
        assert torch.allclose(at[1.0] - at[0.0], nsp, atol=1e-5)
        assert torch.allclose(at[3.0] - at[0.0], 3 * nsp, atol=1e-5)
    with pytest.raises(SystemExit):
        train.parse(["transformer", "--smoke", "--out", "x", "--nsp-weight", "2"])


def test_bert_trains_with_split_batches(tmp_path):
    folder = train.main(["bert", "--smoke", "--out", str(tmp_path / "run"), "--device", "cpu",
                         "--max-steps", "40", "--short-len", "24"])
    assert load(folder).metrics["hyperparameters"]["short_len"] == 24
    log = [json.loads(line) for line in (tmp_path / "run" / "log.jsonl").read_text().splitlines()]
    losses = [r["loss"] for r in log if "loss" in r]
    # the loss falls (first three logged steps against the last three: single steps are noisy)
    assert all(math.isfinite(x) for x in losses) and sum(losses[-3:]) < sum(losses[:3])


def test_collapsed_heads_finds_a_saturated_head_and_bert_logs_it(tmp_path):
    """A head whose queries are one huge constant vector puts every row on one key: collapsed_heads
    names exactly that head; BERT's evaluation logs the check at every step it evaluates."""
    from models.bert import Bert, BertConfig
    torch.manual_seed(0)
    model = Bert(BertConfig(vocab_size=99, d_model=32, n_layers=2, n_heads=4, d_ff=37, max_len=64, dropout=0.0))
    ids = torch.randint(5, 99, (3, 12))
    batch = {"input_ids": ids, "segment_ids": torch.zeros_like(ids)}
    assert train.collapsed_heads(model, batch, pad_id=0)["collapsed_heads"] == []
    with torch.no_grad():  # layer 1, head 2 (dims 16-23): q = 1e4 * e_16 for every token
        attn = model.layers[1].attn
        attn.q_proj.weight[16:24] = 0
        attn.q_proj.bias[16:24] = 0
        attn.q_proj.bias[16] = 1e4
    got = train.collapsed_heads(model, batch, pad_id=0)
    assert got["collapsed_heads"] == [[1, 2]] and got["head_top_weight_max"] > 0.99
    folder = train.main(["bert", "--smoke", "--out", str(tmp_path / "b"), "--device", "cpu", "--max-steps", "2"])
    evals = [json.loads(line)["eval"] for line in (folder.parent / "log.jsonl").read_text().splitlines()
             if '"eval"' in line]
    assert evals and all("collapsed_heads" in e and 0 < e["head_top_weight_max"] <= 1 for e in evals)


def test_respace_changes_only_spaces_between_hangul_and_is_seeded():
    """--space-noise: letters and their order survive, spaces move only between two Hangul syllables,
    p=0 is the identity, and one seed gives one result."""
    import random

    from models.training import data
    text = "나는 학생입니다. Tom은 의사 입니다, OK?"
    assert data.respace(text, 0.0, random.Random(0)) == text
    outs = [data.respace(text, 0.5, random.Random(s)) for s in range(40)]
    assert all(o.replace(" ", "") == text.replace(" ", "") for o in outs)
    assert len(set(outs)) > 10
    assert data.respace(text, 0.5, random.Random(3)) == outs[3]
    for o in outs:  # the non-Hangul boundaries keep their spaces: ". Tom", ", OK"
        assert ". Tom" in o and ", OK?" in o
    assert any("학생 입니다" in o or "학 생" in o for o in outs) and any("나는학생" in o for o in outs)
    assert data.english_key("I am a student.") == data.english_key(" i AM a student ") == "iamastudent"


def test_aux_pairs_never_hold_a_held_out_english_sentence(tmp_path):
    """--aux-pairs: French -> English beside Korean -> English; no aux pair's English matches (up to
    case and punctuation) an English sentence of the Korean task's validation or test split, and the
    checkpoint records the aux corpus, its hash and how many pairs were dropped."""
    from argparse import Namespace

    from models.training import data
    ko = data.read_pairs(train.FIXTURES, "en-ko")
    split = data.split_by_source(ko, 0, 0.2, 0.2)
    held = {data.english_key(en) for en, _ in split["valid"] + split["test"]}
    args = Namespace(aux_pairs="en-fr", aux_ratio=2.0, direction="ko-en", data_dir=train.FIXTURES)
    aux, meta = train.aux_training_pairs(args, split)
    fr = data.read_pairs(train.FIXTURES, "en-fr")
    assert aux and all(data.english_key(en) not in held for _, en in aux)
    assert meta["n_dropped_held_out"] == sum(data.english_key(en) in held for en, _ in fr) > 0
    assert meta["n_pairs"] == len(aux) == len(fr) - meta["n_dropped_held_out"]
    assert {src for src, _ in aux} <= {f for _, f in fr}  # oriented French -> English
    for direction in ("en-ko", "fr-en"):  # not into English; the main task's own corpus
        with pytest.raises(SystemExit):
            train.aux_training_pairs(Namespace(aux_pairs="en-fr", aux_ratio=2.0, direction=direction,
                                               data_dir=train.FIXTURES), split)

    folder = train.main(["transformer", "--smoke", "--direction", "ko-en", "--out", str(tmp_path / "run"),
                         "--device", "cpu", "--max-steps", "6", "--aux-pairs", "en-fr", "--space-noise", "0.2",
                         "--bpe-variants", "2", "--valid-frac", "0.2", "--test-frac", "0.2"])
    ck = load(folder)
    d = ck.metrics["data"]
    assert d["aux"]["pair"] == "en-fr" and d["aux"]["n_dropped_held_out"] == meta["n_dropped_held_out"]
    assert set(d["files"]) == {"tatoeba-eng-kor/kor.txt", "tatoeba-eng-fra/fra.txt.gz"}
    assert ck.metrics["hyperparameters"]["space_noise"] == 0.2


def test_bidirectional_training_adds_reversed_pairs_only_early(tmp_path, monkeypatch):
    """--bidir-frac: the first epochs hold every training pair twice, once reversed (target as
    source); once that share of --max-minutes has passed, only the task's own direction."""
    from models.training import data
    seen = []
    real = data.translation_batches

    def spy(encoded, max_tokens, rng):
        seen.append(list(encoded))
        return real(encoded, max_tokens, rng)
    monkeypatch.setattr(data, "translation_batches", spy)
    args = train.parse(["transformer", "--smoke", "--out", str(tmp_path / "run"), "--device", "cpu",
                        "--bidir-frac", "0.5", "--max-minutes", "0.02"])  # 0.6 s of both directions
    task, model, tok, batches, *_ = train.setup_translation(args, "cpu")
    next(batches)
    first = seen[-1]
    n = len(first) // 2
    eos = tok.token_to_id("</s>")
    assert len(first) == 2 * n and n > 0
    assert [(t + [eos], s[:-1]) for s, t in first[:n]] == first[n:]  # (src </s>, tgt) -> (tgt </s>, src)
    time.sleep(0.7)
    while len(seen) == 1:  # run out the first epoch
        next(batches)
    assert len(seen[-1]) == n and seen[-1] == first[:n]
