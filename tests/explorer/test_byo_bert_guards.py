"""explorer/compute/byo_bert.py's guards for a model a visitor brings (one visitor must not take
the app down): its config alone must not decide a
request's memory (layers x heads x tokens² capped before any weight is downloaded), a download that fails is
deleted and counted, and its tokenizer (the model author's regexes) runs with a time bound, a Rust panic
becoming a UserError instead of a BaseException that escapes every `except Exception`."""
import json
import time
import types

import pytest
from tokenizers import Regex, Tokenizer, models, pre_tokenizers

from explorer.compute import byo_bert
from explorer.compute.byo_bert import MAX_ATTENTION_CELLS, GuardedTokenizer, attention_cells, load_hub, load_local
from explorer.compute.inference import MAX_CHARS, UserError
from models.bert import config_from_hf

BASE = {"model_type": "bert", "vocab_size": 30522, "hidden_size": 768, "num_hidden_layers": 12,
        "num_attention_heads": 12, "intermediate_size": 3072, "max_position_embeddings": 512}


def test_bert_base_fits_and_a_64_head_4096_position_model_does_not():
    assert attention_cells(config_from_hf(BASE)) == 12 * 12 * 512 * 512 <= MAX_ATTENTION_CELLS
    wide = {**BASE, "hidden_size": 64, "num_hidden_layers": 1, "num_attention_heads": 64,
            "max_position_embeddings": 4096}
    cells = attention_cells(config_from_hf(wide))
    assert cells == 64 * (MAX_CHARS + 3) ** 2 > MAX_ATTENTION_CELLS  # tokens: the input's cap, not 4,096
    with pytest.raises(UserError, match="attention weights per request .*64 heads"):
        byo_bert._bert_config(wide, "someone/wide")


@pytest.mark.parametrize("change, needle", [
    ({"hidden_size": 30, "num_attention_heads": 4}, "not divisible"),
    ({"num_attention_heads": 0}, "positive whole numbers"),
    ({"num_hidden_layers": 2.5}, "positive whole numbers"),
])
def test_unbuildable_configs_are_user_errors(change, needle):
    with pytest.raises(UserError, match=needle):
        byo_bert._bert_config({**BASE, **change}, "someone/odd")


def fake_hub(monkeypatch, config, cache_dir):
    """A Hub whose downloads land in cache_dir as huggingface_hub lays them out (blobs + snapshot)."""
    import huggingface_hub

    siblings = [types.SimpleNamespace(rfilename=n, size=1000) for n in ("config.json", "vocab.txt",
                                                                         "model.safetensors")]
    monkeypatch.setattr(huggingface_hub, "HfApi", lambda: types.SimpleNamespace(
        model_info=lambda repo_id, revision=None, files_metadata=False: types.SimpleNamespace(siblings=siblings,
                                                                                               sha="b" * 40)))
    fetched = []

    def download(repo_id, filename, revision=None, cache_dir=None):
        repo = cache_dir / ("models--" + repo_id.replace("/", "--"))
        (repo / "blobs").mkdir(parents=True, exist_ok=True)
        (repo / "blobs" / f"{filename}.incomplete").write_bytes(b"x" * 500)  # a download cut short
        snap = repo / "snapshots" / revision
        snap.mkdir(parents=True, exist_ok=True)
        (snap / filename).write_text(json.dumps(config))
        fetched.append(filename)
        return str(snap / filename)

    monkeypatch.setattr(huggingface_hub, "hf_hub_download", download)
    return fetched


def test_a_refused_download_is_deleted_and_counted(monkeypatch, tmp_path):
    wide = {**BASE, "num_attention_heads": 64, "hidden_size": 64 * 12, "max_position_embeddings": 4096}
    fetched = fake_hub(monkeypatch, wide, tmp_path)
    before = byo_bert.failed_downloads()
    with pytest.raises(UserError, match="attention weights per request"):
        load_hub("someone/wide-bert", cache_dir=tmp_path)
    assert fetched == ["config.json"]  # refused before the weights came
    assert not (tmp_path / "models--someone--wide-bert").exists()
    after = byo_bert.failed_downloads()
    assert after["count"] == before["count"] + 1 and after["bytes"] > before["bytes"]


