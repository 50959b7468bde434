"""Transformer: positional encoding, masks, trace shapes, decoding, and that it learns."""
import math

import pytest
import torch

from models.decoding import beam_search, greedy, sample
from models.transformer import Transformer, TransformerConfig, sinusoidal_positions

PAD, BOS, EOS = 0, 2, 3


def tiny(pre_ln=False, **kw):
    cfg = TransformerConfig(src_vocab_size=20, tgt_vocab_size=20, d_model=16, n_heads=2, n_layers=2, d_ff=32,
                            dropout=0.0, max_len=32, pre_ln=pre_ln, **kw)
    return Transformer(cfg).eval()


def batch():
    src = torch.tensor([[5, 6, 7, 8, EOS], [9, 10, EOS, PAD, PAD]])
    tgt_in = torch.tensor([[BOS, 11, 12, 13], [BOS, 14, PAD, PAD]])
    tgt_out = torch.tensor([[11, 12, 13, EOS], [14, EOS, PAD, PAD]])
    return src, tgt_in, tgt_out


def test_sinusoidal_positions_match_the_paper():
    pe = sinusoidal_positions(50, 16)
    for pos in (0, 1, 7, 49):
        for i in range(8):
            assert pe[pos, 2 * i].item() == pytest.approx(math.sin(pos / 10000 ** (2 * i / 16)), abs=1e-6)
            assert pe[pos, 2 * i + 1].item() == pytest.approx(math.cos(pos / 10000 ** (2 * i / 16)), abs=1e-6)


@pytest.mark.parametrize("pre_ln", [False, True])
def test_trace_invariants(pre_ln):
    m = tiny(pre_ln)
    src, tgt_in, tgt_out = batch()
    t = m(src, tgt_in, tgt_out, need_weights=True).trace
    assert t.enc_self.shape == (2, 2, 2, 5, 5) and t.cross.shape == (2, 2, 2, 4, 5)
    assert t.dec_self.shape == t.dec_self_scores.shape == (2, 2, 2, 4, 4)
    for a in (t.enc_self, t.cross, t.dec_self):
        torch.testing.assert_close(a.sum(-1), torch.ones(a.shape[:-1]))
    upper = torch.triu(torch.ones(4, 4, dtype=torch.bool), 1)
    assert (t.dec_self[..., upper] == 0).all() and torch.isneginf(t.dec_self_scores[..., upper]).all()
    assert (t.enc_self[1, ..., 3:] == 0).all() and (t.cross[1, ..., 3:] == 0).all()  # padded source columns
    assert (t.dec_self[1, ..., 2:] == 0).all()  # padded target columns
    ex = t.example(1, ["a", "b", "</s>"], ["<s>", "c"])  # cropped to the real tokens
    assert ex.enc_self.shape == (2, 2, 3, 3) and ex.cross.shape == (2, 2, 2, 3) and ex.dec_self.shape == (2, 2, 2, 2)


def test_padding_does_not_change_a_sentence():
    m = tiny()
    src, tgt_in, _ = batch()
    alone = m(src[1:, :3], tgt_in[1:, :2]).logits
    padded = m(src, tgt_in).logits[1:, :2]
    torch.testing.assert_close(alone, padded, atol=1e-5, rtol=1e-5)


def test_fast_path_equals_weights_path():
    m = tiny()
    src, tgt_in, tgt_out = batch()
    a, b = m(src, tgt_in, tgt_out), m(src, tgt_in, tgt_out, need_weights=True)
    torch.testing.assert_close(a.logits, b.logits, atol=1e-5, rtol=1e-5)
    assert a.trace is None


def test_shared_embeddings_are_tied():
    m = tiny()
    assert m.out_proj.weight is m.src_emb.weight is m.tgt_emb.weight


@pytest.mark.parametrize("share", [True, False])
def test_embeddings_start_at_the_intended_scale(share):
    """Token embeddings start as N(0, d_model^-0.5) with a zero <pad> row, shared with the output layer or not: the
    output layer's Xavier rule overwrote a shared table (std 0.014 for 10k x 256, where 0.0625 was meant)."""
    torch.manual_seed(0)
    c = TransformerConfig(10_000, 10_000, d_model=256, share_embeddings=share)
    m = Transformer(c)
    for emb in (m.src_emb, m.tgt_emb):
        assert emb.weight.std().item() == pytest.approx(c.d_model ** -0.5, rel=0.02)
        assert not emb.weight[c.pad_id].any()
    if not share:  # the output layer keeps its own Xavier-uniform weights: std sqrt(2 / (fan_in + fan_out))
        assert m.out_proj.weight.std().item() == pytest.approx(math.sqrt(2 / (256 + 10_000)), rel=0.02)


