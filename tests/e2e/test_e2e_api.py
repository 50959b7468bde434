"""The app's named API endpoints over HTTP, as a user of gradio_client sees them.

`python app.py` is started in a subprocess (bench/_server.start_app) and /translate,
/fill_mask and /nsp are called through gradio_client. The JSON trace that comes back must
keep the attention invariants (tokens present, shapes match them, every row sums to 1,
P(IsNext) + P(NotNext) = 1, k predictions per [MASK]) and carry the same numbers as the
in-process Python API (explorer.compute.inference) for the same input: one source of truth. A bad
input must come back as the user-facing message of `UserError`, never a traceback or the
app's generic "something went wrong".
"""
import base64
import json

import numpy as np
import pytest

pytest.importorskip("gradio_client")
from gradio_client import Client  # noqa: E402
from gradio_client.exceptions import AppError  # noqa: E402

from bench._server import start_app, stop  # noqa: E402
from explorer.compute import inference as inf  # noqa: E402
from explorer.compute.inference import UserError  # noqa: E402

NEEDED = ("transformer-en-fr", "seq2seq-additive", "bert")
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not all((inf.ASSETS / n / "config.json").is_file() for n in NEEDED),
                       reason="shipped checkpoints missing from assets/"),
]

EN = "I am a student."
MASKED = "the man went to the [MASK] ."
NEXT = "he bought a gallon of milk ."
# The server and this process may use different torch thread counts (tests/conftest.py pins
# one), so float32 sums are reduced in another order; the API's JSON rounds attention to
# inf.API_DECIMALS (4) decimals. Equal means: within one unit of that rounding (two float32 numbers
# a hair apart can round to neighbouring units); HALF bounds a rounded value's distance from its float.
ATOL, RTOL = 1.01 * 10.0 ** -inf.API_DECIMALS, 1e-5
HALF = 0.5 * 10.0 ** -inf.API_DECIMALS
GENERIC = "something went wrong"


@pytest.fixture(scope="module")
def client():
    proc, url, _ = start_app()
    try:
        yield Client(url, verbose=False, download_files=False)
    finally:
        stop(proc)


@pytest.fixture(scope="module")
def reg():
    """Only the checkpoints these tests use (loading all of them would cost seconds)."""
    return inf.load_registry(names=set(NEEDED))


def arr(x) -> np.ndarray:
    """A JSON array back to numpy; None (a masked -inf score) becomes -inf."""
    return np.array(json.loads(json.dumps(x).replace("null", "-Infinity")), dtype=np.float64)


def assert_rows_sum_to_one(a: np.ndarray, name: str):
    assert a.ndim == 4, f"{name}: expected [layers, heads, q, k], got {a.shape}"
    assert np.all(a >= 0), f"{name}: negative attention"
    np.testing.assert_allclose(a.sum(-1), 1.0, atol=1e-5 + HALF * a.shape[-1],  # each value rounded
                               err_msg=f"{name}: a row does not sum to 1")


def assert_same_numbers(got, want, path="trace"):
    """Nested JSON equality: strings/ints/None exactly, floats to ATOL."""
    if isinstance(want, dict):
        assert isinstance(got, dict) and set(got) == set(want), f"{path}: keys {sorted(got)} != {sorted(want)}"
        for k in want:
            assert_same_numbers(got[k], want[k], f"{path}.{k}")
    elif isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), f"{path}: length {len(got)} != {len(want)}"
        for i, (g, w) in enumerate(zip(got, want)):
            assert_same_numbers(g, w, f"{path}[{i}]")
    elif isinstance(want, float) and not isinstance(got, bool):
        assert isinstance(got, (int, float)) and abs(got - want) <= ATOL + RTOL * abs(want), f"{path}: {got} != {want}"
    else:
        assert got == want, f"{path}: {got!r} != {want!r}"


