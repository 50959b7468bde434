"""Identical page runs once: a tab's button, for inputs any session already ran or is running, gets that run's
outputs instead of running the model again, as the public API does (explorer/serve/results.py: kept within the records'
byte budget, single-flight). Forty students pressing Translate on the deck's example cost one run; those who press
while it runs wait for it.

    class Tab(TabBase):
        @friendly
        @shared_run
        def run(self, text, model, beam, layer, head, lang="en"): ...

The key is the tab, the handler and every input (the language, layer and head included: they change the figures).
The outputs are computed as a first screen's are (ui/first_screen.py): inside explorer.serve.cache.shared(), then made
immutable by `freeze` (figures as the JSON Gradio sends, the records' arrays read-only). Each caller then gets what
is its own, as an unshared run would give it: a shallow copy of the record (the arrays shared), kept under the
caller's key in the records' cache, and its downloads under the caller's key in explorer.serve.downloads.pending(), both
bounded and dropped after their time limit, so a session never holds a record itself. Errors are not kept (each caller's run raises its own
message). A handler called while a first screen is computed runs as it is (the first screens are shared already).
ATTN_EXPLORER_SHARED_RESULTS=0 turns sharing off, for the page as for the API.
"""
from __future__ import annotations

import copy
import dataclasses
import functools

import gradio as gr

from explorer.serve import cache
from explorer.serve import downloads as dl
from explorer.serve.results import Frozen, shared_results
from ui.first_screen import freeze

COMPONENT_BYTES = 1024  # a slider's update and the like: counted as this, not by walking the page it belongs to


def _canonical(value):
    """An input as the key reads it: a whole float as its int (a slider sends 4.0, a test 4: one request)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _size(outputs: dict) -> int:
    return sum(COMPONENT_BYTES if isinstance(v, gr.components.Component) else cache.nbytes(v)
               for v in outputs.values())


def _own(outputs: dict) -> dict:
    """Shared outputs as one caller receives them: a record a State holds as the caller's key in the records' cache,
    downloads as the caller's key in pending(); anything else as it is (immutable). The caller's record is a shallow
    copy of the shared one (its arrays are the shared, read-only ones): pending() keys downloads by their record, so
    one session's slider move replaces its own waiting downloads, never another session's."""
    copies = {}

    def mine(record):
        return copies.setdefault(id(record), copy.copy(record))

    own = {}
    for component, value in outputs.items():
        if isinstance(component, gr.State) and isinstance(value, dl.Downloads) and isinstance(value.source,
                                                                                              dl.Payload):
            p = value.source
            value = dl.to_download(p.stem, mine(p.record), p.tables, p.figs, p.lang)
        elif (isinstance(component, gr.State) and dataclasses.is_dataclass(value) and not isinstance(value, type)
              and not isinstance(value, dl.Downloads)):  # a record kept inside shared()
            value = cache.keep(mine(value))
        own[component] = value
    return own


def shared_run(handler):
    """`handler(self, *inputs)` (a tab's method returning a dict keyed by component) computed once for identical
    inputs across sessions; see the module's docstring."""
    @functools.wraps(handler)
    def run(self, *args):
        if cache.sharing():  # a first screen being computed: already shared, and its records stay themselves
            return handler(self, *args)
        request = ("page", type(self).__module__, id(self), handler.__name__, *(_canonical(a) for a in args))

        def compute():
            with cache.shared():
                out = handler(self, *args)
            if not isinstance(out, dict):
                raise TypeError(f"{handler.__name__} returned {type(out).__name__}, not a dict by component")
            out = {c: freeze(v) for c, v in out.items()}
            return Frozen(out, _size(out))

        frozen = shared_results().get(request, compute)
        return _own(frozen.value)
    return run
