"""explorer/views/gpt.py: the GPT tab's figures carry the record's own numbers (attention, masked scores, the
chosen step's distribution), streaming gives a view per step, and BERT beside GPT reads the same tokens with
BERT's full visibility against the GPT's causal triangle."""
import math
from pathlib import Path

import numpy as np
import pytest
import torch
from tokenizers import Tokenizer

from explorer.compute.inference import load_registry
from explorer.views import gpt as vg
from models import checkpoint
from models.gpt import GPT, GPTConfig
from models.training.lm_data import TOKENIZER

ASSETS = Path(__file__).resolve().parents[2] / "assets"


@pytest.fixture(scope="module")
def reg(tmp_path_factory):
    folder = tmp_path_factory.mktemp("assets") / "gpt"
    torch.manual_seed(0)
    model = GPT(GPTConfig(vocab_size=16000, max_len=32, d_model=32, n_layers=2, n_heads=4, d_ff=64, dropout=0.0))
    with torch.no_grad():
        model.tok.weight.mul_(20)
    checkpoint.save(folder, model, Tokenizer.from_file(str(TOKENIZER)), {"arch": "gpt"})
    r = load_registry(folder.parent)
    if (ASSETS / "bert").is_dir():
        r.models.update(load_registry(ASSETS, names={"bert"}).models)
    return r


def z(fig, i=0):
    return np.array(fig.data[i].z, dtype=float)


def test_stream_then_figures_from_the_record(reg):
    views = list(vg.gpt_stream("The students opened their", 5, 0.8, 40, 0.95, 2, layer=2, head=3, reg=reg))
    assert all(v.heads is None for v in views[:-1]) and views[-1].heads is not None
    assert [v.n_steps for v in views] == list(range(1, len(views) + 1))
    v = views[-1]
    r = v.record
    a, s = r.trace.dec_self, r.trace.dec_self_scores
    np.testing.assert_allclose(z(v.heads.head), a[1, 2], atol=1e-6)
    scores = z(v.heads.scores, 0)  # finite scores; masked cells are left empty (NaN) for the gray −∞ layer
    upper = np.triu(np.ones_like(scores, dtype=bool), 1)
    assert np.isnan(scores[upper]).all()
    np.testing.assert_allclose(scores[~upper], s[1, 2][~upper], atol=1e-5)
    np.testing.assert_allclose(z(v.heads.scores, 2), a[1, 2], atol=1e-6)
    assert (z(v.heads.scores, 2)[upper] == 0).all()
    last = r.steps[-1]
    assert list(v.heads.step.data[0].x) == pytest.approx([alt.probability for alt in last.top])
    assert len(v.steps) == len(r.steps) and v.steps.iloc[-1, 1] == last.token
    assert all(Path(f).is_file() for f in v.heads.files.write())


def test_redraw_in_korean_for_another_step(reg):
    v = vg.gpt_view("I am a", 4, greedy=True, reg=reg)
    k = vg.gpt_redraw(v.record, 1, 1, 1, "ko")
    assert k.steps.columns[0] == "단계" and "단계 1" in k.heads.step.layout.title.text
    first = v.record.steps[0]
    assert list(k.heads.step.data[0].x) == pytest.approx([alt.probability for alt in first.top])
    assert vg.gpt_redraw(None) is None


@pytest.mark.skipif(not (ASSETS / "bert").is_dir(), reason="the shipped BERT (assets/bert) is not here")
def test_bert_beside_gpt_same_tokens(reg):
    c = vg.compare_view("The students opened their books.", 12, 6, 2, 4, reg=reg)
    r = c.record
    assert r.tokens == ["[CLS]", "the", "students", "opened", "their", "books", ".", "[SEP]"]
    n = len(r.tokens)
    vis = z(c.visibility)
    assert (vis[:, :n] == 1).all() and (vis[:, n + 1:] == np.tril(np.ones((n, n)))).all()
    b, g = r.bert.enc_self[11, 5], r.gpt.dec_self[1, 3]
    np.testing.assert_allclose(z(c.bert), b, atol=1e-6)
    np.testing.assert_allclose(z(c.gpt), g, atol=1e-6)
    assert (np.triu(g, 1) == 0).all() and np.allclose(b.sum(-1), 1, atol=1e-5)
    ahead = np.triu(b, 1).sum(-1).mean()
    assert f"{ahead:.1%}" in c.summary and f"{vg.mean_distance(g):+.2f}" in c.summary
    assert c.bert_size == (12, 6) and c.gpt_size == (2, 4)


def test_mean_distance():
    assert vg.mean_distance(np.eye(4)) == 0
    prev = np.eye(4, k=-1)
    prev[0, 0] = 1  # the first token can only look at itself
    assert math.isclose(vg.mean_distance(prev), 3 / 4)
