"""Checkpoints: bit-exact round trips, sharding, tied weights, clear errors, no pickles."""
import dataclasses
import json
import re

import pytest
import torch
from safetensors.torch import load_file, save_file

from tokenizers import Tokenizer

from models import checkpoint
from models.bert import Bert, BertConfig
from models.checkpoint import CheckpointError, load, save
from models.tokenizers import train_bpe, train_wordpiece
from models.transformer import Transformer, TransformerConfig

TEXT = ["I am a student.", "Je suis étudiant.", "나는 학생 입니다", "the man went to the store ."] * 20


@pytest.fixture
def model_and_tok():
    tok = train_bpe(TEXT, 80)
    V = tok.get_vocab_size()
    return Transformer(TransformerConfig(src_vocab_size=V, tgt_vocab_size=V, d_model=32, n_heads=2, n_layers=1,
                                         d_ff=64, max_len=16)), tok


@pytest.mark.parametrize("shard", [10**9, 20_000])
def test_round_trip_is_bit_exact(tmp_path, model_and_tok, shard):
    m, tok = model_and_tok
    save(tmp_path, m, tok, {"hello": "world"}, max_shard_bytes=shard)
    if shard < 10**6:
        assert (tmp_path / "model.safetensors.index.json").exists()
    ck = load(tmp_path)
    for (k, a), b in zip(m.state_dict().items(), ck.model.state_dict().values()):
        assert torch.equal(a, b), k
    assert ck.model.out_proj.weight is ck.model.src_emb.weight  # ties survive
    assert ck.metrics == {"hello": "world"} and ck.tokenizer.to_str() == tok.to_str()
    assert not ck.model.training


def test_tensor_larger_than_a_shard_is_split(tmp_path, model_and_tok):
    m, tok = model_and_tok
    save(tmp_path, m, tok, {}, max_shard_bytes=2_000)  # smaller than the embedding matrix
    ck = load(tmp_path)
    assert torch.equal(ck.model.src_emb.weight, m.src_emb.weight)


def test_fp16_storage_loads_as_fp32(tmp_path, model_and_tok):
    m, tok = model_and_tok
    save(tmp_path, m, tok, {}, dtype=torch.float16)
    ck = load(tmp_path)
    assert ck.model.src_emb.weight.dtype == torch.float32
    torch.testing.assert_close(ck.model.src_emb.weight, m.src_emb.weight.half().float())


@pytest.mark.parametrize("victim,corrupt,needle", [
    ("config.json", None, "config.json is missing"),
    ("tokenizer.json", None, "tokenizer.json is missing"),
    ("metrics.json", None, "metrics.json is missing"),
    ("model.safetensors", None, "model.safetensors is missing"),
    ("config.json", b"{not json", "config.json is not valid JSON"),
    ("model.safetensors", b"\x00" * 100, "model.safetensors is corrupt"),
    ("tokenizer.json", b"[]", "tokenizer.json is corrupt"),
])
def test_missing_or_corrupt_file_is_named(tmp_path, model_and_tok, victim, corrupt, needle):
    m, tok = model_and_tok
    save(tmp_path, m, tok, {})
    if corrupt is None:
        (tmp_path / victim).unlink()
    else:
        (tmp_path / victim).write_bytes(corrupt)
    with pytest.raises(CheckpointError, match=needle):
        load(tmp_path)


def test_weights_that_do_not_fit_the_config(tmp_path, model_and_tok):
    m, tok = model_and_tok
    save(tmp_path, m, tok, {})
    cfg = json.loads((tmp_path / "config.json").read_text())
    cfg["config"]["d_ff"] = 128
    (tmp_path / "config.json").write_text(json.dumps(cfg))
    with pytest.raises(CheckpointError, match=r"do not match.*decoder\.0\.ffn\.w1\.bias is \(64,\) in the files, \(128,\) in the model"):
        load(tmp_path)


