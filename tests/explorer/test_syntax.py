"""Heads vs syntax (explorer/compute/syntax.py, Clark et al. 2019 section 4.2): the accuracy on hand-made toys, the
word-level pooling, the shipped table and the view's figures."""
import json

import numpy as np
import plotly.graph_objects as go
import pytest

from explorer.compute import syntax as sx

# "the dog chased cats": the -det-> dog -nsubj-> chased (root) <-obj- cats
TOY = sx.Sentence(("the", "dog", "chased", "cats"), (2, 3, 0, 3), ("det", "nsubj", "root", "obj"))


def one_hot_attention(targets: list[int], n_words: int) -> np.ndarray:
    """Word attention (1, 1, W, W) with [CLS] and [SEP] as words 0 and W-1: word i (1-based) puts 0.7 on the word
    `targets[i-1]` (1-based; 0 = [CLS]) and the rest on [SEP], the specials attend to themselves."""
    W = n_words + 2
    a = np.zeros((W, W))
    a[0, 0] = a[-1, -1] = 1.0
    for i, t in enumerate(targets, start=1):
        a[i, t] += 0.7
        a[i, -1] += 0.3
    return a[None, None]


def test_attention_pointing_at_every_words_head_is_right_for_every_word_but_the_root():
    att = one_hot_attention([2, 3, 0, 3], 4)  # the root word attends to [CLS]: ignored, so it names another word
    pred = sx.predict_heads(att, "dep->head")[0, 0]
    assert pred[[0, 1, 3]].tolist() == [2, 3, 3]
    tally = sx.Tally(1, 1)
    tally.add(TOY, att)
    grid = {r["relation"]: r for r in tally.table(min_count=1)}
    for rel in ("det", "nsubj", "obj"):
        assert grid[rel]["grids"]["dep->head"] == [[1.0]] and grid[rel]["best"]["accuracy"] == 1.0
    assert grid["all"]["grids"]["dep->head"] == [[0.75]]  # the root's head is ROOT, which no attention names
    assert "root" not in grid


def test_the_reverse_direction_reads_who_attends_to_the_word():
    # "chased" attends to "dog" and "cats" alternately... here: each head attends to its dependent
    W = 6
    a = np.zeros((W, W))
    a[3, 2] = 1.0  # chased -> dog (its nsubj)
    a[2, 1] = 1.0  # dog -> the (its det)
    a[1, 4] = 1.0  # the -> cats
    a[4, 3] = 1.0  # cats -> chased
    pred = sx.predict_heads(a[None, None], "head->dep")[0, 0]
    # dep i's prediction: the word attending most to it: dog <- chased, the <- dog, cats <- the
    assert pred[0] == 2 and pred[1] == 3 and pred[3] == 1
    right = sx.is_correct(pred, TOY)
    assert right.tolist() == [True, True, False, False]


def test_offset_plus_one_attention_matches_the_positional_baseline():
    att = one_hot_attention([2, 3, 4, 4], 4)  # each word attends to the next one (the last: itself is ignored)
    tally = sx.Tally(1, 1)
    tally.add(TOY, att)
    for r in tally.table(min_count=1):
        plus_one = tally.offsets[r["relation"]][sx.OFFSETS.index(1)] / r["count"]
        assert r["grids"]["dep->head"][0][0] == pytest.approx(plus_one), r["relation"]
    assert sx.offset_predictions(4, 1).tolist() == [2, 3, 4, 4]  # clipped at the end, as Clark et al.
    assert sx.offset_predictions(4, -2).tolist() == [0, 0, 1, 2]  # 0 = ROOT


def test_the_possessive_is_scored_on_its_clitic():
    s = sx.Sentence(("John", "'s", "dog", "barks"), (3, 1, 4, 0), ("nmod:poss", "case", "nsubj", "root"))
    pred = np.array([2, 3, 4, 3])  # John -> 's (wrong alone), 's -> dog (the possessor's head)
    assert sx.is_correct(pred, s).tolist() == [True, False, True, False]


