"""The app's analysis views (explorer/views.py, wired in app.py) called directly: every number
they draw or tabulate is the number explorer.compute.lab / inference / snapshots / live computes; the
language switch reaches every registered component with a Korean string and no key is missing;
live training yields row-stochastic alignments and stops at its cap; a custom BERT joins the
BERT views and the Hub box exists only when the operator turns it on."""
import collections
import html
import json
import math
import re
import string
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

gr = pytest.importorskip("gradio")

import app  # noqa: E402  (builds the demo, loading the registry once)
from explorer.views import api as api_views, bert as bert_views, seq2seq as s2s_views  # noqa: E402
from explorer.views import transformer as tr_views  # noqa: E402
from explorer.views import beam as v_beam, contextual as v_ctx, length as v_length, live as v_live  # noqa: E402
from explorer.views import positional as v_pos, query_key as v_qk, rollout as v_rollout  # noqa: E402
from explorer.views import scores as v_scores, snapshots as v_snap  # noqa: E402
from ui import components as uc  # noqa: E402
from ui.tabs import live as live_tab  # noqa: E402
from explorer import i18n  # noqa: E402
from explorer.compute import lab, live
from explorer.compute import inference as inf  # noqa: E402
from explorer.compute import snapshots as snap  # noqa: E402
from explorer.serve.cache import stored  # noqa: E402
from explorer import views as vw  # noqa: E402
from explorer.compute.inference import UserError  # noqa: E402

TABS = app.demo.tabs  # module name -> its Tab: the handlers, and the components they return values for


def handler_name(fn) -> str:
    """An event handler as '<tab module>.<name>' ('beam.run'), by which the tests below find its events."""
    return f"{getattr(fn, '__module__', '').rsplit('.', 1)[-1]}.{getattr(fn, '__name__', '')}"

EN = "I am a student."
LONG = "The animal didn't cross the street because it was too tired."
needs = pytest.mark.skipif(
    not {"transformer-en-fr", "transformer-ko-en", "bert", *lab.SCORE_MODELS} <= set(inf.registry().names()),
    reason="the shipped checkpoints under assets/ did not load")


def z(fig, i=0):
    return np.asarray(fig.data[i].z, dtype=np.float64)


def heatmaps(fig):
    return [t for t in fig.data if t.type == "heatmap"]


def read_json(files):
    files = files.write() if hasattr(files, "write") else files  # a view's Downloads: written as the button does
    return json.loads(Path(next(f for f in files if f.endswith(".json"))).read_text(encoding="utf-8"))


# ----------------------------------------------------------------------------- score functions, BLEU by length


@needs
def test_score_functions_view_draws_and_tabulates_each_models_attention():
    v = v_scores.score_functions_view(LONG)
    c = lab.compare_score_functions(LONG)
    assert [r.name for r in v.record.results] == [r.name for r in c.results] == list(lab.SCORE_MODELS)
    with_attention = [r for r in c.results if r.cross is not None]
    for trace, r in zip(heatmaps(v.figure), with_attention):  # one heatmap per model with attention, in order
        np.testing.assert_allclose(np.asarray(trace.z), r.cross, rtol=1e-6)
        yaxis = v.figure.layout["yaxis" + trace.yaxis[1:]]  # each panel labels its own model's output rows
        assert yaxis.showticklabels is not False and [html.unescape(t) for t in yaxis.ticktext] == r.target_tokens
    lines = [t for t in v.figure.data if t.type == "scatter" and t.mode == "lines+markers"]
    for line, r in zip(lines, with_attention):
        np.testing.assert_allclose(np.asarray(line.y), r.entropy)
    table = v.table.set_index("model")
    for r in c.results:
        assert table.loc[r.name, "translation"] == r.translation == inf.translate(r.name, LONG).translation
        expected = None if r.mean_entropy is None else round(r.mean_entropy, 4)
        got = table.loc[r.name, "mean entropy (nats)"]
        assert (expected is None and pd.isna(got)) or got == pytest.approx(expected)
        assert table.loc[r.name, "uniform log S (nats)"] == pytest.approx(math.log(len(r.source_tokens)), abs=1e-4)
    best = min(with_attention, key=lambda r: r.mean_entropy)
    assert vw.md(best.name) in v.notice
    saved = read_json(v.files)
    assert [r["name"] for r in saved["results"]] == list(lab.SCORE_MODELS)
    np.testing.assert_allclose(saved["results"][0]["cross"], c.results[0].cross, atol=1e-6)
    ko = v_scores.score_functions_view(LONG, "ko")
    assert "가장 집중된 어텐션" in ko.notice


def test_length_view_table_is_lab_length_table():
    v = v_length.length_view()
    long = lab.length_table().table
    if long.empty:
        assert v.table.empty
        return
    wide = v.table.set_index("model")
    for row in long.itertuples():
        assert wide.loc[row.model, row.bucket] == pytest.approx(round(row.bleu, 2))
        assert wide.loc[row.model, "family"] == row.family and wide.loc[row.model, "direction"] == row.direction
    bars = [t for t in v.figure.data if t.type == "bar"]
    assert sum(len(b.y) for b in bars) == len(long)
    saved = read_json(v.files)["rows"]
    assert [r["model"] for r in saved] == list(long.model) and [r["bleu"] for r in saved] == pytest.approx(list(long.bleu))


# ----------------------------------------------------------------------------- beam search


@needs
@pytest.mark.parametrize("model", ["transformer-en-fr", "seq2seq-general"])
def test_beam_view_ranks_hypotheses_and_shows_the_chosen_ones_attention(model):
    beam = 4
    v = v_beam.beam_view(LONG, model, beam)
    ref = inf.translate(model, LONG, beam)
    assert list(v.table["translation"]) == [h.text for h in ref.hypotheses]
    assert list(v.table["log-prob"]) == [h.logprob for h in ref.hypotheses]
    assert [value for _, value in v.choices] == list(range(len(ref.hypotheses)))
    assert [label.split("  ")[-1] for label, _ in v.choices] == [  # what ranks them, and the log-prob
        f"(score {h.score:.3f}, log-prob {h.logprob:.3f})" for h in ref.hypotheses]
    alpha = inf.registry().get(model).length_penalty
    assert f"α = {alpha:.1f}" in v.chosen.notice and ref.length_penalty == alpha
    np.testing.assert_allclose(np.asarray(v.figure.data[0].x), [h.score for h in ref.hypotheses])
    for i in range(len(ref.hypotheses)):
        c = v_beam.beam_choice(LONG, model, beam, i)
        r = inf.translate(model, LONG, beam, chosen=i)
        assert c.translation == r.translation == ref.hypotheses[i].text and c.record.chosen == i
        a = r.trace.cross
        L, H = a.shape[:2]
        assert len(c.grid.data) == L * H
        for l in range(L):
            for h in range(H):
                np.testing.assert_array_equal(z(c.grid, l * H + h), a[l, h])
        np.testing.assert_allclose(z(c.mean), a[-1].mean(0), rtol=1e-6)
        # an RNN's one map is not called "all layers × heads" or "mean over heads"
        key = "view.hyp_one" if (L, H) == (1, 1) else "view.hyp_grid"
        assert c.grid.layout.title.text == i18n.t(key, "en", i=i + 1)
        assert (c.mean.layout.title.text == c.grid.layout.title.text) == (model.startswith("seq2seq"))
    # the app's chooser recomputes from the search it stored, not from the textboxes
    search = v_beam.BeamSearch(LONG, beam, inf.translate(model, LONG, beam))
    BM = TABS["beam"]
    chosen = BM.choose(search, 1)
    np.testing.assert_array_equal(z(chosen[BM.grid]), inf.translate(model, LONG, beam, chosen=1).trace.cross[0, 0])
    assert read_json(chosen[BM.files])["chosen"] == 1


@needs
def test_beam_view_errors_are_messages():
    with pytest.raises(gr.Error, match="between 2 and 8"):
        TABS["beam"].run(EN, "transformer-en-fr", 1)
    with pytest.raises(gr.Error, match="not a"):
        TABS["beam"].run(EN, "bert", 4)
    assert TABS["beam"].choose(None, 0) == gr.skip()  # before any search: nothing to show, no error


