"""Checkpoints as folders of safetensors + JSON (never pickles).

    folder/
      config.json        {"arch": "transformer", "config": {...the frozen dataclass...}}
      tokenizer.json     the `tokenizers` library's own format
      metrics.json       training command, commit, data hashes, seed, wall time, device, metrics
      model.safetensors  or, past `max_shard_bytes`, Hugging Face-style shards:
      model-00001-of-00003.safetensors ... + model.safetensors.index.json

Every file stays under 9.5 MB so that a Hugging Face Space accepts it as plain git.
Weights may be stored as fp16 or row-wise int8 (`_quantize`) and are loaded as fp32. Tied weights are stored once.
`load` reads a folder now; `LazyCheckpoint` (the app's) checks it now and reads its weights at first use.

    python -m models.checkpoint SRC DST --int8   # re-store a trained checkpoint as int8, no retraining
    python -m models.checkpoint A DST --average B  # the mean of two runs' weights (same config and tokenizer)
"""
from __future__ import annotations

import argparse
import dataclasses
import hashlib
import importlib
import json
import threading
from dataclasses import dataclass
from pathlib import Path

import torch
from safetensors import SafetensorError, safe_open
from safetensors.torch import load_file, save_file
from tokenizers import Tokenizer
from torch.overrides import TorchFunctionMode

ARCHS = {  # arch name -> (module, config class, model class)
    "transformer": ("models.transformer", "TransformerConfig", "Transformer"),
    "seq2seq": ("models.seq2seq", "Seq2SeqConfig", "Seq2Seq"),
    "bert": ("models.bert", "BertConfig", "Bert"),
    "gpt": ("models.gpt", "GPTConfig", "GPT"),
}
MAX_FILE_BYTES = 9_500_000
WEIGHTS, INDEX = "model.safetensors", "model.safetensors.index.json"
MAX_JSON_BYTES = 50_000_000  # config, metrics and a shard index are KB; a brought tokenizer_config.json too
INT8_MIN_NUMEL = 65_536  # smaller tensors (biases, LayerNorms, small tables) are stored fp16 under int8
_DTYPE_NAMES = {torch.float16: "fp16", torch.float32: "fp32", torch.bfloat16: "bf16"}
SCALE = ".__scale"  # an int8 tensor "name" has its fp32 per-row scales (one per index of dim 0) at "name.__scale"


class CheckpointError(Exception):
    """A checkpoint folder is missing a file or holds a corrupt one; the message names it."""


@dataclass(frozen=True)
class Checkpoint:
    model: torch.nn.Module  # in eval mode, fp32
    tokenizer: Tokenizer
    config: object  # the model's frozen config dataclass
    metrics: dict  # metrics.json
    path: Path
    stored: str = ""  # what the weight files hold: "int8", "fp16" or "fp32" (load reads it; "" = not known)

    @property
    def length_penalty(self) -> float:
        """Beam search's length-penalty alpha for this translation model: the one chosen on its validation
        split and recorded with its test metrics, else 0.6 (Wu et al. 2016's default)."""
        return float(self.metrics.get("test", {}).get("alpha", 0.6))


class NoRandomInit(TorchFunctionMode):
    """While active (in this thread only: torch function modes are thread-local), a model's constructor
    skips its random initial weights. For a model about to receive every weight from a checkpoint (`load`
    refuses a file that misses one): drawing them had been 0.43 s of the app's 0.7 s of loading. Other
    construction (buffers such as a sinusoid table, fills of constants) runs as usual."""
    SKIP = frozenset({torch.nn.init.uniform_, torch.nn.init.normal_, torch.nn.init.trunc_normal_,
                      torch.nn.init.kaiming_uniform_, torch.nn.init.kaiming_normal_, torch.nn.init.xavier_uniform_,
                      torch.nn.init.xavier_normal_, torch.nn.init.orthogonal_, torch.Tensor.uniform_,
                      torch.Tensor.normal_})

    def __torch_function__(self, func, types, args=(), kwargs=None):
        if func in self.SKIP:
            return args[0] if args else kwargs["tensor"]
        return func(*args, **(kwargs or {}))


