"""Invariants of the LSTM encoder-decoder (models/seq2seq.py): tiny configs, CPU, seconds."""
import pytest
import torch
import torch.nn.functional as F

from models.seq2seq import Seq2Seq, Seq2SeqConfig, reverse_padded

V, PAD, BOS, EOS = 12, 0, 1, 2
ATTENTION = ("dot", "scaled_dot", "general", "additive")
# Every attention, plus the encoder options that change how states are formed.
VARIANTS = {
    "dot": dict(attention="dot"),
    "scaled_dot-bi-2layer": dict(attention="scaled_dot", bidirectional=True, n_layers=2),
    "general-bi": dict(attention="general", bidirectional=True),
    "additive-2layer": dict(attention="additive", n_layers=2),
    "additive-bi-reversed": dict(attention="additive", bidirectional=True, reverse_source=True),
    "none-reversed": dict(attention="none", reverse_source=True),
    "none-bi-2layer-tied": dict(attention="none", bidirectional=True, n_layers=2, tie_embeddings=True),
}


def make(seed=0, **kw) -> Seq2Seq:
    torch.manual_seed(seed)
    kw = dict(dict(d_emb=16, d_hidden=24, n_layers=1, dropout=0.1), **kw)
    return Seq2Seq(Seq2SeqConfig(src_vocab_size=V, tgt_vocab_size=V, **kw))


def batch(pairs):
    """[(src ids, tgt ids)] -> padded src, tgt_in = BOS + tgt, tgt_out = tgt + EOS."""
    def pad(rows):
        width = max(map(len, rows))
        return torch.tensor([r + [PAD] * (width - len(r)) for r in rows])
    return (pad([s for s, _ in pairs]), pad([[BOS] + t for _, t in pairs]),
            pad([t + [EOS] for _, t in pairs]))


SHORT = ([3, 4, 5], [5, 4, 3])
LONG = ([6, 7, 8, 9, 10, 11], [11, 10, 9, 8, 7, 6])


@pytest.mark.parametrize("attention", ATTENTION)
def test_cross_attention_shape_rows_sum_to_one_padding_zero(attention):
    model = make(attention=attention).eval()
    src, tgt_in, _ = batch([SHORT, LONG])
    cross = model(src, tgt_in, need_weights=True).trace.cross
    B, S, T = 2, src.size(1), tgt_in.size(1)
    assert cross.shape == (B, 1, 1, T, S)
    torch.testing.assert_close(cross.sum(-1), torch.ones(B, 1, 1, T))
    assert torch.equal(cross[0, ..., len(SHORT[0]):], torch.zeros(1, 1, T, S - len(SHORT[0])))
    assert (cross[..., :3] > 0).all()


def test_none_has_no_cross_attention():
    model = make(attention="none").eval()
    src, tgt_in, _ = batch([SHORT, LONG])
    assert model(src, tgt_in, need_weights=True).trace.cross is None
    assert model(src, tgt_in).trace is None
    assert model.step(model.start(src), tgt_in[:, :1], None)[2] is None


def test_reverse_padded_keeps_padding_at_the_end():
    src = torch.tensor([[3, 4, 5, 0, 0], [6, 7, 8, 9, 10]])
    lengths = (src != PAD).sum(1)
    assert reverse_padded(src, lengths).tolist() == [[5, 4, 3, 0, 0], [10, 9, 8, 7, 6]]
    x = torch.randn(2, 5, 3)
    assert torch.equal(reverse_padded(x, lengths)[0, :3], x[0, :3].flip(0))
    assert torch.equal(reverse_padded(x, lengths)[0, 3:], x[0, 3:])
    assert torch.equal(reverse_padded(reverse_padded(x, lengths), lengths), x)


@pytest.mark.parametrize("attention", ["none", "general"])
def test_reverse_source_is_the_model_on_reversed_input(attention):
    plain, rev = make(attention=attention).eval(), make(attention=attention, reverse_source=True).eval()
    rev.load_state_dict(plain.state_dict())
    src, tgt_in, _ = batch([SHORT, LONG])
    reversed_src = reverse_padded(src, (src != PAD).sum(1))
    a, b = rev(src, tgt_in, need_weights=True), plain(reversed_src, tgt_in, need_weights=True)
    torch.testing.assert_close(a.logits, b.logits)
    assert not torch.allclose(a.logits, plain(src, tgt_in).logits)
    if attention != "none":  # columns of cross stay in source order
        torch.testing.assert_close(a.trace.cross, reverse_padded(b.trace.cross.transpose(1, -1),
                                   (src != PAD).sum(1)).transpose(1, -1))