# ----------------------------------------------------------------------------- rollout + entropy


@needs
@pytest.mark.parametrize("model", ["bert", "transformer-en-fr"])
def test_rollout_view_is_lab_attention_rollout(model):
    r = lab.attention_rollout(LONG, model)
    L, H, T, _ = r.attention.shape
    v = v_rollout.rollout_view(LONG, model, 2)
    assert v.n_layers == L and v.record.tokens == r.tokens
    for l in range(L):
        for h in range(H):
            np.testing.assert_allclose(z(v.grid, l * H + h), r.attention[l, h], rtol=1e-6)
    np.testing.assert_allclose(z(v.entropy), r.entropy.mean(-1))
    np.testing.assert_allclose(z(v.layer.rollout, 0), r.head_mean[1])  # layer 2, 1-based
    np.testing.assert_allclose(z(v.layer.rollout, 1), r.rollout[1])
    np.testing.assert_allclose(z(v.layer.row_entropy), r.entropy[1])
    assert np.allclose(z(v.layer.rollout, 1).sum(-1), 1.0)
    last = v_rollout.rollout_redraw(v.record, L)  # the slider redraws from the record
    np.testing.assert_allclose(z(last.rollout, 1), lab.rollout(r.attention))
    np.testing.assert_allclose(v_rollout.rollout_view(LONG, model, 99).layer.table.to_numpy(), r.rollout[-1])  # clamped
    saved = read_json(v.files)
    np.testing.assert_allclose(saved["rollout"], r.rollout, atol=1e-6)


# ----------------------------------------------------------------------------- query / key


@needs
def test_query_key_view_is_lab_query_key_with_one_based_layer_and_head():
    text = "the cat sat on the mat because it was tired ."
    v = v_qk.query_key_view(text, 2, 3, 4, "bert")
    r = lab.query_key(text, 1, 2, 4)
    ref = inf.encode_bert(text)
    np.testing.assert_allclose(v.table["softmax"], r.probs)
    np.testing.assert_allclose(v.table["model attention"], ref.trace.enc_self[1, 2, 4], rtol=1e-6)
    np.testing.assert_allclose(v.table["softmax"], v.table["model attention"], atol=1e-5)
    np.testing.assert_allclose(v.table["q·k/√d_k"], r.scores)
    np.testing.assert_allclose(z(v.figure, 1), r.k)
    np.testing.assert_allclose(np.asarray(v.figure.data[3].y, dtype=float), r.probs)
    assert [label for label, _ in v.choices] == [f"{i}: {t}" for i, t in enumerate(ref.tokens)]
    assert vw.md(ref.tokens[4]) in v.text
    # the shipped BERT has QK-LayerNorm, and the text says that q and k are the normed vectors
    assert inf.registry().get("bert").config.qk_norm and r.qk_norm and "QK-LayerNorm" in v.text
    far = v_qk.query_key_view(text, 1, 1, 999, "bert")  # a stale chooser after a shorter text: the last token
    assert far.record.query_index == len(ref.tokens) - 1
    QK = TABS["query_key"]
    shown = QK.show(text, "bert", 2, 3, 4, "kind", "en")[QK.table]  # on screen: 6 decimals, where both columns agree
    np.testing.assert_array_equal(shown["softmax"], v.table["softmax"].round(6))
    assert (shown["softmax"] - shown["model attention"]).abs().max() <= 1.01e-6
    n_layers = inf.registry().get("bert").config.n_layers
    with pytest.raises(gr.Error, match=f"Layer must be from 1 to {n_layers}"):
        TABS["query_key"].show(text, "bert", 0, 1, 0, "kind", "en")


@needs
def test_the_query_chooser_follows_the_sentence_before_show():
    """Typing another sentence gives the chooser that sentence's tokens at once (it listed the previous
    run's, so a pick explained another token than the one chosen); the position is kept where it exists."""
    for a, b in [("the cat sat on the mat .", None), ("나는 학생 입니다 😀", None), ("[CLS] hi [SEP] there", None),
                 ("word " * 400, None), ("I went home.", "Then I slept."), ("a " * 200, "b " * 200)]:
        assert inf.bert_tokens(a, b) == inf.encode_bert(a, b).tokens, a[:20]  # the tokenizer alone, no model run
    d = TABS["query_key"].query_choices("I like green apples .", "bert", 3)
    assert d.choices == v_qk.query_tokens("I like green apples .", "bert") and d.value == 3
    assert d.choices[3][0] == "3: green"
    assert TABS["query_key"].query_choices("I like .", "bert", 9).value == 4  # past the end: the last token ([SEP])
    assert TABS["query_key"].query_choices("I like .", "bert", "typed").value == 0
    assert TABS["query_key"].query_choices("   ", "bert", 2) == gr.skip()  # Show's own check reports it, not the chooser
    changes = {type(app.demo.blocks[b]).__name__ for f in app.demo.fns.values()
               if handler_name(f.fn) == "query_key.query_choices" for b, e in f.targets if e == "change"}
    assert changes == {"Textbox", "Dropdown"}
    first = next(b for b in app.demo.blocks.values() if isinstance(b, gr.Dropdown) and b.label == i18n.t("qk.query"))
    assert [c[0] for c in first.choices][:3] == ["0: [CLS]", "1: the", "2: cat"]  # before any run too


def test_rollout_runs_again_through_another_model_and_its_layers():
    """Another model: its own rollout at once, through all of its layers (the layer slider went on
    redrawing the other model's record)."""
    R = TABS["rollout"]
    ko = R.run_model("나는 학생 입니다", "transformer-ko-en", "en")
    record, slider = stored(ko[R.record]), ko[R.layer]  # the page keeps a key (explorer.serve.cache)
    n = inf.registry().get("transformer-ko-en").config.n_layers
    assert record.rollout.shape[0] == n and slider.maximum == max(n, 2) and slider.value == n
    again = R.run("나는 학생 입니다", "transformer-ko-en", n, "en")
    np.testing.assert_array_equal(z(ko[R.rollout]), z(again[R.rollout]))
    runs = [f for f in app.demo.fns.values() if handler_name(f.fn) == "rollout.run_model"]
    events = {(type(app.demo.blocks[b]).__name__, e) for f in runs for b, e in f.targets if b is not None}
    assert events == {("Dropdown", "input")}  # a model picked by hand ...
    assert sum(f.trigger_after is not None for f in runs) == 1  # ... or by an example (test_every_example_runs_its_tab)


def test_rollout_and_query_key_say_when_the_input_has_unknown_tokens():
    """As the other tabs do: "⚠️ Unknown to this model (read as [UNK]): 4 of 4…" beside the figures (drawn over
    [UNK] rows without a word), in the switch's language; nothing for a sentence the model knows."""
    text = "나는 학생 입니다 😀"  # Korean through the English BERT: every word is [UNK]
    R, QK = TABS["rollout"], TABS["query_key"]
    en, ko = R.run(text, "bert", None, "en")[R.notice], R.run(text, "bert", None, "ko")[R.notice]
    assert en.startswith("⚠️") and "Unknown to this model" in en and _hangul(ko) and "[UNK" in ko
    assert en == R.relabel(R.run(text, "bert", None, "ko")[R.record], 1, "en")[R.notice]
    assert R.run("I am a student.", "bert", None, "en")[R.notice] == ""
    qk = QK.show(text, "bert", 1, 1, 0, "kind", "en")[QK.text_md]
    assert "⚠️" in qk and "Unknown to this model" in qk
    assert "⚠️" not in QK.show("I am a student.", "bert", 1, 1, 0, "kind", "en")[QK.text_md]


def test_positional_sliders_redraw_however_they_move():
    """Dragged, keyed (Home, arrows) or typed: `.change` (`.release` missed the keyboard and typed numbers)."""
    events = {(type(app.demo.blocks[b]).__name__, e) for f in app.demo.fns.values()
              if handler_name(f.fn) == "positional.show" for b, e in f.targets}
    assert events == {("Button", "click"), ("Textbox", "submit"), ("Slider", "change")}


