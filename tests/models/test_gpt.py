"""models/gpt.py: parity with Hugging Face GPT2LMHeadModel (converted weights), causal attention
invariants, the key/value cache against a full recompute, sampling, a checkpoint round trip, the
Kneser-Ney trigram's normalisation, held-out windows and the trainer's smoke mode."""
import json

import numpy as np
import pytest
import torch

from models import checkpoint
from models.gpt import GPT, GPTConfig, next_token_distribution
from models.training.lm_data import windows
from models.training.ngram import KneserNeyTrigram

transformers = pytest.importorskip("transformers")

TINY = GPTConfig(vocab_size=97, max_len=32, d_model=32, n_layers=2, n_heads=4, d_ff=48, dropout=0.0)


def tiny(seed=0, config=TINY):
    torch.manual_seed(seed)
    m = GPT(config).eval()
    with torch.no_grad():  # biases and LayerNorms start at 0/1: perturb them so parity sees them
        for name, p in m.named_parameters():
            if name.endswith("bias") or "ln" in name:
                p.add_(0.1 * torch.randn_like(p))
            elif p.dim() == 2:
                p.mul_(5)  # weights large enough that an exact-erf GELU or a missing scale would fail parity
    return m


def to_hf(model: GPT):
    """The same weights in a transformers GPT2LMHeadModel (its Conv1D stores W^T; c_attn is [Wq Wk Wv]^T)."""
    c = model.config
    cfg = transformers.GPT2Config(vocab_size=c.vocab_size, n_positions=c.max_len, n_embd=c.d_model,
                                  n_layer=c.n_layers, n_head=c.n_heads, n_inner=c.d_ff,
                                  activation_function="gelu_new", layer_norm_epsilon=c.layer_norm_eps,
                                  resid_pdrop=0.0, embd_pdrop=0.0, attn_pdrop=0.0, attn_implementation="eager")
    hf = transformers.GPT2LMHeadModel(cfg).eval()
    sd = {"transformer.wte.weight": model.tok.weight, "transformer.wpe.weight": model.pos.weight,
          "transformer.ln_f.weight": model.ln_f.weight, "transformer.ln_f.bias": model.ln_f.bias,
          "lm_head.weight": model.tok.weight}
    for i, b in enumerate(model.blocks):
        a, p = b.attn.mha, f"transformer.h.{i}."
        sd.update({
            p + "ln_1.weight": b.ln1.weight, p + "ln_1.bias": b.ln1.bias,
            p + "ln_2.weight": b.ln2.weight, p + "ln_2.bias": b.ln2.bias,
            p + "attn.c_attn.weight": torch.cat([a.q_proj.weight, a.k_proj.weight, a.v_proj.weight]).T,
            p + "attn.c_attn.bias": torch.cat([a.q_proj.bias, a.k_proj.bias, a.v_proj.bias]),
            p + "attn.c_proj.weight": a.out_proj.weight.T, p + "attn.c_proj.bias": a.out_proj.bias,
            p + "mlp.c_fc.weight": b.mlp.fc.weight.T, p + "mlp.c_fc.bias": b.mlp.fc.bias,
            p + "mlp.c_proj.weight": b.mlp.proj.weight.T, p + "mlp.c_proj.bias": b.mlp.proj.bias})
    missing, unexpected = hf.load_state_dict({k: v.detach().clone() for k, v in sd.items()}, strict=False)
    assert not unexpected and all(k.endswith("attn.bias") or k.endswith("masked_bias") for k in missing), missing
    return hf


def ids(B=2, T=11, seed=1):
    return torch.randint(0, TINY.vocab_size, (B, T), generator=torch.Generator().manual_seed(seed))


def test_parity_with_hugging_face_gpt2():
    model = tiny()
    hf = to_hf(model)
    x = ids()
    with torch.no_grad():
        ref = hf(x, output_attentions=True)
        out = model(x, need_weights=True)
    torch.testing.assert_close(out.logits, ref.logits, atol=1e-5, rtol=1e-5)
    assert out.trace.dec_self.shape == (2, TINY.n_layers, TINY.n_heads, 11, 11)
    for layer, att in enumerate(ref.attentions):
        torch.testing.assert_close(out.trace.dec_self[:, layer], att, atol=1e-5, rtol=1e-5)
    assert out.logits.abs().max() > 1  # not a trivially flat model