def hostile_tokenizer() -> Tokenizer:
    tok = Tokenizer(models.WordLevel({"[UNK]": 0, "a": 1}, unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.Split(Regex(r"(a+)+b"), behavior="isolated")  # catastrophic backtracking
    return tok


def test_a_tokenizer_panic_is_a_user_error():
    with pytest.raises(BaseException) as raw:  # what the bare library does: not an Exception at all
        hostile_tokenizer().encode("a" * 40 + "c")
    assert not isinstance(raw.value, Exception)
    with pytest.raises(UserError, match="tokenizer failed on this text .*retry-limit"):
        GuardedTokenizer(hostile_tokenizer()).encode("a" * 40 + "c")


def test_a_slow_tokenizer_times_out_and_is_refused_from_then_on():
    slow = types.SimpleNamespace(encode=lambda text: time.sleep(2) or text, get_vocab_size=lambda: 7)
    guarded = GuardedTokenizer(slow, seconds=0.2)
    t0 = time.perf_counter()
    with pytest.raises(UserError, match="took over 0.2 s"):
        guarded.encode("anything")
    assert time.perf_counter() - t0 < 1.5  # the request came back; the tokenizer's thread may still run
    with pytest.raises(UserError, match="stopped answering"):
        guarded.encode("again")
    assert guarded.get_vocab_size() == 7  # the rest is the wrapped tokenizer's


def test_a_hostile_tokenizer_json_is_refused_when_the_model_loads(tmp_path):
    transformers = pytest.importorskip("transformers")
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "a", "b", "c", "the", "cat", "."]
    cfg = transformers.BertConfig(vocab_size=len(vocab), hidden_size=16, num_hidden_layers=1, num_attention_heads=2,
                                  intermediate_size=20, max_position_embeddings=32)
    transformers.BertForPreTraining(cfg).save_pretrained(tmp_path, safe_serialization=True)
    (tmp_path / "vocab.txt").write_text("\n".join(vocab) + "\n", encoding="utf-8")
    assert load_local(tmp_path).tokenizer.encode("the cat .").tokens[1:3] == ["the", "cat"]  # loads as it is
    tok = byo_bert.wordpiece_from_vocab(tmp_path / "vocab.txt")
    tok.pre_tokenizer = pre_tokenizers.Split(Regex(r"(a+)+b"), behavior="isolated")
    tok.save(str(tmp_path / "tokenizer.json"))
    with pytest.raises(UserError, match="tokenizer failed"):
        load_local(tmp_path)


# ----------------------------------------------------------------------------- vocab.txt sizes, before parsing


def vocab_folder(tmp_path, lines, vocab_size, end="\n"):
    """A folder a local load reads up to its tokenizer: config.json and vocab.txt (no weights needed)."""
    (tmp_path / "config.json").write_text(json.dumps({**BASE, "vocab_size": vocab_size}))
    (tmp_path / "vocab.txt").write_text("\n".join(lines) + end, encoding="utf-8")
    return tmp_path


def test_a_vocab_txt_over_the_byte_limit_is_refused_unread(tmp_path):
    import tracemalloc

    (tmp_path / "config.json").write_text(json.dumps(BASE))
    with open(tmp_path / "vocab.txt", "wb") as f:
        f.truncate(110_000_000)  # the 110 MB file of the review (sparse: nothing written)
    tracemalloc.start()
    try:
        with pytest.raises(UserError, match=r"vocab\.txt is 110,000,000 bytes, over this server's limit of "
                                            r"8,000,000 bytes"):
            load_local(tmp_path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 1_000_000, peak  # parsed, it took +2.0 GB


def test_a_vocab_txt_with_more_lines_than_embeddings_is_refused_before_parsing(tmp_path, monkeypatch):
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "a", "b", "c"]
    monkeypatch.setattr(byo_bert, "Tokenizer", None)  # parsing would fail on this: the check comes first
    with pytest.raises(UserError, match=r"vocab\.txt has more than 7 tokens .* only 7 embeddings"):
        load_local(vocab_folder(tmp_path, vocab, 7))


@pytest.mark.parametrize("end", ["\n", ""])
def test_vocab_lines_are_counted_across_chunks(tmp_path, end):
    lines = [f"tok{i}" for i in range(300_000)]  # 2.5 MB: three chunks, a line cut at each boundary
    vocab = vocab_folder(tmp_path, lines, 300_000, end) / "vocab.txt"
    assert byo_bert.check_vocab(vocab, 300_000) == 300_000
    with pytest.raises(UserError, match="more than 299,999 tokens"):
        byo_bert.check_vocab(vocab, 299_999)


def test_a_vocab_entry_over_the_limit_is_refused_with_its_line(tmp_path):
    lines = ["x" * 399] * 6000  # 2.4 MB of lines at the limit, some cut by a chunk's boundary: accepted
    vocab = vocab_folder(tmp_path, lines, 10_000) / "vocab.txt"
    assert byo_bert.check_vocab(vocab, 10_000) == 6000
    vocab.write_text("\n".join(lines[:3000] + ["y" * 401] + lines[3000:]) + "\n", encoding="utf-8")
    with pytest.raises(UserError, match=r"Line 3,001 of .*vocab\.txt is 401 bytes long, over .* 400 bytes"):
        byo_bert.check_vocab(vocab, 10_000)
    vocab.write_text("[PAD]\n" + "z" * 3_000_000, encoding="utf-8")  # one line, no newline, over chunks
    with pytest.raises(UserError, match=r"Line 2 of .*vocab\.txt is 1,048,\d+ bytes long"):
        byo_bert.check_vocab(vocab)


def test_the_hub_refuses_a_vocab_txt_over_the_limit_from_its_listing(monkeypatch, tmp_path):
    import huggingface_hub

    sizes = {"config.json": 600, "vocab.txt": 110_000_000, "model.safetensors": 1000}
    siblings = [types.SimpleNamespace(rfilename=n, size=s) for n, s in sizes.items()]
    monkeypatch.setattr(huggingface_hub, "HfApi", lambda: types.SimpleNamespace(
        model_info=lambda repo_id, revision=None, files_metadata=False: types.SimpleNamespace(siblings=siblings,
                                                                                               sha="b" * 40)))
    fetched = []
    monkeypatch.setattr(huggingface_hub, "hf_hub_download", lambda *a, **k: fetched.append(a) or 1 / 0)
    with pytest.raises(UserError, match=r"The vocab\.txt of 'someone/big-vocab' is 110,000,000 bytes, over "
                                        r"this server's limit of 8,000,000") as refused:
        load_hub("someone/big-vocab", cache_dir=tmp_path)
    assert fetched == [] and refused.value.key == "hub_file_too_big"  # nothing downloaded (110 MB < the 500 MB cap)


def test_the_vocab_refusals_read_in_korean():
    from explorer import i18n

    for key, fields in [("vocab_too_big", {"path": "v/vocab.txt", "size": "9", "limit": "8"}),
                        ("vocab_too_many", {"path": "v/vocab.txt", "n": "7"}),
                        ("vocab_long_entry", {"path": "v/vocab.txt", "line": "3", "size": "401", "limit": 400}),
                        ("hub_file_too_big", {"repo": "a/b", "file": "vocab.txt", "size": "9", "limit": "8"})]:
        text = i18n.error_text(UserError("English", key, **fields), "ko")
        assert text != "English" and all(str(v) in text for v in fields.values()), (key, text)


# ----------------------------------------------------------------------------- tokenizer.json sizes, before parsing


def tokenizer_folder(tmp_path, vocab, vocab_size):
    """config.json and a tokenizer.json as the tokenizers library writes it (a WordPiece over `vocab`)."""
    (tmp_path / "config.json").write_text(json.dumps({**BASE, "vocab_size": vocab_size}))
    (tmp_path / "vocab.txt").write_text("\n".join(vocab) + "\n", encoding="utf-8")
    byo_bert.wordpiece_from_vocab(tmp_path / "vocab.txt").save(str(tmp_path / "tokenizer.json"))
    (tmp_path / "vocab.txt").unlink()
    return tmp_path / "tokenizer.json"


SPECIALS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]


