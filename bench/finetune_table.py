"""Print the fine-tuning comparison (docs/finetuning.md) from a folder of runs of .gpu/jobs/finetune.sh:
fine-tuned (LoRA, full) vs the same architecture from scratch vs the non-neural baseline, per task, on
each run's validation split, with what shipping each costs in MB.

    python3 -m bench.finetune_table /work/team/gpu/finetune
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

TASKS = ("sentiment", "nli", "pos", "ner", "qa")
METRIC = {"sentiment": "accuracy", "nli": "accuracy", "pos": "UPOS accuracy", "ner": "entity F1",
          "qa": "SQuAD F1 (EM)"}


def _read(runs: Path, name: str) -> dict | None:
    p = runs / name / "metrics.json"
    return json.loads(p.read_text()) if p.is_file() else None


def _score(m: dict | None, task: str) -> str:
    if m is None:
        return "—"
    v = m["valid"]
    s = f"{v['score']:.3f}"
    if task == "qa":
        s += f" ({v['exact_match']:.3f})"
    return s


def _run(m: dict | None) -> str:
    return "—" if m is None else f"{m['steps']} steps, {m['epochs']} ep, {m['wall_seconds']:.0f} s"


def table(runs: Path) -> str:
    rows = ["| task | metric | baseline (non-neural) | from scratch | LoRA r=16 from BERT | full fine-tuning "
            "from BERT | ships (LoRA: adapters + head, fp16) | ships (full: whole model, int8) |",
            "|---|---|---|---|---|---|---|---|"]
    detail = ["| run | steps, epochs, training time | trainable parameters | validation examples | device |",
              "|---|---|---|---|---|"]
    for task in TASKS:
        lora, scratch, full = (_read(runs, f"{task}-{k}") for k in ("lora", "scratch", "full"))
        any_run = lora or scratch or full
        base = any_run["baseline"] if any_run else None
        b = "—" if base is None else f"{base['score']:.3f}" + (f" ({base['exact_match']:.3f})" if task == "qa" else "")
        lora_mb = f"{lora['ship_bytes']['adapters_and_head_fp16'] / 1e6:.2f} MB" if lora else "—"
        ref = full or scratch
        full_mb = f"{ref['ship_bytes']['whole_model_int8'] / 1e6:.1f} MB" if ref else "—"
        rows.append(f"| {task} | {METRIC[task]} | {b} | {_score(scratch, task)} | {_score(lora, task)} | "
                    f"{_score(full, task)} | {lora_mb} | {full_mb} |")
        for kind, m in (("lora", lora), ("scratch", scratch), ("full", full)):
            if m is not None:
                n = m["valid"].get("n", m["valid"].get("n_sentences"))
                detail.append(f"| {task}-{kind} | {_run(m)} | {m['parameters_trainable']:,} | {n} | {m['device']} |")
    return "\n".join(rows) + "\n\n" + "\n".join(detail)


if __name__ == "__main__":
    print(table(Path(sys.argv[1] if len(sys.argv) > 1 else "/work/team/gpu/finetune")))
