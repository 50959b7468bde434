"""Strings of the positional encoding tab (ui/tabs/positional.py):
key -> {"en": ..., "ko": ...} (explorer/i18n/__init__.py merges every module here)."""

STRINGS = {
    "pos.intro": {
        "en": "The sinusoidal positional encoding of Vaswani et al. 2017 (sec. 3.5): PE(pos, 2i) = "
              "sin(pos / 10000^(2i/d)), PE(pos, 2i+1) = cos(pos / 10000^(2i/d)). The dot product of two positions "
              "depends only on their distance. With a sentence: what adding the model's table does to its token "
              "embeddings (scaled by √d_model, sec. 3.4).",
        "ko": "Vaswani et al. 2017(3.5절)의 사인파 포지셔널 인코딩(Positional Encoding, 위치 인코딩): PE(pos, 2i) = sin(pos / 10000^(2i/d)), "
              "PE(pos, 2i+1) = cos(pos / 10000^(2i/d)). 두 위치의 내적은 위치 사이의 거리에만 의존합니다. 문장을 "
              "넣으면 모델의 포지셔널 인코딩을 더했을 때 토큰 임베딩(√d_model 배, 3.4절)이 어떻게 달라지는지 보여 줍니다.",
    },
    "pos.max_len": {"en": "Positions in the PE table", "ko": "PE 표의 위치 개수"},
    "pos.d_model": {"en": "d_model of the PE table (even; the sentence uses its model's own)",
                    "ko": "PE 표의 d_model (짝수; 문장은 모델 자신의 값을 씀)"},
    "pos.text": {"en": "Sentence (optional)", "ko": "문장 (선택)"},
    "pos.model": {"en": "Translation model for the sentence", "ko": "문장에 쓸 번역 모델"},
    "pos.run": {"en": "Draw", "ko": "그리기"},
    "pos.table": {"en": "Positional encoding table and PE·PEᵀ", "ko": "포지셔널 인코딩 표와 PE·PEᵀ"},
    "pos.sentence": {"en": "The sentence before and after adding positions", "ko": "포지셔널 인코딩을 더하기 전과 후의 문장"},
    "pos.no_sentence": {"en": "Type a sentence to see what adding the positions does to it.",
                        "ko": "문장을 입력하면 포지셔널 인코딩을 더했을 때의 변화를 보여 줍니다."},
    "pos.summary": {
        "en": "{model} (d_model = {d}): mean ‖embedding·√d‖ = {e:.2f}, ‖PE‖ = {p:.2f}.",
        "ko": "{model} (d_model = {d}): 평균 ‖임베딩·√d‖ = {e:.2f}, ‖PE‖ = {p:.2f}.",
    },
}
