"""The Lessons tab (ui/tabs/lessons.py): Previous / Next, the deck selector, a step's link and the language
switch, through the tab's own handlers (outputs read by component)."""
from types import SimpleNamespace

import gradio as gr

import app
from explorer import lessons
from explorer.views import lessons as views

TAB = app.demo.tabs["lessons"]


def request(**params):
    return SimpleNamespace(query_params=params)


def test_the_lessons_tab_comes_first():
    assert app.TABS[0].__name__.endswith("lessons")


def test_next_and_previous_walk_the_course():
    out = TAB.go(lessons.FIRST, "en")
    assert out[TAB.current] == lessons.FIRST and out[TAB.neighbours] == lessons.neighbours(lessons.FIRST)
    nxt = TAB.go_next(out[TAB.neighbours], "en")
    assert nxt[TAB.current] == lessons.ORDER[1] and nxt[TAB.step]["value"] == lessons.ORDER[1]
    assert TAB.go_previous(nxt[TAB.neighbours], "en")[TAB.current] == lessons.FIRST
    assert TAB.go_previous(out[TAB.neighbours], "en") == gr.skip()  # the first step has no previous
    last = TAB.go(lessons.ORDER[-1], "en")
    assert TAB.go_next(last[TAB.neighbours], "en") == gr.skip()
    assert TAB.go_next(None, "en")[TAB.current] == lessons.ORDER[1]  # before the first screen: from the first step


def test_the_language_switch_leaves_a_step_that_has_not_arrived_alone():
    """A link (?lesson=transformer-4&lang=ko) moves the switch while its step is drawn: the redraw that the switch
    starts reads no step yet and changes nothing, so it cannot land over the link's step with the first one."""
    assert TAB.current.value is None and TAB.neighbours.value is None
    assert TAB.relabel(None, "ko") == gr.skip()
    drawn = TAB.relabel("transformer-4", "ko")  # a step on screen: redrawn in the new language
    assert drawn[TAB.current] == "transformer-4" and lessons.STEPS["transformer-4"].title["ko"] in drawn[TAB.title]


def test_choosing_a_deck_opens_its_first_slide_and_lists_its_slides():
    out = TAB.go_deck("transformer", "en")
    assert out[TAB.current] == "transformer-1" and out[TAB.deck]["value"] == "transformer"
    assert [v for _, v in out[TAB.step]["choices"]] == [s.id for s in lessons.DECKS[2].steps]


def test_a_link_opens_its_step_in_its_language_and_presenter_mode():
    out = TAB.from_url(request(lesson="transformer-4", lang="ko", presenter="1"), "en")
    assert out[TAB.current] == "transformer-4" and out[TAB.presenter] is True
    assert out[TAB.title] == views.lesson_text("transformer-4", "ko")[0]
    assert "?lesson=transformer-4" in out[TAB.link]
    assert TAB.from_url(request(), "en") == gr.skip()  # no link: the first screen stays
    assert TAB.from_url(request(lesson="nonsense"), "en") == gr.skip()


def test_the_language_switch_redraws_the_same_step():
    en, ko = TAB.go("bert-4", "en"), TAB.go("bert-4", "ko")
    assert en[TAB.current] == ko[TAB.current] == "bert-4" and en[TAB.title] != ko[TAB.title]
    assert [label for label, _ in ko[TAB.deck]["choices"]] == [label for label, _ in views.deck_choices("ko")]


def test_a_link_to_a_step_is_not_raced_by_the_first_screen():
    """The page opens on Lessons: its first screen (step 1) is sent on load, and so is the link's step; with
    ?lesson= the first screen stays away, or whichever lands last would win."""
    first = app.demo.first_screens
    entry = next(e for e in first.entries if e.tab == "lessons")
    assert entry.link == "lesson"
    states = [None] * len(entry.states)
    for on_load in (True, False):  # on page load, and after the switch's first move (?lang=ko)
        assert first._fill(entry, on_load)(request(lesson="transformer-4"), "ko", *states) == gr.skip()


def test_the_it_sentence_is_the_next_word_tabs_first_preset():
    """The deck's "it ... too tired" sentence opens the next-word tab's presets (ui/tabs/choices.py), in both languages,
    as the lesson step on it (attention-3) draws it: elle or il is the lesson."""
    from ui.components import Localized
    (dataset, row), = [(ds, row) for ds, view, row, _ in app.demo.localized.example_sets if view == "choices"]
    assert dataset.samples[0][0] == lessons.IT_SENTENCE
    for lang in ("en", "ko"):
        assert Localized.rows("choices", lang, row)[0][0] == lessons.IT_SENTENCE
    step = lessons.STEPS["attention-3"]
    assert step.view == "choices" and step.args["text"] == lessons.IT_SENTENCE
