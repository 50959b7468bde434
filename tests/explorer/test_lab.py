"""Tests for explorer/compute/lab.py and explorer/figures/lab.py: the numbers of every analysis
(entropy, rollout, positional table, BLEU-by-length reader, contextual cosines, query/key
terms) against closed forms, a direct loop or the inference layer's own records, and the
figures' data against their inputs."""
import copy
import dataclasses
import html
import json
import math
import re

import numpy as np
import pytest
import torch
import plotly.graph_objects as go
from plotly.colors import sample_colorscale

from explorer import i18n
from explorer.compute import lab
from explorer.figures import lab as figs
from explorer.figures import live as live_figures
from explorer.compute.inference import ASSETS, UserError, encode_bert, registry, translate

NEEDED = ["bert", "transformer-en-fr", "transformer-ko-en"] + list(lab.SCORE_MODELS)
have_assets = pytest.mark.skipif(not all((ASSETS / n / "config.json").is_file() for n in NEEDED),
                                 reason="shipped checkpoints under assets/ are missing")


@pytest.fixture(scope="module")
def reg():
    return registry()


def softmax_rows(x):
    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def random_attention(L=3, H=2, T=5, seed=0):
    return softmax_rows(np.random.default_rng(seed).normal(size=(L, H, T, T)) * 2)


# ----------------------------------------------------------------------------- entropy, rollout


def test_row_entropy_uniform_is_log_k_and_one_hot_is_zero():
    for S in (1, 2, 7):
        assert np.allclose(lab.row_entropy(np.full((3, S), 1 / S)), math.log(S))
    assert np.array_equal(lab.row_entropy(np.eye(4)), np.zeros(4))
    p = np.array([0.5, 0.25, 0.25, 0.0])
    assert lab.row_entropy(p) == pytest.approx(-(0.5 * math.log(0.5) + 2 * 0.25 * math.log(0.25)))
    assert lab.row_entropy(random_attention()).shape == (3, 2, 5)


def test_rollout_rows_sum_to_one_and_match_a_direct_loop():
    att = random_attention(L=4, H=3, T=6)
    layers = lab.rollout_layers(att)
    assert layers.shape == (4, 6, 6)
    assert np.allclose(layers.sum(-1), 1.0)
    expected = np.eye(6)
    for layer in range(4):  # Abnar & Zuidema: A~ = 0.5 mean_h(A) + 0.5 I, rows normalised, multiplied up
        a = np.zeros((6, 6))
        for h in range(3):
            a += att[layer, h] / 3
        a = 0.5 * a + 0.5 * np.eye(6)
        a /= a.sum(1, keepdims=True)
        expected = a @ expected
        assert np.allclose(layers[layer], expected)
    assert np.allclose(lab.rollout(att), expected)
    plain = att[1].mean(0) @ att[0].mean(0)
    assert np.allclose(lab.rollout(att[:2], add_residual=False), plain)


def test_rollout_of_identity_is_identity_and_one_layer_is_half_mean_plus_half_identity():
    eye = np.broadcast_to(np.eye(5), (3, 4, 5, 5))
    assert np.allclose(lab.rollout(eye), np.eye(5))
    att = random_attention(L=1, H=4, T=5)
    assert np.allclose(lab.rollout(att), 0.5 * att[0].mean(0) + 0.5 * np.eye(5))
    with pytest.raises(ValueError):
        lab.rollout(np.ones((2, 3, 4)))


# ----------------------------------------------------------------------------- positions


def test_positional_table_cells_and_similarity():
    d = 16
    r = lab.positional(max_len=30, d_model=d)
    assert r.pe.shape == (30, d) and r.sentence is None
    for pos, i in [(0, 0), (1, 0), (5, 3), (29, 7)]:
        angle = pos / 10000 ** (2 * i / d)
        assert r.pe[pos, 2 * i] == pytest.approx(math.sin(angle), abs=1e-6)
        assert r.pe[pos, 2 * i + 1] == pytest.approx(math.cos(angle), abs=1e-6)
    assert np.allclose(r.similarity, r.similarity.T)
    assert np.allclose(np.diag(r.similarity), d / 2, atol=1e-4)  # sin^2 + cos^2 per pair of dimensions
    assert (r.similarity.argmax(1) == np.arange(30)).all()
    off = r.similarity - np.diag(np.diag(r.similarity))
    assert (off.max(1) < np.diag(r.similarity)).all()


@pytest.mark.parametrize("bad", [(0, 16), (10, 15), (10, 0), (10**6, 16), ("x", 16), (float("inf"), 16), (10, float("nan"))])
def test_positional_rejects_bad_sizes(bad):
    with pytest.raises(UserError):
        lab.positional(*bad)


# ----------------------------------------------------------------------------- BLEU by length


def _write(folder, arch, metrics, attention=None):
    folder.mkdir()
    cfg = {"arch": arch, "config": {"attention": attention} if attention else {}}
    (folder / "config.json").write_text(json.dumps(cfg))
    (folder / "metrics.json").write_text(json.dumps({"arch": arch, **metrics}))


def test_length_table_reads_fabricated_metrics(tmp_path):
    en_fr = {"data": {"direction": "en-fr"}}
    _write(tmp_path / "seq2seq-none", "seq2seq", {**en_fr, "test": {"bleu_by_length": [
        {"bucket": "6-10", "n": 40, "bleu": 12.5}, {"bucket": "1-5", "n": 50, "bleu": 20.0}]}}, "none")
    _write(tmp_path / "seq2seq-general", "seq2seq", {**en_fr, "test": {"bleu_by_length": [
        {"bucket": "1-5", "n": 50, "bleu": 30.0}, {"bucket": "31+", "n": 3, "bleu": 9.0}]}}, "general")
    _write(tmp_path / "transformer-x", "transformer", {**en_fr, "test": {"bleu": 40.0, "bleu_by_length": [
        {"bucket": "1-5", "n": 50, "bleu": 41.0}]}})
    _write(tmp_path / "seq2seq-dot", "seq2seq", {**en_fr, "valid": {"score": 1.0}}, "dot")  # not evaluated
    _write(tmp_path / "bert", "bert", {"test": {"mlm_top1": 0.5}})  # not a translation model
    (tmp_path / "broken").mkdir()
    (tmp_path / "broken" / "metrics.json").write_text("{not json")

    t = lab.length_table(tmp_path)
    rows = t.table.to_dict("records")
    assert list(t.table.columns) == lab.LENGTH_COLUMNS
    assert [(r["model"], r["bucket"], r["n"], r["bleu"]) for r in rows] == [
        ("seq2seq-none", "1-5", 50, 20.0), ("seq2seq-none", "6-10", 40, 12.5),
        ("seq2seq-general", "1-5", 50, 30.0), ("seq2seq-general", "31+", 3, 9.0),
        ("transformer-x", "1-5", 50, 41.0)]
    assert [r["family"] for r in rows] == ["RNN, no attention"] * 2 + ["RNN + attention"] * 2 + ["Transformer"]
    assert "seq2seq-dot" in t.message and "broken" in t.message and "bert" not in t.message

    fig = figs.length_figure(t.table, t.message)
    bars = {tr.name.split(" ")[0]: tr for tr in fig.data}
    assert list(bars["seq2seq-none"].y) == [20.0, 12.5]
    assert list(bars["seq2seq-general"].customdata) == [50, 3]
    assert list(bars["transformer-x"].x) == ["1-5"]