def plotly_z(trace: dict) -> np.ndarray:
    """A heatmap's z, which plotly.py ships as typed-array base64 ({'dtype', 'bdata', 'shape'})."""
    z = trace["z"]
    if isinstance(z, dict):
        shape = tuple(int(n) for n in str(z["shape"]).split(","))
        return np.frombuffer(base64.b64decode(z["bdata"]), dtype=np.dtype(z["dtype"])).reshape(shape)
    return np.asarray(z, dtype=np.float64)


def plotly(fig_output) -> dict:
    """gr.Plot's wire format: {'type': 'plotly', 'plot': '<figure JSON>'}."""
    assert fig_output["type"] == "plotly"
    fig = json.loads(fig_output["plot"])
    assert fig["data"], "the figure has no traces"
    return fig


@pytest.mark.parametrize("model, beam", [("transformer-en-fr", 3), ("seq2seq-additive", 1)])
def test_translate_returns_the_python_apis_record(client, reg, model, beam):
    translation, fig, trace = client.predict(EN, model, beam, api_name="/translate")
    src, tgt, dec_in = trace["source_tokens"], trace["target_tokens"], trace["decoder_input_tokens"]
    assert translation and translation == trace["translation"]
    assert src and src[-1] == "</s>" and tgt and len(tgt) == len(dec_in) and dec_in[0] == "<s>"
    assert trace["model"] == model and 1 <= len(trace["hypotheses"]) <= beam

    att = trace["attention"]
    cross = arr(att["cross"])
    assert cross.shape[2:] == (len(tgt), len(src))
    assert_rows_sum_to_one(cross, "cross")
    if model.startswith("transformer"):
        enc, dec = arr(att["enc_self"]), arr(att["dec_self"])
        assert enc.shape[2:] == (len(src), len(src)) and dec.shape[2:] == (len(dec_in), len(dec_in))
        assert_rows_sum_to_one(enc, "enc_self")
        assert_rows_sum_to_one(dec, "dec_self")
        assert np.all(np.triu(dec, k=1) == 0), "decoder self-attention looks at the future"
        # one alignment map: the last layer's cross attention averaged over heads
        np.testing.assert_allclose(plotly_z(plotly(fig)["data"][0]), cross[-1].mean(0), atol=1e-5 + HALF)
    else:
        assert cross.shape[:2] == (1, 1) and att["enc_self"] is None and att["dec_self"] is None
        # the figure draws the record's matrix (float32 in the figure, rounded in the JSON)
        np.testing.assert_allclose(plotly_z(plotly(fig)["data"][0]), cross[0, 0], atol=1e-6 + HALF)

    want = inf.translate(model, EN, beam, reg=reg)
    assert translation == want.translation
    assert_same_numbers(trace, json.loads(json.dumps(want.to_json(decimals=inf.API_DECIMALS))))


def test_fill_mask_returns_k_predictions_per_mask(client, reg):
    k = 7
    topk_fig, grid_fig, trace = client.predict(MASKED, k, api_name="/fill_mask")
    tokens = trace["tokens"]
    assert tokens[0] == "[CLS]" and tokens[-1] == "[SEP]" and "[MASK]" in tokens
    assert len(trace["masks"]) == tokens.count("[MASK]") == 1
    m = trace["masks"][0]
    assert tokens[m["index"]] == "[MASK]"
    probs = [p["probability"] for p in m["predictions"]]
    assert len(probs) == k and all(p["token"] for p in m["predictions"])
    assert all(0 < p <= 1 for p in probs) and probs == sorted(probs, reverse=True)
    assert trace["is_next"] is None and trace["not_next"] is None  # no sentence B on this endpoint
    enc = arr(trace["attention"]["enc_self"])
    assert enc.shape[2:] == (len(tokens), len(tokens))
    assert_rows_sum_to_one(enc, "enc_self")
    bars = plotly(topk_fig)["data"][0]
    assert list(bars["customdata"]) == [p["token"] for p in m["predictions"]]
    # the grid is the last layer's mean over heads
    np.testing.assert_allclose(plotly_z(plotly(grid_fig)["data"][0]), enc[-1].mean(0), atol=1e-6 + HALF)

    want = inf.fill_mask(MASKED, k, reg=reg).to_json(decimals=inf.API_DECIMALS)
    assert_same_numbers(trace, json.loads(json.dumps(want)))


