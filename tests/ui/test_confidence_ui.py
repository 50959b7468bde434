"""How sure the model is, on screen: every tab that shows a translation shows its words shaded
by the model's probability (explorer.figures.confidence), and those numbers are the shipped model's own, recomputed here
from a teacher-forced forward pass; the words are escaped, the legend is there in English and Korean, a language
switch redraws it from the record, the first screens fill it, and the darkest shade keeps text readable."""
import math
from html.parser import HTMLParser

import numpy as np
import pytest
import torch

gr = pytest.importorskip("gradio")

import app  # noqa: E402  (builds the demo, loading the registry once)
from explorer.figures import confidence as conf  # noqa: E402
from explorer import i18n  # noqa: E402
from explorer.compute import inference as inf  # noqa: E402
from models.tokenizers import special_ids  # noqa: E402
from ui import theme  # noqa: E402

TABS = app.demo.tabs
REG = inf.registry()
needs = pytest.mark.skipif(
    not {"seq2seq-dot", "transformer-en-fr", "transformer-ko-en"} <= set(REG.names()),
    reason="the shipped checkpoints under assets/ did not load")
ALLOWED_TAGS = {"div", "p", "span", "small", "b"}


class Words(HTMLParser):
    """The shaded HTML read back: each word's text, title, data-p, style and hidden (screen reader) text; each
    line's label (scores tab); every tag seen; the legend's text."""

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.words, self.tags, self.lines, self.legend = [], set(), [], ""
        self._stack = []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags.add(tag)
        cls = a.get("class", "")
        if cls == "ae-conf-text":
            self.lines.append({"label": "", "words": []})
        if cls == "ae-conf-word":
            w = {"text": "", "hidden": "", "title": a["title"], "p": float(a["data-p"]), "style": a["style"]}
            self.words.append(w)
            if self.lines:
                self.lines[-1]["words"].append(w)
        self._stack.append((tag, cls))

    def handle_endtag(self, tag):
        self._stack.pop()

    def handle_data(self, data):
        classes = [c for _, c in self._stack]
        tags = [t for t, _ in self._stack]
        if "ae-conf-legend" in classes:
            self.legend += data
        elif "ae-conf-word" in classes:
            inner = classes.index("ae-conf-word") < len(classes) - 1  # the span inside the word: hidden text
            self.words[-1]["hidden" if inner else "text"] += data
        elif "b" in tags and self.lines:
            self.lines[-1]["label"] += data


def forced_word_probs(name: str, source_tokens: list[str], target_tokens: list[str]) -> list[tuple[str, float]]:
    """(word, probability) of a produced translation under the shipped model, from one teacher-forced forward
    pass on <s> + its tokens (not the decoder's steps nor explorer.compute.inference's numbers): each token's softmax
    probability, multiplied over a word's subwords."""
    ckpt = REG.get(name)
    tok, model, sp = ckpt.tokenizer, ckpt.model, special_ids(ckpt.tokenizer)
    src = torch.tensor([[tok.token_to_id(p) for p in source_tokens]])
    shown = [p for p in target_tokens if p != "…"]
    ids = [tok.token_to_id(p) for p in shown]
    with torch.no_grad():
        logits = model(src, torch.tensor([[sp["bos"]] + ids[:-1]])).logits  # (1, T, V): row t reads <s> y1..y(t-1)
    probs = torch.softmax(logits[0].double(), -1)  # (T, V): row t predicts token t
    per_token = [probs[t, i].item() for t, i in enumerate(ids)]
    words = []
    for piece, p in zip(shown, per_token):
        if piece == "</s>":
            continue
        if piece.startswith("▁") or not words:
            words.append([piece.lstrip("▁"), p])
        else:
            words[-1][0] += piece
            words[-1][1] *= p
    return [(w, p) for w, p in words if w]


