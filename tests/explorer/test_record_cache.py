"""explorer/serve/cache.py: the records' byte budget is never exceeded (under threads too), the least recently used
record goes first, a record unused for its time to live is gone, and sizes count array buffers."""
import threading
import time
from dataclasses import dataclass

import numpy as np
import pytest
import torch

from explorer.serve.cache import RecordCache, nbytes

MB = 2**20


class Clock:
    def __init__(self):
        self.t = 0.0

    def __call__(self):
        return self.t


@dataclass(frozen=True)
class Record:  # the shape of a view record: tokens and arrays
    tokens: list
    attention: np.ndarray


def rec(mb: float) -> Record:
    return Record(["a", "b"], np.zeros(int(mb * MB) // 4, dtype=np.float32))


def test_sizes_count_buffers_once():
    a = np.ones((12, 12, 256, 256), dtype=np.float32)
    r = Record(["[CLS]"] * 256, a)
    assert a.nbytes <= nbytes(r) <= a.nbytes + 64 * 1024
    assert nbytes([a, a, a[0]]) < 1.1 * a.nbytes  # the same buffer (and a view of it) counted once
    t = torch.zeros(1000, dtype=torch.float64)
    assert 8000 <= nbytes({"t": t}) < 9000


def test_budget_and_lru_order():
    cache = RecordCache(max_bytes=10 * MB, ttl=60, clock=Clock())
    keys = [cache.put(rec(3)) for _ in range(3)]  # 9 MB
    assert cache.bytes <= 10 * MB and len(cache) == 3
    assert cache.get(keys[0]) is not None  # keys[0] is now the most recently used
    k4 = cache.put(rec(3))
    assert cache.get(keys[1]) is None  # the least recently used went first
    assert all(cache.get(k) is not None for k in (keys[0], keys[2], k4))
    assert cache.bytes <= 10 * MB and cache.stats["evicted"] == 1


def test_time_to_live_counts_from_the_last_use():
    clock = Clock()
    cache = RecordCache(max_bytes=10 * MB, ttl=100, clock=clock)
    a, b = cache.put(rec(1)), cache.put(rec(1))
    clock.t = 90
    assert cache.get(a) is not None
    clock.t = 150
    assert cache.get(b) is None and cache.get(a) is not None  # b unused for 150 s; a used at 90
    clock.t = 251
    assert len(cache) == 0 and cache.bytes == 0 and cache.stats["expired"] == 2


def test_a_record_over_the_whole_budget_is_not_kept():
    cache = RecordCache(max_bytes=1 * MB)
    keep = cache.put(rec(0.5))
    big = cache.put(rec(2))
    assert cache.get(big) is None and cache.get(keep) is not None and cache.stats["too_big"] == 1


@pytest.mark.parametrize("key", [None, 3, ["x"], "not-a-key"])
def test_unknown_keys_miss(key):
    assert RecordCache(MB).get(key) is None


def test_threads_never_exceed_the_budget():
    cache = RecordCache(max_bytes=8 * MB, ttl=60)
    peak, errors = [0], []
    sizes = [0.3, 0.7, 1.1, 2.0]

    def work(i):
        try:
            for j in range(40):
                k = cache.put(rec(sizes[(i + j) % 4]))
                cache.get(k)
                peak[0] = max(peak[0], cache.bytes)
        except Exception as e:  # noqa: BLE001
            errors.append(e)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and peak[0] <= 8 * MB
    kept = [v[0] for v in cache._items.values()]
    assert cache.bytes == sum(nbytes(r) for r in kept)


def test_stored_passes_records_and_names_a_gone_key(monkeypatch):
    from explorer.serve import cache
    from explorer.compute.inference import UserError

    monkeypatch.setattr(cache, "_RECORDS", RecordCache(max_bytes=MB))
    r = rec(0.1)
    key = cache.records().put(r)
    assert cache.stored(key) is r and cache.stored(r) is r and cache.stored(None) is None
    with pytest.raises(UserError, match="no longer kept on the server") as e:
        cache.stored("gone-key")
    assert e.value.key == "record_gone"
    assert cache.stored("gone-key", None) is None


def test_keep_gives_keys_except_for_shared_first_screens(monkeypatch):
    import threading

    from explorer.serve import cache

    monkeypatch.setattr(cache, "_RECORDS", RecordCache(max_bytes=MB))
    r = rec(0.1)
    key = cache.keep(r)
    assert isinstance(key, str) and cache.stored(key) is r
    with cache.shared():
        assert cache.keep(r) is r  # one copy for every visitor, held by whoever shares it
        seen = []
        t = threading.Thread(target=lambda: seen.append(cache.keep(r)))  # another thread is not inside shared()
        t.start()
        t.join()
        assert isinstance(seen[0], str)
    assert isinstance(cache.keep(r), str)


def test_the_background_expiry_frees_records_nobody_asks_for(monkeypatch):
    """Records of visitors who left go `ttl` after their last use with no put or get after them: the expiry
    thread (`expire_in_background`, which the process-wide caches use) calls `expire()`."""
    import time

    from explorer.serve import cache as cache_module

    monkeypatch.setattr(cache_module, "EXPIRE_EVERY_S", 0.05)
    monkeypatch.setattr(cache_module, "_EXPIRER", None)  # a fresh thread, with the shortened period
    clock = Clock()
    cache = cache_module.expire_in_background(RecordCache(max_bytes=10 * MB, ttl=100, clock=clock))
    cache.put(rec(2))
    clock.t = 99
    time.sleep(0.3)
    assert cache.stats["expired"] == 0 and cache._bytes >= 2 * MB  # not past its time: kept
    clock.t = 101
    deadline = time.monotonic() + 5
    while cache._bytes and time.monotonic() < deadline:
        time.sleep(0.05)
    assert cache._bytes == 0 and cache.stats["expired"] == 1 and cache.stats["hits"] == cache.stats["misses"] == 0
    assert cache_module.records() in cache_module._TIMED


def test_the_time_to_live_comes_from_the_environment(monkeypatch):
    from explorer.serve import cache as cache_module

    monkeypatch.setenv(cache_module.TTL_ENV, "120")
    assert cache_module._ttl_from_env() == 120
    monkeypatch.setenv(cache_module.TTL_ENV, "soon")
    assert cache_module._ttl_from_env() == 600


def test_the_background_expiry_outlives_a_cache_that_fails(monkeypatch):
    """One cache's expire() raising must not end the expiry thread: the other caches are still expired after it
    (nothing restarts the thread: `records()` registers its cache once)."""
    import time
    import weakref

    from explorer.serve import cache as cache_module

    class Failing(RecordCache):
        def expire(self):
            failed.set()
            raise RuntimeError("a broken cache")

    failed = threading.Event()
    monkeypatch.setattr(cache_module, "EXPIRE_EVERY_S", 0.05)
    monkeypatch.setattr(cache_module, "_EXPIRER", None)
    monkeypatch.setattr(cache_module, "_TIMED", weakref.WeakSet())  # only these two caches
    clock = Clock()
    good = RecordCache(max_bytes=10 * MB, ttl=100, clock=clock)
    bad = Failing(max_bytes=10 * MB, ttl=100)
    good.put(rec(2))
    cache_module.expire_in_background(bad)
    cache_module.expire_in_background(good)
    assert failed.wait(5)
    clock.t = 101
    deadline = time.monotonic() + 3
    while good._bytes and time.monotonic() < deadline:
        time.sleep(0.05)
    assert good._bytes == 0 and good.stats["expired"] == 1


def test_an_evicted_record_in_a_cycle_is_collected_soon(monkeypatch):
    """A record whose parts refer to each other (plotly figures do) is freed only by Python's collector; with the
    automatic collector off, the collection `collect_soon` starts after an eviction is what frees it."""
    import gc
    import weakref

    from explorer.serve import cache as cache_module

    monkeypatch.setattr(cache_module, "COLLECT_AFTER_S", 0.05)

    class Part:
        pass

    part = Part()
    part.self = part  # a cycle
    part.buffer = np.zeros(100_000, dtype=np.float32)
    alive = weakref.ref(part)
    gc.collect()
    gc.disable()
    try:
        cache = RecordCache(max_bytes=600_000, ttl=600)
        cache.put({"part": part}, size=400_000)
        del part
        before = cache_module.COLLECTED["runs"]
        cache.put({"other": 1}, size=400_000)  # evicts the first
        assert cache.stats["evicted"] == 1
        deadline = time.monotonic() + 10
        while alive() is not None or cache_module.COLLECTED["runs"] == before:
            assert time.monotonic() < deadline, "the evicted record's cycle was never collected"
            time.sleep(0.02)
    finally:
        gc.enable()
