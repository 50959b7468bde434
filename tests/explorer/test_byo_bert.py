"""explorer/compute/byo_bert.py: a tiny random Hugging Face BertForPreTraining saved as safetensors
loads into the in-repo BERT with identical MLM/NSP logits and attentions, serves
fill_mask/nsp/encode_bert through a Registry, and everything unsafe or unusable is
refused with a UserError (pickles unopened, heads missing, Hub too big or unreachable)."""
import json
import types

import numpy as np
import pytest
import torch

from explorer.compute import byo_bert
from explorer.compute.byo_bert import load_hub, load_local, register, wordpiece_from_vocab
from explorer.compute.inference import Registry, UserError, encode_bert, fill_mask, nsp

transformers = pytest.importorskip("transformers")

WORDS = ("the cat sat on mat dog ran in park a big small red house is was and it he she they "
         "paris capital of france city london").split()
VOCAB = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"] + WORDS + ["##s", "##ed", "##ing", ".", ",", "!"]
SENT_A, SENT_B = "The cat sat on the mat.", "It ran in the park!"


def hf_bert(cls=None):
    torch.manual_seed(0)
    cfg = transformers.BertConfig(
        vocab_size=len(VOCAB), hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
        intermediate_size=37, max_position_embeddings=64, type_vocab_size=2,
        attn_implementation="eager", initializer_range=0.2)
    model = (cls or transformers.BertForPreTraining)(cfg).eval()
    with torch.no_grad():  # random init leaves biases/LayerNorms at 0/1: perturb so parity sees them
        for name, p in model.named_parameters():
            if name.endswith("bias") or "LayerNorm" in name:
                p.add_(0.1 * torch.randn_like(p))
    return model


def write_vocab(folder):
    (folder / "vocab.txt").write_text("\n".join(VOCAB) + "\n", encoding="utf-8")


@pytest.fixture(scope="module")
def hf_folder(tmp_path_factory):
    folder = tmp_path_factory.mktemp("hf-bert")
    model = hf_bert()
    model.save_pretrained(folder, safe_serialization=True)
    write_vocab(folder)
    return folder, model


def hf_reference(model, ids, segs):
    with torch.no_grad():
        return model(input_ids=torch.tensor([ids]), token_type_ids=torch.tensor([segs]), output_attentions=True)


def test_parity_with_hugging_face_through_vocab_txt(hf_folder):
    folder, hf = hf_folder
    ckpt = load_local(folder)
    assert ckpt.config.arch == "bert" and not ckpt.model.training
    assert ckpt.metrics["source"] == str(folder) and "vocab.txt" in ckpt.metrics["tokenizer"]
    # Our WordPiece tokenizer agrees with the one transformers builds from the same folder.
    hf_tok = transformers.AutoTokenizer.from_pretrained(folder)
    enc = ckpt.tokenizer.encode(SENT_A, SENT_B)
    ref_enc = hf_tok(SENT_A, SENT_B)
    assert enc.ids == ref_enc["input_ids"] and enc.type_ids == ref_enc["token_type_ids"]
    assert enc.tokens[0] == "[CLS]" and enc.tokens.count("[SEP]") == 2 and "[UNK]" not in enc.tokens

    ref = hf_reference(hf, enc.ids, enc.type_ids)
    with torch.no_grad():
        out = ckpt.model(torch.tensor([enc.ids]), torch.tensor([enc.type_ids]), need_weights=True)
    torch.testing.assert_close(out.mlm_logits, ref.prediction_logits, atol=1e-5, rtol=1e-5)
    torch.testing.assert_close(out.nsp_logits, ref.seq_relationship_logits, atol=1e-5, rtol=1e-5)
    torch.testing.assert_close(out.trace.enc_self[0], torch.stack(ref.attentions, 1)[0], atol=1e-5, rtol=1e-5)


def test_registry_serves_the_custom_bert(hf_folder):
    folder, hf = hf_folder
    reg = Registry()
    register(reg, load_local(folder), "bert-custom")
    res = fill_mask("The cat sat on the [mask].", top_k=3, name="bert-custom", reg=reg)
    ids = [VOCAB.index(t) for t in res.tokens]
    ref = hf_reference(hf, ids, [0] * len(ids))
    probs = torch.softmax(ref.prediction_logits[0, res.masks[0].index], -1)
    top = probs.topk(3)
    assert [p.token for p in res.masks[0].predictions] == [VOCAB[i]
                                                           for i in top.indices.tolist()]
    np.testing.assert_allclose([p.probability for p in res.masks[0].predictions], top.values.numpy(), atol=1e-5)
    np.testing.assert_allclose(res.trace.enc_self, torch.stack(ref.attentions, 1)[0].numpy(), atol=1e-5)

    r = nsp(SENT_A, SENT_B, name="bert-custom", reg=reg)
    assert r.segments.count(1) == len(r.tokens) - r.tokens.index("[SEP]") - 1
    ref = hf_reference(hf, [VOCAB.index(t) for t in r.tokens], r.segments)
    np.testing.assert_allclose([r.is_next, r.not_next], torch.softmax(ref.seq_relationship_logits[0], -1).numpy(),
                               atol=1e-5)
    assert encode_bert("the red house", name="bert-custom", reg=reg).trace.enc_self.shape == (2, 4, 5, 5)
    with pytest.raises(ValueError):
        register(reg, load_local(folder), "bert-custom")  # a name is never silently replaced


