"""The house's layout, checked: no import cycle among the app's modules, no two tracked paths that
differ only by case, assets/ holding only what the app loads, gradio only in app.py and ui/, and
small files and functions, so that a newcomer finds each piece where CONTRIBUTING.md ("Layout tells the
architecture") says it is."""
import ast
import fnmatch
import subprocess
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("models", "explorer", "ui")  # the app's own packages: no import cycle among their modules
GRADIO_HOMES = ("app.py", "ui/")
NOT_APP_CODE = ("tests/", "bench/")  # held to no length limit, free to import gradio
MAX_APP_LINES, MAX_FUNCTION_LINES = 200, 120

# Tracked files under assets/ that the app does not load, each with why it stays there.
ASSET_EXCEPTIONS = {
    "assets/screenshots/*.png": "the README's pictures; the browser test (tests/test_browser.py) redraws them here",
    "assets/screenshots/strings.json": "the strings each picture showed when it was drawn (scripts/screenshots.py)",
    "assets/*/train_log*.jsonl": "a shipped checkpoint's own training log, kept with the weights it describes "
                                 "(every other run's log is under docs/training-runs/)",
    "assets/syntax/*.json": "the heads-vs-syntax tables, read when the Syntax tab draws (explorer/views/syntax.py), "
                            "not while the page is built",
    "assets/explains/*.json": "the head-ablation and AER tables of docs/, read when their tabs draw "
                              "(explorer/views/ablation.py, explorer/compute/alignment.py)",
    "assets/qk_embedding/bert.*": "the queries-and-keys plane of held-out sentences, read when the Query · key "
                                  "tab draws it (explorer/compute/qk_embedding.py)",
}


def tracked(*patterns: str) -> list[str]:
    out = subprocess.run(["git", "ls-files", "-z", "--", *patterns], cwd=ROOT, capture_output=True, check=True)
    return [p for p in out.stdout.decode("utf-8").split("\0") if p]


def python_files() -> list[str]:
    return [p for p in tracked("*.py") if (ROOT / p).is_file()]


# ----------------------------------------------------------------------------- import cycles


def module_name(path: str) -> str:
    parts = list(Path(path).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_modules(path: str, modules: set[str]) -> set[str]:
    """The project modules a file imports, anywhere in it (a lazy import inside a function is a
    cycle all the same). `from pkg import name` is an edge to pkg.name when that is a module, else
    to pkg itself."""
    name = module_name(path)
    package = name if path.endswith("__init__.py") else name.rpartition(".")[0]
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"), path)
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from . import x / from ..a import b
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            for a in node.names:
                found.add(f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base)
    edges = set()
    for m in found:  # `import models.data.x` style names: the longest prefix that is one of ours
        parts = m.split(".")
        hit = next((".".join(parts[:i]) for i in range(len(parts), 0, -1) if ".".join(parts[:i]) in modules), None)
        if hit and hit != name:
            edges.add(hit)
    return edges


def import_cycles(files: list[str]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan), each sorted."""
    modules = {module_name(p): p for p in files}
    graph = {m: imported_modules(p, set(modules)) for m, p in modules.items()}
    index, low, stack, on_stack, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_no_import_cycle_among_models_explorer_and_ui():
    files = [p for p in python_files() if p.split("/")[0] in PACKAGES]
    assert any(p.startswith("models/") for p in files) and any(p.startswith("explorer/") for p in files)
    assert import_cycles(files) == []


def test_the_cycle_finder_finds_a_lazy_cycle(tmp_path, monkeypatch):
    """models/training/train.py and models/training/evaluate.py once imported each other, one side inside a function."""
    pkg = tmp_path / "models"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from models import b\n")
    (pkg / "b.py").write_text("def f():\n    from models.a import x\n")
    (pkg / "c.py").write_text("from . import a\n")
    monkeypatch.setattr(__import__(__name__), "ROOT", tmp_path)
    assert import_cycles(["models/__init__.py", "models/a.py", "models/b.py", "models/c.py"]) == [
        ["models.a", "models.b"]]


# ----------------------------------------------------------------------------- names and assets


def case_collisions(paths: list[str]) -> list[list[str]]:
    """Groups of tracked paths, or of their folders, that differ only by letter case."""
    names = set(paths)
    for p in paths:
        parts = p.split("/")
        names.update("/".join(parts[:i]) for i in range(1, len(parts)))
    groups = defaultdict(set)
    for n in names:
        groups[n.lower()].add(n)
    return sorted(sorted(g) for g in groups.values() if len(g) > 1)


def test_no_two_tracked_paths_differ_only_by_case():
    """A default macOS or Windows checkout keeps one of such a pair and reports the other as modified."""
    assert case_collisions(tracked()) == []
    assert case_collisions(["docs/bA/x", "docs/ba/y", "docs/B.md"]) == [["docs/bA", "docs/ba"]]


def files_the_app_loads(monkeypatch) -> set[str]:
    """Every file under assets/ that the app reads at start-up and on its tabs' first use, recorded
    as it reads them: Python's own opens (an audit hook) and the two Rust readers (safetensors,
    tokenizers) through the loader's names for them."""
    import sys

    from models import checkpoint

    seen, recording = set(), [True]

    def note(path):
        if recording[0]:
            seen.add(Path(path).resolve())

    sys.addaudithook(lambda event, args: note(args[0]) if event == "open" and isinstance(args[0], (str, Path))
                     and recording[0] else None)
    real_load_file, real_tokenizer = checkpoint.load_file, checkpoint.Tokenizer

    class Tokenizer:
        @staticmethod
        def from_file(path):
            note(path)
            return real_tokenizer.from_file(path)

    monkeypatch.setattr(checkpoint, "load_file", lambda path, *a, **k: note(path) or real_load_file(path, *a, **k))
    monkeypatch.setattr(checkpoint, "Tokenizer", Tokenizer)
    try:
        from explorer.compute import inference, live, snapshots
        reg = inference.load_registry(inference.ASSETS)
        assert reg.models and not reg.errors, reg.errors
        from explorer.compute import pipeline
        for task in pipeline.PIPELINE_TASKS:  # the fine-tuned tasks load on first use, on the shared BERT
            pipeline.load(task, reg)
        for name in snapshots.snapshot_models():
            try:
                snapshots.load_snapshots(name)
            except snapshots.SnapshotError:  # read, and its message shown (seq2seq-none has no attention)
                pass
        live.read_pairs()
    finally:
        recording[0] = False  # an audit hook cannot be removed: it stops noting
    assets = (ROOT / "assets").resolve()
    return {p.relative_to(ROOT.resolve()).as_posix() for p in seen if assets in p.parents}