def test_word_level_pooling_sums_pieces_attended_to_and_averages_pieces_attending():
    # tokens: [CLS] un ##believ ##able dog [SEP]; words: [CLS], unbelievable, dog, [SEP]
    rng = np.random.default_rng(0)
    att = rng.random((2, 3, 6, 6))
    att /= att.sum(-1, keepdims=True)
    groups = [[0], [1, 2, 3], [4], [5]]
    w = sx.word_attention(att, groups)
    assert w.shape == (2, 3, 4, 4)
    np.testing.assert_allclose(w.sum(-1), 1.0)  # rows still sum to 1: the mean of rows that each sum to 1
    np.testing.assert_allclose(w[..., 0, 1], att[..., 0, 1:4].sum(-1))  # TO a word: the sum over its pieces
    np.testing.assert_allclose(w[..., 1, 2], att[..., 1:4, 4].mean(-1))  # FROM a word: the mean over its pieces
    np.testing.assert_allclose(w[..., 1, 1], att[..., 1:4, 1:4].sum(-1).mean(-1))
    with pytest.raises(ValueError):
        sx.word_attention(att, [[0], [], [1, 2, 3, 4], [5]])


def test_word_groups_keep_specials_as_words_of_their_own():
    groups, specials = sx._groups([None, 0, 1, 1, 2, None], 3)
    assert groups == [[0], [1], [2, 3], [4], [5]] and specials == (1, 1)
    assert sx._groups([None, 0, 2, None], 3) is None  # word 1 read as nothing
    groups, specials = sx._groups([0, 0, 1, None], 2)  # a Transformer's encoder: </s> at the end only
    assert groups == [[0, 1], [2], [3]] and specials == (0, 1)


def test_conllu_reader_keeps_syntactic_words_only(tmp_path):
    f = tmp_path / "t.conllu"
    f.write_text("# text = I don't.\n1\tI\tI\tPRON\t_\t_\t3\tnsubj\t_\t_\n2-3\tdon't\t_\t_\t_\t_\t_\t_\t_\t_\n"
                 "2\tdo\tdo\tAUX\t_\t_\t3\taux\t_\t_\n3\tn't\tnot\tPART\t_\t_\t0\troot\t_\t_\n"
                 "3.1\tx\tx\tX\t_\t_\t_\t_\t_\t_\n4\t.\t.\tPUNCT\t_\t_\t3\tpunct\t_\t_\n\n", encoding="utf-8")
    (s,) = sx.read_conllu(f)
    assert s.words == ("I", "do", "n't", ".") and s.heads == (3, 3, 0, 3) and s.rels[1] == "aux"


def test_split_words_splits_like_the_treebank():
    assert sx.split_words("The dog didn't bark, it's late.") == [
        "The", "dog", "did", "n't", "bark", ",", "it", "'s", "late", "."]


@pytest.mark.parametrize("name", ["bert", "transformer-en-fr"])
def test_the_shipped_table_loads_and_holds_what_it_says(name):
    path = sx.ASSETS / f"{name}-ewt-dev.json"
    if not path.is_file():
        pytest.skip(f"{path.name} not made")
    t = sx.load_table(path)
    assert t["model"] == name
    assert t["data"]["sha256"] and len(t["data"]["sha256"]) == 64 and t["command"].startswith("python3 -m explorer.compute.syntax")
    assert t["data"]["evaluated"] + t["data"]["skipped"] == t["data"]["sentences"] > 1000
    rels = {r["relation"]: r for r in t["relations"]}
    assert t["relations"][0]["relation"] == "all" and {"det", "obj", "nsubj"} <= set(rels)
    for r in t["relations"]:
        for d in sx.DIRECTIONS:
            g = np.asarray(r["grids"][d])
            assert g.shape == (t["layers"], t["heads"]) and (0 <= g).all() and (g <= 1).all()
        b = r["best"]
        assert r["grids"][b["direction"]][b["layer"] - 1][b["head"] - 1] == b["accuracy"]
        assert b["accuracy"] == max(np.max(r["grids"][d]) for d in sx.DIRECTIONS)
        assert r["relation"] == "all" or r["count"] >= t["min_count"]
    assert len(json.dumps(t)) < 400_000  # small enough to commit


