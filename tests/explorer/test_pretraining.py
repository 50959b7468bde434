"""BERT's objectives over many draws (explorer/compute/pretraining.py, explorer/figures/pretraining.py, the lesson steps
"bert-8010-many" and "bert-nsp-pairs"): the running shares are recounted here from what the training's own code
did (models.data.mask_tokens's inputs and outputs, the pairs traced back to the documents), they end within a
binomial tolerance of the rule (15%, 80/10/10, 50%), and the figures and the lesson steps draw those numbers in
both languages."""
import ast
import inspect
import json

import numpy as np
import pytest

from explorer import lessons
from explorer.compute import pretraining
from explorer.figures import pretraining as pretraining_figures
from explorer.views import lessons as views
from models.training import data

SIGMAS = 4.5  # a share of n Bernoulli draws lies within 4.5 standard deviations of p but once in ~150,000 seeds


def tolerance(p: float, n: int) -> float:
    return SIGMAS * (p * (1 - p) / n) ** 0.5


# ----------------------------------------------------------------------------- masked LM


@pytest.fixture(scope="module")
def masked():
    """The record computed afresh (not the cache) while every call of models.data.mask_tokens is recorded."""
    calls, original = [], data.mask_tokens

    def spy(input_ids, *a, **k):
        inputs, labels = original(input_ids, *a, **k)
        calls.append((input_ids.tolist(), inputs.tolist(), labels.tolist()))
        return inputs, labels

    mp = pytest.MonkeyPatch()
    mp.setattr(data, "mask_tokens", spy)
    try:
        record = pretraining.masking_shares.__wrapped__(1500, 3)
    finally:
        mp.undo()
    return record, calls


def test_the_masking_counts_are_a_recount_of_mask_tokens_own_calls(masked):
    record, calls = masked
    sp = data.special_ids(pretraining.tokenizer())
    special = {sp[k] for k in ("pad", "unk", "cls", "sep", "mask")}
    encoded = {tuple(e.ids) for e in pretraining.tokenizer().encode_batch(list(pretraining.SENTENCES),
                                                                          add_special_tokens=False)}
    per_row = []
    for originals, inputs, labels in calls:
        for x0, x, y in zip(originals, inputs, labels):
            body = [t for t in x0 if t != sp["pad"]]
            assert body[0] == sp["cls"] and body[-1] == sp["sep"] and tuple(body[1:-1]) in encoded  # a sentence of ours
            n = {"tokens": 0, "chosen": 0, "masked": 0, "random": 0, "kept": 0}
            for a, b, lab in zip(x0, x, y):
                n["tokens"] += a not in special
                if lab == -100:
                    assert a == b  # an unchosen token is never touched
                    continue
                assert lab == a and a not in special
                n["chosen"] += 1
                n["masked" if b == sp["mask"] else "kept" if b == a else "random"] += 1
            per_row.append(n)
    assert len(per_row) == len(record.sentences) == 1500
    for k in per_row[0]:
        assert np.array_equal(np.cumsum([r[k] for r in per_row]), getattr(record, k)), k
    assert np.array_equal(record.sentences, np.arange(1, 1501))


def test_the_masking_shares_converge_to_the_rule():
    m = pretraining.masking_shares()  # the lesson's own draw
    assert pretraining.MLM_PROB == 0.15
    n_tok, n_chosen = int(m.tokens[-1]), int(m.chosen[-1])
    assert n_tok > 30_000 and n_chosen > 4_000
    assert abs(m.chosen_share[-1] - 0.15) < tolerance(0.15, n_tok)
    for share, p in ((m.mask_share, 0.8), (m.random_share, 0.1), (m.keep_share, 0.1)):
        assert abs(share[-1] - p) < tolerance(p, n_chosen)
    ok = m.chosen > 0
    assert np.allclose((m.mask_share + m.random_share + m.keep_share)[ok], 1.0)  # every chosen token is one of three
    assert np.all(np.diff(m.tokens) > 0) and np.all(np.diff(m.chosen) >= 0)
    # converging: far from the rule after a few sentences is allowed, at the end it is not
    early = abs(m.chosen_share[9] - 0.15) + abs(m.mask_share[19] - 0.8)
    late = abs(m.chosen_share[-1] - 0.15) + abs(m.mask_share[-1] - 0.8)
    assert late < early


def test_the_masking_draw_is_seeded_and_cached():
    assert pretraining.masking_shares() is pretraining.masking_shares()
    a, b = pretraining.masking_shares.__wrapped__(600, 1), pretraining.masking_shares.__wrapped__(600, 1)
    assert np.array_equal(a.chosen, b.chosen) and np.array_equal(a.kept, b.kept)
    c = pretraining.masking_shares.__wrapped__(600, 2)
    assert not np.array_equal(a.masked, c.masked)


# ----------------------------------------------------------------------------- NSP


def _locate(ids: list, docs: list) -> tuple[int, int]:
    """(document, sentence) where `ids` starts: its tokens at that sentence boundary of that document."""
    hits = []
    for d, doc in enumerate(docs):
        flat, starts = [], []
        for s in doc:
            starts.append(len(flat))
            flat += s
        hits += [(d, i) for i, at in enumerate(starts) if flat[at:at + len(ids)] == ids]
    assert len(hits) == 1, (ids, hits)
    return hits[0]