def arch_classes(arch: str):
    if arch not in ARCHS:
        raise ValueError(f"unknown arch {arch!r}; known: {sorted(ARCHS)}")
    mod, cfg, cls = ARCHS[arch]
    m = importlib.import_module(mod)
    return getattr(m, cfg), getattr(m, cls)


def _unique_state(model: torch.nn.Module) -> dict[str, torch.Tensor]:
    """state_dict without the second and later names of tied tensors (safetensors refuses aliases)."""
    seen, out = set(), {}
    for name, t in model.state_dict().items():
        key = (t.data_ptr(), t.shape, t.stride()) if t.numel() else (name,)
        if key in seen:
            continue
        seen.add(key)
        out[name] = t
    return out


def save(folder: str | Path, model: torch.nn.Module, tokenizer: Tokenizer, metrics: dict,
         dtype: torch.dtype = torch.float32, max_shard_bytes: int = 9_000_000) -> Path:
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    config = model.config
    meta = {"arch": config.arch, "config": dataclasses.asdict(config)}
    if dtype == torch.int8:  # noted only here, so fp16/fp32 folders re-save byte for byte as before
        meta["weights"] = "int8 per-row absmax (fp16 for the rest)"
    (folder / "config.json").write_text(json.dumps(meta, indent=2))
    tokenizer.save(str(folder / "tokenizer.json"))
    (folder / "metrics.json").write_text(json.dumps(metrics, indent=2, ensure_ascii=False))
    for old in list(folder.glob("model*.safetensors")) + list(folder.glob("model.safetensors.index.json")):
        old.unlink()
    state = {k: v.detach().cpu() for k, v in _unique_state(model).items()}
    state = _quantize(state) if dtype == torch.int8 else {k: v.to(dtype) if v.is_floating_point() else v
                                                          for k, v in state.items()}
    state = {k: v.contiguous() for k, v in state.items()}
    state = _split_large(state, max_shard_bytes)
    shards, cur, size = [], {}, 0
    for k, v in state.items():
        nbytes = v.numel() * v.element_size()
        if cur and size + nbytes > max_shard_bytes:
            shards.append(cur)
            cur, size = {}, 0
        cur[k], size = v, size + nbytes
    shards.append(cur)
    if len(shards) == 1:
        save_file(shards[0], str(folder / "model.safetensors"), metadata={"format": "pt"})
    else:
        weight_map = {}
        for i, shard in enumerate(shards, 1):
            name = f"model-{i:05d}-of-{len(shards):05d}.safetensors"
            save_file(shard, str(folder / name), metadata={"format": "pt"})
            weight_map.update({k: name for k in shard})
        (folder / "model.safetensors.index.json").write_text(json.dumps(
            {"metadata": {"total_size": sum(v.numel() * v.element_size() for v in state.values())},
             "weight_map": weight_map}, indent=2))
    too_big = [p.name for p in folder.iterdir() if p.stat().st_size > MAX_FILE_BYTES]
    if too_big:
        raise CheckpointError(f"{folder}: files over {MAX_FILE_BYTES} bytes: {too_big}")
    return folder


def _quantize(state: dict) -> dict:
    """Symmetric per-row int8 for big matrices: w ~ q * scale, scale = absmax(row) / 127, q in [-127, 127]."""
    out = {}
    for k, v in state.items():
        if not (v.is_floating_point() and v.dim() >= 2 and v.numel() >= INT8_MIN_NUMEL):
            out[k] = v.half() if v.is_floating_point() else v
            continue
        w = v.float()
        if not torch.isfinite(w).all():
            raise CheckpointError(f"{k} has non-finite values; they cannot be stored as int8")
        scale = w.abs().amax(dim=tuple(range(1, w.dim())), keepdim=True) / 127  # (rows, 1, ...)
        scale[scale == 0] = 1  # an all-zero row: any scale reproduces it
        out[k] = (w / scale).round().clamp(-127, 127).to(torch.int8)
        out[k + SCALE] = scale.flatten()  # (rows,) fp32
    return out


