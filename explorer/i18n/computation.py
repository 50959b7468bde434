"""Strings of the whole computation group (Inside a layer, Luong's steps, next-word choices, BERT's inputs, ELMo):
key -> {"en": ..., "ko": ...} (explorer/i18n/__init__.py merges every module here)."""

STRINGS = {
    "tab.layer": {"en": "Inside a layer", "ko": "레이어 내부 들여다보기"},
    "tab.luong": {"en": "Luong's four steps", "ko": "Luong 어텐션의 네 단계"},
    "tab.choices": {"en": "Next-word choices", "ko": "다음 단어 후보"},
    "tab.bert_inputs": {"en": "BERT's inputs & masking", "ko": "BERT 입력과 마스킹"},
    "tab.elmo": {"en": "ELMo: mixing layers", "ko": "ELMo: 레이어 가중합"},
    "what.target": {"en": "target", "ko": "목표 번역"},
    "col.top-k": {"en": "top-k", "ko": "상위 k개"},
    "col.original": {"en": "original", "ko": "원래 토큰"},
    "col.action": {"en": "action", "ko": "처리"},
    "col.model reads": {"en": "model reads", "ko": "모델 입력"},
    "col.layer": {"en": "layer", "ko": "레이어"},
    "col.weight s_j": {"en": "weight s_j", "ko": "가중치 s_j"},
    "col.cosine 1·2": {"en": "cosine 1·2", "ko": "코사인 유사도 1·2"},
}