def test_enter_in_a_sentence_box_runs_what_its_button_runs():
    """Enter (a phone keyboard's Go) in each one-line input box: the view's run, as its button (it did nothing)."""
    submits = {}
    for f in app.demo.fns.values():
        for b, e in f.targets:
            if e == "submit":
                submits.setdefault(handler_name(f.fn), set()).add(app.demo.blocks[b].label)
    assert submits == {
        "seq2seq.run": {i18n.t("s2s.text")}, "scores.show": {i18n.t("s2s.text")},
        "transformer.run": {i18n.t("common.sentence")}, "beam.run": {i18n.t("common.sentence")},
        "bert.enter": {i18n.t("bert.a"), i18n.t("bert.b")}, "rollout.run": {i18n.t("common.sentence")},
        "query_key.show": {i18n.t("common.sentence")}, "contextual.show": {i18n.t("ctx.word")},
        "positional.show": {i18n.t("pos.text")}, "live.train": {i18n.t("live.probe")},
        "inside.show": {i18n.t("common.sentence"), i18n.t("il.target")},
        "luong.show": {i18n.t("common.sentence"), i18n.t("ch.target")},
        "choices.show": {i18n.t("common.sentence"), i18n.t("ch.target")},
        "bert_inputs.show": {i18n.t("common.sentence")}, "elmo.show": {i18n.t("el.word"), i18n.t("el.weights")},
        "finetune.run_finetune": {i18n.t("ft.text")}, "gpt.continue_prompt": {i18n.t("gpt.prompt")},
        "gpt.compare": {i18n.t("common.sentence")}, "ablation.show": {i18n.t("abl.text"), i18n.t("abl.heads")},
        "alignment.show": {i18n.t("aln.source"), i18n.t("aln.target"), i18n.t("aln.links")},
        "attribution.show": {i18n.t("attr.text")}}, submits
    # the same event as the tab's button: Enter runs with the button's inputs, outputs and checks
    for name, button in (("finetune.run_finetune", "ft.run"), ("gpt.continue_prompt", "gpt.run"),
                         ("gpt.compare", "gpt.compare_run")):
        f = next(f for f in app.demo.fns.values() if handler_name(f.fn) == name and f.targets)
        clicked = {app.demo.blocks[b].value for b, e in f.targets if e == "click"}
        assert clicked == {i18n.t(button)} and {e for _, e in f.targets} == {"click", "submit"}, name
    # BERT: the button that fits what is typed
    B = TABS["bert"]
    fill, nsp = B.fill("bert", "I am a [mask].", "", 5, 1, 1), B.next_sentence
    entered = B.enter("bert", "I am a [mask].", "", 5, 1, 1)
    assert list(entered[B.masks]["token"]) == list(fill[B.masks]["token"]) and len(entered[B.masks])
    entered = B.enter("bert", "I went home.", "Then I slept.", 5, 1, 1)
    assert entered[B.nsp_text] == nsp("bert", "I went home.", "Then I slept.", 1, 1)[B.nsp_text]
    assert "IsNext" in entered[B.nsp_text]
    entered = B.enter("bert", "I went home.", " ", 5, 1, 1)
    assert entered[B.nsp_text] == B.encode("bert", "I went home.", " ", 1, 1)[B.nsp_text]


# ----------------------------------------------------------------------------- contextual, positional


@needs
def test_contextual_view_defaults_and_numbers():
    v = v_ctx.contextual_view("배", "", "transformer-ko-en", "ko")
    r = lab.contextual_similarity("배", name="transformer-ko-en")
    assert v.record.model == "transformer-ko-en" == r.model
    np.testing.assert_allclose(z(v.figure), r.similarity)
    np.testing.assert_allclose(np.asarray(v.figure.data[-1].x), r.to_static)
    assert list(v.table["정적 임베딩과의 코사인"]) == list(np.round(r.to_static, 4))  # Korean mode, Korean header
    assert r.source == "Transformer encoder output" and "트랜스포머 인코더 출력" in v.figure.layout.title.text
    assert "트랜스포머 인코더 출력" in v.text and r.source not in v.text
    assert v_ctx.contextual_view("배", "", "auto", "ko").record.model == "bert-ko"  # the example's own model
    sentences = "I sat on the bank of the river.\nThe bank raised interest rates."
    b = v_ctx.contextual_view("bank", sentences, "bert")
    rb = lab.contextual_similarity("bank", sentences, "bert")
    np.testing.assert_allclose(z(b.figure), rb.similarity)
    assert b.figure.layout.title.text.endswith("bert: BERT last layer") and "(BERT last layer)" in b.text
    assert read_json(b.files)["sentences"] == rb.sentences
    # two sentences: their one cosine, not a range "from x to x"
    assert f"the two contexts {rb.similarity[0, 1]:.3f}." in b.text and " to " not in b.text
    cosines = pd.read_csv(next(f for f in b.files.write() if f.endswith("-cosines.csv")), index_col=0)
    assert list(cosines.index) == [1, 2]  # the download keeps its sentence numbers as row labels
    with pytest.raises(gr.Error) as e:
        TABS["contextual"].show("<b>zzz</b>", "no such word here", "bert", "en")
    assert "<b>" not in e.value.message
    # one sentence: no range "from 1.000 to 1.000" of a context with itself; its static cosine, and a hint
    for lang in ("en", "ko"):
        one = v_ctx.contextual_view("bank", "I sat on the bank.", "bert", lang)
        static = lab.contextual_similarity("bank", "I sat on the bank.", "bert").to_static[0]
        assert f"{static:.3f}" in one.text and "1.000" not in one.text
        assert vw.md(i18n.t("note.one_sentence", lang, word="bank")) in one.text
    assert "note.one_sentence" not in b.text and i18n.t("note.one_sentence", "en", word="bank") not in b.text


@needs
def test_positional_view_is_lab_positional():
    v = v_pos.positional_view(40, 64, EN, "transformer-en-fr")
    r = lab.positional(40, 64, EN, "transformer-en-fr")
    np.testing.assert_allclose(z(v.table, 0), r.pe)
    np.testing.assert_allclose(z(v.table, 1), r.similarity)
    s = r.sentence
    np.testing.assert_allclose(z(v.sentence, 0), s.cos_before)
    np.testing.assert_allclose(z(v.sentence, 1), s.cos_after)
    np.testing.assert_allclose(np.asarray(v.sentence.data[3].y), s.pe_norm)
    assert read_json(v.files)["sentence"]["tokens"] == s.tokens
    assert heatmaps(v_pos.positional_view(8, 16, "").sentence) == []  # no sentence: a placeholder
    with pytest.raises(gr.Error, match="even"):
        TABS["positional"].show(16, 7, "", "transformer-en-fr", "en")


# ----------------------------------------------------------------------------- attention over training


def test_snapshot_view_shows_the_stored_frames_and_entropy():
    names = v_snap.snapshot_models()
    if not names:
        pytest.skip("no snapshots.json under assets/")
    assert "seq2seq-none" not in names  # no attention to show
    for name in names:
        s = snap.load_snapshots(name)
        meta = v_snap.snapshot_meta(name)
        assert meta.n_snapshots == len(s.steps) and [p for p, _ in meta.probes] == [p.source for p in s.probes]
        p = s.probes[-1]
        L = p.frames.shape[1]
        for k in (1, len(s.steps)):
            v = v_snap.snapshot_view(name, len(s.probes) - 1, k, L)
            np.testing.assert_allclose(z(v.heatmap), p.frames[k - 1, L - 1])
            assert v.step == s.steps[k - 1] and v.mean_entropy == pytest.approx(p.entropy[k - 1, L - 1])
            np.testing.assert_allclose(np.asarray(v.entropy.data[0].y), p.entropy[:, L - 1])
            assert f"{v.mean_entropy:.3f}" in v.text
    first, last = (v_snap.snapshot_view(names[0], 0, k) for k in (1, None))
    assert first.mean_entropy > last.mean_entropy  # attention sharpens over training
    with pytest.raises(gr.Error, match="No attention snapshots"):
        TABS["snapshots"].show("../../etc", 0, 1, 1, "en")
    with pytest.raises(gr.Error, match="Snapshot must be from 1"):
        TABS["snapshots"].show(names[0], 0, 10_000, 1, "en")


# ----------------------------------------------------------------------------- live training


