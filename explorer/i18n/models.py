"""Strings of the models tab (ui/tabs/models.py):
key -> {"en": ..., "ko": ...} (explorer/i18n/__init__.py merges every module here)."""

STRINGS = {
    "models.intro": {
        "en": "Every checkpoint under assets/ (parameters, where it was trained, held-out metrics). A model that "
              "failed to load shows which file is wrong.",
        "ko": "assets/ 아래의 모든 체크포인트(파라미터 수, 학습한 장치, 검증·테스트 지표)입니다. 불러오지 못한 "
              "모델은 어떤 파일이 잘못됐는지 보여 줍니다.",
    },
}
