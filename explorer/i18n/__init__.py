"""Every string of the app's interface in English and Korean, and the examples of each language.

One dictionary, key -> {"en": ..., "ko": ...}, merged from the modules of this package: a tab's strings are in
its own module (explorer/i18n/seq2seq.py for ui/tabs/seq2seq.py), the shared ones by kind (common, tabs,
figures, errors, notices, limits); a new tab adds explorer/i18n/<tab>.py with its STRINGS, nothing else here.
The tabs (ui/tabs/) build each label, button and
explanation from `t(key)` in English and registers the component with its key; the language
switch at the top of the page then sends `t(key, "ko")` (or back) to every registered
component. Strings that the views compute (a summary line, a status) take their language as
an argument and use the same dictionary, with str.format fields.

Korean uses the course lectures' terms, listed with the keys that show them in explorer/glossary.py
(docs/glossary.md; tests/explorer/test_glossary.py holds every string to it): 어텐션, 셀프 어텐션,
인코더-디코더 어텐션 (Encoder-Decoder Attention; not 교차 어텐션), 멀티 헤드 어텐션, 마스크드 (never
마스크된), 포지셔널 인코딩, 포지션 와이즈 FFN, 어텐션 스코어 행렬, Luong's four steps as deck 000 names
them, 정렬 for alignment, 감정 분석, 전제 / 가설, 함의 / 중립 / 모순; Multiplicative (general) and Bahdanau
(additive) attention, scores explained as 유사도 (similarity); paper titles and formulas stay as they are.
No gradio here (only app.py and ui/ import it).
"""
from __future__ import annotations

import functools
import importlib
import pkgutil

LANGS = ("en", "ko")
CHOICES = {"English": "en", "한국어": "ko"}  # the switch's labels -> language code
SWITCH_LABEL = "Language · 언어"  # the switch itself stays bilingual: it is how one finds it


def lang_code(choice) -> str:
    """The switch's value ("English", "한국어") or a code ("en", "ko") -> a code; anything else -> "en"."""
    if choice in LANGS:
        return choice
    return CHOICES.get(choice, "en")


def _merged_strings() -> dict[str, dict[str, str]]:
    """The STRINGS of every module in this package, one dictionary (a tab's strings live in its own module:
    explorer/i18n/<tab>.py); a key that two modules define is an error at import, naming both."""
    merged: dict[str, dict[str, str]] = {}
    home: dict[str, str] = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        for key, value in importlib.import_module(f"{__name__}.{info.name}").STRINGS.items():
            if key in merged:
                raise RuntimeError(f"explorer/i18n: {key!r} is in both {home[key]}.py and {info.name}.py")
            merged[key], home[key] = value, info.name
    return merged


STRINGS: dict[str, dict[str, str]] = _merged_strings()

# Example inputs per view and language. A model reads the language it was trained on, so
# the English models keep English inputs in Korean mode; where a Korean model exists
# (transformer-ko-en) Korean mode puts its sentences first.
_EN = ["I am a student.", "The animal didn't cross the street because it was too tired.", "Let's stick to the plan."]
_KO = ["나는 학생 입니다", "그는 의사입니다.", "오늘 날씨가 좋아요.", "이 책은 재미있어요."]
EXAMPLES: dict[str, dict[str, list[list]]] = {
    "seq2seq": {"en": [[s] for s in _EN], "ko": [[s] for s in _EN]},
    "transformer": {"en": [[s, "transformer-en-fr"] for s in _EN] + [[_KO[0], "transformer-ko-en"]],
                    "ko": [[s, "transformer-ko-en"] for s in _KO] + [[_EN[0], "transformer-en-fr"]]},
    "rollout": {"en": [[_EN[1], "bert"], [_EN[1], "transformer-en-fr"], [_KO[0], "transformer-ko-en"]],
                "ko": [[_KO[1], "transformer-ko-en"], [_KO[0], "transformer-ko-en"], [_EN[1], "bert"]]},
    "bert": {lang: [["the man went to the [MASK] .", "he bought a gallon of milk ."],
                    ["the man went to the [MASK] .", ""], ["Here is the sentence I want embeddings for.", ""],
                    [_EN[1], ""], ["the man went to the store .", "he bought a gallon of milk ."]] for lang in LANGS},
    # next-word choices: [sentence, model, typed translation]; the "it" sentence first (il or elle?)
    "choices": {lang: [[_EN[1], "transformer-en-fr", ""],
                       [_EN[1], "transformer-en-fr", "L'animal n'a pas traversé la rue parce qu'il était trop fatigué."],
                       [_EN[0], "transformer-en-fr", "Je suis étudiant."], [_KO[0], "transformer-ko-en", ""]]
                for lang in LANGS},
    "contextual": {"en": [["bank", ""], ["stick", ""], ["배", ""]],
                   "ko": [["배", ""], ["bank", ""], ["stick", ""]]},
}


