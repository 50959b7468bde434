"""scripts/publish_space.py's command line: `--dry-run` alone lists the files (no Space named, no network);
without it, a missing OWNER/NAME stops before anything is planned or sent."""
import pytest

from scripts import publish_space as ps

pytest.importorskip("huggingface_hub")


def test_dry_run_needs_no_space_name(monkeypatch, capsys):
    import huggingface_hub

    monkeypatch.setattr(huggingface_hub, "HfApi", lambda *a, **k: pytest.fail("a dry run must not reach the Hub"))
    assert ps.main(["--dry-run"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-1].startswith(f"{len(ps.plan())} files")
    assert any(line.endswith("  app.py") for line in lines)


def test_publishing_without_a_space_name_is_refused(monkeypatch, capsys):
    monkeypatch.setattr(ps, "plan", lambda *a, **k: pytest.fail("nothing is planned without a Space"))
    with pytest.raises(SystemExit) as e:
        ps.main([])
    assert e.value.code == 2 and "OWNER/NAME" in capsys.readouterr().err
