"""Strings of ELMo's layer mix (ui/tabs/elmo.py):
key -> {"en": ..., "ko": ...} (explorer/i18n/__init__.py merges every module here)."""

STRINGS = {
    # ELMo (explorer/compute/elmo.py)
    "el.intro": {
        "en": "ELMo's equation, ELMo_k = γ Σ_j s_j h_k,j, on this repo's encoders: a word's vector from every layer "
              "(j = 0 is the input embedding), mixed with the weights s_j (scaled to sum to 1; uniform by default) "
              "and the scale γ. The line shows the cosine similarity between two senses of the word with each layer "
              "alone; the dashed line, with your mix. γ scales the vector and leaves every cosine as it is.",
        "ko": "ELMo의 식 ELMo_k = γ Σ_j s_j h_k,j 를 이 저장소의 인코더에 적용합니다: 단어의 벡터를 레이어마다 꺼내 "
              "(j = 0은 입력 임베딩) 가중치 s_j(합이 1이 되도록 조정, 기본은 균등)와 배율 γ로 섞습니다. 실선은 레이어 "
              "하나만 쓸 때 두 의미 사이의 코사인 유사도, 점선은 지정한 가중합의 코사인 유사도입니다. γ는 벡터의 크기만 "
              "바꾸고 코사인 유사도는 바꾸지 않습니다.",
    },
    "el.word": {"en": "Word", "ko": "단어"},
    "el.sentences": {"en": "Sentences (one per line; the first two are compared)",
                     "ko": "문장 (한 줄에 하나; 앞의 두 문장을 비교)"},
    "el.weights": {"en": "Layer weights s_j, comma-separated (blank: uniform)", "ko": "레이어 가중치 s_j, 쉼표로 구분 (비우면 균등)"},
    "el.gamma": {"en": "γ (scale)", "ko": "γ (배율)"},
    "el.normalize": {"en": "LayerNorm each layer before mixing (Peters et al. 2018, sec. 3.2)",
                     "ko": "섞기 전에 레이어마다 LayerNorm (Peters 외 2018, 3.2절)"},
    "el.run": {"en": "Mix the layers", "ko": "레이어 섞기"},
    "el.figure": {"en": "'{word}' in {model}: layer weights and the cosine similarity of two senses",
                  "ko": "{model}의 '{word}': 레이어 가중치와 두 의미의 코사인 유사도"},
    "el.s": {"en": "weight s_j", "ko": "가중치 s_j"},
    "el.cos_layer": {"en": "cosine, one layer alone", "ko": "코사인 유사도, 레이어 하나만"},
    "el.cos_mix": {"en": "cosine of the mix", "ko": "가중합의 코사인 유사도"},
    "el.embeddings": {"en": "embeddings", "ko": "임베딩"},
    "el.layer": {"en": "layer {j}", "ko": "레이어 {j}"},
    "el.summary": {"en": "Sentences 1 and 2: cosine {mix:.3f} with this mix; from {lo:.3f} ({lo_layer}) to {hi:.3f} "
                         "({hi_layer}) with one layer alone.",
                   "ko": "문장 1과 2: 이 가중합의 코사인 유사도 {mix:.3f}; 레이어 하나만 쓰면 {lo:.3f} ({lo_layer}) ~ "
                         "{hi:.3f} ({hi_layer})."},
}
