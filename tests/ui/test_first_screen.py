"""Every tab opens with its default example drawn (ui/first_screen.py): the events that fill
the first screens return figures that hold data and tables with rows, in English and Korean; the cached
screen is the same as a fresh run of the tab's handler, also after every redraw the page can run on the
shared record; a language switch on an unchanged first screen is the cached screen, not a model run."""
import copy
import json

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import pytest

gr = pytest.importorskip("gradio")

import app  # noqa: E402  (builds the demo, loading the registry once)
from gradio.components.plot import PlotData  # noqa: E402
from explorer.compute import inference as inf  # noqa: E402
from ui import first_screen as fsm  # noqa: E402
from ui.tabs import Group  # noqa: E402

FS = app.demo.first_screens
LANG_SWITCH = FS.entries[0].inputs[-1]  # every first screen's last input
needs = pytest.mark.skipif(
    not {"transformer-en-fr", "seq2seq-general", "seq2seq-dot", "bert"} <= set(inf.registry().names()),
    reason="the shipped checkpoints under assets/ did not load")
LANGS = ["en", "ko"]


def tab_modules(entries=app.TABS):
    for e in entries:
        yield from (tab_modules(e.tabs) if isinstance(e, Group) else [e])


def name(module) -> str:
    return module.__name__.rsplit(".", 1)[-1]


def traces_with_data(plot) -> list:
    """The traces of a figure (as cached: the JSON Gradio sends) that hold numbers."""
    fig = json.loads(plot.plot) if isinstance(plot, PlotData) else plot.to_plotly_json()
    return [t for t in fig.get("data", []) if any(np.asarray(t.get(k, []), dtype=object).size
                                                  for k in ("z", "y", "x", "values"))]


def numbers(screen: dict) -> dict:
    """What a screen shows, comparably: each figure's JSON, each table's cells, each text; by component id."""
    out = {}
    for c, v in screen.items():
        if isinstance(v, PlotData):
            out[c._id] = v.plot
        elif isinstance(v, pd.DataFrame):
            out[c._id] = v.to_json()
        elif isinstance(v, (str, int, float)) or v is None:
            out[c._id] = v
    return out


@needs
@pytest.mark.parametrize("lang", LANGS)
def test_every_tab_opens_with_its_default_example_drawn(lang):
    """A tab with results to draw has a first screen (or draws its first view as the page is built: BLEU by
    length, snapshots, the models table); each figure of it holds data, each table has rows."""
    by_tab = {}
    for entry in FS.entries:
        by_tab.setdefault(entry.tab, []).append(entry)
    drawn_at_build = {"length", "snapshots", "models"}
    for module in tab_modules():
        tab = app.demo.tabs[name(module)]
        if name(module) in drawn_at_build:
            plots = [c for c in vars(tab).values() if isinstance(c, gr.Plot)]
            assert all(p.value for p in plots), name(module)
            continue
        assert name(module) in by_tab, f"{name(module)} opens blank: no page.first_screen"
        screen = {}
        for entry in by_tab[name(module)]:
            one = FS.screen(entry, lang)
            assert one, f"{name(module)}'s first screen failed in {lang} (see the log)"
            screen.update(one)
        # every plot the tab keeps as an attribute is drawn (the inside tab's per-part plots: only its parts shown)
        for attr, c in vars(tab).items():
            if isinstance(c, gr.Plot) and (name(module), attr) != ("live", "loss"):  # untrained: no loss yet
                assert c in screen and traces_with_data(screen[c]), f"{name(module)}.{attr} is blank in {lang}"
        for c, v in screen.items():
            if isinstance(v, PlotData) and c is not getattr(tab, "loss", None):
                assert traces_with_data(v), f"{name(module)}: a figure without data in {lang}"
            if isinstance(c, gr.Dataframe) and isinstance(v, pd.DataFrame):
                assert len(v), f"{name(module)}: an empty table in {lang}"
            if isinstance(c, gr.State):
                assert v is not None, f"{name(module)}: no record for the language switch and the redraws"
            assert not isinstance(c, gr.File), "a cached download would be deleted after an hour"