def test_length_table_is_empty_with_a_message_when_nothing_is_evaluated(tmp_path):
    _write(tmp_path / "seq2seq-dot", "seq2seq", {"valid": {"score": 1.0}}, "dot")
    t = lab.length_table(tmp_path)
    assert t.table.empty and list(t.table.columns) == lab.LENGTH_COLUMNS
    assert "bleu_by_length" in t.message
    assert lab.length_table(tmp_path / "nowhere").table.empty
    fig = figs.length_figure(t.table, t.message)
    assert len(fig.data) == 0 and "bleu_by_length" in fig.layout.annotations[0].text


# ----------------------------------------------------------------------------- figures on synthetic data


def test_score_functions_figure_draws_the_given_numbers_and_escapes_tokens():
    cross = softmax_rows(np.random.default_rng(1).normal(size=(3, 4)))
    ent = lab.row_entropy(cross)
    rec = dict(name="m<1>", score="dot", source_tokens=["<b>a</b>", "b", "b", "</s>"], target_tokens=["x", "y", "</s>"],
               cross=cross, entropy=ent, mean_entropy=float(ent.mean()), max_entropy=math.log(4))
    none = dict(rec, name="none", cross=None, entropy=None, mean_entropy=None)
    fig = figs.score_functions_figure([rec, none])
    heat = [t for t in fig.data if t.type == "heatmap"]
    assert len(heat) == 1 and np.allclose(np.asarray(heat[0].z), cross)
    line = [t for t in fig.data if t.type == "scatter" and t.mode == "lines+markers"]
    assert len(line) == 1 and np.allclose(np.asarray(line[0].y), ent)
    assert fig.layout.xaxis.ticktext[0] == "&lt;b&gt;a&lt;/b&gt;"  # escaped; both "b" keep their own column
    assert list(fig.layout.xaxis.tickvals) == [0, 1, 2, 3]
    assert all("<1>" not in a.text for a in fig.layout.annotations)
    # the uniform line's label has a band of its own above it, where no entropy can be (each is at most log S):
    # the axis ended at the line, and the label sat on the near-uniform points of scaled dot
    (label,) = [a for a in fig.layout.annotations if a.text.startswith("uniform: log S")]
    assert label.y == pytest.approx(math.log(4)) and fig.layout.yaxis3.range[1] >= 1.15 * math.log(4)
    # five entropy lines differ in dash and marker, not only in colour (colour-vision deficiencies)
    names = ["dot", "scaled_dot", "general", "additive", "none"]
    fig = figs.score_functions_figure([dict(rec, name=n) for n in names])
    line = [t for t in fig.data if t.type == "scatter" and t.mode == "lines+markers"]
    assert len({t.line.dash for t in line}) == len({t.marker.symbol for t in line}) == len(names)


def _score_record(name, src, tgt, seed=0):
    cross = softmax_rows(np.random.default_rng(seed).normal(size=(len(tgt), len(src))))
    ent = lab.row_entropy(cross)
    return dict(name=name, score=name, source_tokens=src, target_tokens=tgt, cross=cross, entropy=ent,
                mean_entropy=float(ent.mean()), max_entropy=math.log(len(src)))


def _word_start_note(fig):
    """The "▁ = start of a word" note: the title's subtitle, or the title itself in a figure without one."""
    title = fig.layout.title
    return title.subtitle.text if title.subtitle.text else title.text


def test_score_functions_ticks_stay_readable_short_and_long():
    """Five maps of ~150 px. Thinning labels wherever 12 px ones would overlap showed 7 of the 13 tokens
    of "The animal didn't cross the street because it was too tired."; every token up to EVERY_TICK is
    labelled (the font shrinks to fit, upright where slanted ones would not), every k-th past that,
    and shown labels never overlap. The entropy plot's steps are whole numbers."""
    short_src = ["▁I", "▁am", "▁a", "▁student", ".", "</s>"]
    short_tgt = ["▁Je", "▁suis", "▁étudiant", ".", "</s>"]
    animal = ["▁The", "▁animal", "▁didn", "'", "t", "▁cross", "▁the", "▁stre", "et", "▁because", "▁it", "▁was",
              "▁too", "▁tired", ".", "</s>"][:13]
    twenty = [f"▁w{i}" for i in range(figs.EVERY_TICK)]
    long_src, long_tgt = [f"▁w{i}" for i in range(26)] + ["</s>"], [f"▁m{i}" for i in range(65)] + ["</s>"]
    for src, tgt in ((short_src, short_tgt), (animal, twenty), (twenty, animal), (long_src, long_tgt)):
        recs = [_score_record(f"m{i}", src, tgt, seed=i) for i in range(4)]
        recs.append(dict(recs[0], name="none", cross=None, entropy=None, mean_entropy=None))
        fig = figs.score_functions_figure(recs)
        for i in range(1, 5):
            xa, ya = fig.layout[f"xaxis{'' if i == 1 else i}"], fig.layout[f"yaxis{'' if i == 1 else i}"]
            panel_px = (xa.domain[1] - xa.domain[0]) * 1000
            rows_px = (ya.domain[1] - ya.domain[0]) * (fig.layout.height - 190)  # less the margins
            for ax, toks, px, angle in ((xa, src, panel_px, xa.tickangle), (ya, tgt, rows_px, 0)):
                assert [toks[v] for v in ax.tickvals] == [html.unescape(t) for t in ax.ticktext]  # the right token
                fit = min(figs.EVERY_TICK, int(px / (figs.LINE_EM * figs.MIN_TICK_FONT)))  # at the smallest font
                if len(toks) <= fit:
                    assert list(ax.tickvals) == list(range(len(toks)))  # every token labelled
                else:
                    assert fit // 2 <= len(ax.tickvals) <= fit
                assert ax.tickfont.size >= figs.MIN_TICK_FONT
                gap = px / len(toks) * (ax.tickvals[1] - ax.tickvals[0])  # between two shown labels
                across = gap * (math.sin(math.radians(-angle)) if angle else 1.0)  # neighbours' distance
                assert across >= figs.LINE_EM * ax.tickfont.size * 0.99, (len(toks), angle, ax.tickfont.size)
        if src is animal:  # the reviewer's sentence in a real panel's room: every token
            assert list(fig.layout.xaxis.tickvals) == list(range(13))
        if src is short_src:  # a short sentence: full-size labels, slanted
            assert fig.layout.xaxis.tickangle == -60 and fig.layout.xaxis.tickfont.size == figs.SMALL_TICK_FONT
        steps = fig.layout.xaxis6  # the entropy plot under the maps
        assert steps.tickmode == "linear" and float(steps.dtick).is_integer() and steps.dtick >= 1
        assert steps.tick0 == 0 and list(steps.range) == [0.5, len(tgt) + 0.5]  # no tick at 1.5, no empty step 0
        if src is short_src:
            assert steps.dtick == 1
        assert fig.layout.font.size >= 14 and _word_start_note(fig) == "▁ = start of a word"
    heat = [t for t in fig.data if t.type == "heatmap"][0]
    assert heat.hovertext[2][3].startswith("#2 ▁m2 → #3 ▁w3: ")  # position, then token, as figures.py's