def test_every_tracked_asset_is_loaded_by_the_app(monkeypatch):
    loaded = files_the_app_loads(monkeypatch)
    assert any(p.endswith(".safetensors") for p in loaded) and "assets/live_pairs.tsv" in loaded
    unused = [p for p in tracked("assets") if p not in loaded
              and not any(fnmatch.fnmatchcase(p, pattern) for pattern in ASSET_EXCEPTIONS)]
    assert unused == [], "assets/ holds only what the app loads: move these (e.g. to docs/) or list them " \
                         "in ASSET_EXCEPTIONS with a reason"


# ----------------------------------------------------------------------------- gradio and size


def test_gradio_is_imported_only_in_app_py_and_ui():
    offenders = []
    for p in python_files():
        if p.startswith(NOT_APP_CODE) or p == "app.py" or p.startswith("ui/"):
            continue
        for node in ast.walk(ast.parse((ROOT / p).read_text(encoding="utf-8"), p)):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            if any(n == "gradio" or n.startswith("gradio.") for n in names):
                offenders.append(f"{p}:{node.lineno}")
    assert offenders == []


def test_app_py_is_a_thin_entry_point():
    assert len((ROOT / "app.py").read_text(encoding="utf-8").splitlines()) <= MAX_APP_LINES


def long_functions(paths: list[str], limit: int = MAX_FUNCTION_LINES) -> list[str]:
    out = []
    for p in paths:
        for node in ast.walk(ast.parse((ROOT / p).read_text(encoding="utf-8"), p)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                n = node.end_lineno - min([node.lineno] + [d.lineno for d in node.decorator_list]) + 1
                if n > limit:
                    out.append(f"{p}:{node.lineno} {node.name} ({n} lines)")
    return out


def test_no_function_of_the_app_is_longer_than_120_lines():
    assert long_functions([p for p in python_files() if not p.startswith(NOT_APP_CODE)]) == []


def test_the_length_check_counts_a_long_function(tmp_path, monkeypatch):
    (tmp_path / "m.py").write_text("@staticmethod\ndef f():\n" + "    x = 1\n" * 120 + "def g():\n    pass\n")
    monkeypatch.setattr(__import__(__name__), "ROOT", tmp_path)
    assert long_functions(["m.py"]) == ["m.py:2 f (122 lines)"]