def _check_scales(state: dict, folder: Path) -> None:
    """Every int8 tensor has its per-row scale and every scale its int8 tensor, or CheckpointError."""
    for k in [k for k in state if k.endswith(SCALE)]:
        name, scale = k[:-len(SCALE)], state[k]
        q = state.get(name)
        if q is None or q.dtype != torch.int8 or q.dim() < 1 or scale.shape != (q.shape[0],):
            raise CheckpointError(f"{folder}: scale {k} {tuple(scale.shape)} does not fit an int8 tensor {name} "
                                  f"({'missing' if q is None else f'{q.dtype} {tuple(q.shape)}'})")
    unscaled = sorted(k for k, v in state.items() if v.dtype == torch.int8 and k + SCALE not in state)
    if unscaled:  # loading them as they are would silently give weights 1/scale times too large
        raise CheckpointError(f"{folder}: int8 weights without their {SCALE} tensor: {unscaled[:5]}")


def _pop_float(state: dict, name: str) -> torch.Tensor:
    """Remove `name` (and its scale) from a checked state and return it as fp32 (int8 times its row scales)."""
    v, scale = state.pop(name), state.pop(name + SCALE, None)
    if scale is not None:
        return v.float() * scale.float().view(-1, *[1] * (v.dim() - 1))
    return v.float() if v.is_floating_point() else v


PART = ".__rows"  # a tensor too big for one file is stored as row blocks "name.__rows0", "name.__rows1", ...