def test_int8_load_fills_the_models_own_tensors(tmp_path, bert_and_tok):
    """Weights are copied into the model one at a time (no fp32 copy of all of them first): every
    tensor, tied ones included, holds the dequantized file values, and nothing else is left over."""
    m, tok = bert_and_tok
    save(tmp_path, m, tok, {}, dtype=torch.int8)
    raw = load_file(str(tmp_path / "model.safetensors"))
    ck = load(tmp_path)
    got = ck.model.state_dict()
    for name, v in raw.items():
        if name.endswith(checkpoint.SCALE):
            continue
        scale = raw.get(name + checkpoint.SCALE)
        want = v.float() * scale.view(-1, *[1] * (v.dim() - 1)) if scale is not None else v.float()
        assert torch.equal(got[name], want), name
    assert ck.stored == "int8"


def test_wordpiece_tokenizer_like_the_course():
    tok = train_wordpiece(["here is the sentence i want embeddings for.", "embed embedding bed beds"] * 30, 60)
    pieces = tok.encode("Here is the sentence I want embeddings for.").tokens
    assert pieces[0] == "[CLS]" and pieces[-1] == "[SEP]"
    assert all(p == p.lower() for p in pieces[1:-1])
    assert any(p.startswith("##") for p in pieces) or "embeddings" in pieces
    pair = tok.encode("a b", "c")
    assert pair.type_ids[-1] == 1 and pair.type_ids[0] == 0


def test_shipped_checkpoints_have_no_pickles_and_small_files():
    from pathlib import Path
    assets = Path(__file__).resolve().parents[2] / "assets"
    files = [p for p in assets.rglob("*") if p.is_file()]
    assert files, "assets/ is empty"
    assert not [p for p in files if p.suffix in {".pt", ".pth", ".pkl", ".pickle", ".bin", ".ckpt"}]
    assert max(p.stat().st_size for p in files) < 9_500_000


def test_bpe_with_split_punctuation_round_trips():
    sents = ["I am a student.", "Je suis étudiant.", "Qui est-ce ?", "L'animal n'a pas traversé la rue.",
             "Tenons-nous-en au plan.", "나는 학생 입니다."] * 20
    tok = train_bpe(sents, 300, split_punct=True)
    enc = tok.encode("Je suis étudiant.")
    assert enc.tokens[-1] == "." and "▁étudiant" in enc.tokens
    for s in set(sents):
        assert tok.decode(tok.encode(s).ids) == s


def test_bpe_elision_starts_a_word_after_the_apostrophe_and_round_trips():
    odd = ["the students' books", "' notes '", "la  rue", "''", "l'", "Aujourd'hui, c'est l'été."]
    sents = ["C'est l'animal.", "L'animal n'a pas traversé la rue.", "Il est là.", "Qu'il est grand !",
             "I don't know.", "Tenons-nous-en au plan.", "나는 학생 입니다.", *odd] * 20
    plain = train_bpe(sents, 300, split_punct=True)
    tok = Tokenizer.from_str(train_bpe(sents, 300, split_punct=True, elision=True).to_str())  # as saved
    assert "▁animal" in tok.encode("L'animal").tokens and "animal" not in tok.encode("L'animal").tokens
    assert tok.encode("c'est").tokens[-1] == tok.encode("est").tokens[-1] == "▁est"
    for s in set(sents):  # the same text back as without elision
        assert tok.decode(tok.encode(s).ids) == plain.decode(plain.encode(s).ids) == s


# --- int8 storage -----------------------------------------------------------------------------------

@pytest.fixture
def bert_and_tok():
    torch.manual_seed(0)
    m = Bert(BertConfig(vocab_size=300, d_model=256, n_layers=2, n_heads=4, d_ff=512, max_len=64,
                        pre_ln=True, qk_norm=True))
    with torch.no_grad():
        m.embeddings.tok.weight[5] = 0  # an all-zero row must not divide by zero
        for p in m.parameters():  # LayerNorms and biases off their init values, so fp16 rounding shows
            p.add_(torch.randn_like(p) * 0.01)
        m.embeddings.tok.weight[5] = 0
    return m.eval(), train_bpe(TEXT, 80)


def _weight_bytes(folder):
    return sum(p.stat().st_size for p in folder.glob("model*.safetensors"))


def _stored(folder):
    """Every tensor as written, row blocks included, across shards."""
    out = {}
    for f in folder.glob("model*.safetensors"):
        out.update(load_file(str(f)))
    return out


