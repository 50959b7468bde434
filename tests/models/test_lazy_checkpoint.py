"""Checkpoints opened lazily (models.checkpoint.LazyCheckpoint, the app's registry): the same weights as `load`,
the same refusals at open from the files' headers, values checked at first use, files changed on disk refused
rather than mixed with what was read, and `NoRandomInit` confined to its own thread."""
import json
import threading

import pytest
import torch
from safetensors.torch import load_file, save_file

from explorer.compute.inference import UserError, load_registry
from models import checkpoint
from models.checkpoint import CheckpointError, LazyCheckpoint, NoRandomInit, load, save
from models.tokenizers import train_bpe
from models.transformer import Transformer, TransformerConfig

TEXT = ["I am a student.", "Je suis étudiant.", "the man went to the store ."] * 20


@pytest.fixture(autouse=True)
def small_int8(monkeypatch):
    monkeypatch.setattr(checkpoint, "INT8_MIN_NUMEL", 256)  # the tiny model's matrices stored as int8 too


def tiny(folder, d_ff=64, seed=0, **save_kwargs):
    torch.manual_seed(seed)
    tok = train_bpe(TEXT, 60)
    V = tok.get_vocab_size()
    model = Transformer(TransformerConfig(src_vocab_size=V, tgt_vocab_size=V, d_model=32, n_heads=2, n_layers=1,
                                          d_ff=d_ff, max_len=16))
    return save(folder, model, tok, {"data": {"direction": "en-fr"}, "seed": seed}, **save_kwargs)


STORAGE = {"fp32": {}, "fp16": {"dtype": torch.float16}, "int8": {"dtype": torch.int8},
           "split": {"max_shard_bytes": 2_000}}  # split: the embedding is stored as row blocks over shards


@pytest.mark.parametrize("storage", STORAGE)
def test_lazy_reads_the_same_model_as_load(tmp_path, storage):
    folder = tiny(tmp_path / "m", **STORAGE[storage])
    lazy, eager = LazyCheckpoint(folder), load(folder)
    assert not lazy.loaded and lazy.stored == eager.stored == {"split": "fp32"}.get(storage, storage)
    assert lazy.config == eager.config
    assert lazy.metrics == eager.metrics and lazy.tokenizer.to_str() == eager.tokenizer.to_str()
    model = lazy.model
    assert lazy.loaded and lazy.model is model and not model.training
    for (k, a), b in zip(eager.model.state_dict().items(), model.state_dict().values()):
        assert torch.equal(a, b), k
    assert model.out_proj.weight is model.src_emb.weight  # ties survive
    src, tgt = torch.tensor([[5, 6, 2]]), torch.tensor([[1, 7]])
    assert torch.equal(model(src, tgt).logits, eager.model(src, tgt).logits)


def drop_a_weight(folder):
    state = load_file(str(folder / "model.safetensors"))
    name = sorted(state)[0]
    del state[name]
    save_file(state, str(folder / "model.safetensors"), metadata={"format": "pt"})


def wider_ffn(folder):
    meta = json.loads((folder / "config.json").read_text())
    meta["config"]["d_ff"] = 128
    (folder / "config.json").write_text(json.dumps(meta))


def not_safetensors(folder):
    (folder / "model.safetensors").write_bytes(b"not a safetensors file")


def unscaled_int8(folder):
    state = load_file(str(folder / "model.safetensors"))
    del state[sorted(k for k in state if k.endswith(".__scale"))[0]]
    save_file(state, str(folder / "model.safetensors"), metadata={"format": "pt"})


HEADER_BREAKS = {  # what the header alone shows: refused when the folder is opened, as `load` refuses it
    "missing weight": ({}, drop_a_weight, "weights do not match config.json"),
    "shape": ({}, wider_ffn, r"weights do not match config.json: .* in the files"),
    "not safetensors": ({}, not_safetensors, "model.safetensors is corrupt"),
    "int8 without scale": ({"dtype": torch.int8}, unscaled_int8, "without their .__scale tensor"),
}


