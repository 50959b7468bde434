"""Strings of the Transformer tab (ui/tabs/transformer.py):
key -> {"en": ..., "ko": ...} (explorer/i18n/__init__.py merges every module here)."""

STRINGS = {
    "tr.intro": {
        "en": "Encoder self-attention (Multi-Head Attention), the decoder's masked self-attention (Masked Multi-Head "
              "Attention) and Encoder-Decoder Attention (cross attention), every layer and head at a glance; pick "
              "one to see it large. Greedy search is beam size 1.",
        "ko": "인코더 셀프 어텐션(멀티 헤드 어텐션), 디코더의 마스크드 셀프 어텐션(마스크드 멀티 헤드 어텐션), "
              "인코더-디코더 어텐션(Encoder-Decoder Attention)을 모든 레이어와 헤드에 걸쳐 한눈에 "
              "봅니다. 레이어와 헤드를 고르면 크게 볼 수 있습니다. 빔 크기 1은 그리디 디코딩입니다.",
    },
    "tr.beam": {"en": "Beam size (1 = greedy)", "ko": "빔 크기 (1 = 그리디)"},
    "tr.hyps": {"en": "Hypotheses (best first)", "ko": "번역 후보 (점수 높은 순)"},
    "tr.scores": {"en": "Selected head: scores before and after softmax", "ko": "선택한 헤드: 소프트맥스 전후의 점수(유사도)"},
    "tr.files": {"en": "Downloads: record JSON, selected matrices CSV, figures HTML",
                 "ko": "다운로드: 기록 JSON, 선택한 행렬 CSV, 그림 HTML"},
}