def test_live_view_yields_row_stochastic_alignments_and_stops_at_its_cap():
    t0 = time.monotonic()
    views = list(v_live.live_view(3, "additive", live.DEFAULT_PROBE))
    took = time.monotonic() - t0
    assert views[-1].record.done and not any(v.record.done for v in views[:-1])
    assert 3 <= views[-1].record.elapsed and took < 3 + 15  # its own cap, plus building and the last record
    for v in views:
        a = v.record.alignment
        assert a.shape == (len(v.record.target_tokens), len(v.record.source_tokens))
        np.testing.assert_allclose(a.sum(-1), 1.0, atol=1e-5)
        np.testing.assert_array_equal(z(v.alignment), a)
        np.testing.assert_allclose(np.asarray(v.loss.data[0].y, dtype=float), v.record.losses)
    assert views[-1].files and read_json(views[-1].files)["done"] is True
    assert all(not v.files for v in views[:-1])


def test_live_handler_streams_closes_and_reports_bad_input():
    LV = TABS["live"]
    g = LV.train(60, "general", live.DEFAULT_PROBE, "ko")
    t0 = time.monotonic()
    first = next(g)  # at once, before the model is built: a Stop in that window found no output, and
    assert time.monotonic() - t0 < 0.5  # Gradio then marked every output "Error"
    # the status only (the other outputs keep what they show); a new run: no record kept yet, not stopped
    assert first == {LV.status: i18n.t("live.starting", "ko"), LV.last: None, LV.stopped: False}
    out = next(g)
    last = out[LV.last]
    assert last[0].alignment is not None and last[1] == "general" and LV.stopped not in out
    assert "학습 중" in out[LV.status] and heatmaps(out[LV.alignment])
    t0 = time.monotonic()
    g.close()  # what Gradio does on Stop or when the page goes away
    assert time.monotonic() - t0 < 2
    with pytest.raises(StopIteration):
        next(g)
    with pytest.raises(gr.Error, match="between 1 and 120"):
        next(TABS["live"].train(500, "general", live.DEFAULT_PROBE, "en"))
    with pytest.raises(gr.Error, match="unknown: zebra"):
        next(TABS["live"].train(5, "general", "the zebra sees the car", "en"))


def test_the_language_switch_redraws_a_live_run_and_a_run_in_progress_follows_it():
    """A finished (or stopped) run is redrawn from its last record in the new language, the same numbers;
    a run in progress draws its next records in the language its session's switch shows now."""
    from types import SimpleNamespace
    session = SimpleNamespace(session_hash="test-live-switch")
    LV = TABS["live"]
    g = LV.train(60, "additive", live.DEFAULT_PROBE, "en", session)
    next(g)
    en = next(g)
    assert "Training" in en[LV.status]
    relabeled = LV.relabel(en[LV.last], False, "ko", session)  # the switch, mid-run
    ko = v_live.live_redraw(*en[LV.last], "ko", downloads=False)
    assert _words_of(relabeled[LV.loss]) == _words_of(ko.loss) != _words_of(en[LV.loss])
    same = lambda a, b: len(a) == len(b) and all(np.array_equal(x, y) for x, y in zip(a, b))  # noqa: E731
    assert same(_numbers_of(relabeled[LV.alignment]), _numbers_of(en[LV.alignment]))
    assert same(_numbers_of(relabeled[LV.loss]), _numbers_of(en[LV.loss]))
    assert _words_of(relabeled[LV.alignment]) == _words_of(ko.alignment)
    assert "학습 중" in relabeled[LV.status]
    after = next(g)  # the run's next record: in Korean now
    assert "학습 중" in after[LV.status] and _words_of(after[LV.loss]) == _words_of(ko.loss)
    g.close()
    stopped = LV.relabel(after[LV.last], True, "en", session)
    assert stopped[LV.status] == i18n.t("live.stopped", "en")
    assert same(_numbers_of(stopped[LV.alignment]), _numbers_of(after[LV.alignment]))
    assert LV.relabel(None, False, "ko", session) == gr.skip()  # nothing run yet: nothing drawn
    assert LV.relabel(None, False, "en", None) == gr.skip()  # called without a request (Python)
    from dataclasses import replace
    out = LV.stop(after[LV.last], "en")
    assert (out[LV.status], out[LV.stopped]) == (i18n.t("live.stopped", "en"), True)
    (path,) = out[LV.files].write()  # what it learned until Stop, as JSON: the very record on screen
    kept = json.loads(Path(path).read_text(encoding="utf-8"))
    assert kept["step"] == after[LV.last][0].step and kept["losses"] == pytest.approx(after[LV.last][0].losses)
    assert not kept["done"] and Path(path).name == "live-additive.json"
    # before a record: "Stopped." and the flag, the downloads left as they are
    assert LV.stop(None, "en") == {LV.status: i18n.t("live.stopped", "en"), LV.stopped: True}
    assert LV.stop((replace(after[LV.last][0], done=True), "additive"), "en") == gr.skip()  # nothing to stop


def test_session_languages_are_capped_oldest_first(monkeypatch):
    from types import SimpleNamespace
    monkeypatch.setattr(live_tab, "_SESSION_LANG", collections.OrderedDict())
    monkeypatch.setattr(live_tab, "_MAX_SESSIONS", 3)
    for i in range(5):
        live_tab.session_language(SimpleNamespace(session_hash=f"s{i}"), "ko" if i % 2 else "en")
    assert list(live_tab._SESSION_LANG) == ["s2", "s3", "s4"] and live_tab._SESSION_LANG["s3"] == "ko"
    assert live_tab.session_language(SimpleNamespace(session_hash="s0")) is None  # forgotten: the run's own language
    assert live_tab.session_language(None, "ko") is None  # no request (a direct call): nothing kept


def test_live_event_runs_alone_in_its_own_queue_and_stop_cancels_it():
    fns = list(app.demo.fns.values())
    run = next(f for f in fns if handler_name(f.fn) == "live.train")
    assert run.concurrency_limit == 1 and run.concurrency_id == "live-training"
    assert all(f.concurrency_id != "live-training" for f in fns if f is not run)
    assert any(run._id in f.cancels for f in fns)  # the Stop button
    public = {f.api_name for f in fns if f.api_visibility == "public"}
    assert public == {"translate", "translate_target", "fill_mask", "nsp", "generate", "sentiment_analysis", "nli",
                      "pos", "ner", "question_answering"}  # ui/api.py's endpoints; every tab's event is private


def test_friendly_generators_turn_errors_into_messages():
    @uc.friendly
    def gen(fail_with):
        yield 1
        raise fail_with
    g = gen(UserError("<b>bad</b> input"))
    assert next(g) == 1
    with pytest.raises(gr.Error) as e:
        next(g)
    assert e.value.message == "&lt;b&gt;bad&lt;/b&gt; input"
    g = gen(RuntimeError("internal"))
    next(g)
    with pytest.raises(gr.Error) as e:
        next(g)
    assert e.value.message == uc.GENERIC_ERROR


# ----------------------------------------------------------------------------- language switch


def _fields(s):
    return {f for _, f, _, _ in string.Formatter().parse(s) if f}


def test_i18n_has_every_key_in_both_languages_with_the_same_fields():
    assert i18n.missing() == []
    for key, v in i18n.STRINGS.items():
        assert set(v) == set(i18n.LANGS), key
        assert _fields(v["en"]) == _fields(v["ko"]), key
    for view, sets in i18n.EXAMPLES.items():
        assert set(sets) == set(i18n.LANGS) and all(sets[lang] for lang in i18n.LANGS), view
    assert i18n.lang_code("한국어") == "ko" and i18n.lang_code("English") == "en" and i18n.lang_code("??") == "en"


