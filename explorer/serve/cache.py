"""Server-side records with a byte budget and a time to live, instead of big records in a visitor's session.

A Gradio `gr.State` keeps its value for every open (and, for an hour, every closed) page: a 256-token BERT record
is ~100 MiB, so 150 visitors would fill a 16 GB Space. Here a page keeps only a key (an unguessable token
in its `gr.State`) and the record lives in one process-wide cache that never holds more than `max_bytes`: the
least recently used records go first, and a record unused for `ttl` seconds is dropped. A miss (evicted, expired,
or a key from another server) is None: the page asks the visitor to run the view again.

    cache = RecordCache(max_bytes=512 * 2**20, ttl=600)
    key = cache.put(record)          # in gr.State: the key (43 characters), not the record (keep(record))
    record = cache.get(key)          # None when it is gone
    record = stored(key)             # records().get(key), or a UserError asking to run the view again

Records are dropped `ttl` after their last use (ATTN_EXPLORER_RECORD_TTL_S, default 600 s) by a background
expiry every 30 s (`expire_in_background`), also when no visitor comes after them.

Gradio-free; thread-safe (Gradio runs handlers in worker threads). Sizes are estimated by `nbytes`: numpy
arrays and torch tensors by their buffers, containers and dataclasses by their items.
"""
from __future__ import annotations

import contextlib
import contextvars
import ctypes
import dataclasses
import gc
import logging
import os
import secrets
import sys
import threading
import time
import weakref
from collections import OrderedDict

BUDGET_ENV = "ATTN_EXPLORER_RECORD_CACHE_MB"  # the records' byte budget, MB (default 512)
DEFAULT_MB = 512
TTL_ENV = "ATTN_EXPLORER_RECORD_TTL_S"  # seconds a record is kept after its last use (default 600)


def _ttl_from_env(default: int = 10 * 60) -> int:
    try:
        return max(1, int(float(os.environ.get(TTL_ENV, default))))
    except ValueError:
        return default


DEFAULT_TTL = _ttl_from_env()  # a slider move is a use; this cache and the downloads' (explorer.serve.downloads.pending)
EXPIRE_EVERY_S = 30  # how often `expire_in_background` drops what is past its time, with no visitor asking


def nbytes(obj, _seen: set | None = None, _depth: int = 0) -> int:
    """An estimate of the memory `obj` holds: array buffers counted once, Python objects by sys.getsizeof."""
    seen = set() if _seen is None else _seen
    if id(obj) in seen or _depth > 50:
        return 0
    seen.add(id(obj))
    if hasattr(obj, "nbytes") and hasattr(obj, "dtype"):  # numpy array (a view counts its base's buffer once)
        base = getattr(obj, "base", None)
        return 128 + (nbytes(base, seen, _depth + 1) if base is not None else int(obj.nbytes))
    if hasattr(obj, "element_size") and hasattr(obj, "numel"):  # torch tensor
        return 128 + int(obj.element_size() * obj.numel())
    size = sys.getsizeof(obj, 64)
    if isinstance(obj, (str, bytes, bytearray, int, float, bool, type(None))):
        return size
    if isinstance(obj, dict):
        return size + sum(nbytes(k, seen, _depth + 1) + nbytes(v, seen, _depth + 1) for k, v in obj.items())
    if isinstance(obj, (list, tuple, set, frozenset)):
        return size + sum(nbytes(v, seen, _depth + 1) for v in obj)
    if dataclasses.is_dataclass(obj):
        return size + sum(nbytes(getattr(obj, f.name), seen, _depth + 1) for f in dataclasses.fields(obj))
    if hasattr(obj, "__dict__"):
        return size + nbytes(vars(obj), seen, _depth + 1)
    return size