@needs
def test_the_page_events_fill_each_tab_once_and_in_the_visitors_language():
    """The tab the page opens on is filled on load; every other when it is opened; a tab that shows a result keeps
    it; a link's ?lang=ko leaves the load to the switch (filled after its empty-table headers, in Korean)."""
    events = [f for f in app.demo.fns.values() if getattr(f.fn, "__module__", "") == fsm.__name__]
    on_load = [f for f in events if any(e == "load" for _, e in f.targets)]
    opening = [e for e in FS.entries if e.block is FS.opening]
    assert opening and len(on_load) == len(opening)
    assert {e.tab for e in opening} == {name(next(tab_modules()))}
    after_switch = [f for f in events if f.trigger_after is not None]
    assert len(after_switch) == len(opening)
    headers = app.demo.fns[after_switch[0].trigger_after]
    assert headers.fn.__name__ == "_headers_of_empty_tables"  # so that empty headers never land over a screen
    selected = {b for f in events for b, e in f.targets if e == "select"}
    for entry in FS.entries:
        if entry.block is not FS.opening:
            assert entry.block._id in selected, entry.tab
    fill, = [f for f in on_load]
    empty = [None] * (len(fill.inputs) - 1)  # the tab's States as the page was built
    screen = fill.fn(None, "en", *empty)
    assert {c._id for c in screen} == {c._id for c in fill.outputs}

    class Link:
        query_params = {"lang": "ko-KR"}
        session_hash = None
    assert fill.fn(Link(), "en", *empty) == gr.skip()
    after = after_switch[0]
    korean = after.fn(None, "ko", *empty)
    assert numbers(korean) == numbers(FS.screen(opening[0], "ko")) != numbers(screen)
    assert after.fn(None, "ko", *(["a result"] * len(empty))) == gr.skip()


def test_a_first_screen_still_computing_when_the_visitors_own_run_lands_is_dropped(monkeypatch):
    """A class presses Translate in a tab whose first screen the warming has not reached: their result lands first,
    and the first screen, arriving after it, must not replace it (the session's States changed meanwhile)."""
    from gradio.state_holder import StateHolder
    entry = next(e for e in FS.entries if e.tab == "seq2seq")
    fill = FS._fill(entry, on_load=False)
    holder = StateHolder()
    holder.set_blocks(app.demo)  # what launching does: the app's sessions' States

    class Visitor:
        query_params = {}
        session_hash = "a-visitor"
    session = holder[Visitor.session_hash]
    began = [None] * len(entry.states)
    for c, v in zip(entry.states, began):  # as Gradio reads the States when the event begins
        session[c._id] = v
    real = FS.screen
    screen = real(entry, "en")
    assert screen and fill(Visitor(), "en", *began) == screen  # nothing landed meanwhile: the screen

    def computed_while_the_run_lands(e, lang):
        session[entry.states[0]._id] = "the visitor's own record"  # what their run's outputs write
        return real(e, lang)
    monkeypatch.setattr(FS, "screen", computed_while_the_run_lands)
    assert fill(Visitor(), "en", *began) == gr.skip()
    holder.session_data.pop(Visitor.session_hash)
    assert fill(Visitor(), "en", *began) == screen  # a session Gradio no longer keeps: nothing known, drawn


def shown_value(c, screen: dict):
    """What the page sends from `c` once the first screen is drawn: the screen's value (a slider's update: its
    value), else the value it was built with."""
    if isinstance(c, gr.State):
        return screen.get(c)
    if c in screen:
        v = screen[c]
        return v.value if isinstance(v, gr.components.Component) else v
    return fsm.default_value(c)


def _fresh(entry, lang):
    return FS.compute(entry, lang)


@needs
@pytest.mark.parametrize("lang", LANGS)
def test_the_cached_screen_is_a_fresh_run_even_after_the_redraws_on_its_record(lang):
    """Each event of the page that reads a first screen's record (another step, layer, head, query, hypothesis,
    the language switch) runs on the shared cached one; afterwards the cache still equals a fresh run of the
    tab's handler. A view writing into the shared arrays would raise (they are read-only)."""
    cached = {id(e): FS.screen(e, lang) for e in FS.entries}
    ran = 0
    for f in app.demo.fns.values():
        for entry in FS.entries:
            states = set(entry.states)
            if getattr(f.fn, "__module__", "") == fsm.__name__ or not states & set(f.inputs):
                continue
            if any(isinstance(c, gr.State) and c not in states for c in f.inputs) or f.fn is None:
                continue
            args = [shown_value(c, cached[id(entry)]) for c in f.inputs]
            if f.inputs and f.inputs[-1] is LANG_SWITCH:
                args[-1] = {"en": "ko", "ko": "en"}[lang]  # the switch moves to the other language
            out = f.fn(*args)
            if hasattr(out, "__next__"):  # a generator (live training): not a redraw of the record
                out.close()
                continue
            ran += 1
    assert ran >= len(FS.entries)
    for entry in FS.entries:
        assert numbers(FS.screen(entry, lang)) == numbers(_fresh(entry, lang)), entry.tab
        for c, v in FS.screen(entry, lang).items():
            if isinstance(c, gr.State):
                assert v is cached[id(entry)][c]  # the same object, which every visitor shares


