"""app.py's handlers called directly on the shipped checkpoints: the figures, tables, downloads
and API JSON carry exactly the inference records' numbers; user errors become a gr.Error with
the message (never a traceback); a broken checkpoint still lets the app build and names the file."""
import csv
import html
import json
import re
import logging
import shutil
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import pytest

gr = pytest.importorskip("gradio")

import app  # noqa: E402  (builds the demo, loading the registry once)
from explorer.compute import inference as inf  # noqa: E402
from explorer import figures as fg, i18n  # noqa: E402
from explorer.serve import downloads as dl
from explorer import views as vw  # noqa: E402
from explorer.views import api as api_views, bert as bert_views, models as models_views  # noqa: E402
from explorer.views import seq2seq as s2s_views, transformer as tr_views  # noqa: E402
from ui import api, theme  # noqa: E402
from ui import components as uc  # noqa: E402

TABS = app.demo.tabs  # module name -> its Tab: the handlers, and the components they return values for


def handler_name(fn) -> str:
    """An event handler as '<tab module>.<name>' ('beam.run'), by which the tests below find its events."""
    return f"{getattr(fn, '__module__', '').rsplit('.', 1)[-1]}.{getattr(fn, '__name__', '')}"

EN = "I am a student."
FT_TASKS = ("sentiment", "nli", "pos", "ner", "qa") + (  # the Korean task where it is shipped
    ("sentiment-ko",) if (Path(__file__).resolve().parents[2] / "assets" / "finetune" / "sentiment-ko").is_dir() else ())
REPO_ASSETS = Path(__file__).resolve().parents[2] / "assets"
needs = pytest.mark.skipif(
    not {"transformer-en-fr", "seq2seq-dot", "seq2seq-none", "bert"} <= set(inf.registry().names()),
    reason="the shipped checkpoints under assets/ did not load")


def z(fig, i=0):
    return np.asarray(fig.data[i].z, dtype=np.float32)


def heatmaps(fig):
    return [t for t in fig.data if t.type == "heatmap"]


def test_space_front_matter_matches_what_the_tests_run():
    """Hugging Face Spaces reads README.md's front matter: the Gradio it installs must be the one
    requirements.txt pins (and these tests import), the Python the one the README asks for (Spaces
    would otherwise pick its own default), the app file this one."""
    root = Path(__file__).resolve().parents[2]
    readme = (root / "README.md").read_text(encoding="utf-8")
    assert readme.startswith("---\n")
    meta = dict(line.split(": ", 1) for line in readme.split("\n---\n", 1)[0].splitlines()[1:])
    pins = dict(line.split("#")[0].strip().split("==") for line in (root / "requirements.txt").read_text().splitlines()
                if "==" in line)
    assert meta["sdk"] == "gradio" and meta["sdk_version"] == pins["gradio"] == gr.__version__
    assert (root / meta["app_file"]).resolve() == Path(app.__file__).resolve()
    python = meta["python_version"].strip('"')
    assert f"needs Python {python}+" in readme
    assert tuple(map(int, python.split("."))) <= sys.version_info[:2]


