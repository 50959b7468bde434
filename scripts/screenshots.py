"""Which strings each README picture shows, so a test can tell when a picture is older than its words.

Each picture in assets/screenshots/ is one tab (or the Korean page, or a phone's); its words are
- the i18n keys that the tab's module and its view name (ui/tabs/<tab>.py, explorer/views/<tab>.py), and the key
  families their figures draw through an explorer.i18n label helper (`lab_labels(lang)`: every "lab.*" key);
- the word tables of the figure modules the view imports (explorer/figures/<module>.py: LABELS, WORDS and the
  module's other dictionaries, whose English or Korean words a figure draws as they are);
- for the lesson path's picture, the first deck's titles and texts (explorer/lessons.py), which its step shows.
`fingerprint(name)` hashes them; the browser test writes the fingerprints of the pictures it redraws to
assets/screenshots/strings.json (`ATTN_EXPLORER_SCREENSHOTS=1 make test`), and tests/test_screenshots.py fails
when a picture's strings change and the picture does not.

    python -m scripts.screenshots            # each picture: current or stale
    python -m scripts.screenshots --record   # after a change of what a fingerprint covers, not of the strings:
                                             # every picture's fingerprint written anew (run the check first)
"""
from __future__ import annotations

import argparse
import ast
import hashlib
import importlib
import importlib.util
import inspect
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
    "korean": ["transformer"], "lessons": ["lessons", "length"],  # its first step is drawn by BLEU by length's view
    "luong": ["luong"], "phone": ["transformer"],
    "positional": ["positional"], "query-key": ["query_key"], "query-key-plane": ["query_key"], "rollout": ["rollout"],
    "score-functions": ["scores"], "seq2seq": ["seq2seq"], "train-live": ["live"], "transformer": ["transformer"],
}
LESSONS = "lessons"  # the picture of the lesson path: the first deck's first step
_QUOTED = re.compile(r'"([a-z_0-9]+\.[A-Za-z_0-9 ]+)"')
_HELPER = re.compile(r"\b([a-z_]+_labels)\(")  # explorer.i18n's label helpers: lab_labels(lang), ...
_PREFIX = re.compile(r'_prefixed\("([a-z_0-9]+\.)"')


def _sources(name: str) -> list[Path]:
    return [path for tab in TABS[name] for path in (ROOT / "ui" / "tabs" / f"{tab}.py",
                                                    ROOT / "explorer" / "views" / f"{tab}.py") if path.is_file()]


def _views(name: str) -> list[Path]:
    return [p for p in _sources(name) if p.parent.name == "views"]


def keys(name: str) -> list[str]:
    """The i18n keys a picture's tab module and view name, with the families its figures draw through a label
    helper, sorted."""
    from explorer import i18n
    found = set()
    for path in _sources(name):
        text = path.read_text(encoding="utf-8")
        found |= {k for k in _QUOTED.findall(text) if k in i18n.STRINGS}
        for helper in set(_HELPER.findall(text)):
            fn = getattr(i18n, helper, None)
            for prefix in _PREFIX.findall(inspect.getsource(fn)) if callable(fn) else ():
                found |= {k for k in i18n.STRINGS if k.startswith(prefix)}
    return sorted(found)


def figure_modules(name: str) -> list[str]:
    """The explorer.figures modules a picture's views import, by module name, sorted."""
    found = set()
    for path in _views(name):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found |= {a.name for a in node.names if a.name.startswith("explorer.figures")}
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                for a in node.names:  # `from explorer import figures`, `from explorer.figures import lab`: modules;
                    full = f"{node.module}.{a.name}"  # `from explorer.figures import heatmap`: a name in one
                    if full.startswith("explorer.figures") and _is_module(full):
                        found.add(full)
                    elif node.module.startswith("explorer.figures"):
                        found.add(node.module)
    return sorted(found)


def _is_module(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except ModuleNotFoundError:  # a name inside a module (explorer.figures.confidence.shaded_translation)
        return False


def figure_words(name: str) -> dict[str, dict]:
    """{module: {NAME: its value}}: the module-level dictionaries (LABELS, WORDS, ...) of the figure modules a
    picture's views import; their words are drawn as they are where no translated copy replaces them."""
    out = {}
    for mod in figure_modules(name):
        m = importlib.import_module(mod)
        out[mod] = {k: v for k, v in sorted(vars(m).items()) if k.isupper() and isinstance(v, dict)}
    return out


def lesson_words(name: str) -> list:
    """The first deck's title and its steps' titles and texts (both languages), for the lesson path's picture."""
    if name != LESSONS:
        return []
    from explorer.lessons import DECKS
    return [DECKS[0].title, [(s.id, s.title, s.text) for s in DECKS[0].steps]]


def fingerprint(name: str) -> str:
    from explorer.i18n import STRINGS
    words = {"keys": [(k, STRINGS[k]) for k in keys(name)], "figures": figure_words(name),
             "lessons": lesson_words(name)}
    text = json.dumps(words, ensure_ascii=False, sort_keys=True, default=repr)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def record(name: str) -> None:
    """After the browser test redrew `name`.png: its strings' fingerprint into the manifest."""
    data = json.loads(MANIFEST.read_text(encoding="utf-8")) if MANIFEST.is_file() else {}
    data[name] = fingerprint(name)
    MANIFEST.write_text(json.dumps(dict(sorted(data.items())), indent=1) + "\n", encoding="utf-8")


def stale() -> list[str]:
    """Pictures whose strings changed since they were drawn (or that were never fingerprinted)."""
    data = json.loads(MANIFEST.read_text(encoding="utf-8")) if MANIFEST.is_file() else {}
    return [p.stem for p in sorted(SHOTS.glob("*.png")) if data.get(p.stem) != fingerprint(p.stem)]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--record", action="store_true", help="write every picture's fingerprint anew (only after a "
                    "change of what a fingerprint covers, when every picture was current before)")
    args = ap.parse_args(argv)
    if args.record:
        for p in sorted(SHOTS.glob("*.png")):
            record(p.stem)
        print(f"wrote {MANIFEST.relative_to(ROOT)}")
        return 0
    old = stale()
    for p in sorted(SHOTS.glob("*.png")):
        print(f"{p.name}: {'STALE' if p.stem in old else 'current'}")
    return 1 if old else 0


if __name__ == "__main__":
    sys.exit(main())