def _arrays(value, seen=None):
    seen = set() if seen is None else seen
    if id(value) in seen:
        return
    seen.add(id(value))
    if isinstance(value, np.ndarray):
        yield value
    elif hasattr(value, "__dataclass_fields__"):
        for k in value.__dataclass_fields__:
            yield from _arrays(getattr(value, k), seen)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _arrays(v, seen)
    elif isinstance(value, dict):
        for v in value.values():
            yield from _arrays(v, seen)


@needs
def test_what_every_visitor_shares_cannot_be_changed_by_one():
    """Figures are kept as the JSON Gradio sends (a string); every array in a cached record is read-only."""
    for entry in FS.entries:
        screen = FS.screen(entry, "en")
        assert not any(isinstance(v, go.Figure) for v in screen.values())
        for c in entry.states:
            arrays = list(_arrays(screen[c]))
            assert all(not a.flags.writeable for a in arrays), entry.tab
            if arrays:
                with pytest.raises(ValueError):
                    arrays[0].ravel()[:1] = 0


@needs
def test_a_language_switch_on_an_unchanged_first_screen_is_the_cached_screen():
    """The views that keep only their arguments (score functions, query-key, ...) would run their model again
    on a switch; on a first screen nobody changed, the switch returns the other language's cached screen, which
    is what running them again gives."""
    switch = [f for f in app.demo.fns.values() if getattr(f.fn, "__name__", "") == "relabel"
              and len(f.inputs) == 2 and isinstance(f.inputs[0], gr.State)]
    guarded = 0
    for f in switch:
        entry = next((e for e in FS.entries if f.inputs[0] in e.states), None)
        if entry is None or entry.korean:  # a Korean example: the switch redraws the record on screen instead
            continue
        en, ko = FS.screen(entry, "en"), FS.screen(entry, "ko")
        out = f.fn(en[f.inputs[0]], "ko")
        assert out and all(out[o] is ko[o] for o in out), entry.tab  # a lookup
        run = {o: v for o, v in f.fn.__wrapped__(en[f.inputs[0]], "ko").items() if not isinstance(o, gr.File)}
        assert set(out) == set(run), entry.tab  # the redraw would change nothing the cached screen leaves out
        assert numbers(out) == numbers({o: fsm.freeze(v) for o, v in run.items()}), entry.tab
        kept = en[f.inputs[0]]  # arguments (a view run again) or a record (redrawn from it)
        changed = (list(kept) if isinstance(kept, list) else "".join(list(kept)) if isinstance(kept, str)
                   else copy.copy(kept))  # another object (a lesson's step id: another string): not the cache
        assert f.fn(changed, "ko")[f.outputs[0]] is not ko.get(f.outputs[0])
        guarded += 1
    assert guarded >= 7  # lessons, scores, query-key, positional, inside, luong, choices, bert_inputs x2


@needs
def test_the_korean_interface_opens_on_a_korean_models_example():
    """Where a Korean model exists, the Korean first screen runs it on a Korean sentence and puts that sentence in
    the inputs; the English screen leaves the inputs alone (they hold the English example as built, or what a visitor
    typed or clicked before the screen arrived, which it must not replace)."""
    korean = [e for e in FS.entries if e.korean]
    assert {e.tab for e in korean} >= {"transformer"}  # ko-en ships; bert-ko's tabs where it ships
    for entry in korean:
        en, ko = FS.screen(entry, "en"), FS.screen(entry, "ko")
        for c, value in entry.korean:
            assert ko[c] == value and c not in en, (entry.tab, value)
        assert numbers(ko) != numbers(en), entry.tab
        inputs = dict(entry.korean)  # what the Korean screen shows is the handler run on the Korean example
        args = [inputs.get(c, fsm.default_value(c)) for c in entry.inputs[:-1]] + ["ko"]
        fresh = fsm._merged(entry.fn(*args))
        drawn = {c: fsm.freeze(v) for c, v in fresh.items() if isinstance(v, go.Figure)}
        assert numbers(drawn) == numbers({c: ko[c] for c in drawn}), entry.tab