def test_the_nsp_labels_are_a_recount_of_where_the_pairs_come_from():
    p = pretraining.nsp_pairs()
    docs = [[e.ids for e in pretraining.tokenizer().encode_batch(list(d), add_special_tokens=False)]
            for d in pretraining.DOCUMENTS]
    traced = []
    for a, b, y in zip(p.a, p.b, p.labels.tolist()):
        (da, ia), (db, ib) = _locate(a, docs), _locate(b, docs)
        follows = da == db and ib > ia and a == sum(docs[da][ia:ib], [])[:len(a)]  # B starts where A's sentences end
        assert follows == (y == pretraining.IS_NEXT) and (da != db) == (y == pretraining.NOT_NEXT), (a, b, y)
        assert len(a) + len(b) <= pretraining.NSP_MAX_LEN - 3
        traced.append(follows)
    assert np.array_equal(np.cumsum(traced) / np.arange(1, len(traced) + 1), p.is_next_share)


def test_the_share_of_is_next_is_one_half_within_a_binomial_tolerance():
    p = pretraining.nsp_pairs()
    n = len(p.labels)
    assert n >= 4000 and set(np.unique(p.labels)) == {pretraining.IS_NEXT, pretraining.NOT_NEXT}
    assert abs(p.is_next_share[-1] - pretraining.IS_NEXT_SHARE) < tolerance(0.5, n)
    rows = p.rows(6)
    assert len(rows) == 6 and {r[2] for r in rows} <= {"IsNext", "NotNext"}
    assert [r[2] == "IsNext" for r in rows] == (p.labels[:6] == pretraining.IS_NEXT).tolist()


# ----------------------------------------------------------------------------- figures


def test_the_figure_module_is_pure():
    tree = ast.parse(inspect.getsource(pretraining_figures))
    names = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    names |= {n.module.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
    assert not names & {"torch", "models", "gradio", "tokenizers"}, names


def test_the_masking_figure_draws_the_given_numbers():
    x = np.arange(1, 6)
    curves = {"chosen": np.array([0.2, 0.1, 0.15, 0.16, 0.15]), "mask": np.full(5, 0.8), "random": np.full(5, 0.1),
              "keep": np.full(5, 0.1)}
    targets = {"chosen": 0.15, "mask": 0.8, "random": 0.1, "keep": 0.1}
    words = pretraining_figures.WORDS
    figs = {lang: pretraining_figures.masking_shares(x, **curves, targets=targets, words=words[lang])
            for lang in ("en", "ko")}
    for lang, fig in figs.items():
        assert len(fig.data) == 4 and np.allclose(fig.data[0].y, curves["chosen"]) and np.array_equal(fig.data[0].x, x)
        assert json.loads(fig.to_json())["data"][3]["name"].startswith(pretraining_figures.WORDS[lang]["keep"])
        assert sorted(s["y0"] for s in fig.layout.shapes) == sorted(targets.values())
    assert figs["en"].layout.title.text != figs["ko"].layout.title.text
    assert "15.0%" in figs["en"].data[0].name and "16.0%" not in figs["en"].data[0].name
    with pytest.raises(ValueError):
        pretraining_figures.masking_shares(x, **{**curves, "keep": np.ones(4)}, targets=targets)


def test_the_nsp_figure_draws_its_rows_escaped_and_the_share():
    rows = [("<b>a</b>", "b", "IsNext"), ("c", "d", "NotNext")]
    fig = pretraining_figures.nsp_pairs(rows, np.arange(1, 4), np.array([1.0, 0.5, 2 / 3]), 0.5,
                                        words=pretraining_figures.WORDS["ko"])
    table, line = fig.data
    assert list(table.cells.values[0]) == ["&lt;b&gt;a&lt;/b&gt;", "c"]
    assert list(table.cells.values[2]) == ["IsNext", "NotNext"]
    assert np.allclose(line.y, [1.0, 0.5, 2 / 3]) and fig.layout.shapes[0].y0 == 0.5
    assert table.header.values[0] == pretraining_figures.WORDS["ko"]["a"]
    assert set(pretraining_figures.WORDS["en"]) == set(pretraining_figures.WORDS["ko"])


# ----------------------------------------------------------------------------- the lesson path


def test_the_steps_sit_after_the_slides_they_extend():
    bert = [s.id for s in next(d for d in lessons.DECKS if d.id == "bert").steps]
    assert bert[bert.index("bert-3") + 1] == "bert-8010-many" and bert[bert.index("bert-5") + 1] == "bert-nsp-pairs"
    assert len(set(lessons.ORDER)) == len(lessons.ORDER)


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_lesson_steps_draw_the_records_numbers(lang):
    m, p = pretraining.masking_shares(), pretraining.nsp_pairs()
    v = views.lesson_view("bert-8010-many", lang)
    assert v.previous == "bert-3" and v.next == "bert-4"
    assert np.allclose(v.figure.data[0].y, m.chosen_share) and np.allclose(v.figure.data[1].y[-50:],
                                                                           m.mask_share[-50:])
    assert f"{m.chosen_share[-1]:.1%}" in v.figure.data[0].name
    assert pretraining_figures.WORDS[lang]["masking_title"] in v.figure.layout.title.text
    v = views.lesson_view("bert-nsp-pairs", lang)
    assert v.previous == "bert-5" and v.next == "bert-6"
    table, line = v.figure.data
    assert list(table.cells.values[2]) == [r[2] for r in p.rows(6)] and np.allclose(line.y, p.is_next_share)
    assert pretraining_figures.WORDS[lang]["nsp_title"] in v.figure.layout.title.text
