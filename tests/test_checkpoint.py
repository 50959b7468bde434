"""Checkpoints: bit-exact round trips, sharding, tied weights, clear errors, no pickles."""
import json

import pytest
import torch

from tokenizers import Tokenizer

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
    with pytest.raises(CheckpointError, match="do not match"):
        load(tmp_path)


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
    assets = Path(__file__).resolve().parent.parent / "assets"
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