def check_shown(html: str, name: str, record, lang: str = "en") -> Words:
    """The HTML shows the record's translation word by word, each with the model's probability (1e-4), the same
    number in its title and hidden text, and the legend in `lang`."""
    got = Words(html)
    want = forced_word_probs(name, record.source_tokens, record.target_tokens)
    assert [w["text"] for w in got.words] == [w for w, _ in want]
    assert " ".join(w["text"] for w in got.words) == record.translation  # the words are the translation's
    for w, (_, p) in zip(got.words, want):
        assert abs(w["p"] - p) < 1e-4, (name, w["text"], w["p"], p)
        said = i18n.t("conf.word_title", lang, p=f"{w['p']:.3f}")
        assert w["title"] == said and w["hidden"].strip() == f"({said})"
        assert f"rgba(230, 97, 0, {conf.shade(w['p'])})" in w["style"]
        assert ("underline dotted" in w["style"]) == (w["p"] < conf.UNSURE)  # not the shade alone
    assert got.legend == i18n.t("conf.legend", lang, u=conf.UNSURE)
    assert got.tags <= ALLOWED_TAGS and f'<div class="ae-conf" lang="{i18n.lang_code(lang)}">' in html
    return got


@needs
def test_seq2seq_tab_shows_the_models_probability_of_each_word():
    tab = TABS["seq2seq"]
    out = tab.run("I am a student.", "seq2seq-dot", "en")
    r = tab.stored(out[tab.record])  # the page keeps a key (explorer.serve.cache)
    assert out[tab.translation] == r.translation  # the plain text stays for copying, tests and the API
    check_shown(out[tab.confidence], "seq2seq-dot", r)
    ko = tab.relabel(r, 1, "ko")  # the switch redraws it from the record: same numbers, Korean words
    assert [w["p"] for w in Words(ko[tab.confidence]).words] == [w["p"] for w in Words(out[tab.confidence]).words]
    check_shown(ko[tab.confidence], "seq2seq-dot", r, "ko")


@needs
@pytest.mark.parametrize("name,text", [("transformer-en-fr", "The cat is sleeping on my bed."),
                                       ("transformer-ko-en", "배가 아파요.")])
def test_transformer_tab_shows_the_models_probability_of_each_word(name, text):
    tab = TABS["transformer"]
    out = tab.run(text, name, 1, 1, 1, "en")
    r = tab.stored(out[tab.record])  # the page keeps a key (explorer.serve.cache)
    assert out[tab.translation] == r.translation
    check_shown(out[tab.confidence], name, r)
    check_shown(tab.relabel(r, 1, 1, "ko")[tab.confidence], name, r, "ko")


@needs
def test_beam_tab_shows_the_chosen_hypothesis_probabilities():
    """The chosen hypothesis's words under the model, not the best one's: hypothesis 3 of 4."""
    tab = TABS["beam"]
    search = {"text": "The cat is sleeping on my bed.", "model": "transformer-en-fr", "beam": 4}
    best = tab.run(search["text"], search["model"], search["beam"], "en")
    third = tab.choose(best[tab.search], 2, "en")  # the kept search's key
    hyps = inf.translate(search["model"], search["text"], 4, chosen=2)
    check_shown(best[tab.confidence], search["model"], inf.translate(search["model"], search["text"], 4))
    check_shown(third[tab.confidence], search["model"], hyps)
    assert third[tab.translation] == hyps.hypotheses[2].text


@needs
def test_score_functions_tab_shades_every_models_translation():
    tab = TABS["scores"]
    out = tab.show("I am a student.", "en")
    lines = Words(out[tab.confidence]).lines
    shown = [line["label"] for line in lines]
    assert shown and all(n in REG.names("seq2seq") for n in shown)
    for line in lines:
        r = inf.translate(line["label"], "I am a student.")
        want = forced_word_probs(line["label"], r.source_tokens, r.target_tokens)
        assert [w["text"] for w in line["words"]] == [w for w, _ in want]
        assert all(abs(w["p"] - p) < 1e-4 for w, (_, p) in zip(line["words"], want))
    assert Words(out[tab.confidence]).legend == i18n.t("conf.legend", "en", u=conf.UNSURE)