@pytest.mark.parametrize("kw", VARIANTS.values(), ids=VARIANTS.keys())
def test_output_does_not_depend_on_padding(kw):
    model = make(**kw).eval()
    alone_src, alone_in, _ = batch([SHORT])
    src, tgt_in, _ = batch([SHORT, LONG])
    assert src.size(1) > alone_src.size(1) and tgt_in.size(1) > alone_in.size(1)
    alone = model(alone_src, alone_in, need_weights=True)
    padded = model(src, tgt_in, need_weights=True)
    T, S = alone_in.size(1), alone_src.size(1)
    torch.testing.assert_close(padded.logits[0, :T], alone.logits[0], atol=1e-5, rtol=1e-5)
    if alone.trace.cross is not None:
        torch.testing.assert_close(padded.trace.cross[0, ..., :T, :S], alone.trace.cross[0],
                                   atol=1e-5, rtol=1e-5)


@pytest.mark.parametrize("kw", VARIANTS.values(), ids=VARIANTS.keys())
def test_step_by_step_equals_teacher_forcing(kw):
    """forward loops over step, so what this adds to test_decoder_is_its_paper_written_out is that the
    state and memory follow a reordering of the batch, as beam search does."""
    model = make(**kw).eval()
    src, tgt_in, _ = batch([SHORT, LONG])
    full = model(src, tgt_in, need_weights=True)
    memory = model.start(src)
    assert all(m.size(0) == 2 for m in memory)
    state, flip = None, torch.tensor([1, 0])
    for t in range(tgt_in.size(1)):
        prefix = tgt_in[:, : t + 1]
        if state is not None:  # beam search reorders along dim 0: logits must follow
            flipped, _, _ = model.step(tuple(m.index_select(0, flip) for m in memory),
                                       prefix.index_select(0, flip),
                                       tuple(s.index_select(0, flip) for s in state))
        logits, state, attn = model.step(memory, prefix, state)
        assert all(s.size(0) == 2 for s in state)
        torch.testing.assert_close(logits, full.logits[:, t], atol=1e-5, rtol=1e-5)
        if t > 0:
            torch.testing.assert_close(flipped, logits[flip], atol=1e-5, rtol=1e-5)
        if full.trace.cross is not None:
            torch.testing.assert_close(attn, full.trace.cross[:, 0, 0, t], atol=1e-5, rtol=1e-5)


def reference_logits(model: Seq2Seq, src, tgt_in):
    """The three decoders written out from their papers, apart from Seq2Seq.step (which forward loops
    over, so comparing those two alone would test nothing). Shared with the model: its parameters, its
    encoder (`start`, tested above) and its score functions (checked against their formulas in
    test_attention). Sutskever et al. 2014: one LSTM run over the whole target at once, from the
    encoder's final state. Bahdanau et al. 2015: c_t from the previous state s_{t-1}, the LSTM reads
    [E y_{t-1}; c_t], the output layer [s_t; c_t; E y_{t-1}] (the model's choice: the paper's appendix
    A.2.2 feeds s_{t-1} to a maxout layer, with a GRU where this model has an LSTM and tanh). Luong et
    al. 2015: the LSTM reads [E y_{t-1}; h~_{t-1}] (input feeding, h~_0 = 0), c_t from h_t,
    h~_t = tanh(W_c [c_t; h_t]) (eq. 5)."""
    cfg = model.config
    enc, mask, h0, c0 = model.start(src)
    state = (h0.transpose(0, 1).contiguous(), c0.transpose(0, 1).contiguous())  # (L, B, d)
    emb = model.tgt_emb(tgt_in)  # (B, T, d_emb)
    if cfg.attention == "none":
        top, _ = model.decoder(emb, state)  # (B, T, d): the whole target in one call
        return model.out(top)

    def context(query):  # softmax over the real source tokens, then the weighted sum of enc
        weights = torch.softmax(model.score(query, enc).masked_fill(~mask, float("-inf")), dim=-1)  # (B, S)
        return (weights[:, :, None] * enc).sum(1)  # (B, d)

    logits, h_tilde = [], enc.new_zeros(src.size(0), cfg.d_hidden)
    for t in range(tgt_in.size(1)):
        y = emb[:, t]
        if cfg.attention == "additive":
            c_t = context(state[0][-1])  # s_{t-1}: the top layer's state before reading y_{t-1}
            top, state = model.decoder(torch.cat([y, c_t], -1)[:, None], state)
            out = torch.tanh(model.combine(torch.cat([top[:, 0], c_t, y], -1)))
        else:
            top, state = model.decoder(torch.cat([y, h_tilde], -1)[:, None], state)
            c_t = context(top[:, 0])  # h_t
            out = h_tilde = torch.tanh(model.combine(torch.cat([c_t, top[:, 0]], -1)))
        logits.append(model.out(out))
    return torch.stack(logits, 1)


