"""Strings of the seq2seq + attention tab (ui/tabs/seq2seq.py):
key -> {"en": ..., "ko": ...} (explorer/i18n/__init__.py merges every module here)."""

STRINGS = {
    "s2s.intro": {
        "en": "An RNN encoder-decoder (English → French). Pick how the decoder scores each source state; the "
              "alignment shows, for every produced token (row), the attention over the source (columns). "
              "'I am a student.' should come out as 'je suis étudiant'. The four attention models were trained with "
              "one extra loss, guided alignment (Chen et al. 2016): each French word's attention is pulled toward the "
              "English word transformer-en-fr attends to most, so these maps are taught as well as learned.",
        "ko": "RNN 인코더-디코더(영어 → 프랑스어)입니다. 디코더가 각 소스 상태와의 유사도를 점수로 매기는 방식(점수 함수)을 "
              "고르세요. 정렬(alignment) 그림에서 행은 디코더가 만든 토큰, 열은 소스 토큰이고, 값은 그 토큰을 만들 때 각 소스 "
              "토큰에 준 어텐션 가중치입니다. 'I am a student.'는 'je suis étudiant'로 번역되어야 합니다. "
              "어텐션이 있는 네 모델은 손실 하나를 더해 학습했습니다(guided alignment, Chen et al. 2016). 프랑스어 "
              "단어마다 transformer-en-fr 모델이 가장 많이 보는 영어 단어 쪽으로 어텐션을 끌어당기므로, 이 정렬은 "
              "스스로 배운 것이면서 가르친 것이기도 합니다. 모델이 영어 문장을 읽으므로 예시도 영어입니다.",
    },
    "s2s.none_choice": {"en": "none (no attention)", "ko": "없음 (어텐션 없음)"},
    "s2s.score": {"en": "Score function", "ko": "점수(유사도) 함수"},
    "s2s.text": {"en": "English sentence", "ko": "영어 문장"},
    "s2s.align": {"en": "Alignment (target × source)", "ko": "정렬 (타깃 × 소스)"},
    "s2s.step": {"en": "Decoding step", "ko": "디코딩 단계"},
    "s2s.bars": {"en": "Attention at this step", "ko": "이 단계의 어텐션"},
    "s2s.files": {"en": "Downloads: record JSON, alignment CSV, alignment figure HTML (every step)",
                  "ko": "다운로드: 기록 JSON, 정렬 CSV, 정렬 그림 HTML (모든 단계)"},
}
