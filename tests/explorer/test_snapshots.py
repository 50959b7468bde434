"""explorer/compute/snapshots.py and its figures: the shipped attention-over-training records load
as row-stochastic frames that fit their tokens and sharpen during training; broken or
missing records give a clear SnapshotError."""
import json
import subprocess
import sys

import numpy as np
import pytest

from explorer.figures import live as live_figures
from explorer.compute.inference import ASSETS, UserError
from explorer.compute.snapshots import SnapshotError, load_snapshots, row_entropy, snapshot_models

ATTENTIVE = [m for m in snapshot_models() if m != "seq2seq-none"]


def test_shipped_snapshot_files_are_small():
    for name in snapshot_models():
        assert (ASSETS / name / "snapshots.json").stat().st_size < 1_000_000, name


@pytest.mark.parametrize("name", ATTENTIVE)
def test_shipped_snapshots_load_row_stochastic_and_fit_tokens(name):
    rec = load_snapshots(name)
    assert rec.model == name and len(rec.steps) >= 2 and rec.steps[0] == 0
    assert list(rec.steps) == sorted(set(rec.steps))
    assert rec.probes
    for p in rec.probes:
        n, L, T, S = p.frames.shape
        assert n == len(rec.steps) and L >= 1
        assert (T, S) == (len(p.decoder_input_tokens), len(p.source_tokens))
        assert len(p.target_tokens) == T and p.target_tokens[-1] == "</s>" and p.decoder_input_tokens[0] == "<s>"
        assert p.source_tokens[-1] == "</s>"
        assert (p.frames >= 0).all()
        np.testing.assert_allclose(p.frames.sum(-1), 1.0, atol=1e-2)  # stored rounded to 3 decimals
        assert p.entropy.shape == (n, L) and p.mean_entropy.shape == (n,)
        assert (p.entropy >= 0).all() and (p.entropy <= p.max_entropy + 1e-6).all()
        assert p.max_entropy == pytest.approx(np.log(S))


def test_attention_sharpens_during_training():
    rec = load_snapshots("transformer-en-fr")
    assert any(p.mean_entropy[0] > p.mean_entropy[-1] + 0.1 for p in rec.probes)
    # at step 0 a random model attends almost uniformly: entropy close to log S
    assert all(p.mean_entropy[0] > 0.9 * p.max_entropy for p in rec.probes)


def test_row_entropy_limits():
    assert row_entropy(np.full((2, 4), 0.25)) == pytest.approx([np.log(4)] * 2)
    assert row_entropy(np.array([[0.0, 1.0, 0.0]])) == pytest.approx([0.0])
    assert row_entropy(np.array([[0.499, 0.499]])) == pytest.approx([np.log(2)])  # renormalised


def test_missing_or_attentionless_models_are_user_errors():
    with pytest.raises(UserError, match="No attention snapshots for 'bert'"):
        load_snapshots("bert")
    with pytest.raises(UserError, match="No attention snapshots"):
        load_snapshots("../assets/transformer-en-fr")
    with pytest.raises(SnapshotError, match="no cross attention"):
        load_snapshots("seq2seq-none")


def write_model(folder, frames, src_tokens, tgt_tokens, steps=(0, 10)):
    folder.mkdir()
    (folder / "snapshots.json").write_text(json.dumps(
        [{"step": s, "cross_head_mean": [f]} for s, f in zip(steps, frames)]))
    (folder / "metrics.json").write_text(json.dumps({"data": {"probes": [
        {"source": "a b", "reference": "x y", "source_tokens": src_tokens, "target_tokens": tgt_tokens}]}}))


def test_shapes_that_do_not_fit_the_tokens_are_refused(tmp_path):
    uniform = np.full((1, 3, 3), 1 / 3).tolist()  # (L=1, T=3, S=3)
    write_model(tmp_path / "ok", [uniform, uniform], ["a", "b", "</s>"], ["<s>", "x", "y"])
    rec = load_snapshots("ok", tmp_path)
    assert rec.probes[0].target_tokens == ("x", "y", "</s>")
    write_model(tmp_path / "bad", [uniform, uniform], ["a", "</s>"], ["<s>", "x", "y"])
    with pytest.raises(SnapshotError, match=r"expected \(layers, 3, 2\)"):
        load_snapshots("bad", tmp_path)
    write_model(tmp_path / "ragged", [uniform, np.full((1, 2, 3), 1 / 3).tolist()], ["a", "b", "</s>"],
                ["<s>", "x", "y"])
    with pytest.raises(SnapshotError, match="changes shape"):
        load_snapshots("ragged", tmp_path)
    write_model(tmp_path / "backwards", [uniform, uniform], ["a", "b", "</s>"], ["<s>", "x", "y"], steps=(10, 0))
    with pytest.raises(SnapshotError, match="backwards"):
        load_snapshots("backwards", tmp_path)


# ----------------------------------------------------------------------------- figures


def test_snapshot_figures_on_shipped_and_synthetic_arrays():
    rec = load_snapshots("transformer-en-fr")
    p = rec.probes[1]  # repeated tokens must keep their own rows
    fig = live_figures.snapshot_heatmap(p.frames, len(rec.steps) - 1, 2, p.source_tokens, p.target_tokens, rec.steps)
    z = np.asarray(fig.data[0].z)
    np.testing.assert_array_equal(z, p.frames[-1, 2])
    assert list(fig.layout.yaxis.ticktext)[-1] == "&lt;/s&gt;"  # escaped for HTML
    assert len(fig.layout.yaxis.tickvals) == len(p.target_tokens)
    assert f"step {rec.steps[-1]}" in fig.layout.title.text
    assert any("▁" in t for t in p.source_tokens) and fig.layout.title.subtitle.text == "▁ = start of a word"
    ko = live_figures.snapshot_heatmap(p.frames, 0, 0, p.source_tokens, p.target_tokens, rec.steps,
                                       words={"word_start": "▁ = 단어의 시작"})
    assert ko.layout.title.subtitle.text == "▁ = 단어의 시작" and ko.layout.margin.t == fig.layout.margin.t == 70
    plain = live_figures.alignment_heatmap(np.eye(2), ["a", "b"], ["x", "y"], "toy grammar")  # whole words
    assert plain.layout.title.subtitle.text is None and plain.layout.margin.t == 40  # no room for a note
    with pytest.raises(ValueError):
        live_figures.snapshot_heatmap(p.frames, len(rec.steps), 0, p.source_tokens, p.target_tokens)
    with pytest.raises(ValueError):
        live_figures.alignment_heatmap(np.ones((2, 3)), ["a", "b"], ["x", "y"])

    fig = live_figures.entropy_figure(rec.steps, p.entropy, p.max_entropy, current=3)
    assert len(fig.data) == p.entropy.shape[1]
    fig = live_figures.entropy_figure([0, 5], np.array([1.0, 0.5]), np.log(3))
    assert len(fig.data) == 1 and list(fig.data[0].y) == [1.0, 0.5]


def test_live_figures_is_pure():
    code = ("import sys, explorer.figures.live; "
            "bad = [m for m in ('torch', 'gradio', 'models') if m in sys.modules]; sys.exit(1 if bad else 0)")
    assert subprocess.run([sys.executable, "-c", code], cwd=ASSETS.parent).returncode == 0