def test_causal_attention_invariants():
    out = tiny()(ids(), need_weights=True)
    p, s = out.trace.dec_self, out.trace.dec_self_scores  # (B, L, H, T, T)
    above = torch.ones(11, 11, dtype=torch.bool).triu(1)
    assert (p[..., above] == 0).all()  # exactly 0, not merely small
    assert torch.isneginf(s[..., above]).all() and torch.isfinite(s[..., ~above]).all()
    torch.testing.assert_close(p.sum(-1), torch.ones(p.shape[:-1]), atol=1e-6, rtol=0)
    # the probabilities are the softmax of the returned scores, row by row
    torch.testing.assert_close(torch.softmax(s, -1), p, atol=1e-6, rtol=0)


def test_later_tokens_change_nothing_before_them():
    model, x = tiny(), ids()
    y = x.clone()
    y[:, 6:] = (y[:, 6:] + 1) % TINY.vocab_size
    a, b = model(x, need_weights=True), model(y, need_weights=True)
    torch.testing.assert_close(a.logits[:, :6], b.logits[:, :6], atol=1e-6, rtol=0)
    torch.testing.assert_close(a.trace.dec_self[..., :6, :6], b.trace.dec_self[..., :6, :6], atol=1e-6, rtol=0)


def test_fast_path_equals_weights_path():
    model, x = tiny(), ids()
    torch.testing.assert_close(model(x).logits, model(x, need_weights=True).logits, atol=1e-5, rtol=1e-5)


def test_loss_only_with_targets():
    model, x = tiny(), ids()
    assert model(x).loss is None
    t = x.roll(-1, 1)
    t[:, -1] = -100
    loss = model(x, t).loss
    ref = torch.nn.functional.cross_entropy(model(x).logits[:, :-1].flatten(0, 1), x[:, 1:].flatten())
    torch.testing.assert_close(loss, ref)


