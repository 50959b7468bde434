"""explorer/figures.py on synthetic arrays: every number in a figure is the array's, masked
cells are marked, repeated tokens keep their own cells, user text is escaped, and the grid
works for any layers x heads."""
import json
import subprocess
import sys

import numpy as np
import pytest

from explorer import figures as fg

XSS = "<img src=x onerror=alert(1)>"


def softmax_rows(s):
    e = np.exp(s - np.nanmax(np.where(np.isneginf(s), np.nan, s), axis=-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def causal(n, seed=0):
    """(scores with -inf above the diagonal, their row softmax), as a decoder produces them."""
    s = np.random.default_rng(seed).normal(size=(n, n)).astype(np.float32)
    s[np.triu_indices(n, 1)] = -np.inf
    return s, softmax_rows(s).astype(np.float32)


def probs(*shape, seed=0):
    a = np.random.default_rng(seed).random(shape).astype(np.float32)
    return a / a.sum(-1, keepdims=True)


def strings(obj):
    """Every string anywhere in a plotly JSON-like structure (arrays of objects included)."""
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, dict):
        for v in obj.values():
            yield from strings(v)
    elif isinstance(obj, (list, tuple)) or (isinstance(obj, np.ndarray) and obj.dtype == object):
        for v in obj:
            yield from strings(v)
    elif isinstance(obj, np.ndarray) and obj.dtype.kind == "U":
        yield from (str(v) for v in obj.ravel())


def test_figures_module_is_pure():
    code = ("import sys, explorer.figures; "
            "print(sorted(m for m in ('torch', 'gradio', 'models', 'explorer.inference') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_heatmap_numbers_axes_and_hover():
    x, y = ["I", "am", "a", "student", "</s>"], ["je", "suis", "étudiant"]
    m = probs(3, 5)
    fig = fg.heatmap(m, x, y, "cross")
    (tr,) = fig.data
    np.testing.assert_array_equal(np.asarray(tr.z), m)
    assert list(fig.layout.xaxis.ticktext) == ["I", "am", "a", "student", "&lt;/s&gt;"]
    assert list(fig.layout.yaxis.ticktext) == y
    assert list(fig.layout.xaxis.tickvals) == list(range(5))
    assert tuple(tr.customdata[2][4]) == ("étudiant", "&lt;/s&gt;")  # (query, key) of cell [2, 4]
    assert "%{z:.4f}" in tr.hovertemplate
    assert (tr.zmin, tr.zmax) == (0.0, 1.0)
    assert list(fig.layout.yaxis.range) == [2.5, -0.5]  # first query on top


def test_heatmap_rejects_mismatched_tokens():
    with pytest.raises(ValueError):
        fg.heatmap(probs(3, 5), ["a"] * 4, ["b"] * 3, "t")


def test_duplicate_tokens_keep_their_own_cells():
    toks = ["the", "cat", "saw", "the", "dog", "the"]
    m = probs(6, 6)
    fig = fg.heatmap(m, toks, toks, "dups")
    ax = fig.layout.xaxis
    assert list(ax.ticktext) == toks and len(set(ax.tickvals)) == 6  # one tick per token, text shown as is
    assert len(set(fig.data[0].x)) == 6 and len(set(fig.data[0].y)) == 6  # no category collapsed
    np.testing.assert_array_equal(np.asarray(fig.data[0].z), m)


def test_heatmap_stays_readable_with_many_tokens():
    small, big = fg.heatmap(probs(5, 5), list("abcde"), list("abcde"), "s"), None
    toks = [f"tok{i}" for i in range(60)]
    big = fg.heatmap(probs(60, 60), toks, toks, "b")
    assert len(big.layout.xaxis.tickvals) == 60 and len(big.layout.yaxis.ticktext) == 60  # every tick shown
    assert big.layout.xaxis.tickfont.size < small.layout.xaxis.tickfont.size
    assert big.layout.height > small.layout.height
    assert big.layout.xaxis.automargin and big.layout.yaxis.scaleanchor == "x"


def test_user_text_is_escaped_everywhere():
    toks = ["ok", XSS, "a&b"]
    s, p = causal(3)
    figs = [fg.heatmap(p, toks, toks, XSS, segments=[0, 0, 1]), fg.masked_scores(s, p, toks, toks, XSS),
            fg.head_grid(np.stack([np.stack([p, p])]), toks, toks, XSS),
            fg.attention_bars(p[2], toks, XSS), fg.topk_bars([(XSS, toks, [0.5, 0.3, 0.2])], XSS),
            fg.nsp_bars(0.9, 0.1, XSS), fg.placeholder(XSS, XSS)]
    for fig in figs:
        texts = list(strings(fig.to_plotly_json()))
        assert not any("<img" in t for t in texts), fig.layout.title.text
        assert any("&lt;img src=x onerror=alert(1)&gt;" in t for t in texts)
    assert "a&amp;b" in figs[0].layout.xaxis.ticktext[2]


def test_masked_scores_marks_minus_infinity():
    toks = ["<s>", "je", "suis", "je"]
    s, p = causal(4)
    fig = fg.masked_scores(s, p, toks, toks, "dec")
    scores, masked, soft = fig.data
    masked_cells = np.isneginf(s)
    z = np.asarray(scores.z, dtype=float)
    assert np.isnan(z[masked_cells]).all() and not np.isinf(z).any()  # no -inf handed to plotly
    np.testing.assert_array_equal(z[~masked_cells], s[~masked_cells])
    gray = np.asarray(masked.z, dtype=float)
    assert (~np.isnan(gray) == masked_cells).all()  # the gray layer covers exactly the masked cells
    text = np.asarray(masked.text)
    assert (text[masked_cells] == "−∞").all() and (text[~masked_cells] == "").all()
    assert "−∞ (masked)" in masked.hovertemplate
    np.testing.assert_array_equal(np.asarray(soft.z), p)
    assert (np.asarray(soft.z)[masked_cells] == 0).all()
    assert scores.xaxis == "x" and soft.xaxis == "x2"  # side by side
    assert scores.zmid == 0


@pytest.mark.parametrize("L,H", [(1, 1), (2, 3), (3, 8), (5, 2), (6, 6)])
def test_head_grid_any_layers_and_heads(L, H):
    toks_k, toks_q = ["a", "b", "c", "a"], ["x", "y", "z"]
    att = probs(L, H, 3, 4, seed=L * 10 + H)
    sel = (L - 1, H // 2)
    fig = fg.head_grid(att, toks_k, toks_q, "grid", selected=sel)
    assert len(fig.data) == L * H
    for i, tr in enumerate(fig.data):
        np.testing.assert_array_equal(np.asarray(tr.z), att[i // H, i % H])  # row-major: layer, then head
        assert tr.coloraxis == "coloraxis"  # one shared colour scale
    assert (fig.layout.coloraxis.cmin, fig.layout.coloraxis.cmax) == (0, 1)
    rects = [s for s in fig.layout.shapes if s.type == "rect"]
    assert len(rects) == 1
    chosen = fig.data[sel[0] * H + sel[1]]
    assert rects[0].xref == f"{chosen.xaxis} domain" and rects[0].yref == f"{chosen.yaxis} domain"
    labels = {a.text for a in fig.layout.annotations}
    assert labels == {f"L{l + 1}" for l in range(L)} | {f"H{h + 1}" for h in range(H)}
    # every cell has its own axes, and the domains do not overlap within a row
    doms = sorted(tuple(fig.layout[f"xaxis{'' if i == 0 else i + 1}"].domain) for i in range(H))
    assert all(a[1] <= b[0] for a, b in zip(doms, doms[1:]))


def test_head_grid_without_selection_and_bad_shape():
    fig = fg.head_grid(probs(2, 2, 3, 3), list("abc"), list("abc"), "g", selected=None)
    assert not [s for s in fig.layout.shapes if s.type == "rect"]
    with pytest.raises(ValueError):
        fg.head_grid(probs(2, 3, 3), list("abc"), list("abc"), "g")  # 3-D: not [L, H, q, k]


def test_head_grid_past_its_cell_budget_says_why_instead_of_drawing():
    """72 maps of 256 x 256 (a paragraph in a 12-layer BERT) were ~29 MB of figure JSON."""
    fits = int((fg.MAX_GRID_CELLS / 72) ** 0.5)  # 64 tokens for 12 layers x 6 heads
    toks = [f"t{i}" for i in range(fits)]
    assert len(fg.head_grid(probs(12, 6, fits, fits), toks, toks, "g").data) == 72
    toks += ["one more"]
    fig = fg.head_grid(probs(12, 6, fits + 1, fits + 1), toks, toks, "g",
                       labels={"grid_too_large": "{limit}/{tokens}/{maps}"})
    assert not fig.data and fig.layout.title.text == "g"
    assert fig.layout.annotations[0].text == f"{fits}/{fits + 1}/72"
    english = fg.head_grid(probs(12, 6, 65, 65), toks, toks, "g").layout.annotations[0].text
    assert "up to 64 tokens; this one has 65" in english


def test_segments_label_ticks_and_divide_the_matrix():
    toks = ["[CLS]", "the", "[SEP]", "he", "[SEP]"]
    segs = [0, 0, 0, 1, 1]
    assert fg.segment_labels(toks, segs) == ["A·[CLS]", "A·the", "A·[SEP]", "B·he", "B·[SEP]"]
    fig = fg.heatmap(probs(5, 5), toks, toks, "bert", segments=segs)
    assert list(fig.layout.xaxis.ticktext) == fg.segment_labels(toks, segs)
    assert list(fig.layout.yaxis.ticktext) == fg.segment_labels(toks, segs)
    lines = [s for s in fig.layout.shapes if s.type == "line"]
    assert sorted({s.x0 for s in lines if s.x0 == s.x1}) == [2.5]  # between the first [SEP] and "he"
    grid = fg.head_grid(probs(2, 2, 5, 5), toks, toks, "g", segments=segs)
    assert list(grid.data[0].x) == ["#0 A·[CLS]", "#1 A·the", "#2 A·[SEP]", "#3 B·he", "#4 B·[SEP]"]
    assert list(grid.data[3].y) == list(grid.data[0].x)  # every head names the same tokens
    with pytest.raises(ValueError):
        fg.segment_labels(toks, [0, 1])


def test_attention_bars_topk_and_nsp():
    w = probs(4)
    bars = fg.attention_bars(w, ["I", "am", "a", "I"], "step 1")
    np.testing.assert_array_equal(np.asarray(bars.data[0].y), w)
    assert list(bars.layout.xaxis.ticktext) == ["I", "am", "a", "I"]
    with pytest.raises(ValueError):
        fg.attention_bars(w, ["I"], "t")
    masks = [("[MASK] #1", ["store", "house"], [0.4, 0.2]), ("[MASK] #2", ["milk", "water", "tea"], [0.5, 0.1, 0.05])]
    top = fg.topk_bars(masks)
    assert len(top.data) == 2  # one group per [MASK]
    for tr, (_, toks, p) in zip(top.data, masks):
        np.testing.assert_array_equal(np.asarray(tr.x), p)
        assert list(tr.customdata) == toks
    assert fg.topk_bars([]).data == ()  # a notice, not a crash
    nsp = fg.nsp_bars(0.75, 0.25)
    assert list(nsp.data[0].x) == ["IsNext", "NotNext"] and list(nsp.data[0].y) == [0.75, 0.25]


def _every_figure(seed):
    """One of each figure function's outputs, on odd shapes and user text with markup."""
    rng = np.random.default_rng(seed)
    n, m = int(rng.integers(1, 9)), int(rng.integers(1, 9))
    L, H = int(rng.integers(1, 7)), int(rng.integers(1, 9))
    xt, yt = [f"x{i}" for i in range(m - 1)] + [XSS], [f"y{i}" for i in range(n)]
    s, p = causal(n, seed)
    sq = [f"t{i}" for i in range(n)]
    k = int(rng.integers(1, 6))
    masks = [(f"[MASK] #{j}", [f"w{i}" for i in range(k)], sorted(probs(k, seed=seed + j), reverse=True))
             for j in range(int(rng.integers(1, 5)))]
    return [
        fg.heatmap(probs(n, m, seed=seed), xt, yt, XSS),
        fg.heatmap(probs(n, n, seed=seed), sq, sq, "segments", segments=[0] * (n // 2) + [1] * (n - n // 2),
                   highlight_row=n - 1, colorscale=fg.SCORE_SCALE),
        fg.masked_scores(s, p, sq, sq, XSS),
        fg.head_grid(probs(L, H, n, m, seed=seed), xt, yt, XSS, selected=(L - 1, H - 1)),
        fg.attention_bars(probs(m, seed=seed), xt, XSS),
        fg.attention_bars(probs(30, seed=seed), [str(i) for i in range(30)], "long"),
        fg.topk_bars(masks, XSS),
        fg.nsp_bars(0.7, 0.3, XSS),
        fg.placeholder(XSS, XSS),
    ]


@pytest.mark.parametrize("seed", range(6))
def test_figures_built_without_validation_are_what_plotly_validates(monkeypatch, seed):
    """The figures skip plotly's validators for speed; built again with validation on, every one
    must pass the validators (no misspelt property, no value out of range) and give the same JSON."""
    fast = [json.loads(f.to_json()) for f in _every_figure(seed)]
    monkeypatch.setattr(fg, "VALIDATE", True)
    checked = [json.loads(f.to_json()) for f in _every_figure(seed)]
    assert fast == checked