def test_nsp_probabilities_sum_to_one(client, reg):
    nsp_fig, grid_fig, trace = client.predict(MASKED, NEXT, api_name="/nsp")
    tokens, segments = trace["tokens"], trace["segments"]
    assert tokens.count("[SEP]") == 2 and len(segments) == len(tokens) and set(segments) == {0, 1}
    assert 0 <= trace["is_next"] <= 1 and 0 <= trace["not_next"] <= 1
    assert abs(trace["is_next"] + trace["not_next"] - 1) <= ATOL
    enc = arr(trace["attention"]["enc_self"])
    assert enc.shape[2:] == (len(tokens), len(tokens))
    assert_rows_sum_to_one(enc, "enc_self")
    assert plotly(nsp_fig)["data"] and len(plotly(grid_fig)["data"]) == 1
    np.testing.assert_allclose(plotly_z(plotly(grid_fig)["data"][0]), enc[-1].mean(0), atol=1e-6 + HALF)

    want = inf.nsp(MASKED, NEXT, reg=reg)
    assert_same_numbers(trace, json.loads(json.dumps(want.to_json(decimals=inf.API_DECIMALS))))


def _user_error(fn, *args, **kwargs) -> str:
    with pytest.raises(UserError) as e:
        fn(*args, **kwargs)
    return str(e.value)  # word for word: API callers read JSON, not HTML (ui/api.py's api_errors)


@pytest.mark.parametrize("api_name, args, python_call", [
    ("/translate", ("", "transformer-en-fr", 1), lambda reg: _user_error(inf.translate, "transformer-en-fr", "", 1, reg=reg)),
    ("/translate", (EN, "transformer-en-fr", 0), lambda reg: _user_error(inf.translate, "transformer-en-fr", EN, 0, reg=reg)),
    ("/translate", (EN, "no-such-model", 1), None),  # the message lists the server's models
    ("/fill_mask", ("", 5), lambda reg: _user_error(inf.fill_mask, "", 5, reg=reg)),
    ("/fill_mask", (MASKED, 0), lambda reg: _user_error(inf.fill_mask, MASKED, 0, reg=reg)),
    ("/fill_mask", ("no mask here .", 5), lambda reg: _user_error(inf.fill_mask, "no mask here .", 5, reg=reg)),
    ("/nsp", (MASKED, "   "), lambda reg: _user_error(inf.nsp, MASKED, "   ", reg=reg)),
    # not rounded, and not refused inside Gradio with its generic message: the check's own words
    ("/translate", (EN, "transformer-en-fr", 2.5), lambda reg: "Beam size must be between 1 and 8 (got 2.5)."),
    ("/translate", (EN, "transformer-en-fr", "abc"), lambda reg: "Beam size must be a whole number between 1 and 8."),
    ("/fill_mask", (MASKED, 1.5), lambda reg: "top-k must be between 1 and 100 (got 1.5)."),
], ids=["empty text", "beam 0", "unknown model", "fill empty", "top_k 0", "no mask", "nsp blank B", "beam 2.5",
        "beam abc", "top_k 1.5"])
def test_bad_input_is_a_clean_error(client, reg, api_name, args, python_call):
    with pytest.raises(AppError) as e:  # the error the app raised, not a transport failure
        client.predict(*args, api_name=api_name)
    msg = str(e.value)
    assert "Traceback" not in msg and 'File "' not in msg and GENERIC not in msg, msg
    if python_call is None:
        assert msg.startswith("Unknown model 'no-such-model'. Available: ") and "transformer-en-fr" in msg, msg
    else:
        assert msg == python_call(reg)


def test_server_still_answers_after_bad_input(client):
    translation, _, trace = client.predict(EN, "transformer-en-fr", 1, api_name="/translate")
    assert translation and trace["source_tokens"]