def test_positions_past_the_table_are_refused_by_name():
    m = tiny()
    ids = torch.ones(1, m.pe.size(0) + 1, dtype=torch.long)
    with pytest.raises(ValueError, match="past the positional table"):
        m.embed(m.src_emb, ids)
    with pytest.raises(ValueError, match="past the positional table"):
        m.embed(m.tgt_emb, ids[:, :1], start=m.pe.size(0))
    assert m.embed(m.tgt_emb, ids[:, :1], start=m.pe.size(0) - 1).shape == (1, 1, m.config.d_model)


def test_beam_one_equals_greedy_and_beams_are_sorted():
    torch.manual_seed(3)
    m = tiny()
    src, _, _ = batch()
    g = greedy(m, src, BOS, EOS, 12)
    b1 = beam_search(m, src, BOS, EOS, 12, beam_size=1, alpha=0.0)
    assert [list(h[0].tokens) for h in b1] == g
    b4 = beam_search(m, src, BOS, EOS, 12, beam_size=4)
    for hyps in b4:
        assert [h.score for h in hyps] == sorted((h.score for h in hyps), reverse=True)
        for h in hyps:
            assert sum(h.steps) == pytest.approx(h.logprob, abs=1e-4)
            assert EOS not in h.tokens


def test_beam_log_probs_match_teacher_forcing():
    torch.manual_seed(1)
    m = tiny()
    src = torch.tensor([[5, 6, 7, EOS]])
    h = beam_search(m, src, BOS, EOS, 10, beam_size=3)[0][0]
    tgt_in = torch.tensor([[BOS, *h.tokens]])
    logp = torch.log_softmax(m(src, tgt_in).logits[0], -1)
    want = [logp[i, t].item() for i, t in enumerate(list(h.tokens) + ([EOS] if h.finished else []))]
    assert h.steps == pytest.approx(want, abs=1e-4)


@pytest.mark.parametrize("pre_ln", [False, True])
def test_cached_decoding_step_equals_the_full_prefix_pass(pre_ln):
    """Transformer.step runs the decoder on the newest token with the earlier positions' layer
    inputs cached; its logits must equal those of a teacher-forced pass over the whole prefix, at
    every step, for a padded batch of sources, also after the beams are reordered."""
    torch.manual_seed(5)
    m = tiny(pre_ln=pre_ln, n_dec_layers=3)
    src, _, _ = batch()
    memory = m.start(src)
    prefix = torch.full((2, 1), BOS)
    state = None
    for t in range(8):
        logits, state, _ = m.step(memory, prefix, state)
        full = m.decode(prefix, *memory)[0][:, -1]
        torch.testing.assert_close(logits, full, atol=1e-5, rtol=1e-5)
        assert len(state) == 3 and all(s.shape == (2, t + 1, 16) for s in state)
        nxt = torch.randint(4, 20, (2, 1))
        if t == 4:  # as beam search does: rows swap places, and the state must follow them
            flip = torch.tensor([1, 0])
            memory = tuple(x.index_select(0, flip) for x in memory)
            state = tuple(x.index_select(0, flip) for x in state)
            prefix = prefix.index_select(0, flip)
        prefix = torch.cat([prefix, nxt], dim=1)


def test_learns_to_copy():
    torch.manual_seed(0)
    cfg = TransformerConfig(src_vocab_size=12, tgt_vocab_size=12, d_model=32, n_heads=2, n_layers=1, d_ff=64,
                            dropout=0.0, max_len=16)
    m = Transformer(cfg)
    seqs = torch.tensor([[4, 5, 6, 7], [8, 9, 4, 5], [6, 7, 8, 9], [5, 4, 9, 8], [7, 6, 5, 4], [9, 9, 8, 4]])
    src = torch.cat([seqs, torch.full((6, 1), EOS)], 1)
    tgt_in, tgt_out = torch.cat([torch.full((6, 1), BOS), seqs], 1), torch.cat([seqs, torch.full((6, 1), EOS)], 1)
    opt = torch.optim.Adam(m.parameters(), lr=3e-3)
    losses = []
    for _ in range(80):
        loss = m(src, tgt_in, tgt_out).loss
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    assert losses[-1] < 0.3 * losses[0]
    m.eval()
    assert greedy(m, src, BOS, EOS, 8) == seqs.tolist()


def test_sampling_from_the_top_one_is_greedy_and_a_seed_repeats_a_draw():
    torch.manual_seed(3)
    m = tiny()
    src, _, _ = batch()
    assert sample(m, src, BOS, EOS, 12, top_k=1) == greedy(m, src, BOS, EOS, 12)
    draw = [sample(m, src, BOS, EOS, 12, top_k=0, generator=torch.Generator().manual_seed(s)) for s in (1, 1, 2)]
    assert draw[0] == draw[1] and all(EOS not in row for row in draw[0])
