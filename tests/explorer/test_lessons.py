"""The lesson path (explorer/lessons.py, explorer/views/lessons.py): every step of the five decks draws its
deck's example with the real view, in both languages; Previous / Next walk the whole course in order; a
step's link opens that step; the texts use the decks' words, never the variants the glossary forbids."""
import json

import pytest

from explorer import glossary, i18n, lessons
from explorer.views import lessons as views


def data_traces(fig) -> list:
    return [t for t in json.loads(fig.to_json())["data"]
            if any(t.get(k) not in (None, [], {}) for k in ("z", "x", "y", "cells"))]


def test_the_path_walks_every_step_once_in_the_decks_order():
    seen, step = [], lessons.FIRST
    while step:
        seen.append(step)
        step = lessons.neighbours(step)[1]
    assert seen == lessons.ORDER == [s.id for d in lessons.DECKS for s in d.steps]
    assert len(set(seen)) == len(seen) and [d.id for d in lessons.DECKS] == ["seq2seq", "attention", "transformer",
                                                                           "bert", "gpt"]
    back, step = [], lessons.ORDER[-1]
    while step:
        back.append(step)
        step = lessons.neighbours(step)[0]
    assert back == seen[::-1]


def test_every_step_names_a_drawing_and_a_tab_that_exist():
    for s in lessons.STEPS.values():
        assert s.view in views.RENDERERS, s.id
        assert s.tab in i18n.STRINGS and set(s.title) == set(s.text) == {"en", "ko"}, s.id


def test_an_unknown_link_opens_the_first_step():
    assert lessons.step("no-such-step").id == lessons.FIRST and lessons.step(None).id == lessons.FIRST


@pytest.mark.parametrize("step_id", lessons.ORDER)
def test_each_step_draws_its_example_with_numbers(step_id):
    v = views.lesson_view(step_id, "en")
    assert v.step == step_id and v.link == f"?lesson={step_id}"
    assert data_traces(v.figure), f"{step_id}: a blank figure"
    ko = views.lesson_view(step_id, "ko")
    assert ko.title != v.title and ko.text != v.text  # the Korean words, not the English ones


def test_the_texts_use_the_decks_words():
    for s in lessons.STEPS.values():
        for lang in ("en", "ko"):
            for bad in glossary.AVOID:
                assert bad not in s.text[lang] + s.title[lang], (s.id, bad)
    assert "어텐션 스코어 행렬" in lessons.STEPS["transformer-4"].title["ko"]
    assert "감정 분석" in lessons.STEPS["bert-6"].title["ko"]


def test_the_code_slide_shows_its_code_and_what_it_returns():
    from explorer.compute.pipeline import pipeline
    s = lessons.STEPS["bert-7"]
    assert 'pipeline("sentiment-analysis")' in s.text["en"] and 'pipeline("sentiment-analysis")' in s.text["ko"]
    table = views.lesson_view("bert-7", "en").figure.data[0].cells.values
    out = pipeline("sentiment-analysis")(list(lessons.PIPELINE_SENTENCES))
    assert list(table[0]) == list(lessons.PIPELINE_SENTENCES)
    assert list(table[1]) == [o["label"] for o in out] and list(table[2]) == [str(round(o["score"], 4)) for o in out]


def test_the_heads_off_slide_draws_the_ablation_numbers():
    from explorer.compute import ablation
    s = lessons.STEPS["bert-heads-off"]
    m = ablation.fill_mask_ablated(s.args["text"], s.args["heads_off"]).masks[0]
    before, after = views.lesson_view(s.id, "en").figure.data
    assert list(before.y)[: len(m.before)] == [t for t, _ in m.before]
    assert dict(zip(after.y, after.x)) == {**{t: 0.0 for t in after.y}, **dict(m.after)}
    assert m.before[0][0] != m.after[0][0]  # the slide's point: three heads off change the top word
