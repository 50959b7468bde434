"""The docs, true by test: docs/architecture.md's file map names every tracked Python module (tests/ aside) on
a row of its own and no module that is gone; every benchmark runs as `python3 -m bench.<name>` (its usage line
says so, and no bench edits sys.path); no file in the repo cites a document outside it (CONTRIBUTING.md is the
house style's copy in the repo)."""
import ast
import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAP_DOC = "docs/architecture.md"
MAP_SECTION = "## Where things are"


def tracked(*patterns: str) -> list[str]:
    out = subprocess.run(["git", "ls-files", "-z", "--", *patterns], cwd=ROOT, capture_output=True, check=True)
    return [p for p in out.stdout.decode("utf-8").split("\0") if p and (ROOT / p).is_file()]


def modules_to_map() -> list[str]:
    return sorted(p for p in tracked("*.py") if not p.startswith("tests/"))


def map_rows(text: str) -> dict[str, int]:
    """Path -> line number of each row of the file map whose first cell names it (`path` in backticks)."""
    start = text.index(MAP_SECTION)
    end = text.find("\n## ", start + len(MAP_SECTION))
    rows = {}
    first_line = text.count("\n", 0, start) + 1
    for i, line in enumerate(text[start:end if end != -1 else None].splitlines()):
        if line.startswith("|"):
            first_cell = line.split("|")[1]
            for name in re.findall(r"`([^`]+)`", first_cell):
                rows[name] = first_line + i
    return rows


def unmapped(modules: list[str], rows: dict[str, int]) -> list[str]:
    return [m for m in modules if m not in rows]


def missing_message(missing: list[str]) -> str:
    lines = [f"{MAP_DOC}'s file map (the table under '{MAP_SECTION}') has no row for:"]
    for m in missing:
        folder = m.split("/")[0] + "/" if "/" in m else "the top"
        lines.append(f"  {m}: add the row  | `{m}` | what it is, in a line |  among the `{folder}` rows")
    return "\n".join(lines)


def test_the_file_map_names_every_tracked_module():
    rows = map_rows((ROOT / MAP_DOC).read_text(encoding="utf-8"))
    missing = unmapped(modules_to_map(), rows)
    assert not missing, missing_message(missing)


def test_the_file_map_names_no_module_that_is_gone():
    rows = map_rows((ROOT / MAP_DOC).read_text(encoding="utf-8"))
    gone = [f"{MAP_DOC}:{line}: `{name}` is not in the repo: remove or rename its row"
            for name, line in rows.items() if not (ROOT / name.rstrip("/")).exists()]
    assert not gone, "\n".join(gone)


def test_the_map_check_names_the_module_and_where_it_goes():
    doc = ("# x\n\n## Where things are\n\n| path | what |\n| --- | --- |\n| `app.py` | entry |\n"
           "| `models/a.py`, `models/b.sh` | two |\n\n## Next\n\n| `models/c.py` | outside the map |\n")
    rows = map_rows(doc)
    assert rows == {"app.py": 7, "models/a.py": 8, "models/b.sh": 8}
    missing = unmapped(["app.py", "models/a.py", "models/c.py"], rows)
    assert missing == ["models/c.py"]
    assert "| `models/c.py` |" in missing_message(missing) and "`models/` rows" in missing_message(missing)


# ----------------------------------------------------------------------------- bench


def bench_modules() -> list[str]:
    return [p for p in tracked("bench/*.py") if not Path(p).name.startswith("_")]


def test_no_bench_edits_sys_path():
    offenders = []
    for p in tracked("bench/*.py"):
        for node in ast.walk(ast.parse((ROOT / p).read_text(encoding="utf-8"), p)):
            if (isinstance(node, ast.Attribute) and node.attr == "path" and isinstance(node.value, ast.Name)
                    and node.value.id == "sys"):
                offenders.append(f"{p}:{node.lineno}")
    assert offenders == [], "bench is a package: import bench._server, explorer, models by name " \
                            "(run as `python3 -m bench.<name>` from the repo root)"


def test_every_bench_says_how_to_run_it_as_a_module():
    wrong = []
    for p in bench_modules():
        doc = ast.get_docstring(ast.parse((ROOT / p).read_text(encoding="utf-8"))) or ""
        name = Path(p).stem
        if f"python3 -m bench.{name}" not in doc or re.search(r"python3? bench/", doc):
            wrong.append(p)
    assert wrong == [], "each bench's docstring shows `python3 -m bench.<name> ...`, not `python bench/<name>.py`"


# ----------------------------------------------------------------------------- citations


def test_nothing_cites_the_conventions_outside_the_repo():
    """The house style is CONTRIBUTING.md; CONVENTIONS was the team's copy, outside the repo."""
    hits = []
    for p in tracked("*.py", "*.md", "*.sh", "*.txt", "*.toml", "*.cfg", "*.ini", "Makefile"):
        if p == "tests/test_docs.py":
            continue
        for i, line in enumerate((ROOT / p).read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            if "CONVENTIONS" in line:
                hits.append(f"{p}:{i}")
    assert hits == [], "cite CONTRIBUTING.md (in the repo) instead"
