"""scripts/publish_space.py offline: the dry run's file list is what the app needs and nothing else (no tests,
bench or run logs; the docs the README links to go along; every local module the sent code imports is sent
too), every binary or 10 MB file in it is covered by scripts/space.gitattributes's LFS patterns, and a dry run
touches no network."""
import ast
import re
from pathlib import Path

import pytest

from scripts import publish_space as ps

pytest.importorskip("huggingface_hub")
LOCAL = {"app", "ui", "explorer", "models", "scripts", "bench", "tests"}


@pytest.fixture(scope="module")
def rows():
    return ps.plan()


def test_the_list_is_what_the_app_needs(rows):
    paths = [p for p, _, _ in rows]
    assert paths[0] == ".gitattributes" and len(paths) == len(set(paths))
    for needed in ("app.py", "README.md", "requirements.txt", "LICENSE", "ui/limits.py", "explorer/compute/inference.py",
                   "models/checkpoint.py", "assets/bert/config.json", "assets/transformer-en-fr/tokenizer.json"):
        assert needed in paths, needed
    for p in paths:
        assert not p.startswith(("tests/", "bench/", "docs/training-runs/", "scripts/", ".github/")), p
        assert "train_log" not in p and "__pycache__" not in p and not p.endswith((".pyc", ".sh", ".log")), p
    # the README is the Space's card: every docs/ page it links to goes along
    readme = (ps.ROOT / "README.md").read_text(encoding="utf-8")
    for link in re.findall(r"\]\((docs/[^)#\s]+)", readme):
        assert link in paths, link
    tracked = set(ps.tracked_files())
    assert set(paths[1:]) <= tracked  # nothing untracked (a checkpoint being trained, a local output) is sent


def test_every_local_import_of_the_sent_code_is_sent(rows):
    paths = {p for p, _, _ in rows}
    for p in (p for p in paths if p.endswith(".py")):
        tree = ast.parse((ps.ROOT / p).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module] if isinstance(node, ast.ImportFrom) and node.module and not node.level else []
            for name in names:
                if name.split(".")[0] not in LOCAL:
                    continue
                mod = name.replace(".", "/")
                options = {f"{mod}.py", f"{mod}/__init__.py"}
                assert options & paths or any(q.startswith(mod + "/") for q in paths), f"{p} imports {name}"


def test_every_binary_is_covered_by_the_committed_patterns(rows):
    patterns = ps.lfs_patterns(ps.GITATTRIBUTES.read_text(encoding="utf-8"))
    binaries = [p for p, _, _ in rows[1:] if ps.needs_lfs(ps.ROOT / p)]
    assert any(p.endswith(".safetensors") for p in binaries)  # the check has something to check
    assert [p for p in binaries if not ps.covered(p, patterns)] == []
    assert all(lfs for p, _, lfs in rows if p in binaries)  # and the plan stores them in LFS
    text_files = [p for p, _, lfs in rows[1:] if p.endswith((".py", ".md", ".txt")) and not lfs]
    assert "app.py" in text_files  # text stays plain git


def test_gitattributes_matching_follows_git():
    pats = ["*.png", "/assets/big.json", "saved/**/*.bin"]
    assert ps.covered("assets/screenshots/bert.png", pats) and ps.covered("a.png", pats)
    assert ps.covered("assets/big.json", pats) and not ps.covered("other/assets/big.json", pats)
    assert ps.covered("saved/x/y.bin", pats) and not ps.covered("assets/bert/config.json", pats)
    assert ps.lfs_patterns("# c\n*.a filter=lfs diff=lfs\n*.b -text\n") == ["*.a"]


def test_a_file_the_patterns_miss_gets_its_own_line(tmp_path):
    (tmp_path / "weights.odd").write_bytes(b"\x00\x01" * 100)
    (tmp_path / "notes.txt").write_text("plain")
    text = ps.gitattributes(["weights.odd", "notes.txt"], tmp_path)
    assert "/weights.odd filter=lfs" in text and "notes.txt filter" not in text


def test_dry_run_needs_no_network(monkeypatch, capsys):
    import huggingface_hub

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setattr(huggingface_hub, "HfApi", lambda *a, **k: pytest.fail("a dry run must not reach the Hub"))
    assert ps.main(["someone/attention-explorer", "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "app.py" in out and "LFS" in out and "tests/" not in out


def test_the_space_installs_torch_from_the_cpu_index_and_everything_else_as_pinned(monkeypatch):
    """What upload_folder is given: every planned file with its bytes, requirements.txt with PyTorch's CPU index
    first and the repository's lines after it unchanged (so the Space does not pull CUDA builds it cannot use)."""
    import huggingface_hub
    from packaging.requirements import Requirement

    sent = {}

    class FakeApi:
        def create_repo(self, *a, **k):
            pass

        def upload_file(self, **k):
            sent[k["path_in_repo"]] = k["path_or_fileobj"]

        def upload_folder(self, folder_path, allow_patterns, **k):
            sent.update({p: (Path(folder_path) / p).read_bytes() for p in allow_patterns})

    monkeypatch.setattr(huggingface_hub, "HfApi", FakeApi)
    assert ps.main(["someone/attention-explorer"]) == 0
    planned = [p for p, _, _ in ps.plan()]
    assert sorted(sent) == sorted(planned)
    local = (ps.ROOT / "requirements.txt").read_text(encoding="utf-8")
    space = sent["requirements.txt"].decode("utf-8")
    lines = [ln for ln in space.splitlines() if ln.strip() and not ln.startswith("#")]
    assert lines[0] == f"--extra-index-url {ps.CPU_TORCH_INDEX}" and space.endswith(local)
    pins = [Requirement(ln.split("#")[0]) for ln in lines[1:]]  # every other line still parses as a requirement
    assert pins[0].name == "torch" and str(pins[0].specifier).startswith("==")
    for p in planned:
        if p not in ("requirements.txt", ".gitattributes"):
            assert sent[p] == (ps.ROOT / p).read_bytes(), p
    assert dict((p, n) for p, n, _ in ps.plan())["requirements.txt"] == len(sent["requirements.txt"])
