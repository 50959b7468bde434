"""Which strings each README picture shows, so a test can tell when a picture is older than its words.

Each picture in assets/screenshots/ is one tab (or the Korean page, or a phone's); its words are the i18n keys
that the tab's module and its view name (ui/tabs/<tab>.py, explorer/views/<tab>.py). `fingerprint(name)` hashes
those keys' English and Korean strings; the browser test writes the fingerprints of the pictures it redraws to
assets/screenshots/strings.json (`ATTN_EXPLORER_SCREENSHOTS=1 make test`), and tests/test_screenshots.py fails
when a tab's strings change and its picture does not.

    python -m scripts.screenshots            # each picture: current or stale
"""
from __future__ import annotations

import hashlib
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHOTS = ROOT / "assets" / "screenshots"
MANIFEST = SHOTS / "strings.json"
TABS = {  # picture -> the tab module(s) whose strings it shows
    "alignment": ["alignment"], "attention-over-training": ["snapshots"], "attribution": ["attribution"],
    "beam-search": ["beam"], "bert-inputs": ["bert_inputs"], "bert": ["bert"], "bleu-by-length": ["length"],
    "byo-bert": ["bert"], "choices": ["choices"], "contextual": ["contextual"], "elmo": ["elmo"],
    "finetune": ["finetune"], "gpt": ["gpt"], "head-ablation": ["ablation"], "inside": ["inside"],
    "korean": ["transformer"], "lessons": ["lessons"], "luong": ["luong"], "phone": ["transformer"],
    "positional": ["positional"], "query-key": ["query_key"], "query-key-plane": ["query_key"], "rollout": ["rollout"],
    "score-functions": ["scores"], "seq2seq": ["seq2seq"], "train-live": ["live"], "transformer": ["transformer"],
}
_QUOTED = re.compile(r'"([a-z_0-9]+\.[A-Za-z_0-9 ]+)"')


def keys(name: str) -> list[str]:
    """The i18n keys a picture's tab module and view name, sorted."""
    from explorer.i18n import STRINGS
    found = set()
    for tab in TABS[name]:
        for path in (ROOT / "ui" / "tabs" / f"{tab}.py", ROOT / "explorer" / "views" / f"{tab}.py"):
            if path.is_file():
                found |= {k for k in _QUOTED.findall(path.read_text(encoding="utf-8")) if k in STRINGS}
    return sorted(found)


def fingerprint(name: str) -> str:
    from explorer.i18n import STRINGS
    text = json.dumps([(k, STRINGS[k]) for k in keys(name)], ensure_ascii=False, sort_keys=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def record(name: str) -> None:
    """After the browser test redrew `name`.png: its strings' fingerprint into the manifest."""
    data = json.loads(MANIFEST.read_text(encoding="utf-8")) if MANIFEST.is_file() else {}
    data[name] = fingerprint(name)
    MANIFEST.write_text(json.dumps(dict(sorted(data.items())), indent=1) + "\n", encoding="utf-8")


def stale() -> list[str]:
    """Pictures whose tab's strings changed since they were drawn (or that were never fingerprinted)."""
    data = json.loads(MANIFEST.read_text(encoding="utf-8")) if MANIFEST.is_file() else {}
    return [p.stem for p in sorted(SHOTS.glob("*.png")) if data.get(p.stem) != fingerprint(p.stem)]


def main() -> int:
    old = stale()
    for p in sorted(SHOTS.glob("*.png")):
        print(f"{p.name}: {'STALE' if p.stem in old else 'current'}")
    return 1 if old else 0


if __name__ == "__main__":
    sys.exit(main())
