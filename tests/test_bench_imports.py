"""bench/ measures the app from outside: it starts `python app.py` as a process (bench/_server.py) and talks to it
over HTTP or gradio_client, or calls the gradio-free views and models; it never imports the UI (ui/, app.py), so a
benchmark measures the server a visitor meets, and the UI can change without breaking one (CONTRIBUTING.md,
"Layout tells the architecture")."""
import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def ui_imports(path: Path) -> set[str]:
    """The modules of ui/ and app.py that `path` imports, at any depth of the file (inside functions too)."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                 else [node.module] if isinstance(node, ast.ImportFrom) and node.module and node.level == 0 else [])
        out |= {n for n in names if n.split(".")[0] in ("ui", "app")}
    return out


def test_no_benchmark_imports_the_ui():
    files = sorted((ROOT / "bench").glob("*.py"))
    assert len(files) > 20
    found = {f.name: ui_imports(f) for f in files}
    assert not {n: sorted(m) for n, m in found.items() if m}, "start the app as a process (bench/_server.py)"


def test_the_scan_finds_imports_inside_functions(tmp_path):
    f = tmp_path / "b.py"
    f.write_text("def main():\n    import app\n    from ui.limits import x\n    from bench._server import y\n",
                 encoding="utf-8")
    assert ui_imports(f) == {"app", "ui.limits"}
