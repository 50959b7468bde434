"""The run table, generated: one row per training run, read from each run's own metrics.json.

    python -m scripts.run_table            # writes docs/runs.md
    python -m scripts.run_table --check    # exit 1 if docs/runs.md is not what it would write

Reads assets/*/metrics.json (the shipped checkpoints) and docs/training-runs/*/metrics.json (every
run's record, as models/training/train.py wrote it) and prints nothing it did not read there: name, arch,
key settings, wall time, device, validation and test metrics, and the exact command. The output has
no date or clock, so the same files give the same bytes (tests/scripts/test_run_table.py checks the
shipped docs/runs.md is current). Needs only the standard library.
"""
from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUNS, ASSETS, OUT = ROOT / "docs" / "training-runs", ROOT / "assets", ROOT / "docs" / "runs.md"

COLUMNS = ["run", "arch", "key settings", "wall time (min)", "device", "validation", "test", "command"]
BERT_METRICS = [("fill_mask_top1_wiki", "wiki"), ("fill_mask_top1_short", "short"), ("nsp_acc", "NSP")]


def cell(text) -> str:
    """A markdown table cell: pipes escaped, never a line break."""
    return str(text).replace("|", "\\|").replace("\n", " ")


def ran_as(metrics: dict) -> str | None:
    """The folder name the run wrote to (`--out runs/NAME`), from its recorded command."""
    words = shlex.split(metrics.get("command", ""))
    out = next((words[i + 1] for i, w in enumerate(words[:-1]) if w == "--out"), None)
    return Path(out).name if out else None


def key_settings(m: dict, renamed: dict) -> str:
    """renamed: {name a run ran as: its folder's name now}, so that a parent is named as its folder is."""
    hp = m.get("hyperparameters", {})
    parts = []
    if m.get("arch") == "seq2seq":
        parts.append(f"{hp.get('attention')} attention")
    if m.get("arch") == "gpt":  # an English language model: the translation flags it carries mean nothing
        parts.append(f"English LM, {hp.get('max_len')}-token context")
    elif m.get("arch") != "bert" and hp.get("direction"):
        parts.append(hp["direction"])
    if m.get("arch") == "bert" and hp.get("max_len"):
        parts.append(f"{hp['max_len']} tokens")
    if m.get("parameters"):
        parts.append(f"{m['parameters'] / 1e6:.1f} M params")
    if m.get("steps") is not None:
        parts.append(f"{m['steps']:,} steps")
    if hp.get("init_from") and "assets" in Path(hp["init_from"]).parts:  # a shipped checkpoint, not a run
        parts.append(f"continues assets/{Path(hp['init_from']).name}")
    elif hp.get("init_from"):
        parent = Path(hp["init_from"])
        parent = parent.parent.name if parent.name == "checkpoint" else parent.name
        parts.append(f"continues {renamed[parent]} (ran as {parent})" if parent in renamed else f"continues {parent}")
    if m.get("storage", {}).get("dtype"):
        parts.append(f"stored {m['storage']['dtype']}")
    return ", ".join(parts)


def wall_time(m: dict) -> str:
    if m.get("wall_seconds") is None:
        return ""
    text = f"{m['wall_seconds'] / 60:.1f}"
    if m.get("total_wall_seconds"):  # a continued run: the whole lineage as well
        text += f" (lineage {m['total_wall_seconds'] / 60:.1f})"
    return text


def scores(block: dict | None, arch: str, split: str) -> str:
    """The headline numbers of a valid or test block: BLEU/chrF for translation, fill-mask and NSP for BERT."""
    if not block:
        return ""
    if arch == "bert":
        text = ", ".join(f"{label} {block[k]}" for k, label in BERT_METRICS if block.get(k) is not None)
        single = block.get("single_vs_long")  # models.continue_bert's test block; its valid block is flat
        nsp1, fm1 = ((single["nsp"]["single_wiki"], single["fill_mask_top1"]["single_wiki"]) if single else
                     (block.get("nsp_single_wiki"), block.get("fill_mask_single_wiki")))
        if nsp1 is not None:
            flat = [("fill_mask_long_wiki", "wiki"), ("fill_mask_short", "short"), ("nsp_long_all", "NSP")]
            text = text or ", ".join(f"{label} {block[k]}" for k, label in flat if block.get(k) is not None)
            text += f"; single sentences: NSP {nsp1}, fill-mask {fm1}"
    elif arch == "gpt":  # perplexity per token (per word), the Kneser-Ney trigram's on the same targets
        text = (f"ppl {block['valid_ppl_token']}/token ({block['valid_ppl_word']}/word)" if split == "valid" else
                f"ppl {block['ppl_token']}/token ({block['ppl_word']}/word), KN trigram {block['trigram_ppl_token']} "
                f"({block['trigram_ppl_word']})") if ("ppl_token" in block or "valid_ppl_token" in block) else ""
    elif split == "valid":
        text = (f"BLEU {block['valid_bleu_greedy']}, chrF {block['valid_chrf_greedy']} (greedy)"
                if "valid_bleu_greedy" in block else "")
    else:
        text = f"BLEU {block['bleu']}, chrF {block['chrf']}" if "bleu" in block else ""
        if "beam" in block:
            text += f" (beam {block['beam']}, α {block.get('alpha')})" if block["beam"] > 1 else " (greedy)"
    if split == "valid" and block.get("step") is not None and text:
        text += f" at step {block['step']:,}"
    return text