@pytest.mark.parametrize("kw", VARIANTS.values(), ids=VARIANTS.keys())
def test_decoder_is_its_paper_written_out(kw):
    model = make(**kw).double().eval()  # float64: a tolerance far below any wiring mistake's effect
    src, tgt_in, _ = batch([SHORT, LONG])
    with torch.no_grad():
        # At the default start the scores differ little between queries, so a wrong query or a missing
        # input could move the logits by little: larger weights make attention sharp.
        for w in model.parameters():
            w.normal_(0, 0.5)
        torch.testing.assert_close(model(src, tgt_in).logits, reference_logits(model, src, tgt_in),
                                   atol=1e-10, rtol=1e-9)


@pytest.mark.parametrize("attention", ATTENTION)
def test_query_is_previous_state_for_bahdanau_current_for_luong(attention):
    model = make(attention=attention).eval()
    src, tgt_in, _ = batch([SHORT, LONG])
    other = tgt_in.clone()
    other[:, 0] = 7  # a different first decoder input
    a = model(src, tgt_in, need_weights=True).trace.cross[..., 0, :]
    b = model(src, other, need_weights=True).trace.cross[..., 0, :]
    # Bahdanau scores with s_{t-1}, which at t = 0 has not read y_0; Luong's h_t has.
    assert torch.equal(a, b) == (attention == "additive")


def test_none_sees_the_source_only_through_the_final_state():
    model = make(attention="none").eval()
    src, tgt_in, _ = batch([SHORT, LONG])
    enc, mask, h0, c0 = model.start(src)
    scrambled = (torch.randn_like(enc), torch.ones_like(mask), h0, c0)
    a = model.step((enc, mask, h0, c0), tgt_in[:, :1], None)[0]
    torch.testing.assert_close(model.step(scrambled, tgt_in[:, :1], None)[0], a)


def test_loss_ignores_padding():
    model = make(attention="general").eval()
    src, tgt_in, tgt_out = batch([SHORT, LONG])
    out = model(src, tgt_in, tgt_out)
    real = tgt_out != PAD
    torch.testing.assert_close(out.loss, F.cross_entropy(out.logits[real], tgt_out[real]))
    assert model(src, tgt_in).loss is None


# A reversal task the model can memorise: target = source backwards.
TRAIN = [([3, 4, 5], [5, 4, 3]), ([6, 7, 8, 9], [9, 8, 7, 6]), ([10, 3, 7], [7, 3, 10]),
         ([11, 5, 9, 4, 6], [6, 4, 9, 5, 11]), ([8, 10], [10, 8]), ([4, 11, 6, 3], [3, 6, 11, 4])]


@pytest.mark.parametrize("kw", VARIANTS.values(), ids=VARIANTS.keys())
def test_training_reduces_loss(kw):
    model = make(**kw).train()
    src, tgt_in, tgt_out = batch(TRAIN)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    losses = []
    for _ in range(60):
        loss = model(src, tgt_in, tgt_out).loss
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    assert losses[-1] < 0.25 * losses[0], losses[::10]  # measured ~0.01-0.08


def test_tied_embeddings_share_one_table():
    model = make(attention="dot", tie_embeddings=True)
    assert model.src_emb is model.tgt_emb
    untied = make(attention="dot")
    n = lambda m: sum(p.numel() for p in m.parameters())
    assert n(untied) - n(model) == V * 16


def test_bad_config_raises():
    with pytest.raises(ValueError):
        Seq2SeqConfig(src_vocab_size=V, tgt_vocab_size=V, attention="cosine")
    with pytest.raises(ValueError):
        Seq2SeqConfig(src_vocab_size=V, tgt_vocab_size=V + 1, tie_embeddings=True)
