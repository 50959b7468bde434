"""Attention over training: a probe sentence's attention at the checkpoints a training run saved.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass

import plotly.graph_objects as go

from explorer.figures import live as lvf
from explorer.compute import snapshots as snap
from explorer.i18n import live_labels, t
from explorer.compute.inference import UserError
from explorer.views import Downloads, one_based, to_download, whole_number


@functools.lru_cache(maxsize=16)
def _snapshots(model: str) -> snap.Snapshots:
    """Snapshot files never change while the app runs; parse each once (read-only afterwards)."""
    return snap.load_snapshots(model)


def snapshot_models() -> list[str]:
    """Translation models whose snapshots show attention (seq2seq-none has none to show)."""
    out = []
    for name in snap.snapshot_models():
        try:
            _snapshots(name)
        except UserError:
            continue
        out.append(name)
    return out


@dataclass(frozen=True)
class SnapshotMeta:
    probes: list[tuple[str, int]]  # (probe sentence, index)
    n_snapshots: int
    n_layers: int


def snapshot_meta(model: str) -> SnapshotMeta:
    s = _snapshots(model)
    return SnapshotMeta([(p.source, i) for i, p in enumerate(s.probes)], len(s.steps),
                        s.probes[0].frames.shape[1] if s.probes else 1)


@dataclass(frozen=True)
class SnapshotView:
    heatmap: go.Figure  # the probe's head-mean cross attention at that step
    entropy: go.Figure  # mean row entropy against training step, the current step marked
    text: str  # markdown: step, entropy, uniform entropy
    files: Downloads
    step: int
    mean_entropy: float  # of the layer shown, at that step


def snapshot_view(model: str, probe=0, snapshot=None, layer=None, lang: str = "en") -> SnapshotView:
    """Snapshot `snapshot` (1-based; None = last) of probe `probe` (0-based), layer 1-based (None = last)."""
    s = _snapshots(model)
    if not s.probes:
        raise UserError(f"'{model}' has no probe sentences.")
    p = s.probes[one_based(1 if probe is None else whole_number(probe, "Probe") + 1, "Probe", len(s.probes))]
    n, L = p.frames.shape[:2]
    k = n - 1 if snapshot is None else one_based(snapshot, "Snapshot", n)
    l = L - 1 if layer is None else min(one_based(layer, "Layer", 10**6), L - 1)  # a deeper model's slider clamps
    words = live_labels(lang)
    fig = lvf.snapshot_heatmap(p.frames, k, l, p.source_tokens, p.target_tokens, s.steps, words)
    ent = lvf.entropy_figure(s.steps, p.entropy[:, l], p.max_entropy, current=k, words=words)
    h = float(p.entropy[k, l])
    text = t("snap.summary", lang, step=s.steps[k], k=k + 1, n=n, h=h, u=p.max_entropy, S=len(p.source_tokens),
             final=s.steps[-1])
    record = {"model": model, "steps": s.steps, "probe": p}
    return SnapshotView(fig, ent, text, to_download(f"snapshots-{model}", record, {}), s.steps[k], h)
