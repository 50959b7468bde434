"""A first screen with results: every tab opens with its default example already drawn.

A tab registers what it shows before anyone presses a button with `page.first_screen(fn, inputs, outputs)`:
the handler its button runs, on the inputs' values as the page was built (the default example) and in the
visitor's language. `FirstScreens` computes each of them once per language, in one background thread, and
keeps the outputs, so a visit costs a dictionary lookup, not a model run, and many visitors do not multiply the
work. The first visit starts it: the tab it opens first, then every other tab in English and in Korean
(`warm`), so that the next tabs opened are lookups. Not at launch: a server nobody has visited has read no model weights
(explorer.compute.inference.registry); warming reads the ones the first screens use and adds about 300 MB, 236 MiB of it
those weights (docs/performance.md, start-up).

What is kept is shared by every visitor, so it is made immutable: figures as the JSON Gradio sends
(`PlotData`: a string), numpy arrays of the records read-only (a view that wrote into one would raise
instead of changing every visitor's first screen; tests/ui/test_first_screen.py checks the cache against a
fresh run after the tabs' redraws). A screen's downloads are kept as what they are made from (a view's
`files`, explorer/serve/downloads.py): the download button writes them when a visitor presses it, never a path that
the disk budget's clean-up would have deleted.

Events (app.py calls `wire`): the tab the page opens on is filled on page load, in the switch's language,
unless the link asks for another (?lang=ko): then after the switch has moved and written the empty tables'
headers (so that those never land over a first screen). Every other tab is filled when it is opened, if it
still shows nothing: a visit receives only the tabs it opens. A screen that was still being computed when the
visitor's own run of the tab landed (a class presses Translate before the warming reached the tab) is dropped, not
drawn over their result (`_run_landed`). A language switch on a first screen nobody has
changed is a lookup too (`guard`), for the views that keep only their arguments and would run their model again.
"""
from __future__ import annotations

import ctypes
import dataclasses
import functools
import gc
import inspect
import itertools
import logging
import os
import queue
import threading
from concurrent.futures import Future

import gradio as gr
import numpy as np
import plotly.graph_objects as go
from gradio.components.plot import PlotData

from explorer import i18n
from explorer.serve.cache import shared
from ui import gradio_patches
from ui.components import friendly

log = logging.getLogger("attention_explorer")

LANGS = i18n.LANGS  # "en", "ko": the switch's values, the order `warm` computes them in
NICE = 10  # the warming thread yields the CPU to visitors' requests (Linux: a thread's own priority)


@dataclasses.dataclass(frozen=True, eq=False)  # an entry is itself: compared by identity
class Entry:
    """One tab's first screen: `fn(*defaults, lang)`, whose dict keyed by component fills `outputs`."""
    tab: str  # the tab module's name ("seq2seq"); a tab may have several entries (bert_inputs: two views)
    fn: object
    inputs: tuple  # components; the last one is the language switch
    outputs: tuple
    block: object = None  # the gr.Tab it is drawn in: opening it fills it
    link: str | None = None  # a query parameter that asks for another screen (?lesson=): with it, no first screen
    korean: tuple = ()  # ((input component, value), ...): the Korean screen's example (a Korean model's sentence)

    @property
    def states(self) -> list:
        return [c for c in self.outputs if isinstance(c, gr.State)]

    @property
    def shown(self) -> list:
        """The outputs a first screen fills: not the downloads (see the module's docstring); with a Korean
        example, the inputs it sets too (the Korean screen puts its example in them)."""
        own = [c for c in self.outputs if not isinstance(c, gr.File)]
        return own + [c for c, _ in self.korean if c not in own]


def default_value(component):
    """What a handler receives from `component` as the page was built (Gradio keeps its value postprocessed)."""
    value = getattr(component, "value", None)
    if isinstance(component, gr.State):
        return value
    try:
        return component.preprocess(value)
    except Exception:  # noqa: BLE001 - e.g. a dropdown whose choices are filled by its first run
        return value


def set_initial(component, value) -> None:
    """`component`'s value as built, as its constructor would have set it from `value`."""
    if isinstance(component, gr.State):
        component.value = value
        return
    value = component.postprocess(value)
    component.value = value.model_dump() if hasattr(value, "model_dump") else value


def freeze(value, _seen=None):
    """`value` made safe to share between visitors: a figure as its JSON (what Gradio sends), arrays read-only."""
    if isinstance(value, go.Figure):
        return PlotData(type="plotly", plot=value.to_json())
    _seen = set() if _seen is None else _seen
    if id(value) in _seen:
        return value
    _seen.add(id(value))
    if isinstance(value, np.ndarray):
        value.flags.writeable = False
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            freeze(getattr(value, f.name), _seen)
    elif isinstance(value, (list, tuple)):
        for v in value:
            freeze(v, _seen)
    elif isinstance(value, dict):
        for v in value.values():
            freeze(v, _seen)
    return value


