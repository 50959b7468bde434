"""Strings of words many tabs share (buttons, labels, the language of a result):
key -> {"en": ..., "ko": ...} (explorer/i18n/__init__.py merges every module here)."""

STRINGS = {
    "common.examples": {"en": "Examples", "ko": "예시"},
    "common.model": {"en": "Model", "ko": "모델"},
    "common.sentence": {"en": "Sentence", "ko": "문장"},
    "common.translate": {"en": "Translate", "ko": "번역하기"},
    "common.translation": {"en": "Translation", "ko": "번역 결과"},
    "common.layer": {"en": "Layer", "ko": "레이어"},
    "common.head": {"en": "Head", "ko": "헤드"},
    "common.all_heads": {"en": "All heads", "ko": "모든 헤드"},
    "common.selected_head": {"en": "Selected head", "ko": "선택한 헤드"},
    "common.downloads": {"en": "Downloads: record JSON and tables CSV", "ko": "다운로드: 기록 JSON과 표 CSV"},
    "common.download_record": {"en": "Download: the record (JSON)", "ko": "다운로드: 기록 (JSON)"},
    "common.make_files": {"en": "Prepare the downloads", "ko": "내려받을 파일 만들기"},
}