def test_kv_cache_equals_full_recompute():
    model, x = tiny(), ids(B=1, T=9)
    logits, cache = model.step(x[:, :4])  # the prompt at once
    for t in range(4, 9):
        full = model(x[:, :t]).logits[:, -1]
        torch.testing.assert_close(logits, full, atol=1e-5, rtol=1e-5)
        logits, cache = model.step(x[:, t:t + 1], cache)
    assert cache[0].k.shape == (1, TINY.n_heads, 9, TINY.d_model // TINY.n_heads)
    with pytest.raises(ValueError, match="past the context"):
        model.step(x[:, :1].repeat(1, TINY.max_len), cache)


def sample(model, prompt, n, seed, use_cache, temperature=0.8, top_k=10, top_p=0.9):
    g = torch.Generator().manual_seed(seed)
    seq = list(prompt)
    logits, cache = model.step(torch.tensor([seq]))
    for _ in range(n):
        nxt = int(torch.multinomial(next_token_distribution(logits[0], temperature, top_k, top_p), 1, generator=g))
        seq.append(nxt)
        if use_cache:
            logits, cache = model.step(torch.tensor([[nxt]]), cache)
        else:
            logits = model(torch.tensor([seq])).logits[:, -1]
    return seq


def test_cached_generation_equals_recompute_and_seed_repeats():
    model = tiny(config=GPTConfig(vocab_size=97, max_len=32, d_model=32, n_layers=2, n_heads=4, d_ff=48, dropout=0.0))
    with torch.inference_mode():
        a = sample(model, [3, 5, 7], 15, seed=4, use_cache=True)
        b = sample(model, [3, 5, 7], 15, seed=4, use_cache=False)
        c = sample(model, [3, 5, 7], 15, seed=4, use_cache=True)
        d = sample(model, [3, 5, 7], 15, seed=5, use_cache=True)
    assert a == b == c
    assert a != d


def test_next_token_distribution():
    logits = torch.tensor([2.0, 1.0, 0.5, 0.0, -1.0])
    p = next_token_distribution(logits)
    torch.testing.assert_close(p, torch.softmax(logits, -1))
    cold = next_token_distribution(logits, temperature=0.1)
    assert cold[0] > 0.99 and torch.isclose(cold.sum(), torch.tensor(1.0))
    k2 = next_token_distribution(logits, top_k=2)
    assert (k2[2:] == 0).all() and torch.isclose(k2[:2].sum(), torch.tensor(1.0))
    torch.testing.assert_close(k2[:2], torch.softmax(logits[:2], -1))
    # nucleus: the smallest set whose mass reaches top_p (p[0] = 0.55, p[0] + p[1] = 0.75)
    nuc = next_token_distribution(logits, top_p=0.6)
    assert (nuc > 0).tolist() == [True, True, False, False, False]
    assert (next_token_distribution(logits, top_p=1e-9) > 0).sum() == 1  # the top token always stays


def test_checkpoint_round_trip(tmp_path):
    from tokenizers import Tokenizer, models as tm
    model = tiny()
    tok = Tokenizer(tm.WordLevel({f"t{i}": i for i in range(97)}, unk_token="t1"))
    checkpoint.save(tmp_path, model, tok, {"note": "test"}, dtype=torch.float32)
    back = checkpoint.load(tmp_path)
    assert back.config == model.config and isinstance(back.model, GPT)
    assert back.model.lm_head.weight.data_ptr() == back.model.tok.weight.data_ptr()  # still tied
    x = ids()
    torch.testing.assert_close(back.model(x).logits, model(x).logits, atol=0, rtol=0)
    assert json.loads((tmp_path / "config.json").read_text())["arch"] == "gpt"


def test_kneser_ney_sums_to_one_and_prefers_seen():
    rng = np.random.default_rng(0)
    stream = rng.integers(0, 50, 5000)
    stream[::7] = 3  # some structure: 3 is frequent
    kn = KneserNeyTrigram(stream, 60)  # ten ids never seen
    w = np.arange(60)
    for u, v in [(stream[10], stream[11]), (3, 3), (55, 56), (3, 59)]:  # seen, frequent, unseen contexts
        p = kn.prob(np.full(60, u), np.full(60, v), w)
        assert abs(p.sum() - 1) < 1e-9 and (p > 0).all()
    u, v, x = stream[100], stream[101], stream[102]
    p = kn.prob(np.full(60, u), np.full(60, v), w)
    assert p[x] > p[55]  # a seen continuation beats a never-seen token


def test_windows_score_every_target_once():
    for n in (2, 5, 33, 64, 65, 200, 257):
        scored = []
        for start, first in windows(n, 32):
            end = min(start + 32, n - 1)
            assert first >= 0 and end - start <= 32
            scored += list(range(start + 1 + first, end + 1))
        assert scored == list(range(1, n)), n


def test_train_smoke_then_evaluate(tmp_path, capsys):
    from models.training import evaluate, train
    folder = train.main(["gpt", "--smoke", "--out", str(tmp_path), "--max-steps", "6", "--eval-every", "3"])
    m = json.loads((folder / "metrics.json").read_text())
    assert m["arch"] == "gpt" and m["command"].startswith("python -m models.training.train gpt")
    assert m["data"]["files"] and m["data"]["tokenizer_sha256"]
    assert m["test"]["gpt"]["tokens"] > 0 and m["test"]["trigram_kn"]["tokens"] == m["test"]["gpt"]["tokens"]
    assert (tmp_path / "log.jsonl").read_text().strip()
    back = checkpoint.load(folder)
    assert isinstance(back.model, GPT) and back.tokenizer.get_vocab_size() == 16000
    capsys.readouterr()
    evaluate.main([str(folder), "--data-dir", str(train.FIXTURES)])  # the same test split, recreated on CPU
    out = capsys.readouterr().out.splitlines()
    assert json.loads(out[0])["ppl_token"] == m["test"]["ppl_token"] and out[1].strip() == "vs metrics.json: identical"
