"""The app's tabs, one module each; app.py lists them in TABS and `build_tabs` lays them out.

Adding a tab is one new module here plus one line in app.py's TABS. The smallest complete tab is
ui/tabs/_example.py (tests/ui/test_tab_contract.py builds and runs it): copy it, then

    # app.py
    TABS = [..., mytab, ...]                          # or inside a Group("tab.inside", [...]) of sub-tabs

Besides the module: its composition in explorer/views/<tab>.py (gradio-free), its strings in
explorer/i18n/<tab>.py (en and ko), and its tests in tests/ui/test_<tab>.py (the handlers, outputs read by
component: `out[tab.figure]`) and tests/explorer/test_<tab>.py (the view's numbers against the record).

A tab module defines
- `TITLE`: the i18n key of the tab's label (English and Korean in explorer/i18n/<tab>.py, as every string).
- `Tab(page)`: lays the tab out and wires its events and its language redraw. It keeps as attributes
  the components its handlers return and other tabs or tests read (`app.demo.tabs["gpt"].figure`).
  It may define `connect(self, page)`, run once every tab is built, for events that reach another
  tab's components through `page.tabs` (the BERT tab's Hub loader fills the other tabs' model lists).

Handlers
- are methods decorated with `ui.components.friendly`: a UserError reaches the page as its message in
  a warning toast and every output keeps what it showed; anything else as a generic message with the
  traceback in the log (tests check that every event's handler is friendly);
- return a dict keyed by component (`{self.figure: fig}`); a component left out keeps its value, and
  `gr.skip()` alone keeps them all;
- take the language switch (`page.lang`) as their last input, `lang`, and draw in that language;
- get their numbers from `explorer/views/<tab>.py` (gradio-free: record -> figures, tables, text,
  downloads), so the CLI, bench/ and the tests share them;
- run models in the shared queue (`concurrency_id="models"`) and stay off the public API
  (`api_visibility="private"`); the public endpoints are ui/api.py's only. Gradio names even a private
  event after its handler, so no handler is called translate, fill_mask or nsp: the public endpoint
  would become /translate_1 (test_app checks the public names);
- check their inputs before a run with a `validator=` (ui.components.validator, first_is_a_sentence).

Language: a component built with `page.L` relabels itself when the switch moves; what a tab has drawn
is redrawn by the handler it registers with `page.on_language(fn, inputs, outputs)`, from the record it
keeps (no model call: tests/ui/test_tab_contract.py counts torch calls on every tab's switch). A results table built with
`page.L.table` gets its headers in the new language while it is still empty.

First screen: no tab opens blank. `page.first_screen(fn, inputs, outputs)` names the handler that draws the
tab's default example (its button's, with the same outputs, its States included) and the inputs it runs on;
their values as built are the example. It is computed once per language for all visitors, in a background
thread after launch, and sent when the tab is opened (ui/first_screen.py; tests/ui/test_first_screen.py
checks every tab of app.TABS). A generator handler's last update is the screen.

Downloads: `downloads(L)` is a gr.State for the view's `files` (explorer.serve.downloads.Downloads: nothing written
yet), shown as a "Prepare the downloads" button and the list of files it writes; a handler returns
`{self.files: v.files}` like any output, and a new result empties the list (a run or a slider move writes no file:
every result's files would fill the server's disk under a class of visitors).
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, field
from types import ModuleType

import gradio as gr

from explorer import views
from ui.components import Localized, friendly
from ui.first_screen import FirstScreens


@dataclass
class Group:
    """A tab of sub-tabs (Inside attention, Training): its label's i18n key and its tab modules, in order."""
    title: str
    tabs: list


