"""The attribution view and figures on a synthetic record: no model runs, the numbers drawn are the record's, and
the Korean redraw carries the same numbers."""
from __future__ import annotations

import numpy as np
import pytest

from explorer.compute import attribution as at
from explorer.figures import attribution as af
from explorer.views import attribution as views


def record(task="fill-mask"):
    tokens = ["[CLS]", "the", "cat", "[MASK]", ".", "[SEP]"]
    rng = np.random.default_rng(1)
    scores = {m: rng.normal(size=len(tokens)).tolist() for m in at.MEASURES}
    x = at.Target(3, "dog", 0.5, scores, ig_sum=float(sum(scores["integrated_gradients"])), ig_gap=2.0)
    return at.Attribution("bert", task, tokens, ["dog"], [x], 32)


def test_row_shares():
    np.testing.assert_allclose(af.row_shares([[1, -2, 0], [0, 0, 0]]), [[0.5, 1, 0], [0, 0, 0]])


def test_measures_map_keeps_raw_values_and_checks_shapes():
    fig = af.measures_map(["a", "b"], ["m1", "m2"], [[1.0, -3.0], [2.0, 4.0]], "t", query=1)
    assert fig.data[0].customdata[0][1] == -3.0 and fig.data[0].z[0][1] == 1.0
    assert len(fig.layout.shapes) == 1
    with pytest.raises(ValueError):
        af.measures_map(["a"], ["m1", "m2"], [[1.0, 2.0]], "t")


def test_correlation_map_blank_for_undefined():
    fig = af.correlation_map(["a", "b"], [[1.0, np.nan], [np.nan, 1.0]], "t")
    assert fig.data[0].z[0][1] is None and fig.data[0].text[0][1] == ""


def test_redraw_in_both_languages_same_numbers():
    rec = record()
    en, ko = views.attribution_redraw(rec, 0, "en"), views.attribution_redraw(rec, 0, "ko")
    assert en.measures.data[0].customdata == ko.measures.data[0].customdata
    assert list(en.measures.data[0].customdata[0]) == pytest.approx(rec.targets[0].scores["attention"])
    assert en.measures.data[0].y != ko.measures.data[0].y  # the measures' names translated
    assert "dog" in en.summary and "⚠️" in en.summary  # completeness off: the sum is not 2.0
    assert en.choices == [("[MASK] 4 → dog", 0)] and en.target == 0
    assert views.attribution_redraw(rec, 7, "en").target == 0  # an index out of range: the default
