"""explorer/figures/inside.py on synthetic arrays: the numbers drawn are the numbers given, masked cells are
marked, the chosen word is outlined, tokens are escaped, and bad shapes are refused."""
import numpy as np
import plotly.graph_objects as go
import pytest

from explorer.figures import inside as fi


def test_vector_rows_draw_the_vectors_and_their_norms():
    a, b = np.array([3.0, 4.0, 0.0]), np.array([-1.0, 0.0, 0.0])
    fig = fi.vector_rows([a, b], ["<x>", "y"], "t")
    z = np.array(fig.data[0].z)
    assert np.array_equal(z, np.stack([b, a]))  # the first vector at the top (rows drawn bottom-up)
    assert fig.layout.yaxis.ticktext[-1] == "&lt;x&gt;  |v| = 5.00"
    assert fig.data[0].zmin == -4 and fig.data[0].zmax == 4
    with pytest.raises(ValueError):
        fi.vector_rows([a, np.zeros(2)], ["a", "b"], "t")


def test_head_rows_mark_minus_infinity_and_draw_the_softmax():
    s = np.array([[0.5, -np.inf], [1.0, 2.0]])
    p = np.array([[1.0, 0.0], [0.27, 0.73]])
    fig = fi.head_rows(s, p, ["a", "<b>"], ["h1", "h2"], "t")
    scores, mask, probs = fig.data
    assert scores.text[0][1] == fi.MINUS_INF and np.isnan(np.array(scores.z, dtype=float)[0, 1])
    assert np.array_equal(np.isnan(np.array(mask.z, dtype=float)), [[True, False], [True, True]])  # gray: masked only
    assert np.array_equal(np.array(probs.z), p)
    assert fig.layout.xaxis.ticktext[1] == "&lt;b&gt;"
    with pytest.raises(ValueError):
        fi.head_rows(s, p[:, :1], ["a", "b"], ["h1", "h2"], "t")


def test_choices_grid_outlines_the_chosen_word_only_when_it_is_in_the_top_k():
    att = np.array([[0.9, 0.1], [0.2, 0.8], [0.5, 0.5]])
    tops = [["Je", "J'"], ["suis", "ai"], ["x", "y"]]
    probs = np.array([[0.9, 0.05], [0.6, 0.3], [0.5, 0.4]])
    fig = fi.choices_grid(att, ["I", "am"], ["Je", "ai", "z"], tops, probs, ["src", "rank", "title"])
    assert np.array_equal(np.array(fig.data[0].z), att) and np.array_equal(np.array(fig.data[1].z), probs)
    boxes = [(s.x0, s.y0) for s in fig.layout.shapes]
    assert boxes == [(-0.5, -0.5), (0.5, 0.5)]  # step 1: rank 1; step 2: rank 2; step 3: not in the top-k
    assert fig.data[1].text[0][1] == "J'<br>0.05"


def test_luong_steps_elmo_and_side_by_side_take_their_numbers():
    fig = fi.luong_steps(["a", "b"], [1.0, -2.0], [0.95, 0.05], ["x", "y", "z"], [0.5, 0.3, 0.1], 1,
                         ["e", "a", "top", "t"])
    assert list(fig.data[0].x) == [1.0, -2.0] and list(fig.data[1].x) == [0.95, 0.05]
    assert list(fig.data[2].marker.line.width) == [0, 2, 0]
    fig = fi.elmo_layers(["e", "1", "2"], [0.2, 0.3, 0.5], [0.9, 0.8, 0.6], 0.7, ["s", "c", "m", "t"])
    assert list(fig.data[0].y) == [0.2, 0.3, 0.5] and list(fig.data[2].y) == [0.7, 0.7]
    fig = fi.side_by_side(np.eye(3), -np.eye(3), ["l", "r", "t"])
    assert np.array_equal(np.array(fig.data[1].z), -np.eye(3))
    fig = fi.stacked_matrices([np.ones((2, 4)), np.zeros((2, 4))], ["a", "b"], ["t1", "t2"], "t")
    assert len(fig.data) == 2 and fig.layout.yaxis2.domain[1] < fig.layout.yaxis.domain[0]
    assert isinstance(fi.bars([1, 2], ["a", "b"], "t", highlight=0), go.Figure)


def test_qkv_heads_draw_q_k_and_v_per_head_with_the_mask_and_the_token():
    q = np.arange(6.0).reshape(2, 3)  # (heads, d_k)
    k = np.arange(18.0).reshape(2, 3, 3) - 9  # (heads, keys, d_k)
    v = -k
    fig = fi.qkv_heads(q, k, v, "<b>", ["a", "<b>", "c"], ["h1", "h2"], "t", masked=[False, False, True],
                       highlight=1)
    heat = [tr for tr in fig.data if tr.hoverinfo != "skip"]
    gray = [tr for tr in fig.data if tr.hoverinfo == "skip"]
    assert [(tr.xaxis, tr.yaxis) for tr in heat] == [("x", "y"), ("x2", "y"), ("x", "y2"), ("x2", "y2"),
                                                      ("x", "y3"), ("x2", "y3")]  # bands top-down, heads across
    assert np.array_equal(np.array(heat[1].z), q[1:2]) and np.array_equal(np.array(heat[3].z), k[1])
    assert np.array_equal(np.array(heat[4].z), v[0])
    assert list(heat[2].y) == ["0: a", "1: &lt;b&gt;", "2: c"] and list(heat[0].y) == ["&lt;b&gt;"]
    assert heat[2].zmax == heat[3].zmax == 9 and heat[0].zmax == 5  # one scale per band, shared by the heads
    assert len(gray) == 4 and np.isnan(np.array(gray[0].z, dtype=float)[:2]).all() and gray[0].z[2][0] == 1
    assert len(fig.layout.shapes) == 4 and {s.y0 for s in fig.layout.shapes} == {0.5}  # key 1 outlined, K and V
    assert fig.layout.yaxis.domain[0] > fig.layout.yaxis2.domain[1] > fig.layout.yaxis3.domain[1]
    assert not [tr for tr in fi.qkv_heads(q, k, v, "b", "abc", ["h1", "h2"], "t").data if tr.hoverinfo == "skip"]
    with pytest.raises(ValueError):
        fi.qkv_heads(q, k[:, :2], v, "b", "abc", ["h1", "h2"], "t")
    with pytest.raises(ValueError):
        fi.qkv_heads(q, k, v, "b", "abc", ["h1", "h2"], "t", masked=[True])