def test_the_views_figures_are_built_from_arrays():
    from explorer.figures import syntax as sf
    grid = np.array([[0.1, 0.9], [0.5, 0.2]])
    fig = sf.accuracy_grid(grid, "det", best=(0, 1), baseline=0.5, labels=sf.LABELS)
    assert isinstance(fig, go.Figure) and np.asarray(fig.data[0].z).shape == (2, 2)
    att = np.full((4, 4), 0.25)
    arcs = sf.attention_arcs(["the", "dog", "chased", "cats"], att, "head 1-1", heads=[2, 3, 0, 3],
                             rels=["det", "nsubj", "root", "obj"], labels=sf.LABELS)
    assert isinstance(arcs, go.Figure) and len(arcs.data) >= 2


@pytest.mark.skipif(not sx.TABLE.is_file(), reason="assets/syntax/bert-ewt-dev.json not made yet")
@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_view_draws_the_table_grid_and_an_examples_parse(lang):
    from explorer.views import syntax as views
    v = views.syntax_view("bert", "det", "dep->head", views.EXAMPLE_TEXTS[0], None, None, lang)
    assert (v.layer, v.head) == views.best_head("bert", "det")
    t = sx.load_table()
    assert len(v.table) == len(t["relations"]) and isinstance(v.grid, go.Figure)
    det = sx.relation(t, "det")
    np.testing.assert_allclose(np.asarray(v.grid.data[0].z, dtype=float), det["grids"]["dep->head"], atol=1e-6)
    parse_arcs = [d for d in v.arcs.data if d.line and d.line.dash == "dot"]
    assert len(parse_arcs) == 5  # "The dog chased the cat ." has five words with a head other than ROOT
    typed = views.syntax_view("bert", "obj", "head->dep", "I liked the movie.", 1, 1, lang)
    assert not [d for d in typed.arcs.data if d.line and d.line.dash == "dot"]  # a typed sentence: no parse
    assert views.t("syn.no_parse", lang) in typed.summary
    if views.table_path("transformer-en-fr").is_file():  # the translation model's encoder: </s>, no [CLS]
        enc = views.syntax_view("transformer-en-fr", "det", "dep->head", views.EXAMPLE_TEXTS[1], None, None, lang)
        assert np.asarray(enc.grid.data[0].z).shape == (3, 8) and len(enc.arcs.data) > 5


def test_the_examples_parses_are_trees():
    from explorer.views import syntax as views
    for s in views.EXAMPLES:
        assert s.heads.count(0) == 1
        for i in range(len(s.words)):  # every word reaches ROOT without a cycle
            seen, h = set(), i + 1
            while h:
                assert h not in seen
                seen.add(h)
                h = s.heads[h - 1]


@pytest.mark.skipif(not sx.TABLE.is_file(), reason="assets/syntax/bert-ewt-dev.json not made yet")
def test_cli_prints_a_line_per_relation(capsys):
    from explorer import cli
    assert cli.main(["syntax"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["relation"] for r in rows] == [r["relation"] for r in sx.load_table()["relations"]]
    assert "grids" not in rows[0]
    assert cli.main(["syntax", "--relation", "det"]) == 0
    (det,) = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert det["grids"]["dep->head"] == sx.relation(sx.load_table(), "det")["grids"]["dep->head"]


def test_the_docs_page_is_generated_from_the_shipped_table():
    from scripts import heads_syntax
    assert heads_syntax.main(["--check"]) == 0, "run python -m scripts.heads_syntax"