def _titleless_figures(labels=None):
    """Every lab figure that has no title of its own, on tokens that carry "▁"."""
    toks = ["▁I", "▁am", "▁a", "▁student", "."]
    rec = _score_record("m", toks, toks)
    a = softmax_rows(np.random.default_rng(0).normal(size=(5, 5)))
    hyps = [dict(text="a b", tokens=["▁a", "▁b"], logprob=-0.6, score=-0.5, token_logprobs=[-0.1, -0.2, -0.3])]
    return {"score functions": figs.score_functions_figure([rec], labels),
            "rollout": figs.rollout_figure(toks, a, a, labels=labels),
            "positional sentence": figs.positional_sentence_figure(toks, a, a, np.ones(5), np.ones(5), labels),
            "query key": figs.query_key_figure(toks, 1, np.ones(3), np.ones((5, 3)), np.zeros(5), a[0], labels),
            "beam": figs.beam_figure(hyps, labels)}


def test_the_lab_maps_carry_their_values_table_for_screen_readers():
    """Every map of the "beyond" views names its screen readers' table (figures.value_table) by its panel's own
    title, in the figure's language, rows and columns as its hover names them; the numbers are its z."""
    toks = ["▁I", "▁am", "▁a", "▁student", "."]
    rec = _score_record("seq2seq-dot", toks, toks[:3])
    a = softmax_rows(np.random.default_rng(0).normal(size=(5, 5)))
    tables = lambda fig: [t.meta["table"] for t in fig.data if t.type == "heatmap"]  # noqa: E731
    sf = tables(figs.score_functions_figure([rec, dict(rec, name="seq2seq-none", cross=None, entropy=None,
                                                                mean_entropy=None)]))
    assert [(t["caption"], t["corner"]) for t in sf] == [("seq2seq-dot: attention over the source", "target / source")]
    # (the model without attention has no map)
    assert sf[0]["rows"] == [f"#{i} {t}" for i, t in enumerate(toks[:3])] and sf[0]["cols"][1] == "#1 ▁am"
    ko = {k: i18n.t(f"lab.{k}", "ko") for k in figs.LABELS}
    roll = tables(figs.rollout_figure(toks, a, a, labels=ko))
    assert [(t["caption"], t["corner"]) for t in roll] == [("헤드 평균 (마지막 레이어)", "위치 / 입력 토큰"),
                                                         ("어텐션 롤아웃 (모든 레이어)", "위치 / 입력 토큰")]
    pos = figs.positional_sentence_figure(toks, a, a, np.ones(5), np.ones(5), ko)
    assert [t["caption"] for t in tables(pos)] == ["코사인: 임베딩 × √d", "코사인: + 포지셔널 인코딩"]
    ent = tables(figs.entropy_figure(np.random.default_rng(0).random((2, 3, 5)), 5))[0]
    assert ent["rows"] == ["layer 1", "layer 2"] and ent["cols"] == ["head 1", "head 2", "head 3"]
    pe = tables(figs.positional_figure(np.zeros((4, 6)), np.eye(4)))
    assert [(t["caption"], t["corner"], t["rows"][1]) for t in pe] == [("PE(pos, i)", "position / dimension", "position 1"),
                                                                      ("PE · PEᵀ", "position / position", "position 1")]
    assert [t.meta for t in figs.positional_figure(np.zeros((64, 128)), np.eye(64)).data][0] == {}  # 8,192 cells
    assert all(t["corner"] for t in (*sf, *roll, *tables(pos), ent, *pe))  # axe: a table's corner header has a name
    live = live_figures.alignment_heatmap(a[:2], toks, ["<s>", "x"], "step 3").data[0].meta["table"]
    assert (live["caption"], live["corner"], live["digits"]) == ("step 3", "target / source", 3)


def test_word_start_note_sits_below_the_plot_label():
    """Gradio draws a plot's label (~28 px) over the top-left of the figure. There a figure without a title
    had its "▁" note (plotly puts an empty title's subtitle at the very top): the note is now the title,
    held NOTE_TOP px down, above the panels' titles; a figure with a title keeps it as the subtitle."""
    assert 30 <= figs.NOTE_TOP
    for name, fig in _titleless_figures().items():
        title = fig.layout.title
        assert title.text == "▁ = start of a word" and not title.subtitle.text, name
        assert (title.yref, title.y, title.yanchor, title.pad.t) == ("container", 1.0, "top", figs.NOTE_TOP), name
        assert title.pad.t + title.font.size * 1.3 <= fig.layout.margin.t - 30, name  # clear of the panels' titles
    with_title = figs.contextual_figure(["a"], "a", np.ones((1, 1)), np.ones(1), "▁a")  # no "▁" token: no note
    assert with_title.layout.title.text == "▁a" and with_title.layout.title.subtitle.text is None