def t(key: str, lang: str = "en", **fields) -> str:
    """The string `key` in `lang` ("en" or "ko", or the switch's label), formatted with `fields`."""
    s = STRINGS[key][lang_code(lang)]
    return s.format(**fields) if fields else s


def _prefixed(prefix: str, lang: str) -> dict[str, str]:
    return _prefixed_in(prefix, lang_code(lang))


@functools.lru_cache(maxsize=None)
def _prefixed_in(prefix: str, code: str) -> dict[str, str]:
    """Built once per (prefix, language): every figure of every request asks for it. The figure
    functions only read it (they merge it into a dict of their own)."""
    return {k[len(prefix):]: v[code] for k, v in STRINGS.items() if k.startswith(prefix)}


def localized(table, lang: str = "en"):
    """A table (pandas DataFrame) with its column headers in `lang`; headers without a "col.*" key
    (numbers, "#", symbols) stay as they are."""
    code = lang_code(lang)
    return table.rename(columns={n: STRINGS[f"col.{n}"][code] for n in table.columns if f"col.{n}" in STRINGS})


def lab_labels(lang: str = "en") -> dict[str, str]:
    """explorer.figures.lab.LABELS in `lang` (the "lab.*" keys)."""
    return _prefixed("lab.", lang)


def live_labels(lang: str = "en") -> dict[str, str]:
    """explorer.figures.live.LABELS in `lang` (the "lvf.*" keys)."""
    return _prefixed("lvf.", lang)


def ft_labels(lang: str = "en") -> dict[str, str]:
    """explorer.figures.finetune.LABELS in `lang` (the "ftf.*" keys)."""
    return _prefixed("ftf.", lang)


def figure_labels(lang: str = "en") -> dict[str, str]:
    """explorer.figures.LABELS in `lang` (the "fig.*" keys): the words a figure draws besides its title and
    tokens."""
    return _prefixed("fig.", lang)


def _keyed(prefix: str, obj, lang: str) -> str:
    """obj's text in `lang` from STRINGS[prefix + obj.key], its fields filled in (a "what"/"name" that
    has a "what." string is translated, a field that is keyed itself too); else str(obj)."""
    key = getattr(obj, "key", None)
    if lang_code(lang) == "en" or not key or f"{prefix}{key}" not in STRINGS:
        return str(obj)  # English is the message itself, word for word
    fields = {}
    for k, v in obj.fields.items():
        if getattr(v, "key", None):
            v = _keyed(prefix, v, lang)
        elif k in ("what", "name") and f"what.{v}" in STRINGS:
            v = t(f"what.{v}", lang)
        fields[k] = v
    return t(f"{prefix}{key}", lang, **fields)


def error_text(e: Exception, lang: str = "en") -> str:
    """A UserError's message in `lang`: its key's string when it has one, else its own (English) text."""
    return _keyed("err.", e, lang)


def notice_text(n: str, lang: str = "en") -> str:
    """A notice (explorer.compute.inference.Notice) in `lang`; a plain string stays as it is."""
    return _keyed("note.", n, lang)


def label_text(label: str, lang: str = "en") -> str:
    """A fine-tuned head's label in `lang` (the NLI labels have Korean names); others stay as they are."""
    key = f"label.{label}"
    return t(key, lang) if key in STRINGS else label


def examples(view: str, lang: str = "en") -> list[list]:
    return EXAMPLES[view][lang_code(lang)]


# What the input boxes hold when the page opens (the models read English, so these stay English in Korean).
DEFAULT_INPUTS = {
    "sentences": ["I am a student.", "The animal didn't cross the street because it was too tired.",
                  "Let's stick to the plan."],
    "mask": "the man went to the [MASK] .",
    "next": "he bought a gallon of milk .",
    "query_key": "the cat sat on the mat because it was tired .",
}


def missing() -> list[str]:
    """Keys lacking a non-empty string in some language (the tests want none)."""
    return sorted(k for k, v in STRINGS.items() if any(not str(v.get(lang) or "").strip() for lang in LANGS))
