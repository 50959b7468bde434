"""explorer/compute/elmo.py: ELMo_k = gamma sum_j s_j h_k,j (Peters et al. 2018, eq. 1) over this repo's encoders: the layer
vectors are the models' own hidden states (the last one equals the contextual view's), the mix is the equation."""
import numpy as np
import pytest

from explorer.compute import elmo, lab
from explorer.compute.inference import ASSETS, UserError, registry

have_assets = pytest.mark.skipif(not all((ASSETS / n / "config.json").is_file() for n in ("bert", "transformer-ko-en")),
                                 reason="shipped checkpoints under assets/ are missing")


@pytest.fixture(scope="module")
def reg():
    return registry()


def test_mix_is_the_equation():
    rng = np.random.default_rng(0)
    layers = rng.normal(size=(3, 4, 6))  # (N, L + 1, d)
    s = elmo.mix_weights([1, 0, 2, 1], 4)
    assert np.allclose(s, [0.25, 0, 0.5, 0.25])
    assert np.allclose(elmo.elmo_mix(layers, s, 2.0, normalize=False),
                       2.0 * (0.25 * layers[:, 0] + 0.5 * layers[:, 2] + 0.25 * layers[:, 3]))
    normed = elmo.elmo_mix(layers, np.eye(4)[1], 1.0, normalize=True)
    assert np.allclose(normed.mean(-1), 0) and np.allclose(normed.std(-1), 1, atol=1e-6)
    assert np.allclose(elmo.mix_weights(None, 5), 0.2)
    for bad in ([1, 2], [-1, 1, 1, 1], [0, 0, 0, 0], ["a", 1, 1, 1]):
        with pytest.raises(UserError):
            elmo.mix_weights(bad, 4)


@have_assets
@pytest.mark.parametrize("word", ["bank", "배"])
def test_the_last_layer_alone_is_the_contextual_views_vector(reg, word):
    r = elmo.elmo(word, reg=reg)  # uniform weights by default
    ctx = lab.contextual_similarity(word, reg=reg)
    assert r.model == ctx.model and r.positions == ctx.positions and r.tokens == ctx.tokens
    L1 = r.layers.shape[1]
    assert np.allclose(r.s, 1 / L1) and r.layer_names[0] == "embeddings"
    last = elmo.elmo(word, weights=np.eye(L1)[-1], gamma=1.0, normalize=False, reg=reg)
    assert np.allclose(last.mixed, ctx.vectors, atol=1e-5, rtol=1e-5)
    assert np.allclose(last.similarity, ctx.similarity, atol=1e-5)
    assert np.allclose(last.layer_similarity[-1], ctx.similarity, atol=1e-5)
    scaled = elmo.elmo(word, gamma=3.0, reg=reg)
    assert np.allclose(scaled.mixed, 3 * r.mixed) and np.allclose(scaled.similarity, r.similarity)  # gamma: no cosine
    assert np.allclose(r.mixed, elmo.elmo_mix(r.layers, r.s, 1.0, True))


@have_assets
def test_elmo_errors(reg):
    with pytest.raises(UserError):
        elmo.elmo("bank", ["I sat on the bank."], reg=reg)
    with pytest.raises(UserError):
        elmo.elmo("bank", gamma=0, reg=reg)
    with pytest.raises(UserError):
        elmo.elmo("bank", weights=[1, 1], reg=reg)


@have_assets
def test_the_view_draws_each_layers_vector_and_the_mix(reg):
    from explorer.views import elmo as ve
    v = ve.elmo_view("bank", weights="0 0 0 0 0 0 0 0 0 0 0 1 1", gamma=2.0, normalize=False)
    z = np.array(v.vectors.data[0].z)[::-1]  # rows drawn bottom-up
    assert np.allclose(z[:-1], v.record.layers[0]) and np.allclose(z[-1], v.record.mixed[0])
    assert np.allclose(z[-1], 2.0 * 0.5 * (v.record.layers[0, 11] + v.record.layers[0, 12]))
    assert list(v.table["weight s_j"])[-2:] == [0.5, 0.5]


def test_word_vector_is_the_elmo_layer_vector_and_a_sense_check_counts_right():
    from explorer.compute import senses
    from explorer.compute.elmo import elmo, word_vector
    r = elmo("bank", ["I sat on the bank of the river.", "The bank gave me a loan."], name="bert")
    for j in (0, 5, 12):
        v = word_vector("bank", "The bank gave me a loan.", "bert", j)
        assert np.allclose(v.vector, r.layers[1, j], atol=1e-5)
    # nearest-neighbour check: two tight clusters -> every row finds its own sense; identical vectors -> no one does
    x = np.array([[1.0, 0.0], [0.9, 0.1], [0.0, 1.0], [0.1, 0.9]])
    assert senses.nearest_same(x, ["a", "a", "b", "b"]) == [True] * 4
    assert senses.nearest_same(x, ["a", "b", "a", "b"]) == [False] * 4
    assert senses.nearest_same(np.ones((4, 2)), ["a", "a", "b", "b"]) == [False] * 4  # a tie is a miss