def test_lab_figure_words_and_hovers_follow_the_language():
    """In Korean no hover says "score", "log-prob", "cumulative", "pos" or "dim", and the norms' legend
    is Korean (‖embedding × √d‖ stayed English beside a Korean summary)."""
    from explorer.i18n import lab_labels
    ko = lab_labels("ko")
    english = re.compile(r"\b(score|log-prob|log p\(token\)|cumulative|pos|dim|position|dimension|layer|head)\b")
    pe, sim = np.ones((4, 6)), np.ones((4, 4))
    fig_ko = {**_titleless_figures(ko), "positional table": figs.positional_figure(pe, sim, ko)}
    fig_en = {**_titleless_figures(), "positional table": figs.positional_figure(pe, sim)}
    hovers = {}
    for name, fig in fig_ko.items():
        for tr in fig.data:
            texts = [tr.hovertemplate or ""] + [str(h) for h in np.ravel(np.asarray(tr.hovertext or [], dtype=object))]
            assert not any(english.search(t) for t in texts), (name, texts[:2])
            hovers[name] = hovers.get(name, "") + " ".join(texts)
    for name in ("beam", "positional table", "query key"):
        assert any("\uac00" <= c <= "\ud7a3" for c in hovers[name]), name  # Korean words instead
    en_hover = " ".join(tr.hovertemplate or "" for tr in fig_en["beam"].data)
    assert "score" in en_hover and "cumulative" in en_hover  # English stays English
    bars = [tr.name for tr in fig_ko["positional sentence"].data if tr.type == "bar"]
    assert bars == ["‖임베딩 × √d‖", "‖PE‖"]
    assert [tr.name for tr in fig_en["positional sentence"].data if tr.type == "bar"] == ["‖embedding × √d‖", "‖PE‖"]


def test_rollout_panels_share_one_colour_scale():
    """The head mean (up to ~0.7) had its own auto scale and no colour bar beside a bar for the rollout's
    0..0.45: one dark blue meant 0.7 on the left and 0.45 on the right. Now one colour axis, 0 to the
    larger maximum, and its one colour bar, hold for both panels."""
    a = np.array([[0.7, 0.3, 0.0], [0.1, 0.2, 0.7], [0.5, 0.25, 0.25]])
    r = np.array([[0.45, 0.3, 0.25], [0.4, 0.3, 0.3], [0.35, 0.35, 0.3]])
    fig = figs.rollout_figure(["a", "b", "c"], a, r)
    heat = [t for t in fig.data if t.type == "heatmap"]
    assert len(heat) == 2 and {t.coloraxis for t in heat} == {"coloraxis"}
    ca = fig.layout.coloraxis
    assert (ca.cmin, ca.cmax) == (0.0, 0.7) and ca.colorbar is not None
    assert all(t.zmin is None and t.zmax is None for t in heat)  # no trace scale of its own
    np.testing.assert_array_equal(np.asarray(heat[0].z), a)
    np.testing.assert_array_equal(np.asarray(heat[1].z), r)
    assert figs.rollout_figure(["a", "b", "c"], r, a).layout.coloraxis.cmax == 0.7  # whichever is larger


def test_length_colours_are_keyed_by_the_english_family_in_every_language():
    """In Korean the families reached the figure translated, missed FAMILY_SHADES and took plotly's default
    palette: seq2seq-none, additive and transformer-en-fr shared a colour. The figure gets the English
    family and shows a translation; colours are those of the English figure and one per model."""
    models = [("none", "RNN, no attention", "en-fr"), ("additive", "RNN + attention", "en-fr"),
              ("dot", "RNN + attention", "en-fr"), ("tr-en-fr", "Transformer", "en-fr"), ("tr-ko-en", "Transformer", "ko-en")]
    rows = [dict(model=m, family=f, direction=d, bucket=b, n=10, bleu=20.0 + i)
            for i, (m, f, d) in enumerate(models) for b in ("1-4", "5-7")]
    assert set(figs.FAMILY_SHADES) == set(lab.FAMILIES)
    ko = {"RNN, no attention": "RNN, 어텐션 없음", "RNN + attention": "RNN + 어텐션", "Transformer": "트랜스포머"}
    en_fig, ko_fig = figs.length_figure(rows), figs.length_figure(rows, families=ko)

    def colours(fig):
        return {t.legendgroup: t.marker.color for t in fig.data}
    assert colours(en_fig) == colours(ko_fig)
    assert len(set(colours(en_fig).values())) == 5  # one colour per model
    assert colours(en_fig)["none"] in figs.FAMILY_SHADES["RNN, no attention"]
    assert colours(en_fig)["tr-en-fr"] in figs.FAMILY_SHADES["Transformer"]
    assert "none (RNN, 어텐션 없음)" in [t.name for t in ko_fig.data]
    assert "none (RNN, no attention)" in [t.name for t in en_fig.data]


def test_contextual_hover_numbers_the_sentences_as_the_ticks_do():
    """The hover read "0 vs 1" (the axis positions) for the sentences the ticks number 1 and 2."""
    fig = figs.contextual_figure(["a bank", "the bank"], "bank", np.array([[1.0, 0.5], [0.5, 1.0]]),
                                 np.array([0.4, 0.6]))
    heat = fig.data[0]
    assert list(fig.layout.yaxis.ticktext)[0].startswith("1: ")
    assert [list(c) for c in heat.customdata[0]] == [[1, 1], [1, 2]]
    assert "%{customdata[0]} vs %{customdata[1]}" in heat.hovertemplate and "%{y}" not in heat.hovertemplate