class RecordCache:
    """A least-recently-used map key -> record, at most `max_bytes` in all, each record dropped `ttl` seconds
    after its last `get` or `put`. Keys are random tokens (one visitor cannot guess another's)."""

    def __init__(self, max_bytes: int, ttl: float = DEFAULT_TTL, clock=time.monotonic):
        self.max_bytes, self.ttl, self.clock = int(max_bytes), float(ttl), clock
        self._items: OrderedDict[str, tuple[object, int, float]] = OrderedDict()  # key -> (record, bytes, last use)
        self._bytes = 0
        self._lock = threading.Lock()
        self.stats = {"puts": 0, "hits": 0, "misses": 0, "evicted": 0, "expired": 0, "too_big": 0}

    def put(self, record, key: str | None = None, size: int | None = None) -> str:
        """Keep `record` and return its key (a given key is replaced). A record bigger than the whole budget is
        not kept (its key misses). `size`: its bytes where the caller knows them better than `nbytes`."""
        key = key or secrets.token_urlsafe(32)
        size = nbytes(record) if size is None else int(size)
        with self._lock:
            self.stats["puts"] += 1
            self._drop(key)
            if size > self.max_bytes:
                self.stats["too_big"] += 1
                return key
            self._expire()
            while self._items and self._bytes + size > self.max_bytes:
                self._drop(next(iter(self._items)))
                self.stats["evicted"] += 1
                collect_soon()
            self._items[key] = (record, size, self.clock())
            self._bytes += size
        return key

    def get(self, key):
        """The record of `key`, or None when it was never kept, evicted or expired."""
        if not isinstance(key, str):
            return None
        with self._lock:
            self._expire()
            item = self._items.get(key)
            if item is None:
                self.stats["misses"] += 1
                return None
            self._items[key] = (item[0], item[1], self.clock())
            self._items.move_to_end(key)
            self.stats["hits"] += 1
            return item[0]

    def expire(self) -> int:
        """Drop the records past their time now (else that happens at the next put or get); the bytes left."""
        with self._lock:
            self._expire()
            return self._bytes

    def discard(self, key) -> None:
        with self._lock:
            self._drop(key)

    @property
    def bytes(self) -> int:
        with self._lock:
            self._expire()
            return self._bytes

    def __len__(self) -> int:
        with self._lock:
            self._expire()
            return len(self._items)

    def _drop(self, key) -> None:
        item = self._items.pop(key, None)
        if item is not None:
            self._bytes -= item[1]

    def _expire(self) -> None:
        """Drop records unused for ttl seconds (the oldest use is first: gets move a record to the end)."""
        limit = self.clock() - self.ttl
        while self._items:
            key, (_, _, used) = next(iter(self._items.items()))
            if used > limit:
                break
            self._drop(key)
            self.stats["expired"] += 1


_SHARED = contextvars.ContextVar("attn_explorer_shared_records", default=False)


@contextlib.contextmanager
def shared():
    """Records kept meanwhile (`keep`) are the records themselves, not keys: for a first screen that every
    visitor shares (ui/first_screen.py), one copy held by the page's cache, never evicted or expired."""
    token = _SHARED.set(True)
    try:
        yield
    finally:
        _SHARED.reset(token)


def sharing() -> bool:
    """Whether this code runs inside `shared()` (a first screen every visitor shares)."""
    return _SHARED.get()


def keep(record):
    """What a page's gr.State holds for `record`: its key in `records()`, or the record itself inside `shared()`."""
    return record if _SHARED.get() else records().put(record)


_RAISE = object()


