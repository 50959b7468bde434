"""The models are shared, read-only globals (CONTRIBUTING.md "Models": attention is a return
value, never module state). Concurrent requests must therefore neither see each other's numbers nor change
the models: the same inputs run from 8 threads give exactly (bit for bit) the arrays of a
serial run, a request repeated gives identical numbers, and every model's parameters and
buffers, and every module's attributes, are byte-identical before and after."""
import random
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
import torch

from explorer.compute import inference as inf
from explorer.compute.inference import BertResult, TranslationResult

NEEDED = ("seq2seq-additive", "seq2seq-dot", "transformer-en-fr", "transformer-ko-en", "bert")
pytestmark = pytest.mark.skipif(not all((inf.ASSETS / n / "config.json").is_file() for n in NEEDED),
                                reason="shipped checkpoints missing from assets/")
THREADS = 8
REPEATS = 3  # each task is submitted this many times, shuffled, so that different shapes interleave

TASKS = [  # different lengths and models on purpose: shared state would mix them up
    ("translate", "transformer-en-fr", "I am a student.", 1),
    ("translate", "transformer-en-fr", "The animal didn't cross the street because it was too tired.", 3),
    ("translate", "seq2seq-additive", "Let's stick to the plan.", 1),
    ("translate", "seq2seq-dot", "She reads a book every evening before she goes to sleep.", 1),
    ("translate", "transformer-ko-en", "나는 학생 입니다", 2),
    ("fill_mask", "the man went to the [MASK] .", 5),
    ("fill_mask", "paris is the [MASK] of [MASK] , a country in europe .", 3),
    ("nsp", "the man went to the store .", "he bought a gallon of milk ."),
    ("nsp", "penguins are flightless birds .", "the stock market fell sharply today ."),
]


def run(task):
    kind, *args = task
    if kind == "translate":
        name, text, beam = args
        return inf.translate(name, text, beam=beam)
    if kind == "fill_mask":
        return inf.fill_mask(*args)
    return inf.nsp(*args)


def assert_identical(a, b):
    """Exact equality of every number and token of two records (no tolerance)."""
    assert type(a) is type(b)
    for name in ("enc_self", "dec_self", "dec_self_scores", "cross"):
        x, y = getattr(a.trace, name), getattr(b.trace, name)
        assert (x is None) == (y is None), name
        if x is not None:
            assert x.dtype == y.dtype and np.array_equal(x, y), name  # -inf == -inf holds
    if isinstance(a, TranslationResult):
        assert (a.source_tokens, a.target_tokens, a.decoder_input_tokens, a.translation, a.hypotheses, a.chosen) == \
               (b.source_tokens, b.target_tokens, b.decoder_input_tokens, b.translation, b.hypotheses, b.chosen)
    else:
        assert isinstance(a, BertResult)
        assert (a.tokens, a.segments, a.masks, a.is_next, a.not_next) == (b.tokens, b.segments, b.masks, b.is_next,
                                                                          b.not_next)
        assert np.array_equal(a.hidden, b.hidden) and np.array_equal(a.static, b.static)
    assert a.notices == b.notices


def _bytes(t: torch.Tensor) -> bytes:
    return t.detach().contiguous().reshape(-1).view(torch.uint8).numpy().tobytes()


def snapshot(reg) -> dict:
    """Every model's parameters and buffers (persistent or not) as raw bytes, each module's
    attribute names and training flag, and each tokenizer's truncation/padding settings."""
    snap = {}
    for name, ckpt in reg.models.items():
        m = ckpt.model
        for key, t in list(m.state_dict(keep_vars=True).items()) + [(f"buffer:{k}", b) for k, b in m.named_buffers()]:
            snap[f"{name}/{key}"] = (t.dtype, tuple(t.shape), t.requires_grad, _bytes(t))
        for path, mod in m.named_modules():
            snap[f"{name}/{path}#attrs"] = (mod.training, tuple(sorted(vars(mod))))
        tok = ckpt.tokenizer
        snap[f"{name}#tokenizer"] = (repr(tok.truncation), repr(tok.padding))
    return snap


@pytest.fixture(scope="module")
def reg():
    return inf.registry()


def test_concurrent_requests_match_a_serial_run_and_leave_models_untouched(reg):
    before = snapshot(reg)
    assert all(not c.model.training for c in reg.models.values())
    serial = [run(t) for t in TASKS]

    jobs = [i for i in range(len(TASKS)) for _ in range(REPEATS)]
    random.Random(0).shuffle(jobs)
    with ThreadPoolExecutor(max_workers=THREADS) as pool:
        results = list(pool.map(lambda i: run(TASKS[i]), jobs))
    for i, r in zip(jobs, results):
        assert_identical(r, serial[i])

    after = snapshot(reg)
    assert before.keys() == after.keys()
    changed = [k for k in before if before[k] != after[k]]
    assert not changed, f"requests mutated shared model state: {changed[:10]}"


def test_same_request_twice_gives_identical_numbers():
    for task in TASKS:
        assert_identical(run(task), run(task))


def test_concurrent_threads_with_torch_intra_op_threads(reg):
    """The app runs with torch's default (several intra-op threads per request) while gradio
    serves requests from a thread pool; the numbers must still not depend on who else runs."""
    old = torch.get_num_threads()
    torch.set_num_threads(2)
    try:
        serial = [run(t) for t in TASKS[:3] + TASKS[5:]]
        with ThreadPoolExecutor(max_workers=THREADS) as pool:
            results = list(pool.map(run, (TASKS[:3] + TASKS[5:]) * 2))
    finally:
        torch.set_num_threads(old)
    for i, r in enumerate(results):
        assert_identical(r, serial[i % len(serial)])


def test_app_api_handlers_concurrently():
    """The same through the app's API handlers (ui/api.py; what gradio's worker threads call): the JSON
    records are identical to a serial run."""
    pytest.importorskip("gradio")
    import app  # noqa: F401  (builds the demo, loading the registry once, as the server does)
    from ui import api
    calls = [(api.translate_api, ("I am a student.", "transformer-en-fr", 1)),
             (api.translate_api, ("Let's stick to the plan.", "seq2seq-additive", 1)),
             (api.fill_mask_api, ("the man went to the [MASK] .", 5)),
             (api.nsp_api, ("the man went to the store .", "he bought a gallon of milk ."))]
    serial = [fn(*args)[-1] for fn, args in calls]
    with ThreadPoolExecutor(max_workers=THREADS) as pool:
        results = list(pool.map(lambda c: c[0](*c[1])[-1], calls * 2))
    for i, rec in enumerate(results):
        assert rec == serial[i % len(calls)]