@dataclass
class Page:
    """What a tab is built with: the model registry, the labeller, the language switch, the tabs built
    before it (by module name), and the gr.Tab it sits in (and its group's, for "opened" events)."""
    reg: object  # explorer.compute.inference.Registry: every checkpoint, loaded once
    L: Localized
    lang: gr.Radio  # the language switch: its value ("en" or "ko"; the labels read English, 한국어) is every handler's last input
    tabs: dict = field(default_factory=dict)  # module name ("beam", "query_key") -> its Tab
    tab: gr.Tab | None = None  # the gr.Tab being built
    group: gr.Tab | None = None  # the group's gr.Tab holding it, if any
    name: str | None = None  # the module name of the tab being built
    first: FirstScreens = field(default_factory=FirstScreens)  # every tab's first screen (ui/first_screen.py)

    def on_language(self, fn, inputs, outputs, **kwargs):
        """Redraw what `fn` returns when the language switch moves (its last input is the switch). A redraw
        from States alone, on a first screen nobody has changed, is the cached screen in the new language."""
        kwargs.setdefault("show_progress", "hidden")
        inputs = list(inputs) if isinstance(inputs, (list, tuple)) else [inputs]
        fn = self.first.guard(self.name, fn, inputs, outputs)
        return self.lang.change(fn, inputs, outputs, api_visibility="private", **kwargs)

    def first_screen(self, fn, inputs, outputs, at_build: bool = False, link: str | None = None, korean=None):
        """What the tab shows before anyone presses a button: `fn` (the handler its button runs) on `inputs`'
        values as built (its last input is the switch), computed once per language for every visitor.
        `at_build`: drawn now, into the components' values as built, in English (a view that only reads small
        files, as the training snapshots and BLEU by length do); the switch redraws it like any result. `link`: a
        query parameter (?lesson=) whose presence means the page opens on another screen of this tab, drawn by the
        tab's own load event: then no first screen is sent (it would race that one). `korean`: {input: value} for
        the Korean screen, a Korean model's example where one exists (the Korean interface opens on Korean)."""
        if at_build:
            return self.first.draw_now(fn, inputs, outputs)
        return self.first.add(self.name, fn, inputs, outputs, self.tab, link, korean)


class TabBase:
    """What every tab does the same way; a tab module's `Tab(page)` subclasses it.

    - Records: a result's record lives in the server-side cache (explorer/serve/cache.py: a byte budget and a time
      limit); the tab's `gr.State` (`self.record_state()`) holds only its key: a handler returns
      `{self.record: self.keep(v.record)}`, never the record itself. Inside a first screen, which every visitor
      shares, `keep` gives the record itself (one copy, kept by ui/first_screen.py).
    - The language switch redraws what a run drew from its kept record, with the view's `*_redraw` / `*_render`
      (no model call): a method decorated with `from_record` takes the record where the State holds its key,
      registered with `page.on_language(self.relabel, [self.record, ..., page.lang], outputs)`.
    - The first screen: `page.first_screen(handler, inputs, outputs)`, the button's handler on the inputs as
      built; `at_build=True` for a view drawn while the page is built.
    """

    @staticmethod
    def record_state() -> gr.State:
        """The State a tab keeps its last result in: the key of its record in explorer.serve.cache (None: no result)."""
        return gr.State(None)

    @staticmethod
    def keep(record):
        """What a record State holds for `record`: its key in the server-side cache (the record itself inside a
        first screen every visitor shares)."""
        return views.keep(record)

    @staticmethod
    def stored(key, default=None):
        """The record of `key` (a record itself passes through), or `default` when it is gone or there is none."""
        return views.stored(key, default)


def from_record(fn=None, *, ask: bool = False):
    """A friendly handler whose first input is a record State (`TabBase.record_state`): `fn` gets the record,
    looked up in the server-side cache. With none (no result yet, or dropped after its time limit) nothing on
    screen changes (the language switch). With `ask` (a slider that redraws the result on screen), `fn` draws
    its placeholder when there is no result yet, and a record that is gone asks the visitor to run it again."""
    if fn is None:
        return functools.partial(from_record, ask=ask)

    @functools.wraps(fn)
    def handler(self, key, *args, **kwargs):
        if ask:
            return fn(self, views.stored(key), *args, **kwargs)
        record = views.stored(key, None)
        return gr.skip() if record is None else fn(self, record, *args, **kwargs)
    return friendly(handler)


def tab_name(module: ModuleType) -> str:
    return module.__name__.rsplit(".", 1)[-1]


def build_tabs(page: Page, entries: list) -> dict:
    """Lay out `entries` (tab modules and Groups) as tabs, then run each tab's `connect`; returns page.tabs."""
    _build(page, entries, None)
    for tab in page.tabs.values():
        if hasattr(tab, "connect"):
            tab.connect(page)
    return page.tabs


def _build(page: Page, entries: list, group: gr.Tab | None) -> None:
    for entry in entries:
        if isinstance(entry, Group):
            with page.L(gr.Tab, entry.title) as g:
                _build(page, entry.tabs, g)
            continue
        with page.L(gr.Tab, entry.TITLE) as t:
            page.tab, page.group, page.name = t, group, tab_name(entry)
            page.first.tab_built(t, group)
            page.tabs[tab_name(entry)] = entry.Tab(page)
    page.tab = page.group = page.name = None
