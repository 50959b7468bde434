"""A plot output that Gradio serializes leaves nothing of itself behind.

gr.Plot sends a figure as `fig.to_json()`; plotly tries orjson first, which refuses the hover labels' array (dtype
object: explorer.figures' `_hover_tokens`), then writes a cleaned copy. orjson before 3.9.10 kept a reference to the
array it refused (cf. ijl/orjson#422), so every call kept plotly's copy of the labels alive for good: ~1 MiB a
256-token BERT map, one per /fill_mask call (docs/reliability.md). requirements.txt asks for orjson >= 3.9.15.
"""
import sys

import numpy as np
import pytest

gr = pytest.importorskip("gradio")

from explorer import figures as fg  # noqa: E402


def test_a_serialized_heatmap_keeps_no_reference_to_its_hover_labels():
    n = 32
    tokens = [f"tok{i}" for i in range(n)]
    fig = fg.heatmap(np.full((n, n), 1 / n), tokens, tokens, "mean attention")
    label = fig.data[0].customdata[0, 0, 0]  # query "#0 tok0": referenced by the n cells of row 0
    assert label == "#0 tok0"
    before = sys.getrefcount(label)
    plot = gr.Plot()
    for _ in range(5):
        sent = plot.postprocess(fig).plot  # what Gradio sends for a gr.Plot output
    assert '"#0 tok0"' in sent
    assert sys.getrefcount(label) == before  # a kept copy of the labels adds n references each call


def test_orjson_keeps_no_reference_to_an_array_it_refuses():
    orjson = pytest.importorskip("orjson")
    labels = np.array(["a", "b", "c"], dtype=object)
    before = sys.getrefcount(labels)
    for _ in range(5):
        with pytest.raises(TypeError):
            orjson.dumps({"customdata": labels}, option=orjson.OPT_SERIALIZE_NUMPY)
    assert sys.getrefcount(labels) == before
