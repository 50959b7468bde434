"""Tests for models/bert.py: parity with Hugging Face BertForPreTraining, attention
invariants, weight tying, pre-LN, a short training run and from_hf error handling."""
import math

import pytest
import torch

from models.bert import Bert, BertConfig, config_from_hf, deepen_state, from_hf

transformers = pytest.importorskip("transformers")

TINY = BertConfig(vocab_size=99, d_model=32, n_layers=2, n_heads=4, d_ff=37, max_len=64, dropout=0.0)


def batch():
    """Two examples: [CLS] A [SEP] B [SEP] with segments 0/1; the second is padded."""
    g = torch.Generator().manual_seed(1)
    ids = torch.randint(5, 99, (2, 10), generator=g)
    ids[:, 0], ids[0, 4], ids[0, 9], ids[1, 3], ids[1, 6] = 2, 3, 3, 3, 3
    mask = torch.ones(2, 10, dtype=torch.long)
    mask[1, 7:] = 0
    ids[1, 7:] = 0
    segs = torch.zeros(2, 10, dtype=torch.long)
    segs[0, 5:], segs[1, 4:7] = 1, 1
    return ids, segs, mask


def hf_model():
    torch.manual_seed(0)
    cfg = transformers.BertConfig(
        vocab_size=99, hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
        intermediate_size=37, max_position_embeddings=64, type_vocab_size=2,
        attn_implementation="eager",  # the path that materialises attention probabilities
        initializer_range=0.2)  # weights large enough that e.g. tanh-GELU would fail parity
    model = transformers.BertForPreTraining(cfg).eval()
    # Random init leaves biases and LayerNorms at 0/1; perturb them so parity sees them.
    with torch.no_grad():
        for name, p in model.named_parameters():
            if name.endswith("bias") or "LayerNorm" in name:
                p.add_(0.1 * torch.randn_like(p))
    return model


def test_parity_with_hugging_face():
    hf = hf_model()
    ours = from_hf(hf.state_dict(), hf.config.to_dict())
    ids, segs, mask = batch()
    with torch.no_grad():
        ref = hf(input_ids=ids, token_type_ids=segs, attention_mask=mask, output_attentions=True)
        out = ours(ids, segs, mask, need_weights=True)
    torch.testing.assert_close(out.mlm_logits, ref.prediction_logits, atol=1e-5, rtol=1e-5)
    torch.testing.assert_close(out.nsp_logits, ref.seq_relationship_logits, atol=1e-5, rtol=1e-5)
    assert out.trace.enc_self.shape == (2, 2, 4, 10, 10)
    real = mask.bool()
    for layer, ref_att in enumerate(ref.attentions):
        ours_att = out.trace.enc_self[:, layer]  # (B, H, T, T)
        for b in range(2):
            torch.testing.assert_close(ours_att[b][:, real[b]], ref_att[b][:, real[b]], atol=1e-5, rtol=1e-5)
        assert (ours_att[1, :, :, 7:] == 0).all()
    # The static embedding is the bare token lookup.
    torch.testing.assert_close(out.embeddings, hf.bert.embeddings.word_embeddings(ids))


def test_attention_invariants_and_trace_shape():
    torch.manual_seed(0)
    model = Bert(TINY).eval()
    ids, segs, mask = batch()
    out = model(ids, segs, mask, need_weights=True)
    att = out.trace.enc_self
    assert att.shape == (2, TINY.n_layers, TINY.n_heads, 10, 10)
    torch.testing.assert_close(att.sum(-1), torch.ones(2, TINY.n_layers, TINY.n_heads, 10))
    assert (att[1, ..., 7:] == 0).all()
    assert (att[0] > 0).all()
    assert out.hidden.shape == out.embeddings.shape == (2, 10, TINY.d_model)
    assert out.mlm_logits.shape == (2, 10, TINY.vocab_size) and out.nsp_logits.shape == (2, 2)
    assert out.loss is None and model(ids, segs, mask).trace is None
    # Default mask = input_ids != pad_id, and the fused fast path agrees with the explicit one.
    fast = model(ids, segs)
    torch.testing.assert_close(fast.mlm_logits, out.mlm_logits, atol=1e-5, rtol=1e-5)