def test_int8_round_trip_error_is_at_most_half_a_step_per_row(tmp_path, bert_and_tok):
    m, tok = bert_and_tok
    save(tmp_path / "q", m, tok, {}, dtype=torch.int8)
    save(tmp_path / "h", m, tok, {}, dtype=torch.float16)
    stored, ck = _stored(tmp_path / "q"), load(tmp_path / "q")
    loaded = ck.model.state_dict()
    big = [k for k, v in checkpoint._unique_state(m).items() if v.dim() >= 2 and v.numel() >= 65_536]
    assert len(big) == 15 and "embeddings.pos.weight" not in big  # token embedding, attention, FF, pooler, MLM
    for k, v in checkpoint._unique_state(m).items():
        if k in big:
            scale = stored[k + checkpoint.SCALE]
            assert stored[k].dtype == torch.int8 and scale.dtype == torch.float32 and (scale > 0).all(), k
            step = v.abs().amax(dim=1, keepdim=True) / 127  # one quantisation step per row
            assert ((loaded[k] - v).abs() <= step / 2 + 1e-6).all(), k
            assert not torch.equal(loaded[k], v.half().float()), k  # really quantised, not fp16
        elif v.is_floating_point():
            assert stored[k].dtype == torch.float16, k
            assert torch.equal(loaded[k], v.half().float()), k
    assert torch.equal(loaded["embeddings.tok.weight"][5], torch.zeros(256))
    assert ck.model.mlm.decoder.weight is ck.model.embeddings.tok.weight  # tie survives
    assert "mlm.decoder.weight" not in stored  # and it is stored once
    assert _weight_bytes(tmp_path / "q") <= 0.6 * _weight_bytes(tmp_path / "h")
    assert (ck.stored, load(tmp_path / "h").stored) == ("int8", "fp16")  # what the files hold, read by load
    assert "int8" in json.loads((tmp_path / "q" / "config.json").read_text())["weights"]
    assert "weights" not in json.loads((tmp_path / "h" / "config.json").read_text())
    ids = torch.randint(1, 300, (2, 24))
    with torch.inference_mode():
        ref, out = m(ids).mlm_logits, ck.model(ids).mlm_logits
    assert ((out - ref).norm() / ref.norm()).item() < 0.02  # 0.011 when written


def test_int8_split_into_row_blocks_and_shards_round_trips(tmp_path, bert_and_tok):
    m, tok = bert_and_tok
    save(tmp_path / "one", m, tok, {}, dtype=torch.int8)
    save(tmp_path / "many", m, tok, {}, dtype=torch.int8, max_shard_bytes=20_000)  # < the 76,800-byte embedding
    index = json.loads((tmp_path / "many" / "model.safetensors.index.json").read_text())["weight_map"]
    assert "embeddings.tok.weight" + checkpoint.PART + "0" in index and len(set(index.values())) > 10
    stored = _stored(tmp_path / "many")
    assert stored["embeddings.tok.weight" + checkpoint.PART + "0"].dtype == torch.int8
    one, many = load(tmp_path / "one").model.state_dict(), load(tmp_path / "many").model.state_dict()
    for k in one:
        assert torch.equal(one[k], many[k]), k


def _edit_single_file(folder, edit):
    f = folder / "model.safetensors"
    state = load_file(str(f))
    edit(state)
    save_file(state, str(f), metadata={"format": "pt"})


@pytest.mark.parametrize("edit,needle", [
    (lambda s: s.pop("layers.0.ff_in.weight" + checkpoint.SCALE), "without their"),  # int8 read as if weights
    (lambda s: s.pop("layers.0.ff_in.weight"), "does not fit"),  # a scale with no tensor
    (lambda s: s.update({"pooler.weight" + checkpoint.SCALE: torch.ones(3)}), "does not fit"),  # wrong length
    (lambda s: s.update({"pooler.bias" + checkpoint.SCALE: torch.ones(256)}), "does not fit"),  # scale on fp16
])
def test_int8_scales_that_do_not_fit_are_named(tmp_path, bert_and_tok, edit, needle):
    m, tok = bert_and_tok
    save(tmp_path, m, tok, {}, dtype=torch.int8)
    assert load_file(str(tmp_path / "model.safetensors"))["layers.0.ff_in.weight"].dtype == torch.int8
    _edit_single_file(tmp_path, edit)
    with pytest.raises(CheckpointError, match=re.escape(str(tmp_path)) + ".*" + needle):
        load(tmp_path)