def test_contextual_bars_take_the_colour_bar_they_share():
    """The bars were plotly's default red for +0.38 while the one colour bar beside them said red < 0."""
    sim = np.array([[1.0, 0.5, -0.4], [0.5, 1.0, 0.2], [-0.4, 0.2, 1.0]])
    st = np.array([0.38, 0.73, -0.5])
    fig = figs.contextual_figure(["a bank", "the bank", "bank it"], "bank", sim, st)
    heat, bar = fig.data[0], fig.data[-1]
    assert heat.showscale is not False and bar.marker.showscale is False  # one colour bar: the heatmap's
    assert bar.marker.colorscale == heat.colorscale
    assert (bar.marker.cmin, bar.marker.cmax) == (heat.zmin, heat.zmax) == (-1, 1)
    np.testing.assert_array_equal(np.asarray(bar.marker.color), st)
    # through that scale positive cosines are blue and negative ones red, as on the colour bar
    scale = [[v, c] for v, c in heat.colorscale]
    for value, blue in ((0.38, True), (0.73, True), (-0.5, False)):
        r, _, b = (int(x) for x in sample_colorscale(scale, [(value + 1) / 2])[0][4:-1].split(","))
        assert (b > r) == blue, value
    # each cell's number, black or white by what its colour needs (at least 4.5:1, WCAG AA)
    shown = {}
    for t in fig.data[1:-1]:
        assert t.mode == "text" and t.hoverinfo == "skip"
        for x, y, text in zip(t.x, t.y, t.text):
            shown[(y, x)] = text
            lum = figs._luminance(sample_colorscale(scale, [(sim[y, x] + 1) / 2])[0])
            ink = 1.0 if t.textfont.color == "white" else 0.0
            assert (max(lum, ink) + 0.05) / (min(lum, ink) + 0.05) >= 4.5, (sim[y, x], t.textfont.color)
    assert shown == {(i, j): f"{sim[i, j]:.3f}" for i in range(3) for j in range(3)}
    # the bars' numbers too, where they sit inside a bar (outside: near-black on the white plot)
    for value, colour in zip(st, bar.insidetextfont.color):
        lum = figs._luminance(sample_colorscale(scale, [(value + 1) / 2])[0])
        ink = 1.0 if colour == "white" else 0.0
        assert (max(lum, ink) + 0.05) / (min(lum, ink) + 0.05) >= 4.5, (value, colour)
    assert bar.outsidetextfont.color == "#111111"


def test_lab_figures_read_on_a_projector():
    """Base font 14 px, colour-bar titles beside their bars (on top they sat on the highest tick)."""
    ent = figs.entropy_figure(np.random.default_rng(0).random((2, 3, 5)), 5)
    hyps = [dict(text="a b", tokens=["▁a", "▁b"], logprob=-0.6, score=-0.5, token_logprobs=[-0.1, -0.2, -0.3])]
    beam = figs.beam_figure(hyps)
    for fig in (ent, beam):
        assert fig.layout.font.size >= 14
        (bar,) = [c for c in (getattr(t, "colorbar", None) or getattr(t.marker, "colorbar", None) for t in fig.data)
                  if c is not None and c.title.text]
        assert bar.title.side == "right"
    assert _word_start_note(beam) == "▁ = start of a word"
    assert float(beam.layout.xaxis2.dtick).is_integer()


def test_query_key_figure_bars_are_the_terms_and_the_softmax():
    scores = np.array([0.5, -1.0, -np.inf, 2.0])
    probs = np.exp(scores - np.log(np.exp(scores[np.isfinite(scores)]).sum()))
    fig = figs.query_key_figure(["[CLS]", "<i>", "[PAD]", "x"], 1, np.ones(3), np.ones((4, 3)), scores, probs)
    bars = [t for t in fig.data if t.type == "bar"]
    assert list(bars[0].y) == [0.5, -1.0, None, 2.0]
    assert np.allclose(np.asarray(bars[1].y), probs) and bars[1].y[2] == 0
    assert "&lt;i&gt;" in fig.layout.annotations[0].text


def test_beam_tree_shares_prefixes_and_sums_log_probs():
    hyps = [dict(text="a b", tokens=["a", "b"], logprob=-0.6, score=-0.5, token_logprobs=[-0.1, -0.2, -0.3]),
            dict(text="a c", tokens=["a", "c"], logprob=-1.5, score=-1.2, token_logprobs=[-0.1, -0.9, -0.5]),
            dict(text="d", tokens=["d"], logprob=-2.0, score=-2.0, token_logprobs=[-2.0])]  # unfinished
    nodes = figs.beam_tree(hyps)
    # <s>, a, a b, </s>, a c, </s>, d  ("a" is shared; each </s> is its own leaf)
    assert [n["token"] for n in nodes] == ["<s>", "a", "b", "</s>", "c", "</s>", "d"]
    assert [n["lane"] for n in nodes] == [0, 0, 0, 0, 1, 1, 2]
    assert [n["parent"] for n in nodes] == [None, 0, 1, 2, 1, 4, 0]
    assert np.allclose([n["cumulative"] for n in nodes], [0, -0.1, -0.3, -0.6, -1.0, -1.5, -2.0])
    fig = figs.beam_figure(hyps)
    assert list(fig.data[0].x) == [-0.5, -1.2, -2.0]
    tree = fig.data[2]
    assert np.allclose(np.asarray(tree.customdata)[:, 1], [n["cumulative"] for n in nodes])


# ----------------------------------------------------------------------------- with the shipped models

SENTENCE = "The animal didn't cross the street because it was too tired."


@have_assets
def test_score_functions_equal_translate(reg):
    c = lab.compare_score_functions(SENTENCE, reg=reg)
    assert [r.name for r in c.results] == list(lab.SCORE_MODELS)
    for r in c.results:
        ref = translate(r.name, SENTENCE, reg=reg)
        assert r.translation == ref.translation and r.source_tokens == ref.source_tokens
        assert r.target_tokens == ref.target_tokens and r.score == r.name.removeprefix("seq2seq-")
        assert r.max_entropy == pytest.approx(math.log(len(ref.source_tokens)))
        if r.score == "none":
            assert r.cross is None and r.entropy is None and ref.trace.cross is None
            continue
        assert np.array_equal(r.cross, ref.trace.cross[0, 0])
        assert r.cross.shape == (len(r.target_tokens), len(r.source_tokens))
        assert np.allclose(r.cross.sum(-1), 1.0, atol=1e-5)
        p = r.cross.astype(np.float64)
        direct = -np.sum(np.where(p > 0, p * np.log(np.where(p > 0, p, 1)), 0), axis=1)
        assert np.allclose(r.entropy, direct) and r.mean_entropy == pytest.approx(direct.mean())
        assert (r.entropy >= -1e-9).all() and (r.entropy <= r.max_entropy + 1e-6).all()
    with pytest.raises(UserError):
        lab.compare_score_functions("   ", reg=reg)


def test_score_functions_with_no_rnn_model_say_so_in_both_languages():
    from explorer import i18n
    from explorer.compute.inference import Registry
    with pytest.raises(UserError) as e:
        lab.compare_score_functions("I am a student.", reg=Registry(errors={"seq2seq-dot": "model.safetensors is missing"}))
    assert e.value.key == "no_rnn_models" and "seq2seq-dot is not available: model.safetensors is missing" in str(e.value)
    ko = i18n.error_text(e.value, "ko")
    assert ko.startswith("RNN 인코더-디코더를 하나도") and "seq2seq-none is not available." in ko


