"""The README's pictures are as new as their words: a tab whose strings changed since its picture was drawn fails
here, naming the picture and the command that redraws it (scripts/screenshots.py)."""
from scripts import screenshots


def test_every_picture_has_a_tab_with_strings():
    for p in screenshots.SHOTS.glob("*.png"):
        assert p.stem in screenshots.TABS, f"{p.name}: add it to scripts/screenshots.py's TABS"
        assert screenshots.keys(p.stem), p.name


def test_no_picture_is_older_than_its_strings():
    stale = screenshots.stale()
    assert not stale, (f"the strings of {stale} changed since their pictures were drawn: redraw them with "
                       "ATTN_EXPLORER_SCREENSHOTS=1 python3 -m pytest tests/e2e/test_browser.py (or make test)")


def test_a_changed_string_makes_its_picture_stale(monkeypatch, tmp_path):
    from explorer import i18n
    manifest = tmp_path / "strings.json"
    monkeypatch.setattr(screenshots, "MANIFEST", manifest)
    screenshots.record("lessons")
    assert "lessons" not in screenshots.stale()
    key = screenshots.keys("lessons")[0]
    monkeypatch.setitem(i18n.STRINGS, key, {**i18n.STRINGS[key], "en": i18n.STRINGS[key]["en"] + " (changed)"})
    assert "lessons" in screenshots.stale()
