"""Strings of how sure the model is (explorer/figures/confidence.py):
key -> {"en": ..., "ko": ...} (explorer/i18n/__init__.py merges every module here)."""

STRINGS = {
    "conf.legend": {
        "en": "Each word's probability under the model (the product of its subwords' probabilities, each given the "
              "source and the words before it): the darker the shade, the less sure the model is; a word under {u} is "
              "also underlined with dots. Hover over a word for its number.",
        "ko": "모델이 매긴 각 단어의 확률(서브워드 확률의 곱, 각각 소스와 앞 단어들이 주어졌을 때): 색이 진할수록 "
              "모델이 덜 확신합니다. 확률이 {u} 미만인 단어에는 점선 밑줄도 그어집니다. 단어 위에 마우스를 올리면 값이 "
              "보입니다.",
    },
    "conf.word_title": {"en": "probability {p}", "ko": "확률 {p}"},
}
