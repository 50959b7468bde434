"""Identical work once: results shared by every session, computed once per identical request.

A class of 40 pressing the deck's example ("I am a student.", transformer-en-fr, beam 4) asks for one result 40
times. `SharedResults.get(request, compute)` runs `compute` for the first caller only; a caller that asks while that
run is in flight waits for it instead of starting its own (single-flight), and later callers get the kept result.

Results live in the records' cache (explorer.serve.cache.records(): one byte budget, ATTN_EXPLORER_RECORD_CACHE_MB, least
recently used first out, dropped `ttl` after their last use), under a key derived from the request, so they never
take more memory than the visitors' records are allowed, and compete with them on the same terms. A result bigger
than `1 / max_share` of that budget is handed to its waiting callers but not kept.

Every caller receives the same object, so a result must be immutable data: strings, bytes, numbers and tuples of
them (ui/api.py keeps each endpoint's outputs as the JSON text Gradio sends, and every call parses its own copy).
`get` refuses a mutable one (a dict, a list, an array) rather than let one caller change another's result, unless
it comes as `Frozen`: its maker vouches that nothing will change it (ui/shared_runs.py: a page's outputs by
component, figures as text and records' arrays read-only) and says its size.

    results = SharedResults()
    wire = results.get(("/translate", text, model, beam), lambda: to_wire(translate(text, model, beam)))

Gradio-free; thread-safe (Gradio runs handlers in worker threads). An exception is not kept: each caller waiting on
a failed run tries again itself (a UserError is raised again by its own, cheap, run).
"""
from __future__ import annotations

import hashlib
import json
import os
import threading

from explorer.serve.cache import RecordCache, nbytes, records

SHARED_ENV = "ATTN_EXPLORER_SHARED_RESULTS"  # "0": every request computed anew (bench/classroom.py compares)
KEY_PREFIX = "result:"  # keys of results in the records' cache (visitors' keys are random tokens, without a colon)
IMMUTABLE = (str, bytes, int, float, bool, type(None))


def request_key(request) -> str:
    """The cache key of a request (any JSON-able value, e.g. a tuple of the endpoint and its inputs): its hash, so
    requests of any length take 71 characters. json.dumps tells 4 from 4.0 and "4" (different inputs)."""
    text = json.dumps(request, default=repr, ensure_ascii=False, separators=(",", ":"))
    return KEY_PREFIX + hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


class Frozen:
    """A value made safe to share by its maker, with its size in bytes (what it adds to the records' cache): for what
    `is_immutable` cannot check, such as a page's outputs keyed by component (ui/shared_runs.py freezes them)."""
    __slots__ = ("value", "size")

    def __init__(self, value, size: int):
        self.value, self.size = value, int(size)


def is_immutable(value) -> bool:
    """Whether `value` is made of immutable data only, or is `Frozen` (what `get` may hand to several callers)."""
    if isinstance(value, Frozen):
        return True
    if isinstance(value, tuple):
        return all(is_immutable(v) for v in value)
    return isinstance(value, IMMUTABLE)


class _Flight:
    """One run in progress: the callers of the same request wait on `done`."""

    def __init__(self):
        self.done = threading.Event()
        self.ok = False
        self.value = None
        self.waiting = 0  # callers waiting for it


class SharedResults:
    """Request -> result, computed once: kept in `store` (default: the records' cache), single-flight."""

    def __init__(self, store: RecordCache | None = None, max_share: int = 32, enabled: bool = True):
        self._store, self.max_share, self.enabled = store, max_share, enabled
        self._flights: dict[str, _Flight] = {}
        self._lock = threading.Lock()
        self.stats = {"runs": 0, "hits": 0, "waited": 0, "not_kept": 0}

    @property
    def store(self) -> RecordCache:
        return self._store if self._store is not None else records()

    def get(self, request, compute):
        """The result of `request`: kept, or the one in flight, or `compute()` run now (and kept). `compute` must
        return immutable data (`is_immutable`); its exceptions reach its caller and are not kept."""
        if not self.enabled:
            return compute()
        key, store = request_key(request), self.store
        while True:
            with self._lock:
                value = store.get(key)
                if value is not None:
                    self.stats["hits"] += 1
                    return value
                flight = self._flights.get(key)
                leader = flight is None
                if leader:
                    flight = self._flights[key] = _Flight()
                flight.waiting += not leader
            if leader:
                return self._run(key, store, flight, compute)
            flight.done.wait()
            with self._lock:
                flight.waiting -= 1
                self.stats["waited"] += flight.ok
            if flight.ok:
                return flight.value
            # the run failed: try again (as the leader, unless another caller already is)

    def waiting(self, request) -> int:
        """How many callers wait for `request`'s run in flight now (0 when none is)."""
        with self._lock:
            flight = self._flights.get(request_key(request))
            return flight.waiting if flight is not None else 0

    def _run(self, key: str, store: RecordCache, flight: _Flight, compute):
        try:
            with self._lock:
                self.stats["runs"] += 1
            value = compute()
            if value is None or not is_immutable(value):
                raise TypeError(f"a shared result must be immutable data, not {type(value).__name__}")
            flight.value, flight.ok = value, True
            size = value.size if isinstance(value, Frozen) else nbytes(value)
            if size <= store.max_bytes // self.max_share:
                store.put(value, key=key, size=size)
            else:
                with self._lock:
                    self.stats["not_kept"] += 1
            return value
        finally:
            with self._lock:
                self._flights.pop(key, None)
            flight.done.set()


_RESULTS: SharedResults | None = None
_RESULTS_LOCK = threading.Lock()


def shared_results() -> SharedResults:
    """The process-wide shared results (kept in explorer.serve.cache.records()); ATTN_EXPLORER_SHARED_RESULTS=0 turns
    sharing off."""
    global _RESULTS
    with _RESULTS_LOCK:
        if _RESULTS is None:
            _RESULTS = SharedResults(enabled=os.environ.get(SHARED_ENV, "1") != "0")
    return _RESULTS
