"""Smoke training of every architecture through the real command line (what CI runs)."""
import json

import pytest
import torch

from models import train
from models.checkpoint import load


@pytest.mark.parametrize("argv", [["transformer"], ["seq2seq", "--attention", "additive"],
                                  ["seq2seq", "--attention", "none"], ["bert"]])
def test_smoke_training_writes_a_loadable_checkpoint(tmp_path, argv):
    out = tmp_path / "run"
    folder = train.main(argv + ["--smoke", "--out", str(out), "--device", "cpu", "--max-steps", "40"])
    ck = load(folder)
    m = ck.metrics
    for key in ("command", "git_commit", "seed", "data", "wall_seconds", "device", "valid", "steps"):
        assert key in m
    assert m["command"].startswith("python -m models.train " + argv[0]) and "--smoke" in m["command"]
    assert all(len(h) == 64 for h in m["data"]["files"].values())  # sha256 of every data file used
    log = [json.loads(line) for line in (out / "log.jsonl").read_text().splitlines()]
    losses = [r["loss"] for r in log if "loss" in r]
    assert losses[-1] < losses[0], "loss did not fall"
    assert any("eval" in r for r in log)


def test_translation_split_is_deterministic_and_disjoint():
    from models import data
    pairs = data.read_pairs(train.FIXTURES, "en-fr")
    a = data.split_by_source(pairs, 0, 0.1, 0.1)
    b = data.split_by_source(pairs, 0, 0.1, 0.1)
    assert a == b
    src = {k: {s for s, _ in v} for k, v in a.items()}
    assert not (src["train"] & src["test"]) and not (src["train"] & src["valid"])


def test_mlm_masking_is_80_10_10():
    import random

    from models import data
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
    with pytest.raises(SystemExit, match="another held-out split"):
        train.main(["bert", "--smoke", "--out", str(tmp_path / "c"), "--device", "cpu", "--split-seed", "1",
                    "--init-from", str(first)])