def test_qk_norm_bert_keeps_the_invariants_and_round_trips(tmp_path):
    from models import checkpoint
    from models.tokenizers import train_wordpiece
    torch.manual_seed(0)
    config = BertConfig(**{**TINY.__dict__, "qk_norm": True, "pre_ln": True})
    model = Bert(config).eval()
    assert all(layer.attn.q_norm is not None for layer in model.layers)
    assert all(layer.attn.q_norm is None for layer in Bert(TINY).layers)
    ids, segs, mask = batch()
    out = model(ids, segs, mask, need_weights=True)
    torch.testing.assert_close(out.trace.enc_self.sum(-1), torch.ones(2, 2, 4, 10))
    assert (out.trace.enc_self[1, ..., 7:] == 0).all()
    torch.testing.assert_close(model(ids, segs, mask).mlm_logits, out.mlm_logits, atol=1e-5, rtol=1e-5)
    with torch.no_grad():  # gains off 1 so that a load that dropped them would show
        for layer in model.layers:
            layer.attn.q_norm.weight.mul_(3.0)
    tok = train_wordpiece(["a tiny corpus of words"] * 3, 99)
    back = checkpoint.load(checkpoint.save(tmp_path / "ck", model, tok, {"arch": "bert"}))
    assert back.config.qk_norm and back.config == config
    torch.testing.assert_close(back.model(ids, segs, mask).mlm_logits, model(ids, segs, mask).mlm_logits)


def test_padding_does_not_change_real_tokens():
    torch.manual_seed(0)
    model = Bert(TINY).eval()
    ids, segs, _ = batch()
    short = model(ids[1:, :7], segs[1:, :7])
    padded = model(ids[1:], segs[1:])
    torch.testing.assert_close(padded.mlm_logits[:, :7], short.mlm_logits, atol=1e-5, rtol=1e-5)
    torch.testing.assert_close(padded.nsp_logits, short.nsp_logits, atol=1e-5, rtol=1e-5)


def test_mlm_decoder_is_tied_to_token_embedding():
    model = Bert(TINY)
    assert model.mlm.decoder.weight is model.embeddings.tok.weight
    assert model.mlm.decoder.weight.data_ptr() == model.embeddings.tok.weight.data_ptr()
    hf = hf_model()
    ours = from_hf(hf.state_dict(), hf.config.to_dict())
    assert ours.mlm.decoder.weight.data_ptr() == ours.embeddings.tok.weight.data_ptr()


def test_pre_ln_runs_with_finite_loss():
    torch.manual_seed(0)
    config = BertConfig(**{**TINY.__dict__, "pre_ln": True, "dropout": 0.1})
    model = Bert(config)
    assert model.final_norm is not None and Bert(TINY).final_norm is None
    ids, segs, mask = batch()
    labels = torch.full_like(ids, -100)
    labels[:, 2] = ids[:, 2]
    out = model(ids, segs, mask, mlm_labels=labels, nsp_labels=torch.tensor([0, 1]), need_weights=True)
    assert torch.isfinite(out.loss)
    out.loss.backward()
    assert all(p.grad is not None for p in model.parameters())
    torch.testing.assert_close(out.trace.enc_self.sum(-1), torch.ones(2, 2, 4, 10))


@pytest.mark.parametrize("qk_norm", [False, True])
def test_tiny_bert_learns(qk_norm):
    torch.manual_seed(0)
    config = BertConfig(vocab_size=20, d_model=32, n_layers=2, n_heads=4, d_ff=64, max_len=16, dropout=0.0,
                        qk_norm=qk_norm)
    MASK = 1
    # Each sequence repeats one token, so a masked token is a copy of any unmasked one:
    # the model must learn to attend to its neighbours (MLM) and tell sequences apart (NSP).
    seqs = torch.tensor([[2 + s] * 12 for s in range(8)])
    nsp = torch.arange(8) % 2
    model = Bert(config)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    g = torch.Generator().manual_seed(0)

    def masked(seed_gen):
        pick = torch.rand(seqs.shape, generator=seed_gen) < 0.25
        labels = torch.where(pick, seqs, torch.full_like(seqs, -100))
        return seqs.masked_fill(pick, MASK), labels

    eval_ids, eval_labels = masked(torch.Generator().manual_seed(123))
    with torch.no_grad():
        before = model(eval_ids, mlm_labels=eval_labels, nsp_labels=nsp).loss.item()
    for _ in range(30):
        ids, labels = masked(g)
        loss = model(ids, mlm_labels=labels, nsp_labels=nsp).loss
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        after = model(eval_ids, mlm_labels=eval_labels, nsp_labels=nsp).loss.item()
    assert before > math.log(20)  # chance level for MLM alone
    assert after < 0.5 * before, (before, after)


def test_from_hf_rejects_bad_inputs():
    hf = hf_model()
    sd, cfg = hf.state_dict(), hf.config.to_dict()
    broken = {k: v for k, v in sd.items() if k != "bert.encoder.layer.1.attention.self.key.weight"}
    with pytest.raises(ValueError, match="attention.self.key.weight"):
        from_hf(broken, cfg)
    with pytest.raises(ValueError, match="hidden_act"):
        from_hf(sd, {**cfg, "hidden_act": "relu"})
    with pytest.raises(ValueError, match="position_embedding_type"):
        config_from_hf({**cfg, "position_embedding_type": "relative_key"})