def test_sharded_weights_and_tokenizer_json(tmp_path):
    hf = hf_bert()
    hf.save_pretrained(tmp_path, safe_serialization=True, max_shard_size="20KB")
    assert (tmp_path / "model.safetensors.index.json").is_file() and not (tmp_path / "model.safetensors").exists()
    write_vocab(tmp_path)
    transformers.AutoTokenizer.from_pretrained(tmp_path).save_pretrained(tmp_path)
    (tmp_path / "vocab.txt").unlink()  # only tokenizer.json is left to read
    assert (tmp_path / "tokenizer.json").is_file()
    ckpt = load_local(tmp_path)
    assert ckpt.metrics["tokenizer"] == "tokenizer.json"
    enc = ckpt.tokenizer.encode(SENT_A, SENT_B)
    ref = hf_reference(hf, enc.ids, enc.type_ids)
    with torch.no_grad():
        out = ckpt.model(torch.tensor([enc.ids]), torch.tensor([enc.type_ids]))
    torch.testing.assert_close(out.mlm_logits, ref.prediction_logits, atol=1e-5, rtol=1e-5)
    torch.testing.assert_close(out.nsp_logits, ref.seq_relationship_logits, atol=1e-5, rtol=1e-5)


def test_pickles_are_refused_unopened(tmp_path, monkeypatch):
    hf_bert().config.to_json_file(tmp_path / "config.json")
    write_vocab(tmp_path)
    (tmp_path / "pytorch_model.bin").write_bytes(b"\x80\x04not a pickle at all\x00" * 10)
    monkeypatch.setattr(torch, "load", lambda *a, **k: pytest.fail("torch.load must never be called"))
    with pytest.raises(UserError, match="pytorch_model.bin.*pickle"):
        load_local(tmp_path)


@pytest.mark.parametrize("shard", ["../elsewhere.safetensors", ["a list.safetensors"], 7])
def test_shard_index_cannot_point_outside_the_folder(tmp_path, shard):
    """A shard outside the folder, or a value that is no file name at all: named, never a TypeError."""
    hf_bert().config.to_json_file(tmp_path / "config.json")
    write_vocab(tmp_path)
    (tmp_path / "model.safetensors.index.json").write_text(json.dumps({"weight_map": {"x": shard}}))
    with pytest.raises(UserError, match="plain .safetensors"):
        load_local(tmp_path)


@pytest.mark.parametrize("cls, message", [("BertModel", "bare BertModel"),
                                          ("BertForMaskedLM", "BertForMaskedLM")])
def test_checkpoints_without_both_heads_are_refused(tmp_path, cls, message):
    hf_bert(getattr(transformers, cls)).save_pretrained(tmp_path, safe_serialization=True)
    write_vocab(tmp_path)
    with pytest.raises(UserError, match=message):
        load_local(tmp_path)


def test_other_refusals(tmp_path, hf_folder):
    folder, _ = hf_folder
    with pytest.raises(UserError, match="not a folder"):
        load_local(tmp_path / "nope")
    with pytest.raises(UserError, match="config.json"):
        load_local(tmp_path)
    cfg = json.loads((folder / "config.json").read_text())
    (tmp_path / "config.json").write_text(json.dumps(dict(cfg, model_type="roberta")))
    with pytest.raises(UserError, match="roberta"):
        load_local(tmp_path)
    (tmp_path / "config.json").write_text(json.dumps(cfg))
    with pytest.raises(UserError, match="tokenizer"):
        load_local(tmp_path)
    (tmp_path / "vocab.txt").write_text("\n".join(t for t in VOCAB if t != "[MASK]") + "\n")
    with pytest.raises(UserError, match=r"\[MASK\]"):
        load_local(tmp_path)


def test_vocab_txt_honours_lowercase_setting(tmp_path):
    write_vocab(tmp_path)
    assert wordpiece_from_vocab(tmp_path / "vocab.txt", lowercase=True).encode("The CAT").tokens[1:3] == ["the", "cat"]
    assert wordpiece_from_vocab(tmp_path / "vocab.txt", lowercase=False).encode("The CAT").tokens[1:3] == ["[UNK]", "[UNK]"]


