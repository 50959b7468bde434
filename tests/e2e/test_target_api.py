"""/translate_target over HTTP (gradio_client): a typed translation comes back teacher-forced with each token's
probability, the same numbers as explorer.compute.choices in this process; /translate's three values give the plain
translation as before."""
import numpy as np
import pytest

pytest.importorskip("gradio_client")
from gradio_client import Client  # noqa: E402

from bench._server import start_app, stop  # noqa: E402
from explorer.compute import inference as inf  # noqa: E402
from explorer.compute.choices import next_word_choices  # noqa: E402

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not (inf.ASSETS / "transformer-en-fr" / "config.json").is_file(),
                                 reason="shipped checkpoints missing from assets/")]
EN, FR = "I am a student.", "Je suis un étudiant."


@pytest.fixture(scope="module")
def client():
    proc, url, _ = start_app()
    try:
        yield Client(url, verbose=False, download_files=False)
    finally:
        stop(proc)


def test_translate_with_a_target_is_teacher_forced(client):
    text, _, rec = client.predict(EN, "transformer-en-fr", FR, api_name="/translate_target")
    want = next_word_choices("transformer-en-fr", EN, target=FR, reg=inf.load_registry(names={"transformer-en-fr"}))
    assert text == FR and rec["forced"] and rec["target_tokens"] == want.target_tokens
    got = np.array([s["probability"] for s in rec["steps"]])
    assert np.allclose(got, [s.probability for s in want.steps], atol=5e-6)
    assert [s["rank"] for s in rec["steps"]] == [s.rank for s in want.steps]
    plain, _, rec = client.predict(EN, "transformer-en-fr", 1, api_name="/translate")  # the plain translation
    assert plain == "Je suis étudiant." and "forced" not in rec