def row(name: str, m: dict, renamed: dict) -> list[str]:
    was = ran_as(m)
    label = f"{name} (ran as {was})" if was and was != name and not name.startswith("assets/") else name
    return [label, m.get("arch", ""), key_settings(m, renamed), wall_time(m), m.get("device", ""),
            scores(m.get("valid"), m.get("arch"), "valid"), scores(m.get("test"), m.get("arch"), "test"),
            f"`{m.get('command', '')}`"]


def collect(runs: Path, assets: Path) -> tuple[list[list[str]], list[list[str]], list[str]]:
    """(shipped rows, run rows, run folders without a metrics.json, with their files)."""
    folders = sorted((p for p in runs.iterdir() if p.is_dir()), key=lambda p: p.name) if runs.is_dir() else []
    records = {f.name: json.loads((f / "metrics.json").read_text(encoding="utf-8"))
               for f in folders if (f / "metrics.json").is_file()}
    renamed = {ran_as(m): name for name, m in records.items() if ran_as(m) and ran_as(m) != name}
    renamed = {k: v for k, v in renamed.items() if k not in records}  # only names no folder holds now
    shipped = [row(f"assets/{p.parent.name}", json.loads(p.read_text(encoding="utf-8")), renamed)
               for p in sorted(assets.glob("*/metrics.json"))]
    rows = [row(name, m, renamed) for name, m in records.items()]
    other = [f"`{f.name}/`: " + ", ".join(sorted(p.name for p in f.iterdir())) for f in folders if f.name not in records]
    return shipped, rows, other


def table(rows: list[list[str]]) -> list[str]:
    return (["| " + " | ".join(COLUMNS) + " |", "|" + " --- |" * len(COLUMNS)]
            + ["| " + " | ".join(cell(c) for c in r) + " |" for r in rows])


def render(runs: Path = RUNS, assets: Path = ASSETS) -> str:
    shipped, rows, other = collect(runs, assets)
    lines = ["# Training runs", "",
             "Generated by `python -m scripts.run_table` from each run's `metrics.json`; do not edit by hand.",
             "Validation is what training selected on (greedy BLEU on the first `--valid-n` validation pairs for",
             "translation; fill-mask top-1 and NSP accuracy on held-out documents for BERT); test is",
             "`python -m models.evaluate --write`, read on CPU. How each shipped model was chosen: "
             "[training.md](training.md).",
             "A run whose folder was renamed after it ran says so: \"(ran as NAME)\" is the `--out` of its command.",
             "", "## Shipped checkpoints (`assets/`)", "", *table(shipped),
             "", "## Every run (`docs/training-runs/`)", "", *table(rows)]
    if other:
        lines += ["", "## Folders without a metrics.json", ""] + [f"- {o}" for o in other]
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=Path, default=RUNS, help="folder of run folders (default docs/training-runs)")
    ap.add_argument("--assets", type=Path, default=ASSETS, help="folder of shipped checkpoints (default assets)")
    ap.add_argument("--out", type=Path, default=OUT, help="the markdown file to write (default docs/runs.md)")
    ap.add_argument("--check", action="store_true", help="write nothing; exit 1 if --out differs from the table")
    args = ap.parse_args(argv)
    text = render(args.runs, args.assets)
    if args.check:
        current = args.out.read_text(encoding="utf-8") if args.out.is_file() else ""
        if current != text:
            print(f"{args.out} is out of date: run python -m scripts.run_table", file=sys.stderr)
            return 1
        return 0
    args.out.write_text(text, encoding="utf-8")
    print(f"wrote {args.out}: {text.count(chr(10))} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