def stored(value, default=_RAISE):
    """The record a page keeps a key of: `records().get(key)`; a record itself passes through (tests and Python
    callers hand handlers records). A key that is gone raises a UserError asking to run the view again, or gives
    `default` when one is passed (a language switch redraws nothing rather than warn)."""
    if value is None or not isinstance(value, str):
        return value
    record = records().get(value)
    if record is not None:
        return record
    if default is not _RAISE:
        return default
    from explorer.compute.inference import UserError

    raise UserError(f"This result is no longer kept on the server (it is dropped {DEFAULT_TTL // 60} minutes after "
                    "its last use, or sooner when many visitors are here); press the button again.", "record_gone",
                    minutes=DEFAULT_TTL // 60)


_TIMED: "weakref.WeakSet[RecordCache]" = weakref.WeakSet()
_EXPIRER: threading.Thread | None = None


def expire_in_background(cache: RecordCache) -> RecordCache:
    """Expire `cache` every EXPIRE_EVERY_S seconds in one daemon thread (shared by every cache passed here): the
    records of visitors who left are freed `ttl` after their last use even when no one comes after them (an
    expiry only at the next put or get kept them until then). Returns cache."""
    global _EXPIRER
    with _RECORDS_LOCK:
        _TIMED.add(cache)
        if _EXPIRER is None or not _EXPIRER.is_alive():
            _EXPIRER = threading.Thread(target=_expire_loop, name="record-cache-expiry", daemon=True)
            _EXPIRER.start()
    return cache


def _expire_loop() -> None:
    while True:
        time.sleep(EXPIRE_EVERY_S)
        with _RECORDS_LOCK:  # a snapshot, not an iteration that `expire_in_background` could add to
            caches = list(_TIMED)
        dropped = False
        for cache in caches:
            before = cache.stats["expired"]
            try:
                cache.expire()
            except Exception:  # noqa: BLE001 - nothing restarts this thread: the other caches still expire
                logging.getLogger(__name__).exception("expiring a record cache failed")
                continue
            dropped |= cache.stats["expired"] > before
        if dropped:
            collect_soon()


COLLECT_AFTER_S = 2.0  # evictions within this time share one collection
_COLLECT = threading.Event()
_COLLECTOR: threading.Thread | None = None
_COLLECTOR_LOCK = threading.Lock()
COLLECTED = {"runs": 0, "seconds": 0.0}  # collections made by `collect_soon`, and their time in all


def collect_soon() -> None:
    """A garbage collection and a heap trim, in a daemon thread, `COLLECT_AFTER_S` after the first record dropped
    since the last one. A dropped record's figures (plotly objects refer to their parents) are cycles, which only
    Python's collector frees, and its oldest generation runs rarely in a server of many long-lived objects: 30
    rollout pages one after another grew ~25 MiB a page past the caches' budgets until a collection, which
    freed 242 MiB of resident memory and the trim 146 more (bench/hostile.py's rollout)."""
    global _COLLECTOR
    _COLLECT.set()
    with _COLLECTOR_LOCK:
        if _COLLECTOR is None or not _COLLECTOR.is_alive():
            _COLLECTOR = threading.Thread(target=_collect_loop, name="record-cache-collect", daemon=True)
            _COLLECTOR.start()


def _collect_loop() -> None:
    while True:
        _COLLECT.wait()
        time.sleep(COLLECT_AFTER_S)
        _COLLECT.clear()
        t0 = time.perf_counter()
        gc.collect()
        trim_heap()
        COLLECTED["runs"] += 1
        COLLECTED["seconds"] += time.perf_counter() - t0


def trim_heap() -> bool:
    """Hand freed heap pages back to the system (glibc's malloc_trim): the arrays of a dropped record, or a dropped
    result's JSON, are many allocations below malloc's mmap threshold, whose pages glibc otherwise keeps for reuse
    (bench/sessions.py, bench/hostile.py measure it). True when something was handed back; False also where the C
    library is not glibc (macOS, musl: nothing to do)."""
    try:
        return bool(ctypes.CDLL("libc.so.6").malloc_trim(0))
    except (OSError, AttributeError):
        return False


_RECORDS: RecordCache | None = None
_RECORDS_LOCK = threading.Lock()


def records() -> RecordCache:
    """The process-wide cache of view records (budget from ATTN_EXPLORER_RECORD_CACHE_MB, default 512 MB)."""
    global _RECORDS
    with _RECORDS_LOCK:
        if _RECORDS is None:
            try:
                mb = float(os.environ.get(BUDGET_ENV, DEFAULT_MB))
            except ValueError:
                mb = DEFAULT_MB
            _RECORDS = RecordCache(int(mb * 2**20), DEFAULT_TTL)
    return expire_in_background(_RECORDS) if _RECORDS not in _TIMED else _RECORDS