def test_every_keyed_message_supplies_the_fields_of_its_strings():
    """A UserError or Notice raised with an i18n key must pass every {field} its "err."/"note." strings
    use, or the Korean message would fail to format at the moment it is shown. Read from the source,
    so that messages no test triggers are checked too."""
    import ast
    checked = 0
    for path in sorted(Path(app.__file__).parent.glob("explorer/**/*.py")):  # explorer/views/ too
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("UserError", "Notice")
                    and len(node.args) > 1):
                continue
            arg = node.args[1]  # the key: a string, or `"a" if ... else "b"`
            keys = [arg] if isinstance(arg, ast.Constant) else [arg.body, arg.orelse]
            assert all(isinstance(k, ast.Constant) and isinstance(k.value, str) for k in keys), \
                f"{path.name}:{node.lineno}: a key this test cannot read"
            prefix = "err." if node.func.id == "UserError" else "note."
            given = {k.arg for k in node.keywords}
            for k in keys:
                key = prefix + k.value
                assert key in i18n.STRINGS, f"{path.name}:{node.lineno} {key}"
                assert _fields(i18n.STRINGS[key]["en"]) <= given, f"{path.name}:{node.lineno} {key} lacks a field"
                checked += 1
    assert checked >= 40, checked


def _hidden(block):
    p = block.parent
    while p is not None:
        if isinstance(p, gr.Group) and p.visible is False:
            return True
        p = p.parent
    return False


def test_language_switch_redraws_what_was_drawn_before_any_press():
    """The training tab's figures are drawn when the page is built; the switch must redraw them (and the
    seq2seq choices, whose 'none' label is words), or they stay English in the Korean interface."""
    blocks = app.demo.blocks
    switch = next(b for b in blocks.values() if isinstance(b, gr.Radio) and b.label == i18n.SWITCH_LABEL)
    on_switch = [fn for fn in app.demo.fns.values() if (switch._id, "change") in fn.targets
                 and getattr(fn.fn, "func", None) is not uc.language_updates]  # not the labels-only update
    redrawn = {b.label for fn in on_switch for b in fn.outputs if hasattr(b, "label")}
    for key in ("snap.heatmap", "snap.entropy", "len.figure", "len.table", "s2s.score"):
        assert i18n.t(key, "en") in redrawn, key
    choices = s2s_views.seq2seq_choices(inf.registry(), "ko")
    assert dict((v, k) for k, v in choices)["seq2seq-none"] == i18n.t("s2s.none_choice", "ko")


@pytest.mark.parametrize("query, want", [({"lang": "ko"}, "ko"), ({"lang": " KO "}, "ko"), ({"lang": "ko-KR"}, "ko"),
                                         ({"lang": "en"}, None),
                                         ({"lang": "fr"}, None), ({}, None)])
def test_a_links_lang_sets_the_switch_when_the_page_loads(query, want):
    """?lang=ko sets the switch (its change events relabel the page); anything else leaves the English page as is."""
    from types import SimpleNamespace
    got = uc.language_from_url(SimpleNamespace(query_params=query))
    assert got == (want if want else gr.skip())
    load = [fn for fn in app.demo.fns.values() if fn.fn is uc.language_from_url]
    switch = next(b for b in app.demo.blocks.values() if isinstance(b, gr.Radio) and b.label == i18n.SWITCH_LABEL)
    assert len(load) == 1 and load[0].outputs == [switch] and (app.demo._id, "load") in load[0].targets


def test_sliders_start_at_the_shipped_models_depth():
    """Before any run, the rollout's layer slider covers every BERT layer (it read 8 of 12) and is set to the last."""
    c = inf.registry().get("bert", "bert").config
    layer = i18n.t("common.layer", "en")
    sliders = [b for b in app.demo.blocks.values() if isinstance(b, gr.Slider) and b.label == layer]
    assert any(s.maximum == s.value == c.n_layers for s in sliders)  # rollout: through all layers
    assert sum(s.maximum == c.n_layers for s in sliders) >= 3  # BERT tab, rollout, query-key
    assert not any(s.maximum == 8 for s in sliders)  # the old placeholder depth


def test_language_switch_reaches_every_registered_component_in_korean():
    L = app.demo.localized
    ups = uc.language_updates(L, "ko")
    assert len(ups) == len(L.outputs)
    hangul = lambda s: any("\uac00" <= ch <= "\ud7a3" for ch in s)  # noqa: E731
    for (component, key, prop, fields), up in zip(L.items, ups):
        assert up[prop] == i18n.t(key, "ko", **fields), key
        if key not in ("tab.bert",):  # "BERT" is BERT in Korean too
            assert hangul(up[prop]), key
    back = uc.language_updates(L, "en")
    for (component, key, prop, fields), up in zip(L.items, back):
        assert up[prop] == getattr(component, prop) == i18n.t(key, "en", **fields), key  # the built English
    # every label, tab and button on the page is registered (the API's hidden group aside)
    registered = {id(c) for c in L.outputs}
    for block in app.demo.blocks.values():
        labelled = isinstance(block, (gr.Tab, gr.Button)) or (
            isinstance(block, gr.components.Component) and getattr(block, "label", None))
        if labelled and not _hidden(block) and getattr(block, "label", None) != i18n.SWITCH_LABEL:
            assert id(block) in registered, (type(block).__name__, getattr(block, "label", None))
    tab_labels = [up["label"] for (c, *_), up in zip(L.items, ups) if isinstance(c, gr.Tab)]
    assert {"트랜스포머", "빔 서치", "직접 학습시키기 (실시간)"} <= set(tab_labels)


@needs
def test_korean_examples_show_in_korean_mode():
    L = app.demo.localized
    ups = uc.language_updates(L, "ko")[len(L.items):]
    samples = {view: up["samples"] for (_, view, *_), up in zip(L.example_sets, ups)}
    assert all(up["label"] == "예시" for up in ups)
    headers = {view: up["headers"] for (_, view, *_), up in zip(L.example_sets, ups)}
    assert headers["transformer"] == ["문장", "모델"] and headers["contextual"][0] == "단어"
    assert samples["transformer"][0] == ["나는 학생 입니다", "transformer-ko-en"]
    assert samples["contextual"][0][0] == "배" and "배가 아파서 병원에 갔어요." in samples["contextual"][0][1]
    en = uc.language_updates(L, "en")[len(L.items):]
    english = {view: up["samples"] for (_, view, *_), up in zip(L.example_sets, en)}
    assert english["transformer"][0] == ["I am a student.", "transformer-en-fr"]


# ----------------------------------------------------------------------------- bring your own BERT


@pytest.fixture(scope="module")
def hf_bert_folder(tmp_path_factory):
    transformers = pytest.importorskip("transformers")
    import torch
    words = "the cat sat on mat dog ran in park a big red house is was and it he she".split()
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"] + words + [".", ","]
    torch.manual_seed(0)
    cfg = transformers.BertConfig(vocab_size=len(vocab), hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
                                  intermediate_size=37, max_position_embeddings=64, type_vocab_size=2)
    folder = tmp_path_factory.mktemp("hf-bert")
    transformers.BertForPreTraining(cfg).eval().save_pretrained(folder, safe_serialization=True)
    (folder / "vocab.txt").write_text("\n".join(vocab) + "\n", encoding="utf-8")
    return folder


def _registered(demo, key):
    return [c for c, k, *_ in demo.localized.items if k == key]


@pytest.mark.skipif(not (inf.ASSETS / "bert").is_dir(), reason="no shipped BERT checkpoint")
def test_custom_bert_from_the_environment_joins_the_bert_views(hf_bert_folder, monkeypatch):
    monkeypatch.setenv("ATTN_EXPLORER_BERT_DIR", str(hf_bert_folder))
    monkeypatch.delenv("ATTN_EXPLORER_ALLOW_HUB", raising=False)
    monkeypatch.setattr(inf, "_REGISTRY", inf.load_registry(names={"bert"}))
    demo = app.build_demo()
    dropdown = _registered(demo, "bert.model")[0]
    assert [v for _, v in dropdown.choices] == ["bert", "bert-custom"] and dropdown.visible
    text = "the cat sat on the [MASK] ."
    v = bert_views.bert_model_view("fill", "bert-custom", text, "", 3, 2, 4)
    r = inf.fill_mask(text, 3, name="bert-custom")
    assert list(v.masks["token"]) == [p.token for m in r.masks for p in m.predictions]
    np.testing.assert_array_equal(z(v.head), r.trace.enc_self[1, 3])
    assert bert_views.bert_model_view("fill", "bert", text).record.to_json() == inf.fill_mask(text, 5).to_json()
    rollout = v_rollout.rollout_view(text, "bert-custom")
    np.testing.assert_allclose(rollout.record.rollout[-1], lab.rollout(r.trace.enc_self))
    # no Hub box unless the operator allows it, and never a box for a local path
    assert _registered(demo, "bert.hub_repo") == []
    for block in demo.blocks.values():
        if isinstance(block, gr.Textbox):
            assert not any(w in str(block.label).lower() for w in ("path", "folder", "directory"))
    with pytest.raises(UserError, match="turned off"):
        bert_views.load_hub_bert("someone/tiny-bert")


