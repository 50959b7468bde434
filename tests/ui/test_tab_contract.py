"""The tab contract in code (ui/tabs/__init__.py): the minimal tab a newcomer copies (ui/tabs/_example.py) builds,
runs, keeps its record server-side (the State holds a key, never the record), redraws in Korean from that record
without a model call, and imports only explorer.views and explorer.i18n of the explorer package."""
import ast
from pathlib import Path

import gradio as gr
import pytest

from explorer.compute import inference as inf
from explorer import i18n
from ui.components import Localized
from ui.tabs import Page, _example, build_tabs

ROOT = Path(__file__).resolve().parents[2]


def build():
    with gr.Blocks() as demo:
        lang = gr.Radio([("English", "en"), ("한국어", "ko")], value="en")
        tabs = build_tabs(Page(inf.registry(), Localized(), lang), [_example])
    return demo, tabs["_example"]


def test_the_minimal_tab_runs_keeps_a_key_and_redraws_from_its_record(monkeypatch):
    _, tab = build()
    out = tab.show("The students opened their", "en")
    key = out[tab.record]
    record = tab.stored(key)
    assert isinstance(key, str) and record is not None and record is not key  # a key in the State, the record in the cache
    title_en = out[tab.figure].layout.title.text
    calls = []
    monkeypatch.setattr(inf, "registry", lambda: calls.append(1) or (_ for _ in ()).throw(AssertionError("a model call")))
    ko = tab.relabel(key, "ko")[tab.figure]
    assert not calls and ko.layout.title.text != title_en  # the same numbers, drawn in Korean, from the record
    assert [list(t.y) for t in ko.data] == [list(t.y) for t in out[tab.figure].data]
    assert tab.relabel(None, "ko") == gr.skip()  # nothing on screen yet: nothing to redraw


def test_the_minimal_tab_imports_only_views_and_strings():
    tree = ast.parse((ROOT / "ui" / "tabs" / "_example.py").read_text(encoding="utf-8"))
    imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    explorer = {m for m in imported if m and m.startswith("explorer")}
    assert explorer <= {"explorer.views", "explorer.i18n"} | {m for m in explorer if m.startswith("explorer.views")}
    assert _example.TITLE in i18n.STRINGS


def test_the_contract_docstring_points_at_the_example():
    doc = (ROOT / "ui" / "tabs" / "__init__.py").read_text(encoding="utf-8").split('"""')[1]
    assert "ui/tabs/_example.py" in doc and "views.gpt_view(text, lang)" not in doc


# ----------------------------------------------------------------------------- every tab of the app

def _app_tabs() -> list[str]:
    import app  # builds the demo, loading the registry once (shared with the other tests of the session)
    return list(app.demo.tabs)


def _language_redraws(demo, tab: str) -> list:
    """The events the language switch fires that `tab`'s module registered (page.on_language)."""
    switch = demo.first_screens.entries[0].inputs[-1]  # every first screen's last input
    return [f for f in demo.fns.values() if (switch._id, "change") in f.targets and f.fn is not None
            and getattr(f.fn, "__module__", "") == f"ui.tabs.{tab}"]


@pytest.mark.parametrize("tab", _app_tabs())
def test_the_language_switch_redraws_every_tab_without_a_model_call(tab, monkeypatch):
    """Each tab's first screen drawn in English, then every language redraw the tab registered, fed the States
    that screen left (a record, or its key), in Korean: no torch module runs, and something is drawn. (A tab drawn
    at build time, as BLEU by length, has no first screen entry: its redraw gets the components as built.)"""
    import torch
    from ui.first_screen import default_value

    import app
    demo = app.demo
    states = {}
    for entry in (e for e in demo.first_screens.entries if e.tab == tab):
        states.update({c: v for c, v in demo.first_screens.compute(entry, "en").items() if isinstance(c, gr.State)})
    redraws = _language_redraws(demo, tab)
    assert redraws, f"{tab} registers no language redraw (page.on_language)"
    calls = []
    forward = torch.nn.Module.__call__

    def counted(module, *args, **kwargs):
        calls.append(type(module).__name__)
        return forward(module, *args, **kwargs)
    monkeypatch.setattr(torch.nn.Module, "__call__", counted)
    drawn = []
    for f in redraws:
        out = f.fn(*[states.get(c, default_value(c)) for c in f.inputs[:-1]], "ko")
        if not (isinstance(out, dict) and list(out) == ["__type__"]):  # gr.skip(): nothing to redraw
            drawn += list(out.values()) if isinstance(out, dict) else [out]
    assert not calls, f"{tab}'s language switch ran {sorted(set(calls))}"
    assert drawn, f"{tab}'s language switch drew nothing from its first screen's States"