@pytest.mark.parametrize("case", HEADER_BREAKS)
def test_a_broken_folder_is_refused_when_opened(tmp_path, case):
    kwargs, breaker, needle = HEADER_BREAKS[case]
    folder = tiny(tmp_path / "m", **kwargs)
    breaker(folder)
    with pytest.raises(CheckpointError) as eager:
        load(folder)
    with pytest.raises(CheckpointError) as lazy:
        LazyCheckpoint(folder)
    for e in (eager, lazy):
        assert e.match(needle)


def test_non_finite_values_show_at_first_use_in_the_registry(tmp_path):
    assets = tmp_path / "assets"
    tiny(assets / "good")
    folder = tiny(assets / "nan")
    state = load_file(str(folder / "model.safetensors"))
    name = sorted(k for k, v in state.items() if v.dim() == 2)[0]
    state[name][0, 0] = float("nan")
    save_file(state, str(folder / "model.safetensors"), metadata={"format": "pt"})

    reg = load_registry(assets, lazy=True)
    assert reg.names() == ["good", "nan"] and not reg.errors  # the header is sound: listed at start
    assert not any(c.loaded for c in reg.models.values())
    assert reg.get("nan", weights=False).tokenizer is not None and not reg.models["nan"].loaded
    with pytest.raises(UserError, match="could not be loaded: nan: weight .* holds NaN") as e:
        reg.get("nan")
    assert str(tmp_path) not in str(e.value)  # named from assets/, as a broken folder at start is
    assert reg.names() == ["good"] and name in reg.errors["nan"]
    with pytest.raises(UserError, match="could not be loaded"):
        reg.get("nan")  # from then on as a folder that failed at start
    assert reg.get("good").loaded


def test_files_changed_after_opening_are_refused_not_mixed(tmp_path):
    """A checkpoint replaced on disk while the app runs (same names, new vocabulary or sizes): the weights are
    not read into the model built from the old config and tokenizer; a fresh open reads the new one whole."""
    folder = tiny(tmp_path / "m")
    lazy = LazyCheckpoint(folder)
    tiny(folder, d_ff=128, seed=1)
    with pytest.raises(CheckpointError, match="changed since they were read; restart the app"):
        lazy.model
    assert not lazy.loaded
    fresh = LazyCheckpoint(folder)
    assert fresh.config.d_ff == 128 and fresh.metrics["seed"] == 1
    assert torch.equal(fresh.model.src_emb.weight, load(folder).model.src_emb.weight)


def test_weights_replaced_with_the_same_config_are_read_whole(tmp_path):
    """New weights of the same model (same config, tokenizer and metrics file): read at first use as they
    are now, never half old and half new."""
    folder = tiny(tmp_path / "m")
    lazy = LazyCheckpoint(folder)
    before = load(folder).model.src_emb.weight.clone()
    state = load_file(str(folder / "model.safetensors"))
    state = {k: v * 2 if v.is_floating_point() else v for k, v in state.items()}
    save_file(state, str(folder / "model.safetensors"), metadata={"format": "pt"})
    assert torch.equal(lazy.model.src_emb.weight, before * 2)


def test_no_random_init_skips_the_draws_in_its_own_thread_only():
    """Another thread building a model meanwhile draws its weights as usual (torch function modes are
    thread-local); the mode's own thread draws nothing from the (process-wide) generator."""
    torch.manual_seed(0)
    reference = torch.nn.Linear(8, 4).weight.clone()
    inside, built, other = threading.Event(), threading.Event(), {}

    def build_elsewhere():
        inside.wait()
        torch.manual_seed(0)
        other["weight"] = torch.nn.Linear(8, 4).weight.clone()
        built.set()

    t = threading.Thread(target=build_elsewhere)
    t.start()
    with NoRandomInit():
        inside.set()
        assert built.wait(30)
        torch.nn.Embedding(10, 4, padding_idx=0)
        torch.nn.LSTM(4, 4)
        torch.nn.Linear(8, 4)
        after = torch.random.get_rng_state()
    t.join()
    assert torch.equal(other["weight"], reference)
    torch.manual_seed(0)
    torch.nn.Linear(8, 4)  # the other thread's draws, and nothing else
    assert torch.equal(after, torch.random.get_rng_state())