@pytest.mark.skipif(not (inf.ASSETS / "bert").is_dir(), reason="no shipped BERT checkpoint")
def test_hub_box_only_with_the_switch_and_loads_into_a_fresh_registry_dict(hf_bert_folder, monkeypatch):
    from explorer.compute import byo_bert
    monkeypatch.delenv("ATTN_EXPLORER_BERT_DIR", raising=False)
    monkeypatch.setenv("ATTN_EXPLORER_ALLOW_HUB", "1")
    monkeypatch.setenv("ATTN_EXPLORER_HUB_MAX_MB", "5")
    monkeypatch.setattr(inf, "_REGISTRY", inf.load_registry(names={"bert"}))
    asked = []
    monkeypatch.setattr(byo_bert, "load_hub", lambda repo, max_bytes: asked.append((repo, max_bytes))
                        or byo_bert.load_local(hf_bert_folder))
    demo = app.build_demo()
    assert len(_registered(demo, "bert.hub_repo")) == 1 and len(_registered(demo, "bert.hub_load")) == 1
    intro = next(c for c, k, *_ in demo.localized.items if k == "bert.hub_intro")
    assert "5 MB" in intro.value
    before = inf.registry().models
    text, name = bert_views.hub_bert_load("someone/tiny-bert", "en")
    assert name == "hub:someone/tiny-bert" and asked == [("someone/tiny-bert", 5_000_000)]
    assert inf.registry().models is not before and "hub:someone/tiny-bert" not in before  # replaced, not mutated
    assert bert_views.hub_bert_load("someone/tiny-bert")[1] == name and len(asked) == 1  # loaded once
    assert vw.md(name) in text
    r = bert_views.bert_model_view("encode", name, "the cat sat .")
    assert r.record.tokens[0] == "[CLS]" and r.n_layers == 2 and r.n_heads == 4
    with pytest.raises(gr.Error, match="model id"):  # as the Hub box's handler shows it
        uc.friendly(bert_views.hub_bert_load)("../../etc/passwd")


@pytest.mark.parametrize("files, repo, key", [
    ({"config.json": 600, "vocab.txt": 200_000, "model.safetensors": 440_000_000}, "someone/big-bert", "hub_too_big"),
    ({"config.json": 600, "vocab.txt": 200_000, "pytorch_model.bin": 1000}, "someone/old-bert", "hub_pickles_only"),
    ({"vocab.txt": 200_000, "model.safetensors": 1000}, "someone/half-bert", "hub_no_config"),
    ({}, "../../etc/passwd", "hub_bad_id"),
])
def test_hub_errors_follow_the_language_switch(monkeypatch, files, repo, key):
    """What a visitor can cause in the Hub box reaches the screen in the switch's language."""
    import types

    import huggingface_hub
    siblings = [types.SimpleNamespace(rfilename=n, size=s) for n, s in files.items()]
    monkeypatch.setenv("ATTN_EXPLORER_ALLOW_HUB", "1")
    monkeypatch.setenv("ATTN_EXPLORER_HUB_MAX_MB", "5")
    monkeypatch.setattr(huggingface_hub, "HfApi", lambda: types.SimpleNamespace(
        model_info=lambda repo_id, revision=None, files_metadata=False: types.SimpleNamespace(siblings=siblings,
                                                                                               sha="0" * 40)))
    monkeypatch.setattr(huggingface_hub, "hf_hub_download", lambda *a, **k: pytest.fail("nothing may be fetched"))
    monkeypatch.setattr(inf, "_REGISTRY", inf.Registry())
    _shown_in_both_languages(lambda lang: uc.friendly(bert_views.hub_bert_load)(repo, lang), key)


# ----------------------------------------------------------------------------- the first three tabs in Korean


def _hangul(s) -> bool:
    return any("\uac00" <= ch <= "\ud7a3" for ch in str(s))


def test_figure_words_have_a_korean_copy_of_every_label():
    from explorer import figures as fg
    assert set(i18n.figure_labels("ko")) == set(fg.LABELS)
    assert i18n.figure_labels("en") == fg.LABELS  # the English copy is the figures' own default
    assert all(_hangul(v) or v == "[MASK]" for v in i18n.figure_labels("ko").values())


@needs
def test_first_three_tabs_speak_korean_with_the_same_numbers():
    """Korean mode changes the words (titles, axis labels, the step and NSP sentences), never a
    number: every heatmap and bar equals the English run's, and each Korean title holds Hangul."""
    en, ko = (s2s_views.seq2seq_view(EN, "seq2seq-dot", 2, lang) for lang in ("en", "ko"))
    assert _hangul(ko.step_text) and not _hangul(en.step_text) and "Step 2/" in en.step_text
    for f_en, f_ko in ((en.alignment, ko.alignment), (en.step_bars, ko.step_bars)):
        assert _hangul(f_ko.layout.title.text) and not _hangul(f_en.layout.title.text)
        value = lambda f: f.data[0].z if f.data[0].type == "heatmap" else f.data[0].y  # noqa: E731
        np.testing.assert_array_equal(np.asarray(value(f_en), dtype=float), np.asarray(value(f_ko), dtype=float))
    assert ko.step_bars.layout.yaxis.title.text == "어텐션 가중치"
    none = s2s_views.seq2seq_view(EN, "seq2seq-none", 1, "ko")
    assert none.notice.startswith("**이 모델에는 어텐션이 없습니다.**") and _hangul(none.step_text)

    v_en, v_ko = (tr_views.transformer_view(EN, "transformer-en-fr", 1, 2, 3, lang) for lang in ("en", "ko"))
    assert list(v_ko.hypotheses.columns) == ["#", "번역", "로그 확률", "점수", "어텐션 표시"]
    np.testing.assert_array_equal(v_en.hypotheses.iloc[:, 2].to_numpy(), v_ko.hypotheses.iloc[:, 2].to_numpy())
    t_en, t_ko = v_en.heads, v_ko.heads
    for name in ("enc_grid", "enc_head", "dec_grid", "dec_head", "dec_scores", "cross_grid", "cross_head"):
        a, b = getattr(t_en, name), getattr(t_ko, name)
        assert _hangul(b.layout.title.text) and not _hangul(a.layout.title.text), name
        assert heatmaps(a), name
        for ta, tb in zip(heatmaps(a), heatmaps(b), strict=True):
            np.testing.assert_array_equal(np.asarray(ta.z, dtype=float), np.asarray(tb.z, dtype=float))
    assert [x.text for x in t_ko.dec_scores.layout.annotations] == ["점수(유사도) QKᵀ/√d_k (소프트맥스 전)", "소프트맥스 (어텐션 가중치)"]
    assert t_ko.enc_head.layout.xaxis.title.text == "키" and t_ko.enc_head.layout.yaxis.title.text == "쿼리"

    b_en, b_ko = (bert_views.bert_fill_view("the man went to the [MASK] .", "he bought a gallon of milk .", 5, 1, 1, lang)
                  for lang in ("en", "ko"))
    assert "BERT thinks sentence B" in b_en.nsp_text and "BERT는 문장 B가" in b_ko.nsp_text
    assert f"{b_en.record.is_next:.4f}" in b_ko.nsp_text
    for name in ("topk", "nsp", "grid", "head"):
        assert _hangul(getattr(b_ko, name).layout.title.text), name
    np.testing.assert_array_equal(np.asarray(b_en.topk.data[0].x), np.asarray(b_ko.topk.data[0].x))
    assert list(b_ko.masks.columns) == ["마스크", "위치", "순위", "토큰", "확률"]
    assert list(b_ko.tokens.columns) == ["위치", "토큰", "세그먼트"]
    np.testing.assert_array_equal(b_en.masks.to_numpy(), b_ko.masks.to_numpy())
    # the API keeps English
    assert api_views.bert_overview(b_ko.record).layout.title.text.startswith("BERT: self-attention, layer ")