def test_from_hf_accepts_gamma_beta_names():
    hf = hf_model()
    sd = {k.replace("LayerNorm.weight", "LayerNorm.gamma").replace("LayerNorm.bias", "LayerNorm.beta"): v
          for k, v in hf.state_dict().items()}
    ours = from_hf(sd, hf.config.to_dict())
    torch.testing.assert_close(ours.embeddings.norm.weight, hf.bert.embeddings.LayerNorm.weight)


def test_labelled_only_mlm_head_gives_the_same_loss():
    """Training runs the MLM head on the labelled positions only; the loss must not change
    (padding and rows with no label included)."""
    torch.manual_seed(0)
    m = Bert(BertConfig(vocab_size=100, d_model=32, n_layers=2, n_heads=2, d_ff=64, max_len=64, dropout=0.0)).eval()
    ids = torch.randint(5, 100, (5, 40))
    ids[1, 30:] = 0  # padding
    labels = torch.full_like(ids, -100)
    sel = (torch.rand(ids.shape) < 0.15) & (ids != 0)
    sel[2] = False  # a row with nothing to predict
    labels[sel] = ids[sel]
    nsp = torch.tensor([0, 1, 0, 1, 0])
    full = m(ids, mlm_labels=labels, nsp_labels=nsp)
    part = m(ids, mlm_labels=labels, nsp_labels=nsp, mlm_labelled_only=True)
    assert torch.allclose(full.loss, part.loss, atol=1e-6)
    assert part.mlm_logits.shape[1] < ids.shape[1]


def test_mlm_at_given_positions_equals_the_full_head_there():
    """Inference scores only the [MASK]s (mlm_positions): the same logits as the head over every
    position, at those positions; none asked, none computed, the NSP logits unchanged."""
    torch.manual_seed(0)
    m = Bert(TINY).eval()
    ids, segs, mask = batch()
    full = m(ids, segs, mask)
    at = torch.tensor([[3, 7], [1, 5]])
    part = m(ids, segs, mask, mlm_positions=at)
    assert part.mlm_logits.shape == (2, 2, TINY.vocab_size)
    for b in range(2):
        torch.testing.assert_close(part.mlm_logits[b], full.mlm_logits[b, at[b]])
    none = m(ids, segs, mask, mlm_positions=torch.zeros(2, 0, dtype=torch.long))
    assert none.mlm_logits.shape == (2, 0, TINY.vocab_size)
    torch.testing.assert_close(none.nsp_logits, full.nsp_logits)


@pytest.mark.parametrize("n_new", [4, 5])
def test_deepened_bert_computes_the_same_function(n_new):
    """Growing 2 -> n_new layers keeps every output (the copies start as identities), while the
    copies' inputs are trained weights, not zeros; a post-LN stack would not survive this."""
    torch.manual_seed(0)
    config = BertConfig(vocab_size=99, d_model=32, n_layers=2, n_heads=4, d_ff=37, max_len=64, dropout=0.0,
                        pre_ln=True, qk_norm=True)
    old = Bert(config).eval()
    with torch.no_grad():  # non-zero biases and gains everywhere, so that a skipped zeroing shows
        for p in old.parameters():
            p.add_(0.1 * torch.randn_like(p))
    new = Bert(BertConfig(**{**config.__dict__, "n_layers": n_new})).eval()
    new.load_state_dict(deepen_state(old.state_dict(), 2, n_new))
    ids, segs, mask = batch()
    a, b = old(ids, segs, mask, need_weights=True), new(ids, segs, mask, need_weights=True)
    torch.testing.assert_close(b.mlm_logits, a.mlm_logits)
    torch.testing.assert_close(b.nsp_logits, a.nsp_logits)
    assert b.trace.enc_self.shape[1] == n_new
    sd = new.state_dict()
    copies = [j for j in range(1, n_new) if j * 2 // n_new == (j - 1) * 2 // n_new]
    assert len(copies) == n_new - 2
    for j in copies:
        assert not sd[f"layers.{j}.ff_out.weight"].any() and not sd[f"layers.{j}.attn.out_proj.bias"].any()
        src = old.state_dict()[f"layers.{j * 2 // n_new}.attn.q_proj.weight"]
        assert torch.equal(sd[f"layers.{j}.attn.q_proj.weight"], src) and src.abs().sum() > 0
    with pytest.raises(ValueError, match="not deeper"):
        deepen_state(old.state_dict(), 2, 2)