def _split_large(state: dict, max_bytes: int) -> dict:
    out = {}
    for k, v in state.items():
        nbytes = v.numel() * v.element_size()
        if nbytes <= max_bytes or v.dim() == 0:
            out[k] = v
            continue
        rows = max(1, v.size(0) * max_bytes // nbytes)
        for i, block in enumerate(v.split(rows, dim=0)):
            out[f"{k}{PART}{i}"] = block.contiguous()
    return out


def _join_large(state: dict) -> dict:
    out, parts = {}, {}
    for k, v in state.items():
        if PART in k:
            name, i = k.rsplit(PART, 1)
            parts.setdefault(name, {})[int(i)] = v
        else:
            out[k] = v
    for name, blocks in parts.items():
        out[name] = torch.cat([blocks[i] for i in sorted(blocks)], dim=0)
    return out


def read_json(path: Path, what: str = "") -> dict:
    """The JSON object in `path`, or CheckpointError naming the file (and `what` it holds) and what is wrong: missing,
    over MAX_JSON_BYTES (checked before it is read), not JSON, or not an object. The app's own checkpoints and a
    brought Hugging Face folder (explorer/compute/byo_bert.py) are read by this one function."""
    if not path.is_file():
        raise CheckpointError(f"{path} is missing" + (f" ({what})" if what else ""))
    if path.stat().st_size > MAX_JSON_BYTES:
        raise CheckpointError(f"{path} is over {MAX_JSON_BYTES:,} bytes; refusing to parse it")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise CheckpointError(f"{path} is not valid JSON: {e}") from None
    if not isinstance(data, dict):
        raise CheckpointError(f"{path} holds a JSON {type(data).__name__}, not an object")
    return data


def weight_files(folder: Path) -> list[Path]:
    """The safetensors files of `folder`: model.safetensors, or the shards its index names, each a plain
    .safetensors file beside the index (never a path elsewhere); CheckpointError naming what is missing."""
    single, index = folder / WEIGHTS, folder / INDEX
    if single.is_file():
        return [single]
    if not index.is_file():
        raise CheckpointError(f"{single} is missing (and there is no {INDEX})")
    weight_map = read_json(index, "the shard index").get("weight_map")
    if not isinstance(weight_map, dict) or not weight_map:
        raise CheckpointError(f"{index} has no weight_map")
    bad = [n for n in weight_map.values() if not isinstance(n, str) or Path(n).name != n or not n.endswith(".safetensors")]
    if bad:
        raise CheckpointError(f"{index} names shards that are not plain .safetensors files beside it: {bad[:3]}")
    files = [folder / n for n in sorted(set(weight_map.values()))]
    for f in files:
        if not f.is_file():
            raise CheckpointError(f"{f} is missing (a shard {INDEX} lists)")
    return files


def read_safetensors(files: list[Path]) -> dict[str, torch.Tensor]:
    """Every tensor of `files`, one dict; CheckpointError naming a file that is not readable safetensors."""
    state = {}
    for f in files:
        try:
            state.update(load_file(str(f)))
        except (SafetensorError, OSError, ValueError, RuntimeError) as e:
            raise CheckpointError(f"{f} is corrupt: {e}") from None
    return state


def _read_weights(folder: Path) -> dict[str, torch.Tensor]:
    return _join_large(read_safetensors(weight_files(folder)))


def _read_parts(folder: Path) -> tuple:
    """(config, an unfilled model, tokenizer, metrics) of a checkpoint folder, or CheckpointError naming the
    file at fault. The model's weights are left as allocated (`NoRandomInit`): `_fill` writes them."""
    if not folder.is_dir():
        raise CheckpointError(f"{folder} is not a folder")
    cfg = read_json(folder / "config.json")
    try:
        config_cls, model_cls = arch_classes(cfg["arch"])
        names = {f.name for f in dataclasses.fields(config_cls)}
        config = config_cls(**{k: v for k, v in cfg["config"].items() if k in names})
        with NoRandomInit():
            model = model_cls(config)  # a model that cannot be built (d_model not divisible by n_heads: an assert)
    except Exception as e:  # noqa: BLE001 -- any of it means the config is unusable; the message says which
        raise CheckpointError(f"{folder / 'config.json'} is not a valid config: {type(e).__name__}: {e}") from None
    tok_path = folder / "tokenizer.json"
    if not tok_path.is_file():
        raise CheckpointError(f"{tok_path} is missing")
    try:
        tokenizer = Tokenizer.from_file(str(tok_path))
    except Exception as e:  # the tokenizers library raises plain Exception on bad JSON
        raise CheckpointError(f"{tok_path} is corrupt: {e}") from None
    metrics = read_json(folder / "metrics.json")
    return config, model, tokenizer, metrics


def _stored(dtypes) -> str:
    return "+".join(sorted({_DTYPE_NAMES.get(d, str(d)) for d in dtypes if d.is_floating_point}))


def _check_names(folder: Path, names: set, model: torch.nn.Module) -> None:
    expected, target = _unique_state(model), model.state_dict()
    missing, unexpected = sorted(set(expected) - names), sorted(names - set(target))
    if missing or unexpected:
        raise CheckpointError(f"{folder}: weights do not match config.json "
                              f"(missing {missing[:5]}, unexpected {unexpected[:5]})")


def _shape_error(folder: Path, name: str, found, wanted) -> CheckpointError:
    return CheckpointError(f"{folder}: weights do not match config.json: {name} is {tuple(found)} in the files, "
                           f"{tuple(wanted)} in the model")


def _fill(folder: Path, model: torch.nn.Module) -> str:
    """Read the folder's weights into `model`'s own tensors; returns what the files hold ("int8", "fp16"...)."""
    raw = _read_weights(folder)
    stored = "int8" if any(k.endswith(SCALE) for k in raw) else _stored(v.dtype for v in raw.values())
    _check_scales(raw, folder)
    names = {k for k in raw if not k.endswith(SCALE)}
    _check_names(folder, names, model)
    target = model.state_dict()
    # Into the model's own tensors one at a time, each file tensor dropped once copied: an fp32 copy
    # of all the weights beside the model's never exists (for the int8 BERT it had cost ~110 MiB of
    # peak memory while loading: bench/load_memory.py).
    with torch.no_grad():
        for name in sorted(names):
            v = _pop_float(raw, name)
            if v.shape != target[name].shape:
                raise _shape_error(folder, name, v.shape, target[name].shape)
            if v.is_floating_point() and not torch.isfinite(v).all():  # NaN weights give NaN attention, silently
                raise CheckpointError(f"{folder}: weight {name} holds NaN or infinite values; the checkpoint is "
                                      "broken (a diverged run?)")
            target[name].copy_(v)
    return stored


def load(folder: str | Path) -> Checkpoint:
    """Load a checkpoint folder; raises CheckpointError naming the file that is missing or corrupt."""
    folder = Path(folder)
    config, model, tokenizer, metrics = _read_parts(folder)
    stored = _fill(folder, model)
    return Checkpoint(model.eval(), tokenizer, config, metrics, folder, stored)


def _check_header(folder: Path, model: torch.nn.Module) -> str:
    """`_fill`'s checks from the weight files' headers alone (names, shapes, int8 scales; the values are not
    read): a file that is missing, not safetensors, or does not fit the config. Returns what they hold."""
    shapes, dtypes = {}, {}
    for f in weight_files(folder):
        try:
            with safe_open(str(f), "pt") as sf:
                for k in sf.keys():
                    part = sf.get_slice(k)
                    shapes[k], dtypes[k] = list(part.get_shape()), part.get_dtype()
        except (SafetensorError, OSError, ValueError, RuntimeError) as e:
            raise CheckpointError(f"{f} is corrupt: {e}") from None
    for k in [k for k in shapes if PART in k]:  # row blocks (`_split_large`): the joined tensor's shape
        name, shape = k.rsplit(PART, 1)[0], shapes.pop(k)
        joined = shapes.setdefault(name, [0] + shape[1:])
        joined[0] += shape[0]
        dtypes[name] = dtypes.pop(k)
    for k in [k for k in shapes if k.endswith(SCALE)]:
        name = k[:-len(SCALE)]
        if dtypes.get(name) != "I8" or not shapes.get(name) or shapes[k] != shapes[name][:1]:
            raise CheckpointError(f"{folder}: scale {k} {tuple(shapes[k])} does not fit an int8 tensor {name} "
                                  f"({'missing' if name not in shapes else f'{dtypes[name]} {tuple(shapes[name])}'})")
    unscaled = sorted(k for k, d in dtypes.items() if d == "I8" and k + SCALE not in shapes)
    if unscaled:
        raise CheckpointError(f"{folder}: int8 weights without their {SCALE} tensor: {unscaled[:5]}")
    names = {k for k in shapes if not k.endswith(SCALE)}
    _check_names(folder, names, model)
    target = model.state_dict()
    for name in sorted(names):
        if list(target[name].shape) != shapes[name]:
            raise _shape_error(folder, name, shapes[name], target[name].shape)
    if any(k.endswith(SCALE) for k in shapes):
        return "int8"
    return "+".join(sorted({_SAFETENSORS_DTYPES.get(d, d) for d in dtypes.values() if d in _SAFETENSORS_DTYPES}))


_SAFETENSORS_DTYPES = {"F16": "fp16", "F32": "fp32", "BF16": "bf16"}
_META_FILES = ("config.json", "tokenizer.json", "metrics.json")


def _meta_digest(folder: Path) -> str:
    h = hashlib.sha256()
    for name in _META_FILES:
        f = folder / name
        h.update(f.read_bytes() if f.is_file() else b"-")
    return h.hexdigest()


class LazyCheckpoint:
    """A checkpoint whose weights are read on first use of `.model` (thread-safe, once), as `load` reads them.
    The rest (config, tokenizer, metrics) is read at once, and the weight files are checked from their headers,
    so a broken folder is still an error at start; only corrupt or non-finite values show at first use. The
    app opens its checkpoints so (docs/performance.md: start-up time and memory); `Checkpoint` otherwise."""

    def __init__(self, folder: str | Path):
        self.path = Path(folder)
        # The model is built now, unfilled: its tensors are allocated but never written (`NoRandomInit`), so
        # they take no memory until `.model` fills them (the pages of an untouched allocation are not mapped).
        self.config, self._unfilled, self.tokenizer, self.metrics = _read_parts(self.path)
        self.stored = _check_header(self.path, self._unfilled)
        self._digest = _meta_digest(self.path)
        self._model = None
        self._lock = threading.Lock()

    length_penalty = Checkpoint.length_penalty

    @property
    def loaded(self) -> bool:
        return self._model is not None

    @property
    def model(self) -> torch.nn.Module:
        if self._model is None:
            with self._lock:
                if self._model is None:
                    if _meta_digest(self.path) != self._digest:  # the weights would not match what was read
                        raise CheckpointError(f"{self.path}: {', '.join(_META_FILES)} changed since they were "
                                              "read; restart the app to load the new checkpoint")
                    _fill(self.path, self._unfilled)
                    self._model, self._unfilled = self._unfilled.eval(), None
        return self._model


def _checkpoint_bytes(folder: Path) -> int:
    names = ["config.json", "tokenizer.json", "metrics.json", "model.safetensors.index.json"]
    files = [folder / n for n in names] + list(folder.glob("model*.safetensors"))
    return sum(f.stat().st_size for f in files if f.is_file())


def average_states(states: list[dict[str, torch.Tensor]]) -> dict[str, torch.Tensor]:
    """The uniform mean of several state dicts of one model, tensor by tensor (non-float tensors: the first's).
    Checkpoint averaging within one run (Vaswani et al. 2017, sec. 6.1: the trainer's `--average-last`) and
    across runs that continue one another (`--average` below; a "model soup", Wortsman et al. 2022)."""
    return {k: (sum(s[k].float() for s in states) / len(states)).to(v.dtype) if v.is_floating_point() else v
            for k, v in states[0].items()}


def main(argv=None) -> Path:
    ap = argparse.ArgumentParser(description="Re-store a checkpoint's weights without retraining.")
    ap.add_argument("src", type=Path, help="checkpoint folder to read")
    ap.add_argument("dst", type=Path, help="folder for the converted checkpoint (training logs are not copied)")
    ap.add_argument("--int8", action="store_true", help="row-wise int8 (fp16 for small tensors); default fp16")
    ap.add_argument("--average", type=Path, nargs="+", default=[], metavar="OTHER",
                    help="store the uniform mean of SRC's and these checkpoints' weights (runs that continue one "
                         "another: same config and tokenizer); SRC's metrics.json is kept")
    args = ap.parse_args(argv)
    dtype = torch.int8 if args.int8 else torch.float16
    try:
        src = load(args.src)
        others = [load(p) for p in args.average]
    except CheckpointError as e:
        ap.error(str(e))  # the file at fault, not a traceback
    for path, other in zip(args.average, others):
        if other.config != src.config or other.tokenizer.to_str() != src.tokenizer.to_str():
            ap.error(f"{path}: its config or tokenizer differs from {args.src}'s; only checkpoints of one model "
                     "can be averaged")
    if others:
        src.model.load_state_dict(average_states([m.model.state_dict() for m in [src, *others]]))
    before = _checkpoint_bytes(args.src)  # before saving: DST may be SRC
    storage = {"dtype": str(dtype).removeprefix("torch."), "from": str(args.src)}
    if others:
        storage["averaged_with"] = [str(p) for p in args.average]
    metrics = {**src.metrics, "storage": storage}
    save(args.dst, src.model, src.tokenizer, metrics, dtype=dtype)
    dst = load(args.dst)
    errors = {k: (a - b).abs().max().item() for (k, a), b in
              zip(src.model.state_dict().items(), dst.model.state_dict().values()) if a.is_floating_point()}
    worst = max(errors, key=errors.get)
    print(f"{args.src}: {before:,} bytes -> {args.dst}: {_checkpoint_bytes(args.dst):,} bytes; "
          f"max |stored - source| {errors[worst]:.3g} ({worst})")
    return args.dst


if __name__ == "__main__":
    main()