@needs
@pytest.mark.parametrize("lang", ["en", "ko"])
def test_first_screens_fill_the_shaded_translation(lang):
    """Every tab with a shaded translation has it on its first screen, in the screen's language, with the
    numbers of the record that screen keeps."""
    with_conf = {n for n, tab in TABS.items() if isinstance(getattr(tab, "confidence", None), gr.HTML)}
    assert {"seq2seq", "scores", "transformer", "beam"} <= with_conf
    for entry in app.demo.first_screens.entries:
        tab = TABS[entry.tab]
        if entry.tab not in with_conf or tab.confidence not in entry.outputs:
            continue
        screen = app.demo.first_screens.compute(entry, lang)
        got = Words(screen[tab.confidence])
        assert got.words and got.legend == i18n.t("conf.legend", lang, u=conf.UNSURE), entry.tab
        record = next((v for c, v in screen.items() if isinstance(c, gr.State) and hasattr(v, "token_probs")), None)
        if record is not None:
            check_shown(screen[tab.confidence], record.model, record, lang)
    assert {e.tab for e in app.demo.first_screens.entries if getattr(TABS[e.tab], "confidence", None) in e.outputs
            } == with_conf


def test_words_and_labels_are_escaped():
    html = conf.shaded_rows([('<img src=x onerror="alert(1)">', ["▁<script>", "x</script>", "▁\"&'"], [0.3, 0.9, 0.8])])
    got = Words(html)
    assert got.tags <= ALLOWED_TAGS and "<script>" not in html and "<img" not in html
    assert [w["text"] for w in got.words] == ["<script>x</script>", "\"&'"]
    assert got.lines[0]["label"] == '<img src=x onerror="alert(1)">'
    assert abs(got.words[0]["p"] - 0.3 * 0.9) < 1e-6


def test_the_legend_is_there_in_english_and_korean():
    en, ko = (Words(conf.shaded_translation(["▁a"], [0.4], lang)) for lang in ("en", "ko"))
    assert en.legend == i18n.t("conf.legend", "en", u=conf.UNSURE) != ko.legend
    assert any("\uac00" <= ch <= "\ud7a3" for ch in ko.legend) and "hover" in en.legend.lower()
    assert str(conf.UNSURE) in en.legend and str(conf.UNSURE) in ko.legend
    assert en.words[0]["title"] == "probability 0.400" and ko.words[0]["title"] == "확률 0.400"


def test_darkest_shade_keeps_text_at_wcag_aa_in_both_themes():
    """Body text on the darkest shade, composited over the page's and the blocks' backgrounds, reads >= 4.5:1."""
    t = theme.THEME

    def colour(v: str, dark: bool) -> np.ndarray:
        while v.startswith("*"):
            v = getattr(t, v[1:] + ("_dark" if dark and hasattr(t, v[1:] + "_dark") else ""))
        v = {"white": "#ffffff"}.get(v, v)
        return np.array([int(v[i:i + 2], 16) for i in (1, 3, 5)], dtype=float)

    def luminance(rgb) -> float:
        c = np.asarray(rgb) / 255
        c = np.where(c <= 0.03928, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
        return float(c @ [0.2126, 0.7152, 0.0722])

    for dark, d in ((False, ""), (True, "_dark")):
        text = colour(getattr(t, "body_text_color" + d), dark)
        for bg_name in ("background_fill_primary", "block_background_fill"):
            bg = colour(getattr(t, bg_name + d), dark)
            shaded = conf.MAX_SHADE * np.array(conf.SHADE_RGB) + (1 - conf.MAX_SHADE) * bg
            lo, hi = sorted((luminance(text), luminance(shaded)))
            assert (hi + 0.05) / (lo + 0.05) >= 4.5, (d, bg_name, (hi + 0.05) / (lo + 0.05))
    assert conf.shade(0.0) == conf.MAX_SHADE and conf.shade(1.0) == 0 and math.isclose(conf.shade(0.5),
                                                                                        conf.MAX_SHADE / 2, abs_tol=1e-3)