def _merged(out):
    """A generator handler's updates (GPT, live training) merged: what the page shows once it has finished."""
    if not inspect.isgenerator(out):
        return out
    merged = {}
    for update in out:
        if isinstance(update, dict):
            merged.update(update)
    return merged


def _give_back_freed_memory() -> None:
    """The forward passes' freed buffers back to the system (glibc keeps them): 20-40 MB of RSS after the
    warming (docs/performance.md). Elsewhere nothing happens."""
    gc.collect()
    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass


def link_language(request) -> str | None:
    """The language a link asks for (?lang=ko), as ui.components.language_from_url reads it; None: none."""
    if request is None:
        return None
    code = (request.query_params.get("lang") or "").strip().lower().split("-")[0]
    return code if code in LANGS else None


class FirstScreens:
    """Every tab's first screen, computed once per language by one background thread and kept."""

    def __init__(self):
        self.entries: list[Entry] = []
        self._done: dict[tuple[int, str], Future] = {}  # (entry index, lang) -> its screen (a dict)
        self._lock = threading.Lock()
        self._todo: queue.PriorityQueue = queue.PriorityQueue()
        self._order = itertools.count()
        self._worker: threading.Thread | None = None
        self._warming = False  # whether `warm` has queued every screen (the first visit does)
        self.opening = None  # the gr.Tab the page opens on
        self.leads: dict[int, tuple] = {}  # id(a group's gr.Tab) -> (the group, the sub-tab it opens on)
        self._root = None  # the Blocks the events are wired in (`wire`): its sessions' States (`_run_landed`)

    def add(self, tab: str, fn, inputs, outputs, block=None, link: str | None = None, korean=None) -> Entry:
        entry = Entry(tab, fn, tuple(inputs), tuple(outputs), block, link, tuple((korean or {}).items()))
        self.entries.append(entry)
        return entry

    def draw_now(self, fn, inputs, outputs) -> dict:
        """A first screen drawn while the page is built: `fn` on the inputs' values in English, written into the
        outputs' values as built (shared by every visitor: a record stays itself, not a key). A failure leaves
        them empty: the tab still works through its button and the switch."""
        args = [default_value(c) for c in inputs[:-1]] + [LANGS[0]]
        try:
            with shared():
                out = _merged(fn(*args))
        except Exception:  # noqa: BLE001 - e.g. a missing metrics file
            log.exception("could not draw %s while the page was built", getattr(fn, "__name__", fn))
            return {}
        out = out if isinstance(out, dict) else {}
        for c, value in out.items():
            if c in outputs:
                set_initial(c, value)
        return out

    def tab_built(self, block, group=None) -> None:
        """Called by ui.tabs.build_tabs for each tab, in page order: which tab opens first, and in each group."""
        if self.opening is None:
            self.opening = block
        if group is not None:
            self.leads.setdefault(id(group), (group, block))

    # ------------------------------------------------------------------ the cache

    def compute(self, entry: Entry, lang: str) -> dict:
        """A fresh run of `entry` on its defaults in `lang` (no cache): its outputs, made immutable."""
        example = dict(entry.korean) if lang == "ko" else {}  # the Korean interface opens on a Korean example
        args = [example.get(c, default_value(c)) for c in entry.inputs[:-1]] + [lang]
        with shared():  # a record is kept as itself, not as a key in explorer.serve.cache (one copy, for everyone)
            out = _merged(entry.fn(*args))
        if not isinstance(out, dict):
            raise TypeError(f"{entry.tab}'s first screen returned {type(out).__name__}, not a dict by component")
        shown = set(entry.shown)
        screen = {c: freeze(v) for c, v in out.items() if c in shown}
        for c, value in example.items():  # the Korean screen's inputs hold its Korean example; the English screen
            screen.setdefault(c, value)  # leaves them alone: they hold its example as built, or what a visitor typed
        return screen

    def screen(self, entry: Entry, lang: str) -> dict:
        """`entry`'s first screen in `lang`: computed once (by the background thread), then a lookup. A screen
        that could not be computed is {} (the tab keeps its empty outputs and still works through its button).
        The first call also queues every other first screen, behind this one."""
        future = self._future(entry, lang, priority=0)
        if not self._warming and os.environ.get("ATTN_EXPLORER_WARM", "1") != "0":  # 0: each screen on demand
            self._warming = True
            self.warm()
        return future.result()

    def _future(self, entry: Entry, lang: str, priority: int) -> Future:
        key = (self.entries.index(entry), lang)
        with self._lock:
            future = self._done.get(key)
            if future is None:
                future = self._done[key] = Future()
            if not future.done():  # asked again, maybe sooner (a visitor before the warming reached it)
                self._todo.put((priority, next(self._order), key))
            if self._worker is None:
                self._worker = threading.Thread(target=self._work, name="first-screens", daemon=True)
                self._worker.start()
        return future

    def _work(self):
        try:
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), NICE)
        except (AttributeError, OSError):  # not Linux, or not allowed: run at the process's priority
            pass
        computed = False
        while True:
            _, _, (i, lang) = self._todo.get()
            future = self._done[(i, lang)]
            if not future.done():
                entry = self.entries[i]
                try:
                    future.set_result(self.compute(entry, lang))
                except Exception:  # noqa: BLE001 - a model that did not load: the tab stays empty until its button
                    log.exception("could not compute the first screen of %s in %s", entry.tab, lang)
                    future.set_result({})
                computed = True
            if computed and self._todo.empty():
                _give_back_freed_memory()
                computed = False

    def warm(self, langs=LANGS) -> None:
        """Compute every first screen in the background, tab by tab in page order, every English one first, then
        the Korean ones (the course's students: a ?lang=ko link found its tab cold behind the English warming and
        waited 11.9 s; the Korean screens add about 8 MB, docs/performance.md)."""
        for lang in langs:
            for entry in self.entries:
                self._future(entry, lang, priority=1)

    def cached(self, entry: Entry, lang: str) -> dict | None:
        future = self._done.get((self.entries.index(entry), lang))
        return future.result() if future is not None and future.done() else None

    # ------------------------------------------------------------------ events

    def wire(self, lang: gr.Radio, after_switch) -> None:
        """The events that fill the first screens. The tab the page opens on: on page load, and after the switch's
        first move (`after_switch`: the event writing the empty tables' headers) where a link asked for another
        language. Every other tab when it is opened (its own gr.Tab, or its group's when it is the group's
        first): a visit sends only the tabs it opens (all of them are 3.4 MB of figures, docs/performance.md)."""
        root = self._root = gr.context.Context.root_block
        run = dict(concurrency_id="first-screen", concurrency_limit=4, api_visibility="private")
        for entry in self.entries:
            shown, fill, states = entry.shown, self._fill(entry, on_load=False), [lang, *entry.states]
            if entry.block is self.opening:
                root.load(self._fill(entry, on_load=True), states, shown, **run)
                after_switch.then(fill, states, shown, show_progress="hidden", **run)
            opened_by = [entry.block] + [g for g, lead in self.leads.values() if lead is entry.block]
            for block in opened_by:
                if block is not None and block is not self.opening:
                    block.select(fill, states, shown, show_progress="minimal", **run)

    def _fill(self, entry: Entry, on_load: bool):
        """The handler of an event that sends `entry`'s first screen: on page load (`on_load`), or when its tab is
        opened / after the switch's first move, if the tab still shows nothing (its States as the event began)."""
        @friendly
        def first_screen(request: gr.Request, lang, *states):
            if entry.link and request is not None and request.query_params.get(entry.link):
                return gr.skip()  # the link's own screen is drawn by the tab's load event (it would race this one)
            if on_load:
                asked = link_language(request)
                if asked is not None and asked != lang:
                    return gr.skip()  # the switch is about to move: filled after it
            elif any(s is not None for s in states):
                return gr.skip()  # the tab shows a result already (its own language redraw follows the switch)
            screen = self.screen(entry, lang)
            if not screen or self._run_landed(entry, request, states):
                return gr.skip()
            return screen
        return first_screen

    def _run_landed(self, entry: Entry, request, before) -> bool:
        """Whether the visitor's own run of the tab (its button, an example, a link) wrote the tab's States while its
        first screen was computed: a screen that arrives after the visitor's result must not replace it. `before`:
        the States as the event began (Gradio reads them from the session; unchanged, they are the same objects)."""
        now = gradio_patches.session_states(self._root, getattr(request, "session_hash", None), entry.states)
        if now is None:
            return False
        return any(n is not gradio_patches.UNSET and n is not b for n, b in zip(now, before))

    def guard(self, tab: str, fn, inputs, outputs):
        """`fn`, a language redraw of `tab` whose inputs are all States: on a first screen nobody has changed
        (its States are the cached objects), the cached screen in the new language, a lookup instead of a run."""
        if len(inputs) < 2 or not all(isinstance(c, gr.State) for c in inputs[:-1]):
            return fn

        @functools.wraps(fn)
        def relabel(*args, **kwargs):
            states, lang = args[:len(inputs) - 1], args[len(inputs) - 1] if len(args) >= len(inputs) else None
            for entry in (e for e in self.entries if e.tab == tab):
                if lang is None or not set(inputs[:-1]) <= set(entry.states) or entry.korean:
                    continue  # a Korean example: the other language's screen shows another sentence; redraw
                screens = [s for s in (self.cached(entry, code) for code in LANGS) if s]
                if any(all(s.get(c) is v for c, v in zip(inputs, states)) for s in screens):
                    wanted = self.screen(entry, lang)  # computed once for every visitor (Korean: at the first ask)
                    if wanted:  # what the redraw would return, as it runs the same view on the same arguments
                        return {o: wanted[o] for o in outputs if o in wanted}
            return fn(*args, **kwargs)
        relabel.friendly = getattr(fn, "friendly", False)
        return relabel
