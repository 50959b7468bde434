"""The tab contract in code (ui/tabs/__init__.py): the minimal tab a newcomer copies (ui/tabs/_example.py) builds,
runs, keeps its record server-side (the State holds a key, never the record), redraws in Korean from that record
without a model call, and imports only explorer.views and explorer.i18n of the explorer package."""
import ast
from pathlib import Path

import gradio as gr

from explorer import inference as inf
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
