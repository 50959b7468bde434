"""What a tab module may import of the app's own packages (CONTRIBUTING.md, "The tab contract"): its numbers
from explorer.views (which re-exports the defaults and limits a tab lays out: views.MAX_BEAM, views.EXAMPLES,
...), its strings from explorer.i18n, its shared components from ui.components, the contract from ui.tabs.
The contract itself (ui/tabs/__init__.py) also builds on ui.first_screen. Nothing else of explorer/ or models/,
so that a compute or figure module can move without touching a tab."""
import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIRST_PARTY = ("explorer", "models", "ui", "app", "bench", "scripts")
ALLOWED = {"explorer.views", "explorer.i18n", "ui.components", "ui.tabs"}
CONTRACT_ALSO = {"ui.first_screen"}  # ui/tabs/__init__.py: every tab's first screen
UI_LAYER = {"ui.shared_runs"}  # the page's shared runs of identical requests: a UI module, like ui.components


def first_party_imports(path: Path) -> set[str]:
    """The app's own modules `path` imports, by module ('from explorer import lab' is explorer.lab)."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module in FIRST_PARTY or (ROOT / node.module.replace(".", "/")).is_dir():  # a package:
                # from explorer import lab, i18n; from explorer.compute import inference
                out |= {f"{node.module}.{a.name}" for a in node.names}
            else:
                out.add(node.module)
    return {m for m in out if m.split(".")[0] in FIRST_PARTY}


def allowed(module: str, extra=frozenset()) -> bool:
    return any(module == a or module.startswith(a + ".") for a in ALLOWED | set(extra))


def test_tabs_import_only_views_strings_and_components():
    files = sorted((ROOT / "ui" / "tabs").glob("*.py"))
    assert len(files) > 20
    wrong = {}
    for f in files:
        extra = UI_LAYER | (CONTRACT_ALSO if f.name == "__init__.py" else set())
        bad = {m for m in first_party_imports(f) if not allowed(m, extra)}
        if bad:
            wrong[f.name] = sorted(bad)
    assert not wrong, f"tabs importing beyond explorer.views, explorer.i18n, ui.components, ui.tabs: {wrong}"


def test_the_scan_sees_every_form_of_import(tmp_path):
    f = tmp_path / "t.py"
    f.write_text("import explorer.lab\nfrom explorer import i18n, inference as inf\nfrom explorer.views import beam\n"
                 "from models.trace import Trace\nimport gradio as gr\nfrom . import x\n", encoding="utf-8")
    got = first_party_imports(f)
    assert got == {"explorer.lab", "explorer.i18n", "explorer.inference", "explorer.views.beam", "models.trace"}
    assert [m for m in sorted(got) if not allowed(m)] == ["explorer.inference", "explorer.lab", "models.trace"]
