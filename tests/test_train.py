"""Smoke training of every architecture through the real command line (what CI runs)."""
import json

import pytest

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

    import torch

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
