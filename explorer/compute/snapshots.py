"""Attention over training: the cross attention of fixed probe sentences, recorded while
each translation model trained, as frames for a slider.

`models/training/train.py` saved, next to every translation checkpoint,

* `snapshots.json`: [{"step": int, "cross_head_mean": [per probe: [L][T][S] or null]}],
  cross attention averaged over heads, teacher-forced on the probe's reference, rounded
  to 3 decimals (so rows sum to 1 only within ~1e-2);
* `metrics.json` ["data"]["probes"]: per probe "source", "reference", "source_tokens"
  (x1..xn </s>) and "target_tokens" (the decoder inputs <s> y1..ym).

`load_snapshots` turns them into numpy frames [n_snapshots, L, T, S] per probe, checked
against the token counts, plus each frame's mean row entropy: the entropy of a row is
-sum_s a_ts log a_ts (nats); log S is that of uniform attention, 0 that of a one-hot row,
so the curve shows attention going from uniform to sharp. The last snapshot is the model at
the end of training, which need not be the shipped checkpoint (the best one by BLEU is).
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from explorer.compute import lab
from explorer.compute.inference import ASSETS, UserError

SNAPSHOTS_FILE = "snapshots.json"
MAX_FILE_BYTES = 5_000_000  # the shipped files are 1-400 KB; refuse to parse anything far bigger


class SnapshotError(UserError):
    """A snapshots.json / metrics.json pair is missing, too big or inconsistent; the message says which."""


@dataclass(frozen=True)
class ProbeFrames:
    source: str
    reference: str
    source_tokens: tuple[str, ...]  # x1..xn </s>: the key axis (S)
    decoder_input_tokens: tuple[str, ...]  # <s> y1..ym: the decoder's input at each row (T)
    target_tokens: tuple[str, ...]  # y1..ym </s>: the token row t was trained to produce
    frames: np.ndarray  # (n_snapshots, L, T, S) head-mean cross attention, as stored
    entropy: np.ndarray  # (n_snapshots, L) mean over rows of each row's entropy, nats
    max_entropy: float  # log S: the entropy of uniform attention over the S source tokens

    @property
    def mean_entropy(self) -> np.ndarray:
        """(n_snapshots,) entropy averaged over layers too: one number per slider position."""
        return self.entropy.mean(axis=1)


@dataclass(frozen=True)
class Snapshots:
    model: str
    steps: tuple[int, ...]  # training step of each snapshot, increasing
    probes: tuple[ProbeFrames, ...]


def row_entropy(attn: np.ndarray) -> np.ndarray:
    """Entropy (nats) of each row of attn (..., S). The stored values are rounded to 3 decimals,
    so rows are renormalised first; the entropy itself is explorer.compute.lab's."""
    p = np.asarray(attn, dtype=np.float64)
    return lab.row_entropy(p / np.maximum(p.sum(axis=-1, keepdims=True), 1e-12))


def snapshot_models(assets_dir: Path = ASSETS) -> list[str]:
    """Names of the checkpoints under assets_dir that ship a snapshots.json."""
    assets_dir = Path(assets_dir)
    if not assets_dir.is_dir():
        return []
    return sorted(p.name for p in assets_dir.iterdir()
                  if p.is_dir() and not p.name.startswith((".", "_")) and (p / SNAPSHOTS_FILE).is_file())


def _read(path: Path):
    size = path.stat().st_size
    if size > MAX_FILE_BYTES:
        raise SnapshotError(f"{path.name} of '{path.parent.name}' is {size} bytes, over {MAX_FILE_BYTES}.")
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise SnapshotError(f"{path.name} of '{path.parent.name}' is not valid JSON: {e}") from None


def load_snapshots(model_name: str, assets_dir: Path = ASSETS) -> Snapshots:
    """The attention-over-training record of one model (SnapshotError if it has none)."""
    names = snapshot_models(assets_dir)
    if model_name not in names:  # also what keeps a visitor's string from naming any other path
        raise SnapshotError(f"No attention snapshots for '{model_name}'. Available: {', '.join(names) or 'none'}.")
    folder = Path(assets_dir) / model_name
    snaps = _read(folder / SNAPSHOTS_FILE)
    metrics_path = folder / "metrics.json"
    if not metrics_path.is_file():
        raise SnapshotError(f"'{model_name}' has snapshots but no metrics.json naming its probe sentences.")
    probes = ((_read(metrics_path).get("data") or {}).get("probes")) or []
    if not isinstance(snaps, list) or not snaps:
        raise SnapshotError(f"{SNAPSHOTS_FILE} of '{model_name}' holds no snapshots.")

    # Keep the first snapshot of each step: an evaluation can land on a step that was also
    # a scheduled snapshot, giving two identical records.
    kept, steps = [], []
    for s in snaps:
        step = int(s["step"])
        if steps and step < steps[-1]:
            raise SnapshotError(f"{SNAPSHOTS_FILE} of '{model_name}': steps go backwards ({steps[-1]} then {step}).")
        if not steps or step != steps[-1]:
            kept.append(s)
            steps.append(step)
    for s in kept:
        if len(s.get("cross_head_mean") or []) != len(probes):
            raise SnapshotError(f"{SNAPSHOTS_FILE} of '{model_name}' has {len(s.get('cross_head_mean') or [])} "
                                f"probe(s) at step {s['step']}, metrics.json lists {len(probes)}.")
    if all(c is None for s in kept for c in s["cross_head_mean"]):
        raise SnapshotError(f"'{model_name}' has no cross attention to show (it translates without attention).")

    out = []
    for i, p in enumerate(probes):
        src, dec_in = tuple(p["source_tokens"]), tuple(p["target_tokens"])
        per_step = [s["cross_head_mean"][i] for s in kept]
        if any(c is None for c in per_step):
            raise SnapshotError(f"{SNAPSHOTS_FILE} of '{model_name}': probe {i} has no attention at some steps.")
        try:
            frames = np.asarray(per_step, dtype=np.float32)  # (n, L, T, S)
        except ValueError:  # ragged nesting: shapes differ between steps or rows
            raise SnapshotError(f"{SNAPSHOTS_FILE} of '{model_name}': probe {i}'s attention changes shape "
                                "between snapshots.") from None
        if frames.ndim != 4 or frames.shape[2:] != (len(dec_in), len(src)):
            raise SnapshotError(f"{SNAPSHOTS_FILE} of '{model_name}': probe {i} ('{p['source']}') has attention "
                                f"of shape {frames.shape[1:]} per step, expected (layers, {len(dec_in)}, {len(src)}) "
                                f"for its {len(dec_in)} target and {len(src)} source tokens.")
        out.append(ProbeFrames(p["source"], p["reference"], src, dec_in, dec_in[1:] + ("</s>",), frames,
                               row_entropy(frames).mean(axis=-1), float(np.log(len(src)))))
    return Snapshots(model_name, tuple(steps), tuple(out))
