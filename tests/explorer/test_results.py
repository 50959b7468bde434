"""explorer/serve/results.py: identical requests computed once (single-flight), kept within the records' byte budget,
immutable results only, failures not kept. Threads wait on events, never on a fixed sleep."""
import threading
import time

import pytest

from explorer.serve.cache import RecordCache
from explorer.serve.results import SharedResults, is_immutable, request_key


def wait_until(condition, timeout=30.0):
    t0 = time.monotonic()
    while not condition():
        assert time.monotonic() - t0 < timeout, "condition never met"
        time.sleep(0.005)


def test_concurrent_identical_requests_run_once():
    results, runs = SharedResults(RecordCache(10**6)), []
    release = threading.Event()
    request = ("/translate", "I am a student.", "transformer-en-fr", 4.0)

    def compute():
        runs.append(1)
        release.wait(30)
        return ("Je suis étudiant.", "{}")

    got = []
    threads = [threading.Thread(target=lambda: got.append(results.get(request, compute))) for _ in range(5)]
    threads[0].start()
    wait_until(lambda: runs)  # the first caller is running ...
    for t in threads[1:]:
        t.start()
    wait_until(lambda: results.waiting(request) == 4)  # ... and the other four wait for it, not run their own
    release.set()
    for t in threads:
        t.join(30)
    assert len(runs) == 1 and len(got) == 5 and len(set(got)) == 1
    assert results.stats == {"runs": 1, "hits": 0, "waited": 4, "not_kept": 0}
    assert results.get(request, compute) == got[0] and len(runs) == 1 and results.stats["hits"] == 1


def test_different_requests_do_not_collide():
    results = SharedResults(RecordCache(10**6))
    requests = [("/translate", "I am a student.", "transformer-en-fr", 4.0),
                ("/translate", "I am a student.", "transformer-en-fr", 1.0),
                ("/translate", "I am a student!", "transformer-en-fr", 4.0),
                ("/translate", "I am a student.", "seq2seq-dot", 4.0),
                ("/translate_target", "I am a student.", "transformer-en-fr", 4.0),
                ("/translate", "I am a student.", "transformer-en-fr", "4.0")]
    assert len({request_key(r) for r in requests}) == len(requests)
    for i, r in enumerate(requests):
        assert results.get(r, lambda i=i: (i,)) == (i,)
    assert [results.get(r, lambda: pytest.fail("recomputed")) for r in requests] == [(i,) for i in range(6)]


def test_the_byte_budget_holds():
    store = RecordCache(max_bytes=20_000)
    results = SharedResults(store, max_share=4)  # a result over 5,000 bytes is handed out, not kept
    for i in range(100):
        results.get(("r", i), lambda i=i: (f"{i:04d}" + "x" * 1_000,))
        assert store.bytes <= 20_000
    assert 0 < len(store) < 100 and store.stats["evicted"] > 0
    big = results.get(("big",), lambda: ("y" * 6_000,))
    assert big == ("y" * 6_000,) and results.stats["not_kept"] == 1 and store.bytes <= 20_000
    assert results.get(("big",), lambda: ("computed again",)) == ("computed again",)


def test_results_share_the_records_budget_with_visitors_records():
    store = RecordCache(max_bytes=10_000)
    visitor = store.put(b"v" * 3_000)
    results = SharedResults(store, max_share=1)
    for i in range(10):
        results.get(("r", i), lambda i=i: (b"%d" % i + b"r" * 2_000,))
    assert store.bytes <= 10_000 and store.get(visitor) is None  # least recently used first out, either kind


def test_only_immutable_results_are_shared():
    results = SharedResults(RecordCache(10**6))
    for mutable in ({"translation": "x"}, ["x"], ("x", ["y"])):
        assert not is_immutable(mutable)
        with pytest.raises(TypeError, match="immutable"):
            results.get(("m", repr(mutable)), lambda m=mutable: m)
    assert is_immutable((True, (("json", "{}"), ("value", None), ("plot", "{}"))))


def test_a_failure_is_not_kept_and_waiting_callers_try_again():
    results, release, calls = SharedResults(RecordCache(10**6)), threading.Event(), []

    def fail_first():
        calls.append(1)
        if len(calls) == 1:
            release.wait(30)
            raise ValueError("the first run failed")
        return ("ok",)

    errors, got = [], []

    def first():
        try:
            results.get(("f",), fail_first)
        except ValueError as e:
            errors.append(e)

    a = threading.Thread(target=first)
    a.start()
    wait_until(lambda: calls)
    b = threading.Thread(target=lambda: got.append(results.get(("f",), fail_first)))
    b.start()
    wait_until(lambda: results.waiting(("f",)) == 1)
    release.set()
    a.join(30), b.join(30)
    assert len(errors) == 1 and got == [("ok",)] and len(calls) == 2
    assert results.get(("f",), fail_first) == ("ok",) and len(calls) == 2


def test_sharing_off_computes_every_request():
    """ATTN_EXPLORER_SHARED_RESULTS=0 (bench/classroom.py --unshared): no result kept, every call runs."""
    store, runs = RecordCache(10**6), []
    results = SharedResults(store, enabled=False)
    for _ in range(3):
        assert results.get(("same",), lambda: runs.append(1) or ("x",)) == ("x",)
    assert len(runs) == 3 and len(store) == 0
