"""A broken checkpoint folder is refused with a message that names its file, relative to assets/, and never
stops the app from starting: a config whose model cannot be built (d_model not divisible by
n_heads), JSON that is not an object, NaN or infinite weights; the other folders still load."""
import json

import pytest
import torch

from explorer.compute.inference import UserError, load_registry
from models.checkpoint import CheckpointError, load, save
from models.tokenizers import train_bpe
from models.transformer import Transformer, TransformerConfig

TEXT = ["I am a student.", "Je suis étudiant.", "the man went to the store ."] * 20


def tiny(folder):
    tok = train_bpe(TEXT, 60)
    V = tok.get_vocab_size()
    model = Transformer(TransformerConfig(src_vocab_size=V, tgt_vocab_size=V, d_model=32, n_heads=2, n_layers=1,
                                          d_ff=64, max_len=16))
    return save(folder, model, tok, {"data": {"direction": "en-fr"}})


def edit_json(path, change):
    data = json.loads(path.read_text())
    path.write_text(json.dumps(change(data)))


def indivisible(folder):
    edit_json(folder / "config.json", lambda c: {**c, "config": {**c["config"], "d_model": 30, "n_heads": 4}})


def metrics_list(folder):
    (folder / "metrics.json").write_text("[1, 2, 3]")


def config_list(folder):
    edit_json(folder / "config.json", lambda c: {**c, "config": [1, 2]})


def nan_weight(folder):
    from safetensors.torch import load_file, save_file

    state = load_file(str(folder / "model.safetensors"))
    name = sorted(k for k, v in state.items() if v.is_floating_point() and v.dim() == 2)[0]
    state[name][0, 0] = float("nan")
    save_file(state, str(folder / "model.safetensors"), metadata={"format": "pt"})
    return name


BREAKS = {
    "indivisible": (indivisible, r"config\.json is not a valid config: .*divisible"),
    "metrics_list": (metrics_list, r"metrics\.json holds a JSON list, not an object"),
    "config_list": (config_list, r"config\.json is not a valid config"),
    "nan_weight": (nan_weight, r"holds NaN or infinite values"),
}


@pytest.mark.parametrize("case", BREAKS)
def test_broken_folder_is_a_checkpoint_error(tmp_path, case):
    folder = tiny(tmp_path / "m")
    breaker, needle = BREAKS[case]
    named = breaker(folder)
    with pytest.raises(CheckpointError, match=needle) as e:
        load(folder)
    if named:
        assert named in str(e.value)  # the NaN weight is named


def test_registry_keeps_loading_and_names_files_relative_to_assets(tmp_path):
    assets = tmp_path / "assets"
    tiny(assets / "good")
    for case, (breaker, _) in BREAKS.items():
        breaker(tiny(assets / case))
    reg = load_registry(assets)
    assert reg.names() == ["good"] and sorted(reg.errors) == sorted(BREAKS)
    for name, message in reg.errors.items():
        assert str(tmp_path) not in message, message  # never the server's absolute path
        assert message.startswith(f"{name}/") or message.startswith(f"{name}:"), message
    assert "indivisible/config.json is not a valid config" in reg.errors["indivisible"]
    assert [d["status"] for d in reg.describe()].count("error") == len(BREAKS)
    with pytest.raises(UserError, match="could not be loaded: metrics_list/metrics.json") as e:
        reg.get("metrics_list")
    assert str(tmp_path) not in str(e.value)
    out = reg.models["good"].model(torch.tensor([[5, 6, 2]]), torch.tensor([[1, 7]]))
    assert torch.isfinite(out.logits).all()