def test_folder_comes_only_from_the_environment(monkeypatch, hf_folder):
    folder, _ = hf_folder
    monkeypatch.delenv(byo_bert.ENV_VAR, raising=False)
    assert byo_bert.folder_from_env() is None and byo_bert.load_from_env(Registry()) is None
    monkeypatch.setenv(byo_bert.ENV_VAR, str(folder))
    reg = Registry()
    assert byo_bert.load_from_env(reg) == "bert-custom" and reg.get("bert-custom", "bert").config.n_layers == 2
    monkeypatch.setenv(byo_bert.ENV_VAR, str(folder / "missing"))
    reg = Registry()
    byo_bert.load_from_env(reg)
    with pytest.raises(UserError, match="could not be loaded"):
        reg.get("bert-custom")


# ----------------------------------------------------------------------------- the Hub, offline


def fake_hub(monkeypatch, files, downloads):
    import huggingface_hub

    siblings = [types.SimpleNamespace(rfilename=n, size=s) for n, s in files.items()]

    class FakeApi:
        def model_info(self, repo_id, revision=None, files_metadata=False):
            assert files_metadata, "sizes must be asked for before anything is downloaded"
            return types.SimpleNamespace(siblings=siblings, sha="0" * 40)

    monkeypatch.setattr(huggingface_hub, "HfApi", FakeApi)
    monkeypatch.setattr(huggingface_hub, "hf_hub_download",
                        lambda repo_id, filename, **kw: downloads.append(filename) or pytest.fail("no download expected"))


def test_hub_refuses_too_big_or_pickle_only_before_downloading(monkeypatch):
    downloads = []
    fake_hub(monkeypatch, {"config.json": 600, "vocab.txt": 200_000, "model.safetensors": 440_000_000,
                           "pytorch_model.bin": 440_000_000, "onnx/model.onnx": 10}, downloads)
    with pytest.raises(UserError, match="over the limit"):
        load_hub("bert-base-uncased", max_bytes=100_000_000)
    fake_hub(monkeypatch, {"config.json": 600, "vocab.txt": 200_000, "pytorch_model.bin": 1000}, downloads)
    with pytest.raises(UserError, match="no safetensors.*pytorch_model.bin"):
        load_hub("someone/old-bert")
    assert downloads == []
    with pytest.raises(UserError, match="model id"):
        load_hub("../../etc/passwd")


def test_hub_network_failure_is_a_user_error(monkeypatch):
    import huggingface_hub

    class Offline:
        def model_info(self, *a, **k):
            raise ConnectionError("[Errno -2] Name or service not known")

    monkeypatch.setattr(huggingface_hub, "HfApi", Offline)
    with pytest.raises(UserError, match="Could not reach the Hugging Face Hub"):
        load_hub("bert-base-uncased")


def test_hub_downloads_only_config_tokenizer_and_safetensors(monkeypatch, hf_folder):
    import huggingface_hub

    folder, hf = hf_folder
    files = {p.name: p.stat().st_size for p in folder.iterdir()}
    files.update({"pytorch_model.bin": 10, "tf_model.h5": 10, "README.md": 10})
    siblings = [types.SimpleNamespace(rfilename=n, size=s) for n, s in files.items()]
    monkeypatch.setattr(huggingface_hub, "HfApi", lambda: types.SimpleNamespace(
        model_info=lambda repo_id, revision=None, files_metadata=False: types.SimpleNamespace(siblings=siblings,
                                                                                               sha="a" * 40)))
    fetched = []
    monkeypatch.setattr(huggingface_hub, "hf_hub_download",
                        lambda repo_id, filename, **kw: fetched.append(filename) or str(folder / filename))
    ckpt = load_hub("someone/tiny-bert")
    assert sorted(fetched) == ["config.json", "model.safetensors", "vocab.txt"]
    assert ckpt.metrics["source"].startswith("https://huggingface.co/someone/tiny-bert")
    with torch.no_grad():
        ids = torch.tensor([[2, 5, 6, 3]])
        torch.testing.assert_close(ckpt.model(ids).mlm_logits, hf(input_ids=ids).prediction_logits,
                                   atol=1e-5, rtol=1e-5)


def test_hub_refuses_a_non_bert_after_fetching_only_its_config(monkeypatch, tmp_path):
    import huggingface_hub

    (tmp_path / "config.json").write_text(json.dumps({"model_type": "roberta"}))
    siblings = [types.SimpleNamespace(rfilename=n, size=100) for n in ("config.json", "vocab.txt", "model.safetensors")]
    monkeypatch.setattr(huggingface_hub, "HfApi", lambda: types.SimpleNamespace(
        model_info=lambda repo_id, revision=None, files_metadata=False: types.SimpleNamespace(siblings=siblings,
                                                                                               sha=None)))
    fetched = []
    monkeypatch.setattr(huggingface_hub, "hf_hub_download",
                        lambda repo_id, filename, **kw: fetched.append(filename) or str(tmp_path / filename))
    with pytest.raises(UserError, match="roberta"):
        load_hub("roberta-base")
    assert fetched == ["config.json"]