def test_a_tokenizer_json_s_entries_are_counted_as_the_library_reads_them(tmp_path):
    vocab = SPECIALS + [f"tok{i}" for i in range(3000)] + ["한국어", 'quote"d', "back\\slash", "{", "[", ":"]
    path = tokenizer_folder(tmp_path, vocab, len(vocab))
    parsed = Tokenizer.from_file(str(path)).get_vocab_size()
    assert byo_bert.check_tokenizer_json(path, len(vocab)) == len(vocab) == parsed
    with pytest.raises(UserError, match=rf"vocabulary \(model\.vocab\) of .*tokenizer\.json has more than "
                                        rf"{len(vocab) - 1:,} entries"):
        byo_bert.check_tokenizer_json(path, len(vocab) - 1)


def test_a_tokenizer_json_over_the_byte_limit_is_refused_unread(tmp_path):
    import tracemalloc

    (tmp_path / "config.json").write_text(json.dumps(BASE))
    with open(tmp_path / "tokenizer.json", "wb") as f:
        f.truncate(50_000_000)  # under the old 50 MB cap, parsed whole before
    tracemalloc.start()
    try:
        with pytest.raises(UserError, match=r"tokenizer\.json is 50,000,000 bytes, over this server's limit of "
                                            r"16,000,000 bytes") as refused:
            load_local(tmp_path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 1_000_000 and refused.value.key == "tokenizer_too_big", peak


def test_a_tokenizer_json_with_more_entries_than_embeddings_is_refused_before_parsing(tmp_path, monkeypatch):
    vocab = SPECIALS + ["a", "b", "c"]
    tokenizer_folder(tmp_path, vocab, 7)
    monkeypatch.setattr(byo_bert, "Tokenizer", None)  # parsing would fail on this: the check comes first
    with pytest.raises(UserError, match=r"has more than 7 entries but the model only 7 embeddings") as refused:
        load_local(tmp_path)
    assert refused.value.key == "tokenizer_too_many"


def test_a_tokenizer_json_s_added_tokens_and_long_entries_are_checked(tmp_path):
    path = tokenizer_folder(tmp_path, SPECIALS + ["a"], 6)
    data = json.loads(path.read_text(encoding="utf-8"))
    data["added_tokens"] = data["added_tokens"] * 3  # 15 entries
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(UserError, match=r"added_tokens of .* more than 6 entries"):
        byo_bert.check_tokenizer_json(path, 6)
    data = json.loads(tokenizer_folder(tmp_path, SPECIALS + ["a"], 6).read_text(encoding="utf-8"))
    data["model"]["vocab"]["가" * 134] = 6  # 402 bytes of UTF-8
    path.write_text(json.dumps(data), encoding="utf-8")  # ensure_ascii: 804 bytes as \\u escapes in the file
    with pytest.raises(UserError, match=r"Entry 7 of .*vocabulary is 402 bytes long, over .* 400 bytes"):
        byo_bert.check_tokenizer_json(path, 10)
    del data["model"]["vocab"]["가" * 134]
    data["model"]["vocab"]["가" * 133] = 6  # 399 bytes: accepted
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    assert byo_bert.check_tokenizer_json(path, 10) == 7


def test_the_tokenizer_json_refusals_read_in_korean():
    from explorer import i18n

    for key, fields in [("tokenizer_too_big", {"path": "v/tokenizer.json", "size": "9", "limit": "8"}),
                        ("tokenizer_too_many", {"path": "v/tokenizer.json", "what": "added_tokens", "n": "7"}),
                        ("tokenizer_long_entry", {"path": "v/tokenizer.json", "n": "3", "size": "401", "limit": 400})]:
        text = i18n.error_text(UserError("English", key, **fields), "ko")
        assert text != "English" and all(str(v) in text for v in fields.values()), (key, text)