@have_assets
def test_rollout_on_bert_and_transformer_encoder(reg):
    b = lab.attention_rollout(SENTENCE, "bert", reg=reg)
    ref = encode_bert(SENTENCE, reg=reg)
    assert b.tokens == ref.tokens and np.allclose(b.attention, ref.trace.enc_self)
    assert np.allclose(b.rollout[-1], lab.rollout(ref.trace.enc_self)) and np.allclose(b.rollout.sum(-1), 1.0)
    assert np.allclose(b.entropy, lab.row_entropy(ref.trace.enc_self))
    t = lab.attention_rollout(SENTENCE, "transformer-en-fr", reg=reg)
    tr = translate("transformer-en-fr", SENTENCE, reg=reg)
    assert t.tokens == tr.source_tokens and t.rollout.shape == (tr.trace.enc_self.shape[0],) + (len(t.tokens),) * 2
    assert np.allclose(t.rollout.sum(-1), 1.0)
    with pytest.raises(UserError):
        lab.attention_rollout(SENTENCE, "seq2seq-dot", reg=reg)


@have_assets
def test_positional_sentence_is_what_the_encoder_reads(reg):
    r = lab.positional(40, 64, text="I am a student.", name="transformer-en-fr", reg=reg)
    s = r.sentence
    assert s.tokens == translate("transformer-en-fr", "I am a student.", reg=reg).source_tokens
    model = reg.get("transformer-en-fr").model
    ids = torch.tensor([[reg.get("transformer-en-fr").tokenizer.token_to_id(t) for t in s.tokens]])
    with torch.inference_mode():
        embedded = model.embed(model.src_emb, ids)[0].double().numpy()  # eval: dropout is the identity
    assert np.allclose(s.total, embedded, atol=1e-5)
    assert np.allclose(s.total, s.embedding + s.pe)
    d = model.config.d_model
    assert np.allclose(s.pe_norm, math.sqrt(d / 2), atol=1e-4)
    assert np.allclose(np.diag(s.cos_before), 1) and np.allclose(np.diag(s.cos_after), 1)
    assert np.allclose(s.cos_after, lab.cosine_matrix(s.embedding + s.pe))
    # a typed special token is dropped here as translate drops it (the view had read "</s>" as the real one)
    typed = "I am </s> a student."
    assert lab.positional(40, 64, text=typed, reg=reg).sentence.tokens == s.tokens
    r = lab.contextual_similarity("student", [typed, "The student reads."], name="transformer-en-fr", reg=reg)
    assert r.tokens[0] == s.tokens and r.tokens[0][r.positions[0][0]] == "▁student"
    assert [n.key for n in r.notices] == ["specials_dropped"]  # said, as translate says it
    # BERT's sentences too (a typed [SEP] raised "tokenisation drifted"), one notice for both
    r = lab.contextual_similarity("bank", ["I sat [SEP] on the bank.", "The bank [SEP] rose."], reg=reg)
    assert [t[p[0]] for t, p in zip(r.tokens, r.positions)] == ["bank", "bank"] and "[SEP]" not in r.tokens[0][1:-1]
    assert [n.key for n in r.notices] == ["specials_dropped"]


@have_assets
def test_contextual_similarity_bert(reg):
    same = "I sat on the bank of the river."
    r = lab.contextual_similarity("bank", [same, same, "I deposited money at the bank."], reg=reg)
    assert r.model == "bert" and r.similarity[0, 1] == pytest.approx(1.0, abs=1e-6)
    assert np.allclose(r.static_similarity, 1.0)  # one piece, the same static vector everywhere
    assert np.allclose(np.diag(r.similarity), 1.0) and r.similarity[0, 2] < 0.999
    ref = encode_bert(same, reg=reg)
    (pos,) = r.positions[0]
    assert ref.tokens[pos] == "bank"
    assert np.allclose(r.vectors[0], ref.hidden[pos]) and np.allclose(r.static[0], ref.static[pos])
    assert r.to_static[0] == pytest.approx(float(lab.cosine_matrix(ref.hidden[pos:pos + 1], ref.static[pos:pos + 1])[0, 0]))
    # defaults, and a word split into several pieces is averaged over them
    d = lab.contextual_similarity("stick", reg=reg)
    assert d.sentences == lab.EXAMPLES["stick"][1] and all(t[p[0]] == "stick" for t, p in zip(d.tokens, d.positions))
    with pytest.raises(UserError, match="does not occur"):
        lab.contextual_similarity("bank", ["The river is wide."], reg=reg)
    with pytest.raises(UserError):  # "bank" inside "banking" is not the word
        lab.contextual_similarity("bank", ["Online banking is easy."], reg=reg)


@have_assets
def test_contextual_similarity_korean_bert_reads_the_syllable_alone(reg):
    r = lab.contextual_similarity("배", reg=reg)  # the example's model: the Korean BERT, one piece per syllable
    assert r.model == "bert-ko" and r.source == "BERT last layer"
    assert all([t[i] for i in p] == ["배"] for t, p in zip(r.tokens, r.positions))  # not 배가 / 배를: 배 alone


def test_contextual_similarity_korean_encoder(reg):
    r = lab.contextual_similarity("배", name="transformer-ko-en", reg=reg)
    assert r.model == "transformer-ko-en" and r.source.startswith("Transformer encoder")
    assert "▁배" in r.vocab_tokens
    assert all(any("배" in t[i] for i in p) for t, p in zip(r.tokens, r.positions))
    ckpt = reg.get("transformer-ko-en")
    src_tokens = translate("transformer-ko-en", r.sentences[1], reg=reg).source_tokens
    assert r.tokens[1] == src_tokens
    ids = torch.tensor([[ckpt.tokenizer.token_to_id(t) for t in src_tokens]])
    with torch.inference_mode():
        memory = ckpt.model.encode(ids)[0][0].double().numpy()
        static = ckpt.model.src_emb(ids)[0].double().numpy()
    assert np.allclose(r.vectors[1], memory[r.positions[1]].mean(0), atol=1e-6)
    assert np.allclose(r.static[1], static[r.positions[1]].mean(0))
    twice = lab.contextual_similarity("배", [r.sentences[0]] * 2, reg=reg)
    assert twice.similarity[0, 1] == pytest.approx(1.0, abs=1e-6)
    with pytest.raises(UserError, match="not \\(part of\\) any token"):
        lab.contextual_similarity("뷁", ["뷁이 있어요."], name="transformer-ko-en", reg=reg)