def test_int8_conversion_command_line(tmp_path, bert_and_tok, capsys):
    m, tok = bert_and_tok
    src, dst = tmp_path / "src", tmp_path / "dst"
    save(src, m, tok, {"hello": "world"}, dtype=torch.float16)
    (src / "train_log.jsonl").write_text("{}\n")
    assert checkpoint.main([str(src), str(dst), "--int8"]) == dst
    printed = capsys.readouterr().out
    ck, before = load(dst), load(src).model.state_dict()
    assert ck.metrics == {"hello": "world", "storage": {"dtype": "int8", "from": str(src)}}
    assert not (dst / "train_log.jsonl").exists()
    assert _weight_bytes(dst) <= 0.6 * _weight_bytes(src)
    assert load_file(str(dst / "model.safetensors"))["embeddings.tok.weight"].dtype == torch.int8
    worst = 0.0
    for k, v in ck.model.state_dict().items():  # within half a step of the fp16 source, row by row
        step = before[k].abs().amax(dim=1, keepdim=True) / 127 if v.dim() >= 2 else torch.zeros(())
        assert ((v - before[k]).abs() <= step / 2 + 1e-6).all(), k
        worst = max(worst, (v - before[k]).abs().max().item())
    total = sum(p.stat().st_size for p in dst.iterdir())
    assert f"-> {dst}: {total:,} bytes" in printed and f"{worst:.3g}" in printed and worst > 0
    with pytest.raises(SystemExit):  # a folder that is no checkpoint: argparse's one-line error
        checkpoint.main([str(tmp_path / "nothing"), str(tmp_path / "out"), "--int8"])
    assert "is not a folder" in capsys.readouterr().err


def test_averaging_two_checkpoints_stores_their_mean(tmp_path, bert_and_tok, capsys):
    m, tok = bert_and_tok
    torch.manual_seed(1)
    other = Bert(m.config)  # same config and tokenizer, different weights
    a, b, dst = tmp_path / "a", tmp_path / "b", tmp_path / "soup"
    save(a, m, tok, {"run": "a"})
    save(b, other, tok, {"run": "b"})
    assert checkpoint.main([str(a), str(dst), "--average", str(b)]) == dst
    ck, wa, wb = load(dst), m.state_dict(), other.state_dict()
    assert ck.metrics == {"run": "a", "storage": {"dtype": "float16", "from": str(a), "averaged_with": [str(b)]}}
    for k, v in ck.model.state_dict().items():
        mean = (wa[k] + wb[k]) / 2
        assert torch.equal(v, mean.half().float()), k  # the mean, then fp16 storage: nothing else
    assert not torch.equal(wa["embeddings.tok.weight"], wb["embeddings.tok.weight"])
    alone = checkpoint.average_states([wa])  # one state: itself
    assert alone.keys() == wa.keys() and all(torch.equal(alone[k], v) for k, v in wa.items())
    narrow = tmp_path / "narrow"
    save(narrow, Bert(dataclasses.replace(m.config, d_ff=256)), tok, {})
    with pytest.raises(SystemExit):  # another model: argparse's one-line error naming the file
        checkpoint.main([str(a), str(tmp_path / "x"), "--average", str(narrow)])
    assert f"{narrow}: its config or tokenizer differs" in capsys.readouterr().err


def test_training_can_store_int8_weights(tmp_path):
    from models.training import train
    folder = train.main(["bert", "--smoke", "--out", str(tmp_path / "run"), "--device", "cpu", "--max-steps", "2",
                         "--d-ff", "2048", "--int8-weights"])  # 32 x 2048 feed-forward matrices get quantised
    stored = _stored(folder)
    int8 = {k for k, v in stored.items() if v.dtype == torch.int8}
    assert int8 == {"layers.0.ff_in.weight", "layers.0.ff_out.weight"}
    assert all(v.dtype == torch.float16 for k, v in stored.items() if k not in int8 and checkpoint.SCALE not in k)
    assert load(folder).model.layers[0].ff_in.weight.dtype == torch.float32
    with pytest.raises(SystemExit):
        train.parse(["bert", "--smoke", "--out", "unused", "--fp16-weights", "--int8-weights"])