def test_theme_text_reads_at_wcag_aa_contrast():
    """White on the run buttons was 3.6:1 (orange 500) and the selected tab's orange text 2.8:1 on white; in dark
    mode (Gradio follows the system's) the same pairs, against the dark page."""
    t = theme.THEME

    def colour(v: str, dark: bool) -> str:
        while v.startswith("*"):  # a theme reference: in dark mode the referenced variable's dark value
            v = getattr(t, v[1:] + ("_dark" if dark and hasattr(t, v[1:] + "_dark") else ""))
        return {"white": "#ffffff"}.get(v, v)

    def luminance(hex_: str) -> float:
        c = np.array([int(hex_[i:i + 2], 16) for i in (1, 3, 5)]) / 255
        c = np.where(c <= 0.03928, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
        return float(c @ [0.2126, 0.7152, 0.0722])

    def contrast(a: str, b: str, dark: bool) -> float:
        la, lb = sorted((luminance(colour(a, dark)), luminance(colour(b, dark))))
        return (lb + 0.05) / (la + 0.05)

    for dark, d in ((False, ""), (True, "_dark")):
        v = {k: getattr(t, k + d) for k in ("button_primary_text_color", "button_primary_background_fill",
                                            "button_primary_background_fill_hover", "button_cancel_text_color",
                                            "button_cancel_background_fill", "background_fill_primary",
                                            "body_text_color_subdued")}
        pairs = [(v["button_primary_text_color"], v["button_primary_background_fill"]),
                 (v["button_primary_text_color"], v["button_primary_background_fill_hover"]),
                 (v["button_cancel_text_color"], v["button_cancel_background_fill"]),
                 (theme.SELECTED_TAB[dark], v["background_fill_primary"]),
                 (v["body_text_color_subdued"], v["background_fill_primary"])]
        low = [(a, b, round(contrast(a, b, dark), 2)) for a, b in pairs if contrast(a, b, dark) < 4.5]
        assert not low, (d, low)
    assert all(c in theme.CSS for c in theme.SELECTED_TAB)


def test_demo_builds_with_named_endpoints():
    assert isinstance(app.demo, gr.Blocks)
    public = {fn.api_name for fn in app.demo.fns.values() if fn.api_visibility == "public"}
    assert public == {"translate", "translate_target", "fill_mask", "nsp", "generate", "sentiment_analysis", "nli",
                      "pos", "ner", "question_answering"}


@needs
def test_seq2seq_view_shows_the_records_alignment():
    v = s2s_views.seq2seq_view(EN, "seq2seq-dot", 2)
    r = inf.translate("seq2seq-dot", EN, 1)
    assert v.translation == r.translation and v.steps == len(r.target_tokens)
    np.testing.assert_array_equal(z(v.alignment), r.trace.cross[0, 0])
    assert [html.unescape(t) for t in v.alignment.layout.yaxis.ticktext] == r.target_tokens
    assert [html.unescape(t) for t in v.alignment.layout.xaxis.ticktext] == r.source_tokens
    np.testing.assert_array_equal(np.asarray(v.step_bars.data[0].y), r.trace.cross[0, 0, 1])  # step 2 = row 1
    best = r.source_tokens[int(np.argmax(r.trace.cross[0, 0, 1]))]
    assert vw.md(best) in v.step_text
    # the step slider redraws from the stored record without a model call
    align, bars, text = s2s_views.seq2seq_step(v.record, 99)  # clamped to the last step
    np.testing.assert_array_equal(np.asarray(bars.data[0].y), r.trace.cross[0, 0, -1])
    assert f"Step {v.steps}/{v.steps}" in text
    # the downloads hold every step, none marked, so the slider cannot leave them behind
    page = next(Path(f) for f in v.files.write() if f.endswith("-figures.html")).read_text(encoding="utf-8")
    assert page.count('class="plotly-graph-div"') == 1 and '"type":"rect"' not in page.replace(" ", "")
    assert {s.name for s in v.alignment.layout.shapes} == {fg.ROW_OUTLINE}  # on screen, step 2 is outlined


@needs
def test_seq2seq_none_says_there_is_no_attention():
    v = s2s_views.seq2seq_view(EN, "seq2seq-none")
    assert "No attention" in v.notice and "fixed-size vector" in v.notice
    assert heatmaps(v.alignment) == [] and "never looks back" in v.alignment.layout.annotations[0].text
    assert "no attention" in v.step_text.lower()


@needs
def test_transformer_view_matches_the_record_for_the_chosen_head():
    text = "The animal didn't cross the street because it was too tired."
    v = tr_views.transformer_view(text, "transformer-en-fr", 1, 2, 3)
    r = inf.translate("transformer-en-fr", text, 1)
    t, h = r.trace, v.heads
    assert v.translation == r.translation
    assert (v.n_layers, v.n_heads) == t.cross.shape[:2]
    np.testing.assert_array_equal(z(h.enc_head), t.enc_self[1, 2])
    np.testing.assert_array_equal(z(h.dec_head), t.dec_self[1, 2])
    np.testing.assert_array_equal(z(h.cross_head), t.cross[1, 2])
    assert len(h.cross_head.layout.yaxis.ticktext) == len(r.target_tokens)
    assert len(h.cross_head.layout.xaxis.ticktext) == len(r.source_tokens)
    assert len(h.dec_head.layout.xaxis.ticktext) == len(r.decoder_input_tokens)
    for grid, a in ((h.enc_grid, t.enc_self), (h.dec_grid, t.dec_self), (h.cross_grid, t.cross)):
        assert len(grid.data) == a.shape[0] * a.shape[1]
        np.testing.assert_array_equal(z(grid, 1 * a.shape[1] + 2), a[1, 2])
    # masked scores: the gray layer is exactly the -inf of the record, the softmax is the record's
    scores, masked, soft = h.dec_scores.data
    minus_inf = np.isneginf(t.dec_self_scores[1, 2])
    assert minus_inf.any() and (~np.isnan(np.asarray(masked.z, dtype=float)) == minus_inf).all()
    np.testing.assert_array_equal(np.asarray(soft.z), t.dec_self[1, 2])
    assert (np.asarray(soft.z)[minus_inf] == 0).all()
    assert v.hypotheses["translation"].iloc[0] == r.translation


@needs
@pytest.mark.parametrize("name", ["transformer-en-fr", "transformer-ko-en", "seq2seq-dot"])
def test_beam_search_uses_the_models_own_length_penalty(name):
    """The app's beam ranks as the reported test BLEU was decoded: with the alpha in metrics.json."""
    from models.decoding import length_penalty
    ckpt = inf.registry().get(name)
    alpha = ckpt.metrics["test"]["alpha"]
    r = inf.translate(name, "Please call me later, when you are back home.", beam=4)
    assert r.length_penalty == ckpt.length_penalty == alpha and r.to_json()["length_penalty"] == alpha
    for h in r.hypotheses:  # score = log-probability / ((5 + |Y|) / 6) ** alpha, |Y| counting </s> when finished
        n = len(h.token_logprobs)
        assert h.score == pytest.approx(h.logprob / length_penalty(n, alpha), abs=2e-4)
    # beam 1 scores with the same alpha (a student comparing beam 1 and 4 sees one definition of "score"),
    # and is still greedy decoding: the tokens of models.decoding.greedy
    import torch
    from models.decoding import greedy
    from models.tokenizers import special_ids
    g = inf.translate(name, EN, beam=1)
    h = g.hypotheses[0]
    assert g.length_penalty == alpha and h.score == pytest.approx(h.logprob / length_penalty(len(h.token_logprobs),
                                                                                            alpha), abs=2e-4)
    sp, tok = special_ids(ckpt.tokenizer), ckpt.tokenizer
    src = torch.tensor([tok.encode(EN, add_special_tokens=False).ids + [sp["eos"]]])
    assert h.text == tok.decode(greedy(ckpt.model, src, sp["bos"], sp["eos"], 2 * src.size(1) + 10)[0])


@needs
def test_transformer_redraw_clamps_layer_and_head():
    r = inf.translate("transformer-en-fr", EN, 1)
    L, H = r.trace.enc_self.shape[:2]
    h = tr_views.transformer_heads(r, 99, 0)
    np.testing.assert_array_equal(z(h.enc_head), r.trace.enc_self[L - 1, 0])
    assert f"layer {L}, head 1" in h.enc_head.layout.title.text
    placeholder = tr_views.transformer_heads(None, 1, 1)
    assert heatmaps(placeholder.enc_grid) == [] and not placeholder.files


@needs
def test_a_view_the_model_lacks_is_named_not_drawn():
    """A record without some attention (e.g. a decoder-only model's: no cross attention, no encoder)
    gets a placeholder naming what is missing, in either language, and no CSV for it."""
    import dataclasses
    r = inf.translate("transformer-en-fr", EN, 1)
    bare = dataclasses.replace(r, trace=dataclasses.replace(r.trace, cross=None, dec_self_scores=None))
    h = tr_views.transformer_heads(bare, 1, 1)
    for fig in (h.cross_grid, h.cross_head):
        assert heatmaps(fig) == [] and "This model has no Encoder-Decoder Attention (decoder → encoder)." in str(fig.layout)
    assert heatmaps(h.dec_scores) == [] and "no decoder masked self-attention" in str(h.dec_scores.layout)
    np.testing.assert_array_equal(z(h.enc_head), r.trace.enc_self[0, 0])  # what it has is still drawn
    names = list(h.files.names)
    assert not any("cross" in n or "scores" in n for n in names) and any("enc_self" in n for n in names)
    ko = tr_views.transformer_heads(bare, 1, 1, "한국어")
    assert "이 모델에는 인코더-디코더 어텐션 (디코더 → 인코더)이 없습니다." in str(ko.cross_grid.layout)


@needs
def test_downloads_hold_the_same_numbers():
    v = tr_views.transformer_view(EN, "transformer-en-fr", 1, 1, 2)
    files = {Path(f).name: Path(f) for f in v.heads.files.write()}
    assert json.loads(files["transformer-en-fr.json"].read_text(encoding="utf-8")) == \
        json.loads(json.dumps(v.record.to_json()))
    cross = pd.read_csv(files["transformer-en-fr-cross-L1H2.csv"], index_col=0)
    np.testing.assert_allclose(cross.to_numpy(), v.record.trace.cross[0, 1], rtol=1e-6)
    assert list(cross.index) == v.record.target_tokens
    scores = pd.read_csv(files["transformer-en-fr-dec_self_scores-L1H2.csv"], index_col=0).to_numpy()
    assert np.isneginf(scores[0, 1:]).all()  # the CSV keeps -inf where the mask hid a key
    raw = files["transformer-en-fr-cross-L1H2.csv"].read_bytes()  # a BOM, so Excel reads the tokens as UTF-8
    assert raw.startswith(b"\xef\xbb\xbf" + "query \\ key,".encode())
    b = bert_views.bert_model_view("fill", "bert", "I am a [MASK] .", "", 5, 1, 1)
    (fill,) = [f for f in b.files.write() if f.endswith("-fill_mask.csv")]
    with open(fill, encoding="utf-8-sig", newline="") as f:  # a plain table: no pandas 0, 1, 2 … column
        rows = list(csv.reader(f))
    assert rows[0][0] == b.masks.columns[0] != "" and len(rows) == 6 and rows[1][:2] == [str(v) for v in
                                                                                        b.masks.iloc[0, :2]]
    page = files["transformer-en-fr-figures.html"].read_text(encoding="utf-8")
    # plotly.js beside the page (one copy for every page, in the same list: saved together, they work offline)
    assert re.findall(r"<script src='([^']+)'", page) == [dl.plotly_js_name()] and len(page) < 1_000_000
    assert files[dl.plotly_js_name()].stat().st_size > 1_000_000
    assert page.count('class="plotly-graph-div"') == 7
    assert page.startswith("<!DOCTYPE html><html lang='en'>")
    ko = tr_views.transformer_heads(v.record, 1, 2, "ko")  # the page's language is the figures' (screen readers, fonts)
    page = next(Path(f) for f in ko.files.write() if f.endswith("-figures.html")).read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html><html lang='ko'>") and "디코더" in page


@needs
def test_bert_fill_and_nsp_views():
    a, b = "the man went to the [MASK] .", "he bought a gallon of milk ."
    v = bert_views.bert_fill_view(a, b, 3, 2, 4)
    r = inf.fill_mask(a, 3, b)
    assert list(v.tokens["token"]) == r.tokens
    assert list(v.tokens["segment"]) == ["A" if s == 0 else "B" for s in r.segments]
    assert list(v.masks["token"]) == [p.token for m in r.masks for p in m.predictions]
    np.testing.assert_array_equal(np.asarray(v.topk.data[0].x), [p.probability for p in r.masks[0].predictions])
    assert list(v.nsp.data[0].y) == [r.is_next, r.not_next]
    np.testing.assert_array_equal(z(v.head), r.trace.enc_self[1, 3])
    assert len(v.grid.data) == r.trace.enc_self.shape[0] * r.trace.enc_self.shape[1]
    ticks = list(v.head.layout.xaxis.ticktext)
    assert ticks[0] == "A·[CLS]" and ticks[-1] == "B·[SEP]"  # segments marked on the axes
    n = bert_views.bert_model_view("nsp", "bert", "the man went to the store .", b, 5, 1, 1)
    assert n.record.is_next == inf.nsp("the man went to the store .", b).is_next
    assert "P(IsNext)" in n.nsp_text and v.files
    # every button reads the same top-k box: NSP and "tokens only" used to redraw the predictions at 5
    for action in ("fill", "nsp", "encode"):
        k = bert_views.bert_model_view(action, "bert", "I am a [MASK] .", "she teaches math .", 9, 1, 1)
        assert [len(m.predictions) for m in k.record.masks] == [9] and len(k.masks) == 9


@needs
def test_api_endpoints_return_figures_and_the_records_json():
    text, fig, trace = api.translate_api(EN, "transformer-en-fr", 1)
    r = inf.translate("transformer-en-fr", EN, 1)
    assert text == r.translation and trace == r.to_json(decimals=inf.API_DECIMALS) and isinstance(fig, go.Figure)
    np.testing.assert_allclose(z(fig, 0), r.trace.cross[-1].mean(0), rtol=1e-6, atol=1e-7)
    _, fig, trace = api.translate_api(EN, "seq2seq-additive")
    np.testing.assert_array_equal(z(fig), inf.translate("seq2seq-additive", EN).trace.cross[0, 0])
    topk, grid, trace = api.fill_mask_api("the man went to the [MASK] .", 4)
    r = inf.fill_mask("the man went to the [MASK] .", 4)
    assert trace == r.to_json(decimals=inf.API_DECIMALS)
    assert [p["probability"] for p in trace["masks"][0]["predictions"]] == list(topk.data[0].x)
    # one map, as /translate's: the last layer's heads averaged (every head is in the trace)
    L, H = r.trace.enc_self.shape[:2]
    assert len(grid.data) == 1 and f"layer {L}, mean of {H} heads" in grid.layout.title.text
    np.testing.assert_allclose(z(grid), r.trace.enc_self[-1].mean(0), rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(z(grid).sum(-1), 1.0, atol=1e-5)
    nsp_fig, grid, trace = api.nsp_api("the man went to the store .", "he bought a gallon of milk .")
    assert list(nsp_fig.data[0].y) == [trace["is_next"], trace["not_next"]]
    r = inf.nsp("the man went to the store .", "he bought a gallon of milk .")
    np.testing.assert_allclose(z(grid), r.trace.enc_self[-1].mean(0), rtol=1e-6, atol=1e-7)
    assert any(t.startswith("B·") for t in grid.layout.xaxis.ticktext)  # segments marked, as in the UI


@needs
def test_bert_api_leaves_out_the_per_head_trace_of_a_paragraph_and_says_so():
    short = "the man went to the [MASK] ."
    assert api_views.bert_api_record(inf.fill_mask(short)) == inf.fill_mask(short).to_json(decimals=inf.API_DECIMALS)
    paragraph = "[MASK] " + " ".join(["the cat sat on the mat by the door ."] * 12)
    r = inf.fill_mask(paragraph)
    assert len(r.tokens) > api_views.API_TRACE_MAX_TOKENS
    _, grid, trace = api.fill_mask_api(paragraph, 5)
    assert trace["attention"] == {"enc_self": None} and trace["tokens"] == r.tokens
    assert trace["masks"] == r.to_json()["masks"] and trace["notices"][:-1] == r.notices
    assert f"up to {api_views.API_TRACE_MAX_TOKENS} tokens (this one has {len(r.tokens)})" in trace["notices"][-1]
    np.testing.assert_allclose(z(grid), r.trace.enc_self[-1].mean(0), rtol=1e-6, atol=1e-7)  # the figure still
    _, _, trace = api.nsp_api(paragraph.replace("[MASK] ", ""), "he bought a gallon of milk .")
    assert trace["attention"] == {"enc_self": None} and trace["is_next"] is not None


def test_validators_name_the_input_and_keep_valid_ones_quiet():
    """What the tabs check before running a model: the message under the input, in the switch's language."""
    def msgs(v):
        return [(d["is_valid"], d["message"]) for d in v]
    ok = (True, "")
    assert msgs(uc.first_is_a_sentence(EN, "seq2seq-dot", "English")) == [ok, ok, ok]
    assert msgs(uc.first_is_a_sentence(" \u200b ", "seq2seq-dot", "English")) == [
        (False, "Please type a sentence: the input is empty."), ok, ok]
    ko = msgs(uc.first_is_a_sentence("", "seq2seq-dot", "한국어"))[0]
    assert not ko[0] and ko[1] == i18n.error_text(inf.UserError("", "empty", what="sentence"), "ko")
    fill = uc.validator(None, lambda a, args: inf.masked_texts(a, args[2]))
    assert msgs(fill("bert", "no mask here", "", 5, 1, 1, "English"))[1] == (
        False, "Put at least one [MASK] in the sentence, e.g. 'I am a [MASK].'")
    assert msgs(fill("bert", "no mask here", "but [mask] here", 5, 1, 1, "English"))[1] == ok  # B may hold it
    broken = uc.validator(lambda value, args: 1 / 0)  # a bug in a check lets the run go on (and be reported)
    assert msgs(broken(EN, "English")) == [ok, ok]


@pytest.mark.parametrize("call,message", [
    (lambda: api.translate_api("", "transformer-en-fr"), "Please type a sentence"),
    (lambda: api.translate_api(EN, "no-such-model"), "Unknown model 'no-such-model'"),
    (lambda: api.translate_api(EN, "transformer-en-fr", 99), "Beam size must be between 1 and 8"),
    (lambda: api.fill_mask_api("no mask here", 5), "Put at least one [MASK]"),
    (lambda: api.nsp_api("only one sentence", "   "), "second sentence"),
    (lambda: TABS["transformer"].run("   ", "transformer-en-fr", 1, 1, 1), "input is empty"),
    (lambda: TABS["seq2seq"].run(EN, "bert"), "not"),
])
def test_user_errors_become_gr_error_messages(call, message):
    with pytest.raises(gr.Error) as e:
        call()
    assert message in e.value.message and "Traceback" not in e.value.message


def test_unexpected_errors_are_generic_and_logged(monkeypatch, caplog):
    def boom(*a, **k):
        raise RuntimeError("internal detail")
    monkeypatch.setattr(inf, "translate", boom)
    with caplog.at_level(logging.ERROR, logger="attention_explorer"), pytest.raises(gr.Error) as e:
        api.translate_api(EN, "transformer-en-fr")
    assert e.value.message == uc.GENERIC_ERROR and "internal detail" not in e.value.message
    assert "internal detail" in caplog.text and "Traceback" in caplog.text  # the server log has it all


def test_error_messages_and_markdown_are_escaped():
    with pytest.raises(gr.Error) as e:  # the page's toast is HTML
        TABS["seq2seq"].run(EN, "<img src=x onerror=alert(1)>")
    assert "<img" not in e.value.message and "&lt;img" in e.value.message
    with pytest.raises(gr.Error) as e:  # the API's callers read JSON: the name as sent (tests/ui/test_api_rest.py)
        api.translate_api(EN, "<img src=x onerror=alert(1)>")
    assert "'<img src=x onerror=alert(1)>'" in e.value.message
    assert "<" not in vw.md("<b>x</b>") and "\\*" in vw.md("*")


@pytest.mark.skipif(not (REPO_ASSETS / "bert").is_dir(), reason="no shipped BERT checkpoint")
def test_models_table_counts_every_stage_of_a_continued_run():
    """The shipped BERT continues five earlier runs: the Models tab shows their wall time summed, not the
    last stage's alone, names its QK-LayerNorm and its int8 storage; a one-stage model shows its own time."""
    reg = inf.registry()
    table = models_views.models_table(reg).set_index("model")
    bert = reg.get("bert").metrics
    assert bert["total_wall_seconds"] > bert["wall_seconds"]
    assert table.loc["bert", "train seconds (all stages)"] == bert["total_wall_seconds"]
    assert table.loc["bert", "architecture"] == "bert + QK-LayerNorm"
    one = reg.get("transformer-en-fr").metrics
    assert "continued_from" not in one
    assert table.loc["transformer-en-fr", "train seconds (all stages)"] == one["wall_seconds"]
    assert table.loc["transformer-en-fr", "architecture"] == "transformer"
    # int8 on disk (converted after training, metrics.json's "storage"); the others as trained, fp16
    assert table.loc["bert", "weights on disk"] == bert["storage"]["dtype"] == "int8"
    assert table.loc["transformer-en-fr", "weights on disk"] == "fp16"
    ko = models_views.models_table(reg, "ko")  # the language switch redraws it with Korean headers, the same cells
    assert list(ko.columns) == [i18n.t(f"col.{c}", "ko") for c in models_views.models_table(reg).columns]
    assert ko.iloc[:, 0].tolist() == table.index.tolist()
    words = ["status", "metrics / error"]  # cells in words: Korean too; the others the same
    en = models_views.models_table(reg)
    pd.testing.assert_frame_equal(en.drop(columns=words).set_axis(ko.columns.drop(ko.columns[[1, 7]]), axis=1),
                                  ko.drop(columns=ko.columns[[1, 7]]))
    assert ko.iloc[0, 1] == i18n.t("models.status_ok", "ko") and "NSP 정확도 0.9262" in ko.iloc[0, 7]
    # the metrics in words, no raw keys or training diagnostics; parameters in millions
    assert table.loc["bert", "parameters"] == f"{bert['parameters'] / 1e6:.1f} M" == "27.9 M"
    summary = table.loc["bert", "metrics / error"]
    assert "fill-mask top-1 on short sentences 0.5926" in summary and "NSP accuracy 0.9262" in summary
    assert not re.search(r"[a-z]+_[a-z]+", summary) and "head_top_weight" not in summary
    test = one["test"]
    assert f"test: BLEU {test['bleu']}, chrF {test['chrf']}" in table.loc["transformer-en-fr", "metrics / error"]


@pytest.mark.skipif(not (REPO_ASSETS / "bert").is_dir(), reason="no shipped BERT checkpoint")
def test_broken_checkpoint_still_builds_and_names_the_file(tmp_path, monkeypatch):
    for name in ("bert", "transformer-ko-en"):
        shutil.copytree(REPO_ASSETS / name, tmp_path / name)
    shard = sorted((tmp_path / "bert").glob("model-*.safetensors"))[0]
    shard.write_bytes(b"not a safetensors file")
    monkeypatch.setattr(inf, "_REGISTRY", inf.load_registry(tmp_path))
    assert "bert" in inf.registry().errors and shard.name in inf.registry().errors["bert"]

    demo = app.build_demo()  # must not raise
    assert isinstance(demo, gr.Blocks)
    assert vw.md(shard.name) in uc.load_errors_md("bert")  # markdown-escaped, shown as the file name
    table = models_views.models_table(inf.registry())
    assert shard.name in table.set_index("model").loc["bert", "metrics / error"]
    with pytest.raises(gr.Error) as e:
        demo.tabs["bert"].fill("bert", "the man went to the [MASK] .", "", 5, 1, 1)
    assert shard.name in e.value.message and "could not be loaded" in e.value.message
    text, _, _ = api.translate_api("나는 학생 입니다", "transformer-ko-en")  # the healthy model still works
    assert text


def test_empty_assets_folder_still_builds(tmp_path, monkeypatch):
    monkeypatch.setattr(inf, "_REGISTRY", inf.load_registry(tmp_path))
    assert isinstance(app.build_demo(), gr.Blocks)
    with pytest.raises(gr.Error):
        api.translate_api(EN, "transformer-en-fr")


def test_every_event_handler_is_friendly():
    """A handler outside `friendly` would put Gradio's raw error on the page (and blank every output)."""
    for f in app.demo.fns.values():
        if f.fn is None or f.is_cancel_function or f.fn.__qualname__.startswith("Examples."):  # Gradio's own
            continue
        assert getattr(f.fn, "friendly", False), f"{f.fn.__qualname__} is not wrapped in friendly()"


def test_a_slider_shows_a_reset_button_only_where_a_reset_redraws():
    """Gradio's ↺ sets the slider and fires "change" (and "release"), never "input": a slider whose views follow
    "input" alone would read its first value over the old drawing. Such sliders carry no reset button."""
    sliders = [b for b in app.demo.blocks.values() if isinstance(b, gr.Slider)]
    on_change = {b for f in app.demo.fns.values() for b, e in f.targets if e in ("change", "release")}
    on_input = {b for f in app.demo.fns.values() for b, e in f.targets if e == "input"}
    assert len(sliders) >= 10 and on_input & {s._id for s in sliders}
    for s in sliders:
        assert "reset" not in (s.buttons if s.buttons is not None else ["reset"]) or s._id in on_change, s.label
    # what the page gets: every slider with its range, value and label (an __init__ override lost them all)
    config = [c for c in app.demo.get_config_file()["components"] if c.get("type") == "slider"]
    assert len(config) == len(sliders)
    for c in config:
        p = c["props"]
        assert p["buttons"] == [] and p["label"] and p["minimum"] <= p["value"] <= p["maximum"], p


def test_every_download_box_is_read_only():
    """A gr.File list is drawn as an upload box unless told otherwise: its ✕ emptied the list and left "Drop File
    Here" on the page."""
    files = [b for b in app.demo.blocks.values() if isinstance(b, gr.File)]
    assert len(files) >= 8
    assert all(f.interactive is False for f in files), [f.label for f in files if f.interactive is not False]


# What each tab's examples run once they have filled the inputs (the BERT tab: what Enter runs there, by the sentences;
# the score functions and contextual vectors: their views, under the names of the views' functions)
EXAMPLE_RUNS = ["seq2seq.run", "scores.show", "transformer.run", "beam.run", "bert.enter", "rollout.run_model",
                "contextual.show", "choices.show"]


def test_every_example_runs_its_tab():
    """An example fills the inputs and runs the tab, as its button (or Enter, or a model picked by hand) does: the
    old result had stayed on screen under the new sentence or the new model's name."""
    fns, blocks = app.demo.fns, app.demo.blocks
    fills = [i for i, f in fns.items() if any(isinstance(blocks.get(b), gr.Dataset) and e == "click" for b, e in f.targets)]
    runs = {f.trigger_after: f for f in fns.values() if f.trigger_after in fills}
    assert set(runs) == set(fills) and len(fills) == len(EXAMPLE_RUNS)
    assert sorted(handler_name(f.fn) for f in runs.values()) == sorted(EXAMPLE_RUNS)

    def ids(bs):
        return [b._id for b in bs]
    for fill_id, run in runs.items():
        assert {b._id for b in fns[fill_id].outputs} <= set(ids(run.inputs))  # it reads what the example filled
        same = [f for f in fns.values() if f is not run and handler_name(f.fn) == handler_name(run.fn)
                and ids(f.inputs) == ids(run.inputs) and ids(f.outputs) == ids(run.outputs)]
        assert same and all(e in ("click", "submit", "input") for f in same for _, e in f.targets), run.fn.__name__


def test_on_the_page_an_error_keeps_the_last_results_and_warns_once(monkeypatch):
    """In an event, the outermost handler turns the error into one warning toast and gr.skip() (every
    output keeps what it showed: a gr.Error marked them all "Error"); the handlers it calls, and the API
    endpoints, still raise."""
    shown = []
    monkeypatch.setattr(uc, "_in_event", lambda: True)
    monkeypatch.setattr(uc.gr, "Warning", lambda message, **kw: shown.append(message))
    late_mask = "a " * 300 + "I am a [MASK]."  # the [MASK] past BERT's 256 tokens (bert_model_view raises inside)
    assert TABS["bert"].fill("bert", late_mask, "", 5, 1, 1, "한국어") == gr.skip()
    assert shown == [i18n.error_text(inf.UserError("", "mask_too_late"), "ko")] and "[MASK]" in shown[0]

    def boom(*a, **k):
        raise RuntimeError("internal detail")
    monkeypatch.setattr(inf, "translate", boom)
    assert TABS["transformer"].run(EN, "transformer-en-fr", 1, 1, 1, "en") == gr.skip()
    assert shown[-1] == uc.GENERIC_ERROR and len(shown) == 2
    with pytest.raises(gr.Error):
        api.translate_api(EN, "transformer-en-fr")  # the API reports errors as errors
    with pytest.raises(gr.Error, match="Put at least one"):
        api.fill_mask_api("no mask here", 5)
    assert list(TABS["live"].train(500, "general", "the cat", "en")) == [gr.skip()]  # the generator: one warning, ends
    assert "between 1 and 120" in shown[-1] and len(shown) == 3


def test_choosing_another_model_runs_the_tab_again():
    """seq2seq, Transformer and beam search: picking another model (or score function) translates the
    sentence again at once, as its button does (the old translation and figures stayed on screen)."""
    for name in ("seq2seq.run", "transformer.run", "beam.run"):
        events = [f for f in app.demo.fns.values() if handler_name(f.fn) == name]
        kinds = {(type(app.demo.blocks.get(b)).__name__, e) for f in events for b, e in f.targets}
        assert ("Button", "click") in kinds, (name, kinds)
        assert any(e == "input" and k in ("Dropdown", "Radio") for k, e in kinds), (name, kinds)


def _titles(values) -> list[str]:
    """Each figure's title; a shared run's figures come as the JSON Gradio sends (PlotData), as first screens do."""
    from gradio.components.plot import PlotData
    out = []
    for v in values:
        if isinstance(v, go.Figure):
            out.append(v.layout.title.text)
        elif isinstance(v, PlotData):
            out.append(json.loads(v.plot)["layout"]["title"]["text"])
    return out


def test_the_language_switch_redraws_the_results_on_screen():
    """After an English run, switching to Korean redraws that run's figures and texts in Korean from its
    record (they stayed English until the next run): the same as running it in Korean."""
    S, T, B, BM, R = (TABS[n] for n in ("seq2seq", "transformer", "bert", "beam", "rollout"))
    s_en, s_ko = S.run(EN, "seq2seq-dot", "en"), S.run(EN, "seq2seq-dot", "ko")
    relabeled = S.relabel(s_en[S.record], 1, "한국어")  # state, step
    figs = [S.alignment, S.bars]
    assert relabeled[S.step_text] == s_ko[S.step_text]
    assert _titles(relabeled.values()) == _titles(s_ko[c] for c in figs) != _titles(s_en[c] for c in figs)

    t_en = T.run(EN, "transformer-en-fr", 2, 1, 1, "en")
    t_ko = T.run(EN, "transformer-en-fr", 2, 1, 1, "ko")
    relabeled = T.relabel(t_en[T.record], 1, 1, "ko")  # notice, hypotheses and every attention view
    assert list(relabeled[T.hypotheses].columns) == list(t_ko[T.hypotheses].columns) != list(t_en[T.hypotheses].columns)
    figs = [T.enc_grid, T.enc_head, T.dec_grid, T.dec_head, T.dec_scores, T.cross_grid, T.cross_head]
    assert _titles(relabeled[c] for c in figs) == _titles(t_ko[c] for c in figs) != _titles(t_en[c] for c in figs)

    b_en = B.fill("bert", "I am a [MASK].", "", 5, 1, 1, "en")
    b_ko = B.fill("bert", "I am a [MASK].", "", 5, 1, 1, "ko")
    relabeled = B.relabel(b_en[B.record], 1, 1, "ko")
    drawn = list(relabeled)
    assert len(drawn) == 9 and _titles(relabeled.values()) == _titles(b_ko[c] for c in drawn) != _titles(
        b_en[c] for c in drawn)

    bm_ko, bm_en = BM.run(EN, "transformer-en-fr", 3, "ko"), BM.run(EN, "transformer-en-fr", 3, "en")
    chosen = BM.choose(bm_en[BM.search], 1, "ko")  # the second hypothesis: its record replaces the search's
    relabeled = BM.relabel(chosen.pop(BM.search), "ko")
    assert relabeled[BM.choice].value == 1  # still on the hypothesis the user chose
    assert relabeled[BM.translation] == chosen[BM.translation] and relabeled[BM.notice] == chosen[BM.notice]
    assert _titles(relabeled[c] for c in chosen) == _titles(chosen.values())
    assert list(relabeled[BM.table].columns) == list(bm_ko[BM.table].columns) != list(bm_en[BM.table].columns)
    assert relabeled[BM.figure].to_json() == bm_ko[BM.figure].to_json() != bm_en[BM.figure].to_json()  # the tree's words
    ro_en, ro_ko = R.run(EN, "bert", 2, "en"), R.run(EN, "bert", 2, "ko")
    relabeled = R.relabel(ro_en[R.record], 2, "ko")
    figs = [R.grid, R.entropy, R.rollout, R.row_entropy]
    assert _titles(relabeled.values()) == _titles(ro_ko[c] for c in figs) != _titles(ro_en[c] for c in figs)
    FT, G = TABS["finetune"], TABS["gpt"]
    ft_en, ft_ko = (FT.run_finetune("sentiment", EN, "", 1, 1, lang) for lang in ("en", "ko"))
    relabeled = FT.relabel(ft_en[FT.record], "sentiment", 1, 1, "ko")  # prediction, table, texts, both models' heads
    figs = [FT.prediction, FT.finetuned, FT.pretrained, FT.difference, FT.change, FT.cls]
    assert _titles(relabeled[c] for c in figs) == _titles(ft_ko[c] for c in figs) != _titles(ft_en[c] for c in figs)
    assert list(relabeled[FT.table].columns) == list(ft_ko[FT.table].columns) != list(ft_en[FT.table].columns)
    for c in (FT.summary, FT.explanation):
        assert relabeled[c] == ft_ko[c] != ft_en[c]
    assert relabeled[FT.task].choices == [(i18n.t(f"ft.task_{t}", "ko"), t) for t in FT_TASKS]
    prompt = ("The students opened their", True, 0.7, 50, 0.95, 5, 0, 1, 1)  # greedy, 5 new tokens
    g_en, g_ko = (list(G.continue_prompt(*prompt, lang))[-1] for lang in ("en", "ko"))  # the stream's last update
    relabeled = G.relabel(g_en[G.record], 1, 1, 5, "ko")  # the steps table and every attention view
    figs = [G.step_plot, G.grid, G.head_plot, G.scores]
    assert _titles(relabeled[c] for c in figs) == _titles(g_ko[c] for c in figs) != _titles(g_en[c] for c in figs)
    assert list(relabeled[G.steps].columns) == list(g_ko[G.steps].columns) != list(g_en[G.steps].columns)
    assert relabeled[G.steps].equals(g_ko[G.steps])  # the same numbers: redrawn from the record, not rerun
    for relabel, args in ((S.relabel, (None, 1)), (T.relabel, (None, 1, 1)), (B.relabel, (None, 1, 1)),
                          (BM.relabel, (None,)), (R.relabel, (None, 1)), (G.relabel, (None, 1, 1, 5))):
        assert relabel(*args, "ko") == gr.skip()  # nothing on screen yet: nothing drawn
    switch = [handler_name(f.fn) for f in app.demo.fns.values()
              if any(app.demo.blocks.get(b).__class__.__name__ == "Radio" and e == "change" for b, e in f.targets)
              and getattr(f.fn, "__name__", "") == "relabel"]
    assert sorted(switch) == sorted(["beam.relabel", "bert.relabel", "contextual.relabel", "live.relabel",
                                     "models.relabel", "positional.relabel", "query_key.relabel", "rollout.relabel",
                                     "scores.relabel", "seq2seq.relabel", "transformer.relabel",
                                     "inside.relabel", "luong.relabel", "choices.relabel", "bert_inputs.relabel",
                                     "elmo.relabel", "finetune.relabel",
                                     "gpt.relabel", "syntax.relabel", "ablation.relabel", "lessons.relabel"])  # bert_inputs': relabel_mask


def _words(values) -> list:
    """What an output list says: each figure's layout (titles, axes, notes), each table's headers, each text."""
    return [v.layout.to_plotly_json() if isinstance(v, go.Figure) else list(v.columns) if isinstance(v, pd.DataFrame)
            else v for v in values if isinstance(v, (go.Figure, pd.DataFrame, str))]


def _numbers(values) -> list:
    """The numbers an output list shows: each figure trace's z or y (when numeric), each table's numeric cells
    (NaN, e.g. an empty cell, as -1e9 so that two equal lists compare equal)."""
    out = []
    for v in values:
        if isinstance(v, go.Figure):
            for t in v.data:
                for key in ("z", "y"):
                    a = getattr(t, key, None)
                    if a is not None and np.asarray(a).dtype.kind in "fiu":
                        out.append(np.round(np.nan_to_num(np.asarray(a, dtype=float), nan=-1e9), 6).tolist())
        elif isinstance(v, pd.DataFrame):
            out.append(np.round(np.nan_to_num(v.select_dtypes("number").to_numpy(float), nan=-1e9), 6).tolist())
    return out


def test_query_key_redraws_its_record_at_the_switch_without_a_model_run(monkeypatch):
    """Query-key keeps its record (both views and the typed sentence's plane): the switch redraws it in the new
    language from the record, with the very numbers of a Korean run, and runs no model."""
    from explorer.compute import lab, qk_embedding as qe
    QK = TABS["query_key"]
    out, ko = QK.show(EN, "bert", 2, 3, 1, "pos", "en"), QK.show(EN, "bert", 2, 3, 1, "pos", "ko")
    drawn = [QK.figure, QK.table, QK.text_md, QK.embedding, QK.embedding_md]
    for name in ("query_key", "encode_bert"):
        monkeypatch.setattr(lab, name, lambda *a, **k: pytest.fail("the switch ran the model"))
    monkeypatch.setattr(qe, "layers_qk", lambda *a, **k: pytest.fail("the switch ran the model"))
    relabeled = QK.relabel(out[QK.record], "pos", "ko")
    assert _words(relabeled[c] for c in drawn) == _words(ko[c] for c in drawn) != _words(out[c] for c in drawn)
    assert _numbers(relabeled[c] for c in drawn) == _numbers(ko[c] for c in drawn) and _numbers([out[QK.embedding]])
    assert QK.relabel(None, "pos", "ko") == gr.skip()  # nothing on screen yet: nothing drawn


def _computation_firsts(lang: str) -> dict:
    """The first results of the whole-computation tabs' tables (ui/tabs/luong, choices, bert_inputs, elmo)."""
    LU, CH, BI, EL = (TABS[n] for n in ("luong", "choices", "bert_inputs", "elmo"))
    return {i18n.t("lu.table"): LU.show(EN, "seq2seq-general", 0, "", 5, lang)[LU.table],
            i18n.t("ch.table"): CH.show(EN, "transformer-en-fr", "", 5, lang)[CH.table],
            i18n.t("bi.mask_table"): BI.mask(EN, 0, 0.5, 5, "bert", lang)[BI.mask_table],
            i18n.t("el.table"): EL.show("bank", "", "", 1.0, True, "auto", lang)[EL.table]}


def _finetune_gpt_firsts(lang: str) -> dict:
    """The first results of the fine-tuning tab's table (its default task) and the GPT tab's steps."""
    FT, G = TABS["finetune"], TABS["gpt"]
    generated = list(G.continue_prompt("The students opened their", True, 0.7, 50, 0.95, 3, 0, 1, 1, lang))[-1]
    return {i18n.t("ft.table"): FT.run_finetune("sentiment", EN, "", 1, 1, lang)[FT.table],
            i18n.t("gpt.steps"): generated[G.steps]}


def test_empty_tables_show_their_headers_before_the_first_run():
    """Gradio labels the columns of a table without any "1 2 3": the tables that start empty carry the
    headers their first result will have."""
    by_label = {b.label: b for b in app.demo.blocks.values() if isinstance(b, gr.Dataframe)}
    r = inf.translate("transformer-en-fr", EN, 2)
    BM, B, SF, QK, CTX = (TABS[n] for n in ("beam", "bert", "scores", "query_key", "contextual"))
    b_en = B.fill("bert", "I am a [MASK].", "", 5, 1, 1)
    firsts = {i18n.t("tr.hyps"): tr_views.hypotheses_table(r),
              i18n.t("beam.table"): BM.run(EN, "transformer-en-fr", 2)[BM.table],
              i18n.t("bert.tokens"): b_en[B.tokens], i18n.t("bert.masks"): b_en[B.masks],
              i18n.t("sf.table"): SF.show(EN, "en")[SF.table],
              i18n.t("qk.table"): QK.show(EN, "bert", 1, 1, 0, "kind", "en")[QK.table],
              i18n.t("ctx.table"): CTX.show("bank", "", "bert", "en")[CTX.table]}
    firsts.update({**_computation_firsts("en"), **_finetune_gpt_firsts("en")})
    for label, first in firsts.items():
        assert by_label[label].value["headers"] == list(first.columns), label
    # the language switch gives the still-empty ones their Korean headers (a table with a result: skipped)
    switch = [f for f in app.demo.fns.values() if getattr(f.fn, "__name__", "") == "_headers_of_empty_tables"]
    assert len(switch) == 1 and {app.demo.blocks[b].__class__.__name__ for b, e in switch[0].targets} == {"Radio"}
    tables = [b for b in switch[0].outputs]
    assert sorted(t.label for t in tables) == sorted(firsts)
    empty = [pd.DataFrame(columns=t.value["headers"]) for t in tables]
    korean = switch[0].fn("한국어", *empty)
    b_ko = B.fill("bert", "I am a [MASK].", "", 5, 1, 1, "ko")
    firsts_ko = {i18n.t("tr.hyps"): tr_views.hypotheses_table(r, "ko"),
                 i18n.t("beam.table"): BM.run(EN, "transformer-en-fr", 2, "ko")[BM.table],
                 i18n.t("bert.tokens"): b_ko[B.tokens], i18n.t("bert.masks"): b_ko[B.masks],
                 i18n.t("sf.table"): SF.show(EN, "ko")[SF.table],
                 i18n.t("qk.table"): QK.show(EN, "bert", 1, 1, 0, "kind", "ko")[QK.table],
                 i18n.t("ctx.table"): CTX.show("bank", "", "bert", "ko")[CTX.table], **_computation_firsts("ko"),
                 **_finetune_gpt_firsts("ko")}
    for t, out in zip(tables, korean):
        assert isinstance(out, pd.DataFrame) and len(out) == 0
        assert list(out.columns) == list(firsts_ko[t.label].columns) != t.value["headers"], t.label
    assert switch[0].fn("ko", *([firsts[tables[0].label]] + empty[1:]))[0] == gr.skip()  # a result stays
    # what Chromium sends back for an empty table: one row of blank cells (it kept the English headers)
    blank = [pd.DataFrame([[""] * len(t.value["headers"])], columns=t.value["headers"]) for t in tables]
    assert [list(out.columns) for out in switch[0].fn("ko", *blank)] == [list(out.columns) for out in korean]


def test_decoder_views_say_which_token_labels_their_rows():
    """Masked self-attention labels its query rows by the input each step reads (<s>, Je, ...), cross
    attention by the token it produces (Je, ..., </s>): the same positions, and the axis titles say so."""
    r = inf.translate("transformer-en-fr", EN, 1)
    for lang in ("en", "ko"):
        h = tr_views.transformer_heads(r, 1, 1, lang)
        assert h.dec_head.layout.yaxis.title.text == i18n.t("tr.query_reads", lang)
        assert h.cross_head.layout.yaxis.title.text == i18n.t("tr.query_produces", lang)
        assert h.cross_head.layout.xaxis.title.text == i18n.t("tr.key_source", lang)
    assert r.decoder_input_tokens[0] == "<s>" and r.target_tokens[-1] == "</s>"
    assert r.decoder_input_tokens[1:] == r.target_tokens[:-1]  # one step apart


def test_a_typed_slider_number_past_its_end_is_taken_as_that_end():
    """Gradio raises an English toast (and logs a traceback) for a number typed past a slider's end;
    the page's sliders take it as the end instead, as dragging would, and keep values inside as they are."""
    sliders = [b for b in app.demo.blocks.values() if isinstance(b, gr.Slider)]
    assert sliders and all(isinstance(b, uc.Slider) for b in sliders)
    for b in sliders:
        assert b.preprocess(b.maximum + 50) == b.maximum and b.preprocess(b.minimum - 50) == b.minimum
        assert b.preprocess(b.minimum) == b.minimum
    head = uc.Slider(1, 12, step=1)
    assert head.preprocess(7) == 7 and head.preprocess(99) == 12 and head.preprocess(0) == 1


def test_another_rollout_model_resizes_the_layer_slider():
    """A model picked by hand moves the layer slider to its depth at once; an example's model does it through the
    run (test_every_example_runs_its_tab): clicking the ko-en example (3 layers) had left it at BERT's 12 of 12."""
    fns = [f for f in app.demo.fns.values() if getattr(f.fn, "__name__", "") == "_rollout_layers"]
    assert fns and all(e == "input" and type(app.demo.blocks[b]).__name__ == "Dropdown"
                       for f in fns for b, e in f.targets)
    depth = inf.registry().get("transformer-ko-en").config.n_layers
    for slider in (fns[0].fn("transformer-ko-en"), TABS["rollout"].run_model(EN, "transformer-ko-en")[TABS["rollout"].layer]):
        assert slider.maximum == max(depth, 2) and slider.value == depth


def test_the_step_text_ends_once_after_a_token_that_ends_a_sentence():
    """"produced **ant.**." read as a doubled full stop: the step text adds its "." only when the
    produced token does not end with one (nor with ! or ?)."""
    r = inf.translate("seq2seq-dot", EN)
    last = len(r.target_tokens) - 1  # the token before </s>: "ant." for "I am a student."
    for lang in ("en", "ko"):
        for step in range(1, len(r.target_tokens) + 1):
            text = s2s_views.seq2seq_step(r, step, lang)[2]
            assert ".." not in text.replace("*", ""), (lang, step, text)  # as read, bold marks gone
        assert s2s_views.seq2seq_step(r, last, lang)[2].split("**")[3].endswith(".")  # the token keeps its own "."


def test_a_decimal_column_shows_one_number_of_decimals():
    """Gradio printed each number as short as it goes (24.9 among 24.92, -3.762 beside -3.7564): every results
    table shows a decimal column with the decimals its cells need, and keeps the numbers as numbers."""
    df = pd.DataFrame({"model": ["a", "b", "c"], "BLEU": [24.9, 9.8, 24.92], "n": [1, 2, 3],
                       "log prob": [-3.762, -3.7564, float("nan")], "sum": [0.1 + 0.2, 1.0, 2.5]})
    df["weight"] = np.array([0.25, 0.5, 0.125], dtype=np.float32)  # numpy's own scalars, not Python floats
    out = uc.Table(interactive=False).postprocess(df)
    assert [row[1:] for row in out.metadata["display_value"]] == [
        ["24.90", "1", "-3.7620", "0.3", "0.250"], ["9.80", "2", "-3.7564", "1.0", "0.500"],
        ["24.92", "3", "", "2.5", "0.125"]]
    assert out.data[0][1] == 24.9 and out.data[1][2] == 2  # numbers: the table sorts by value
    tables = [b for b in app.demo.blocks.values() if isinstance(b, gr.Dataframe)]
    assert len(tables) >= 8 and all(isinstance(b, uc.Table) for b in tables)
    # the page draws them as Gradio's Dataframe: a component type it does not know, it fetches as a custom one (404)
    types = {c["id"]: c.get("type") for c in app.demo.get_config_file()["components"]}
    assert {types[t._id] for t in tables} == {"dataframe"}