@have_assets
@pytest.mark.parametrize("layer,head,query", [(0, 0, 0), (2, 3, 4), (-1, 5, 7)])
def test_query_key_reproduces_berts_attention(reg, layer, head, query):
    text = "The cat sat on the mat because it was tired."
    model = reg.get("bert").model
    layer = layer % model.config.n_layers
    r = lab.query_key(text, layer, head, query, reg=reg)
    ref = encode_bert(text, reg=reg)
    assert r.tokens == ref.tokens and r.q.shape == (r.d_k,) and r.k.shape == (len(r.tokens), r.d_k)
    np.testing.assert_allclose(r.probs, ref.trace.enc_self[layer, head, query], atol=1e-5)
    np.testing.assert_allclose(r.products.sum(-1), r.scores, atol=1e-5)
    np.testing.assert_allclose(r.scores, r.q @ r.k.T / math.sqrt(r.d_k), atol=1e-5)
    # The pre-softmax scores the model itself computes, caught on a private copy of the model
    # (a hook on the shared one could race with other users).
    private = copy.deepcopy(model)
    caught = {}

    def catch(module, args, out):
        caught["scores"] = out.scores  # returns None: the output is left as it is

    private.layers[layer].attn.register_forward_hook(catch)
    ids = torch.tensor([[reg.get("bert").tokenizer.token_to_id(t) for t in ref.tokens]])
    with torch.inference_mode():
        private(ids, torch.tensor([ref.segments]), need_weights=True)
    np.testing.assert_allclose(r.scores, caught["scores"][0, head, query].double().numpy(), atol=1e-5)


@have_assets
def test_query_key_reproduces_a_qk_layernorm_berts_attention(reg):
    """A BERT with QK-LayerNorm: the view's q and k are the normalised ones the model scores."""
    from models.bert import Bert, BertConfig
    from models.checkpoint import Checkpoint
    from explorer.compute.inference import Registry
    shipped = reg.get("bert")
    torch.manual_seed(0)
    config = BertConfig(vocab_size=shipped.config.vocab_size, d_model=32, n_layers=2, n_heads=4, d_ff=64,
                        max_len=64, dropout=0.0, pre_ln=True, qk_norm=True)
    model = Bert(config).eval()
    with torch.no_grad():  # gains and biases away from 1 and 0, W_q large: a view that skipped the norms would differ
        for layer in model.layers:
            layer.attn.q_proj.weight.mul_(50)
            for norm in (layer.attn.q_norm, layer.attn.k_norm):
                norm.weight.uniform_(0.5, 2.0)
                norm.bias.normal_(0, 0.3)
    own = Registry(models={"bert": Checkpoint(model, shipped.tokenizer, config, {}, shipped.path)})
    text = "The cat sat on the mat."
    ref = encode_bert(text, reg=own)
    for layer, head, query in [(0, 1, 2), (1, 3, 0)]:
        r = lab.query_key(text, layer, head, query, reg=own)
        np.testing.assert_allclose(r.probs, ref.trace.enc_self[layer, head, query], atol=1e-5)
        np.testing.assert_allclose(r.scores, r.q @ r.k.T / math.sqrt(r.d_k), atol=1e-4)
        assert r.qk_norm  # recorded, so the view can say that q and k are the normed vectors
    plain = Bert(dataclasses.replace(config, qk_norm=False)).eval()
    r = lab.query_key(text, 0, 0, 0, reg=Registry(models={"bert": Checkpoint(plain, shipped.tokenizer, plain.config,
                                                                              {}, shipped.path)}))
    assert not r.qk_norm


@have_assets
def test_query_key_range_errors(reg):
    c = reg.get("bert").config
    with pytest.raises(UserError, match=f"between 0 and {c.n_layers - 1}"):
        lab.query_key("a b c", c.n_layers, 0, 0, reg=reg)
    with pytest.raises(UserError, match=f"between 0 and {c.n_heads - 1}"):
        lab.query_key("a b c", 0, -1, 0, reg=reg)
    with pytest.raises(UserError, match="between 0 and 4"):  # [CLS] a b c [SEP]
        lab.query_key("a b c", 0, 0, 5, reg=reg)
    with pytest.raises(UserError):
        lab.query_key("a b c", 0.5, 0, 0, reg=reg)


@have_assets
def test_real_records_render(reg):
    """The figures take the lab's records as they come (numbers are checked above)."""
    c = lab.compare_score_functions("I am a student.", reg=reg)
    assert len(figs.score_functions_figure(c.results).data) >= 5
    b = lab.attention_rollout("I am a student.", reg=reg)
    assert figs.rollout_figure(b.tokens, b.head_mean[-1], b.rollout[-1]).data
    assert figs.entropy_figure(b.entropy, len(b.tokens)).data
    p = lab.positional(20, 32, "I am a student.", reg=reg)
    assert figs.positional_figure(p.pe, p.similarity).data
    s = p.sentence
    assert figs.positional_sentence_figure(s.tokens, s.cos_before, s.cos_after, s.embedding_norm, s.pe_norm).data
    x = lab.contextual_similarity("bank", reg=reg)
    assert np.allclose(np.asarray(figs.contextual_figure(x.sentences, x.word, x.similarity, x.to_static).data[0].z),
                       x.similarity)
    h = translate("transformer-en-fr", "I am a student.", beam=3, reg=reg).hypotheses
    assert list(figs.beam_figure(h).data[0].x) == [hh.score for hh in h]


@have_assets
def test_shipped_bleu_by_length_numbers_are_the_models_current_ones():
    """docs/figures/bleu_by_length.json (beside the PNG docs/training.md links) is what `python -m explorer.compute.lab
    length-figure` writes from the metrics.json files: after a model is re-evaluated it must be
    redrawn."""
    shipped = json.loads((ASSETS.parent / "docs" / "figures" / "bleu_by_length.json").read_text(encoding="utf-8"))
    now = lab.length_table()
    assert shipped["rows"] == json.loads(json.dumps(now.table.to_dict("records")))
    assert {r["model"] for r in shipped["rows"]} >= {"transformer-en-fr", "transformer-ko-en", "seq2seq-none"}


# ----------------------------------------------------------------------------- a phone's narrow layouts


