"""The BERT tab's first screen on a server that offers another BERT ($ATTN_EXPLORER_BERT_DIR): the tab keeps its
first screen (the shipped BERT on the default example, ui/first_screen.py), and Fill [MASK] on bert-custom after
it shows bert-custom's numbers, as explorer.compute.inference.fill_mask computes them, never the first screen's; the
cached screen is unchanged by that run. The browser side is tests/e2e/test_browser.py::test_bring_your_own_bert."""
import base64
import json

import numpy as np
import pytest

gr = pytest.importorskip("gradio")
transformers = pytest.importorskip("transformers")

import app  # noqa: E402  (builds the demo, loading the registry once)
from gradio.components.plot import PlotData  # noqa: E402
from explorer import i18n  # noqa: E402
from explorer.compute import inference as inf  # noqa: E402
from explorer.serve.cache import stored  # noqa: E402

# the tab's default example ("the man went to the [MASK] ." / "he bought a gallon of milk .") in a tiny vocabulary
WORDS = "the man went to store he bought a gallon of milk and she house dog".split()
VOCAB = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"] + WORDS + ["##s", ".", ","]


@pytest.fixture(scope="module")
def custom_bert(tmp_path_factory):
    """A random 2-layer, 4-head BertForPreTraining saved as safetensors, with a lowercase vocab.txt."""
    import torch
    torch.manual_seed(0)
    cfg = transformers.BertConfig(vocab_size=len(VOCAB), hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
                                  intermediate_size=37, max_position_embeddings=64, type_vocab_size=2,
                                  initializer_range=0.2)
    model = transformers.BertForPreTraining(cfg).eval()
    with torch.no_grad():  # never the special tokens: the guesses are words, as a trained BERT's are
        model.cls.predictions.bias[:5] = -20.0
    folder = tmp_path_factory.mktemp("byo-first-screen")
    model.save_pretrained(folder, safe_serialization=True)
    (folder / "vocab.txt").write_text("\n".join(VOCAB) + "\n", encoding="utf-8")
    return folder


def guesses(table) -> list:
    return list(zip(table["token"], table["probability"]))


def numbers(x) -> np.ndarray:
    """A trace's array as built, or as plotly's JSON sends it (a typed array: base64 bytes and their dtype)."""
    if isinstance(x, dict) and "bdata" in x:
        return np.frombuffer(base64.b64decode(x["bdata"]), dtype=x["dtype"])
    return np.asarray(x, dtype=float)


def bars(plot) -> list:
    """(token, probability) of a top-k figure (explorer.figures.topk_bars: the token in customdata), as sent
    (the cached screen's JSON) or as built (a go.Figure)."""
    fig = json.loads(plot.plot) if isinstance(plot, PlotData) else plot.to_plotly_json()
    return [(t, float(p)) for trace in fig["data"] for t, p in zip(trace["customdata"], numbers(trace["x"]))]


def predicted(r) -> list:
    return [(p.token, p.probability) for m in r.masks for p in m.predictions]


@pytest.mark.skipif(not (inf.ASSETS / "bert").is_dir(), reason="no shipped BERT checkpoint")
def test_fill_on_bert_custom_after_the_first_screen_shows_bert_custom(custom_bert, monkeypatch):
    monkeypatch.setenv("ATTN_EXPLORER_BERT_DIR", str(custom_bert))
    monkeypatch.setenv("ATTN_EXPLORER_ALLOW_HUB", "1")  # the browser test's server: a Hub box too
    monkeypatch.setenv("ATTN_EXPLORER_WARM", "0")  # this tab's screen alone, not every tab's
    monkeypatch.setattr(inf, "_REGISTRY", inf.load_registry(names={"bert"}))
    demo = app.build_demo()
    tab, first = demo.tabs["bert"], demo.first_screens
    entries = [e for e in first.entries if e.tab == "bert"]
    assert len(entries) == 1, "the BERT tab has no first screen where bert-custom is offered"

    a, b = i18n.DEFAULT_INPUTS["mask"], i18n.DEFAULT_INPUTS["next"]
    shipped, custom = inf.fill_mask(a, 5, b), inf.fill_mask(a, 5, b, name="bert-custom")
    assert [t for t, _ in predicted(shipped)] != [t for t, _ in predicted(custom)]  # the two models are told apart

    screen = first.screen(entries[0], "en")  # the shipped BERT on the default example
    assert guesses(screen[tab.masks]) == predicted(shipped) == bars(screen[tab.topk])

    # Fill [MASK] as the page wires it (the button's event), bert-custom chosen, the same sentences
    fill = next(f for f in demo.fns.values() if (tab.fill_btn._id, "click") in f.targets)
    out = fill.fn("bert-custom", a, b, 5, 2, 4, "en")
    assert guesses(out[tab.masks]) == predicted(custom) == bars(out[tab.topk])
    record = stored(out[tab.record])
    assert predicted(record) == predicted(custom) and record.tokens == custom.tokens
    head = out[tab.head]  # a shared run's figure: the JSON Gradio sends (PlotData)
    z = json.loads(head.plot)["data"][0]["z"] if hasattr(head, "plot") else head.data[0].z
    if isinstance(z, dict):  # plotly's typed array in JSON: {"dtype", "bdata" (base64), "shape"}
        z = np.frombuffer(base64.b64decode(z["bdata"]), dtype=z["dtype"]).reshape(
            [int(n) for n in str(z.get("shape", -1)).split(",")])
    np.testing.assert_array_equal(np.asarray(z, dtype=float),
                                  custom.trace.enc_self[1, 3])  # layer 2, head 4: bert-custom's own attention
    assert record.trace.enc_self.shape[:2] == (2, 4) and out[tab.layer].maximum == 2

    again = first.screen(entries[0], "en")  # the cached screen, untouched by the visitor's run
    assert again is screen and guesses(again[tab.masks]) == predicted(shipped)