@needs
@pytest.mark.parametrize("call, key", [
    (lambda lang: TABS["seq2seq"].run("", "seq2seq-dot", lang), "empty"),
    (lambda lang: TABS["seq2seq"].run(7, "seq2seq-dot", lang), "not_text"),
    (lambda lang: TABS["transformer"].run(EN, "nope", 1, 1, 1, lang), "unknown_model"),
    (lambda lang: TABS["transformer"].run(EN, "transformer-en-fr", 99, 1, 1, lang), "range"),
    (lambda lang: TABS["transformer"].run(EN, "transformer-en-fr", "two", 1, 1, lang), "whole"),
    (lambda lang: TABS["bert"].fill("bert", "no mask here", "", 5, 1, 1, lang), "no_mask"),
    (lambda lang: TABS["query_key"].show(LONG, "bert", 99, 1, 0, "kind", lang), "range"),  # explorer/views.py
    (lambda lang: TABS["positional"].show("many", 64, "", "transformer-en-fr", lang), "whole"),  # explorer/compute/lab.py
    (lambda lang: TABS["positional"].show(16, 63, "", "transformer-en-fr", lang), "odd_d_model"),
    (lambda lang: TABS["contextual"].show("bank", "I sat by the river.", "bert", lang), "word_not_found"),
    (lambda lang: TABS["contextual"].show("zebra", "", "bert", lang), "need_sentences"),
    (lambda lang: TABS["contextual"].show("bank", "a " * 600 + "bank", "bert", lang), "word_too_late"),
    (lambda lang: TABS["contextual"].show("😀", "I like 😀 a lot.\nThe 😀 is here.", "bert", lang), "word_unknown"),
    (lambda lang: TABS["contextual"].show("😀", "I like 😀 a lot.\nThe 😀 is here.", "transformer-ko-en", lang),
     "word_no_token"),
    (lambda lang: TABS["bert"].fill("bert", "a" * 2001 + " [MASK]", "", 5, 1, 1, lang), "mask_cut_off"),
    (lambda lang: next(TABS["live"].train(5, "general", "zebra", lang)), "probe_unknown_words"),  # explorer/compute/live.py
    (lambda lang: next(TABS["live"].train(5, "general", "!!!", lang)), "probe_no_words"),
    (lambda lang: next(TABS["live"].train(5, "general", "the " * 25, lang)), "probe_too_long"),
    (lambda lang: next(TABS["live"].train(99999, "general", "the cat", lang)), "seconds_range"),
    (lambda lang: next(TABS["live"].train("soon", "general", "the cat", lang)), "seconds_not_number"),
    (lambda lang: next(TABS["live"].train(5, "cosine", "the cat", lang)), "unknown_score"),
])
def test_errors_follow_the_language_switch(call, key):
    """Each keyed UserError reaches the screen in the switch's language; English is the message itself."""
    _shown_in_both_languages(call, key)


def _shown_in_both_languages(call, key: str):
    """call(lang) raises the error "err.<key>": English words in English, that key's Korean words in Korean."""
    with pytest.raises(gr.Error) as en:
        call("en")
    with pytest.raises(gr.Error) as ko:
        call("ko")
    assert not _hangul(en.value.message) and _hangul(ko.value.message), (en.value.message, ko.value.message)
    longest = max(re.split(r"\{[^}]*\}", i18n.STRINGS[f"err.{key}"]["ko"]), key=len)  # the key's words, fields aside
    assert longest in ko.value.message, (longest, ko.value.message)


@needs
@pytest.mark.parametrize("call, keys", [
    (lambda lang: tr_views.transformer_view("word " * 500, "transformer-en-fr", 1, 1, 1, lang).notice,
     ["text_cut", "source_cut"]),
    (lambda lang: s2s_views.seq2seq_view("the cat " * 80, "seq2seq-dot", 1, lang).notice, ["source_cut"]),
    (lambda lang: bert_views.bert_fill_view("I am a [MASK]. " + "so " * 600, "", 5, 1, 1, lang).notice, ["bert_cut"]),
    (lambda lang: v_ctx.contextual_view("bank", "The bank by the bank.\nA bank.", "bert", lang).text, ["first_of"]),
    (lambda lang: v_scores.score_functions_view("the cat " * 80, lang).notice, ["source_cut"]),
])
def test_notices_follow_the_language_switch(call, keys):
    """Notices beside a result: the English run shows the English text as it always was, the Korean
    run each notice's Korean string, with the same numbers."""
    en, ko = (call(lang).replace("\\", "") for lang in ("en", "ko"))  # markdown escapes off
    assert "⚠️" in en and not _hangul(en.split("⚠️", 1)[1]), en
    for key in keys:
        words = [w for w in re.split(r"\{[^}]*\}", i18n.STRINGS[f"note.{key}"]["ko"]) if w.strip(" :.()")]
        assert words and all(w in ko for w in words), (key, words, ko)
    assert re.findall(r"\d+", en.split("⚠️", 1)[1]) == re.findall(r"\d+", ko.split("⚠️", 1)[1]), (en, ko)


def test_clicking_an_example_keeps_the_label_of_the_current_language():
    """gr.Examples sends its inputs their build-time props with each click; the label must not be
    among them, or a click in Korean mode would put the English label back (the browser test
    clicks one)."""
    with gr.Blocks():
        L = uc.Localized()
        box = L(gr.Textbox, "common.sentence")
        ex = L.examples("transformer", [box], lambda r: r[:1])
    assert ex.input_component_props and all("label" not in p for p in ex.input_component_props)
    assert box.label == "Sentence"  # the component itself keeps its label


def _words_of(fig) -> list[str]:
    """Every word a figure draws besides its tick labels: title, panel titles and notes, axis and
    colour-bar titles, trace names."""
    lay = fig.layout
    out = [lay.title.text or ""] + [a.text or "" for a in lay.annotations]
    out += [getattr(lay[k].title, "text", None) or "" for k in lay if k.startswith(("xaxis", "yaxis"))]
    for tr in fig.data:
        out.append(tr.name or "")
        cb = getattr(tr, "colorbar", None)
        if cb is not None and cb.title is not None:
            out.append(cb.title.text or "")
    return [w for w in out if w]


def _numbers_of(fig) -> list:
    out = []
    for tr in fig.data:
        for attr in ("z", "x", "y"):
            v = getattr(tr, attr, None)
            if v is not None:
                try:
                    out.append(np.asarray(v, dtype=float))
                except (TypeError, ValueError):  # categorical axes (bucket names) are not numbers
                    pass
    return out


LAB_VIEWS = {  # view -> (call in a language, its figures)
    "score functions": (lambda lang: v_scores.score_functions_view(EN, lang), lambda v: [v.figure]),
    "beam": (lambda lang: v_beam.beam_view(LONG, "transformer-en-fr", 3, lang), lambda v: [v.figure, v.chosen.grid,
                                                                                       v.chosen.mean]),
    "rollout": (lambda lang: v_rollout.rollout_view(LONG, "bert", None, lang),
                lambda v: [v.grid, v.entropy, v.layer.rollout, v.layer.row_entropy]),
    "query key": (lambda lang: v_qk.query_key_view(LONG, 2, 3, 4, "bert", lang), lambda v: [v.figure]),
    "contextual": (lambda lang: v_ctx.contextual_view("bank", "", None, lang), lambda v: [v.figure]),
    "positional": (lambda lang: v_pos.positional_view(40, 64, EN, "transformer-en-fr", lang),
                   lambda v: [v.table, v.sentence]),
    "length": (lambda lang: v_length.length_view(lang), lambda v: [v.figure]),
    "snapshots": (lambda lang: v_snap.snapshot_view("transformer-en-fr", 0, None, None, lang),
                  lambda v: [v.heatmap, v.entropy]),
}