def _lab_figures():
    """One of every lab figure of side-by-side panels, from small synthetic records."""
    rng = np.random.default_rng(0)
    toks = ["▁The", "▁animal", "▁didn", "'", "t", "▁cross", "."]
    n = len(toks)
    att = rng.random((n, n))
    att /= att.sum(-1, keepdims=True)
    res = [dict(name=f"seq2seq-{s}", score=s, source_tokens=toks, target_tokens=toks[:5], cross=att[:5],
                entropy=rng.random(5), mean_entropy=0.5, max_entropy=math.log(n)) for s in ("dot", "general")]
    res.append(dict(name="seq2seq-none", score="none", source_tokens=toks, target_tokens=toks[:5], cross=None,
                    entropy=None, mean_entropy=None, max_entropy=math.log(n)))
    rows = [dict(model=m, family=f, direction=d, bucket=b, n=10, bleu=30.0) for m, f, d in
            (("seq2seq-dot", "RNN + attention", "en-fr"), ("transformer-ko-en", "Transformer", "ko-en"))
            for b in ("1-4", "5-7")]
    hyps = [dict(text="a b", tokens=["▁a", "▁b"], logprob=-0.6, score=-0.5, token_logprobs=[-0.1, -0.2, -0.3]),
            dict(text="a c", tokens=["▁a", "▁c"], logprob=-1.5, score=-1.2, token_logprobs=[-0.1, -0.9, -0.5])]
    cos = rng.uniform(-1, 1, (n, n))
    scores = rng.normal(size=n)
    return {"score_functions": figs.score_functions_figure(res), "length": figs.length_figure(rows),
            "rollout": figs.rollout_figure(toks, att, att), "entropy": figs.entropy_figure(rng.random((2, 3, n)), n),
            "positional": figs.positional_figure(rng.uniform(-1, 1, (16, 8)), rng.random((16, 16))),
            "positional_sentence": figs.positional_sentence_figure(toks, cos, cos, rng.random(n), rng.random(n)),
            "contextual": figs.contextual_figure(["I sat on the bank.", "The bank lent money."], "bank",
                                                 np.array([[1.0, 0.4], [0.4, 1.0]]), np.array([0.3, 0.5])),
            "query_key": figs.query_key_figure(toks, 1, rng.normal(size=4), rng.normal(size=(n, 4)), scores,
                                               np.exp(scores) / np.exp(scores).sum()),
            "beam": figs.beam_figure(hyps)}


def _narrowed(fig, which="narrow"):
    out = go.Figure(fig)
    u, other = fig.layout.meta[which], fig.layout.meta["wide" if which == "narrow" else "narrow"]
    for path, value in u["layout"].items():
        out.layout[path] = value  # through plotly's validators: a misspelt path or a bad value raises
    for path, values in u["data"].items():
        for i, value, there in zip(u["traces"], values, other["data"][path]):
            if not (value is None and there is None):  # (None both ways: a key this trace lacks)
                out.data[i][path] = value
    return out


@pytest.mark.parametrize("name", ["score_functions", "length", "rollout", "entropy", "positional",
                                  "positional_sentence", "contextual", "query_key", "beam"])
def test_a_phone_stacks_the_panels_each_the_full_width_in_reading_order(name):
    """Side by side on a phone (~330 px) five maps were ~45 px each and two panels' titles ran into each
    other: narrow, every panel spans the width, in reading order, none overlapping the next, its title
    above it and its colour bar beside it; widened again, the figure is the one built."""
    fig = _lab_figures()[name]
    narrow = _narrowed(fig)
    L = narrow.layout
    names = [k for k in narrow.to_dict()["layout"] if re.fullmatch(r"xaxis\d*", k) and L[k].domain is not None]
    panels = sorted(((k, L[k].domain, L[f"yaxis{k[5:]}"].domain) for k in names), key=lambda p: -p[2][1])
    if len(panels) > 1:
        wide = sorted((fig.layout[k].domain, fig.layout[f"yaxis{k[5:]}"].domain) for k, _, _ in panels)
        assert len({(x, y) for x, y in wide}) == len(wide)  # (distinct panels to begin with)
        for (_, xd, yd), (_, _, below) in zip(panels, panels[1:]):
            assert tuple(xd) == (0.0, 1.0) and below[1] < yd[0], name  # full width, above the next
        for a in L.annotations:  # a subplot title sits at the top of some panel, centred
            if a.yanchor == "bottom" and a.xref == "paper" and a.yref == "paper":
                assert a.x == 0.5 and any(abs(a.y - yd[1]) < 1e-9 for _, _, yd in panels), (name, a.text)
        for tr in narrow.data:  # a colour bar beside its own panel, not the whole figure's height
            if tr.type == "heatmap" and tr.showscale is not False and tr.coloraxis is None:
                y0, y1 = L[f"yaxis{(tr.yaxis or 'y')[1:]}"].domain
                assert y0 <= tr.colorbar.y <= y1 and tr.colorbar.len == pytest.approx(y1 - y0), name
                assert tr.colorbar.x > 1, name  # right of the full-width panels (between two, it would cover one)
        if name == "rollout":  # one colour axis for both maps: its bar spans the two panels
            (_, _, top), (_, _, low) = panels[0], panels[-1]
            assert L.coloraxis.colorbar.len == pytest.approx(top[1] - low[0])
        assert L.height > fig.layout.height  # one under another: taller
    assert _pruned(json.loads(_narrowed(narrow, "wide").to_json())) == _pruned(json.loads(fig.to_json()))


def _pruned(obj):
    if isinstance(obj, dict):
        kept = {k: _pruned(v) for k, v in obj.items()}
        return {k: v for k, v in kept.items() if v != {} and k != "meta"}
    return [_pruned(v) for v in obj] if isinstance(obj, list) else obj


def test_a_phone_names_the_sentences_by_number_and_drops_the_beam_trees_words():
    f = _lab_figures()
    ctx = _narrowed(f["contextual"])
    assert list(ctx.layout.yaxis.ticktext) == list(ctx.layout.yaxis2.ticktext) == ["1", "2"]
    assert ctx.layout.yaxis2.showticklabels is True
    assert list(f["contextual"].layout.yaxis.ticktext)[0].startswith("1: I sat")  # wide: the sentences
    tree = _narrowed(f["beam"]).data[2]
    assert tree.mode == "markers" and f["beam"].data[2].mode == "markers+text"
    assert _narrowed(f["length"]).layout.yaxis2.showticklabels is True  # ko-en under en-fr: its own BLEU ticks
