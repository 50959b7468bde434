"""The README's pictures are as new as their words: a tab whose strings changed since its picture was drawn fails
here, naming the picture and the command that redraws it (scripts/screenshots.py). Its words are its tab's i18n
keys, the key families and word tables of the figures it draws, and for the lesson path the first deck's words."""
import pytest

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


# (picture, module, the path to a dictionary in it, its key): a word the picture shows, outside its tab's files
SHOWN = {
    "the first lesson step's title": ("lessons", "explorer.lessons", ("DECKS", 0, "steps", 0, "title"), "en"),
    "the first lesson step's Korean text": ("lessons", "explorer.lessons", ("DECKS", 0, "steps", 0, "text"), "ko"),
    "its figure's axis title, a lab.* key read through lab_labels": (
        "lessons", "explorer.i18n", ("STRINGS", "lab.source_length"), "en"),
    "a figure module's own word table": ("bleu-by-length", "explorer.figures.lab", ("LABELS",), "source_length"),
    "a figure module's Korean words": ("lessons", "explorer.figures.pretraining", ("WORDS", "ko"), "masking_title"),
}


def _dictionary(module: str, path: tuple):
    import importlib
    found = importlib.import_module(module)
    for step in path:
        found = getattr(found, step) if isinstance(step, str) and not isinstance(found, (dict, tuple)) else found[step]
    return found


@pytest.mark.parametrize("case", list(SHOWN))
def test_a_changed_word_that_a_picture_shows_makes_it_stale(monkeypatch, tmp_path, case):
    """Not only the keys written in a tab's files: a first-deck lesson word, a figure's key family and a figure
    module's own words each make the picture that shows them stale (a string monkeypatched, no file edited)."""
    name, module, path, key = SHOWN[case]
    monkeypatch.setattr(screenshots, "MANIFEST", tmp_path / "strings.json")
    screenshots.record(name)
    assert name not in screenshots.stale()
    table = _dictionary(module, path)
    monkeypatch.setitem(table, key, table[key] + " (changed)")
    assert name in screenshots.stale(), case


def test_a_later_decks_words_leave_the_lessons_picture_current(monkeypatch, tmp_path):
    """The lessons picture shows the first deck only: a later deck's title changes nothing of it."""
    from explorer import lessons
    monkeypatch.setattr(screenshots, "MANIFEST", tmp_path / "strings.json")
    screenshots.record("lessons")
    monkeypatch.setitem(lessons.DECKS[2].steps[0].title, "en", "changed")
    assert "lessons" not in screenshots.stale()