@needs
@pytest.mark.parametrize("view", list(LAB_VIEWS))
def test_lab_figures_speak_korean_with_the_same_numbers(view):
    """In Korean every lab figure draws Korean words (titles, panel and axis titles) and the very
    numbers of the English run."""
    call, figures = LAB_VIEWS[view]
    v_en, v_ko = call("en"), call("ko")
    table_en, table_ko = getattr(v_en, "table", None), getattr(v_ko, "table", None)
    if isinstance(table_en, pd.DataFrame):  # its headers are Korean too, its cells the same
        assert list(table_ko.columns) == list(i18n.localized(table_en, "ko").columns)
        assert any(_hangul(c) for c in table_ko.columns), list(table_ko.columns)
        words = {"계열": {en: i18n.t(f"len.family_{i}", "ko") for i, en in enumerate(lab.FAMILIES)}}  # cells in words
        pd.testing.assert_frame_equal(table_en.set_axis(table_ko.columns, axis=1).replace(words), table_ko)
    for f_en, f_ko in zip(figures(v_en), figures(v_ko), strict=True):
        words_en, words_ko = _words_of(f_en), _words_of(f_ko)
        assert any(_hangul(w) for w in words_ko) and not any(_hangul(w) for w in words_en), (words_en, words_ko)
        for a, b in zip(_numbers_of(f_en), _numbers_of(f_ko), strict=True):
            np.testing.assert_array_equal(a, b)


@needs
def test_rollout_mean_entropy_csv_follows_the_language_with_the_same_numbers():
    """The rollout's mean-entropy download names its layer index and head columns in the UI's language,
    like the other tables; the numbers are those of the English file."""
    def table(lang):
        v = v_rollout.rollout_view(LONG, "bert", None, lang)
        (path,) = [p for p in v.files.write() if p.endswith("-mean-entropy.csv")]
        return pd.read_csv(path, index_col=0)
    en, ko = table("en"), table("ko")
    assert en.index.name == "layer" and list(en.columns)[:2] == ["head 1", "head 2"]
    assert ko.index.name == "레이어" and list(ko.columns)[:2] == ["헤드 1", "헤드 2"]
    np.testing.assert_array_equal(en.to_numpy(), ko.to_numpy())


def test_lab_and_live_figure_words_have_a_korean_copy_of_every_label():
    from explorer.figures import lab as lf
    from explorer.figures import live as lvf
    assert i18n.lab_labels("en") == lf.LABELS and set(i18n.lab_labels("ko")) == set(lf.LABELS)
    assert i18n.live_labels("en") == lvf.LABELS and set(i18n.live_labels("ko")) == set(lvf.LABELS)


@needs
def test_attention_over_training_hides_the_layer_slider_of_a_one_layer_model():
    """A one-layer seq2seq has no layer to choose: its slider is hidden (it read 1–2, greyed out)."""
    SN = TABS["snapshots"]
    one, deep = SN.pick_model("seq2seq-dot", "en")[SN.layer], SN.pick_model("transformer-en-fr", "en")[SN.layer]
    assert one.visible is False and deep.visible is True and deep.maximum == deep.value == 3


@needs
def test_score_functions_say_a_shared_notice_once():
    """A notice that every model gives (the source cut to 64 tokens) is one line naming the models,
    not five copies of the same warning."""
    c = lab.compare_score_functions("the cat " * 60)
    cut = [n for n in c.notices if "Source cut" in n]
    assert len(cut) == 1 and all(r.name in cut[0] for r in c.results), c.notices
    ko = v_scores.score_functions_view("the cat " * 60, "ko").notice
    assert ko.count("64개로 잘랐습니다") == 1  # the Korean text of the same notice, once


# ----------------------------------------------------------------------------- Korean text and figure words


def _filled(template: str) -> str:
    """A string with every field filled as a view fills it: a number where it has a format spec, else a
    token escaped by views.md that starts and ends with punctuation ("[CLS]", "ant.", "</s>")."""
    fields = {f: 0.5 if spec else vw.md("[x.]") for _, f, spec, _ in string.Formatter().parse(template) if f}
    return template.format(**fields)


def test_korean_bold_closes_before_hangul():
    """CommonMark (and Gradio's marked) does not close `**` that follows punctuation and precedes a letter:
    "쿼리 **[CLS]**의" and "출력은 **ant.**입니다" showed their asterisks. No Korean template puts a Hangul
    syllable right after a closing `**` (or right before an opening one), and every string that uses
    emphasis renders with no asterisk left over, whatever token its fields hold."""
    from markdown_it import MarkdownIt
    render = MarkdownIt("commonmark").render
    checked = 0
    for key, v in i18n.STRINGS.items():
        for lang in i18n.LANGS:
            s = v[lang]
            if lang == "ko":  # the raw template: each **…** pair, left to right, has no Hangul syllable beside it
                for m in re.finditer(r"\*\*[^*]+\*\*", s):
                    assert not re.match(r"[가-힣]", s[m.end():m.end() + 1]), (key, m.group())
                    assert not re.match(r"[가-힣]", s[max(m.start() - 1, 0):m.start()]), (key, m.group())
            if "*" in s:
                shown = re.sub(r"<code>.*?</code>", "", render(_filled(s)))
                assert "*" not in shown, (key, lang, shown)
                checked += 1
    assert checked >= 10, checked


def test_korean_uses_one_word_for_each_thing():
    """The probe sentence was "탐침 문장" in some labels and "관찰 문장" in the warnings; the beam tab's table said
    "번역 후보" and its figures "가설". One word each, everywhere: 가설 is the NLI hypothesis alone, as the BERT deck has it."""
    ko = {k: v["ko"] for k, v in i18n.STRINGS.items()}
    nli = {"ft.text_b", "ft.explain_nli", "what.hypothesis", "err.no_hypothesis", "err.nli_line"}  # the BERT deck's 가설
    assert not [k for k, s in ko.items() if "탐침" in s or ("가설" in s and k not in nli)]
    for k in ("snap.probe", "live.probe", "live.align", "live.translation", "what.probe sentence", "what.Probe",
              "err.probe_no_words"):
        assert "관찰 문장" in ko[k], k
    for k in ("tr.hyps", "beam.table", "beam.choose", "view.hyp_grid", "view.hyp_mean", "lab.no_hyps"):
        assert "번역 후보" in ko[k], k


def _hovers(fig) -> list[str]:
    out = []
    for tr in fig.data:
        out.append(getattr(tr, "hovertemplate", None) or "")
        out += [str(h) for h in np.ravel(np.asarray(getattr(tr, "hovertext", None) or [], dtype=object))]
    return [h for h in out if h]


@needs
def test_hover_words_follow_the_language_in_the_views():
    """Korean figures' hovers said "layer 1 · head 1 / query … / key … / value:" and "score …, log-prob …,
    log p(token) …, cumulative …": in Korean no hover holds those words, in English they are there."""
    english = re.compile(r"\b(layer|head|query|key|value|score|log-prob|log p\(token\)|cumulative|pos|dim)\b")
    views = {lang: (v_beam.beam_view(LONG, "transformer-en-fr", 3, lang), v_rollout.rollout_view(LONG, "bert", None, lang),
                    v_pos.positional_view(16, 32, EN, "transformer-en-fr", lang),
                    v_qk.query_key_view(EN, 1, 1, 0, "bert", lang))
             for lang in ("en", "ko")}
    for lang, (beam, ro, pos, qk) in views.items():
        figs = [beam.figure, beam.chosen.grid, beam.chosen.mean, ro.grid, ro.layer.rollout, pos.table, qk.figure]
        hovers = [h for f in figs for h in _hovers(f)]
        found = sorted({m.group() for h in hovers for m in english.finditer(h)})
        if lang == "ko":
            assert not found, found
        else:
            assert {"layer", "head", "value", "score", "cumulative"} <= set(found), found


def test_length_colours_are_the_same_in_both_languages():
    """Korean family names missed the figure's colour table: three models fell back to plotly's palette and
    two shared a colour. Both languages now draw each model in the same colour, one colour per model."""
    def colours(lang):
        return {t.legendgroup: t.marker.color for t in v_length.length_view(lang).figure.data if t.type == "bar"}
    en, ko = colours("en"), colours("ko")
    if not en:
        pytest.skip("no model has test.bleu_by_length in its metrics.json")
    assert en == ko and len(set(en.values())) == len(en)
