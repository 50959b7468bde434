"""Strings of the beam search tab (ui/tabs/beam.py):
key -> {"en": ..., "ko": ...} (explorer/i18n/__init__.py merges every module here)."""

STRINGS = {
    "beam.intro": {
        "en": "Beam search keeps the N best partial translations at every step and ranks the finished ones by "
              "log-probability divided by a length penalty (Wu et al. 2016) with each model's own α, chosen on its "
              "validation split (shown under the translation). The table lists them best "
              "first with their summed log-probability; choose one to see the Encoder-Decoder Attention that produced it "
              "(the model is run again, teacher-forced on that hypothesis).",
        "ko": "빔 서치는 매 단계마다 가장 좋은 N개의 부분 번역을 남기고, 완성된 번역을 길이 페널티(Wu et al. "
              "2016; α는 모델마다 검증 데이터로 고른 값이며 번역 아래에 표시됩니다)로 나눈 로그 확률로 "
              "순위를 매깁니다. 표는 번역 후보들을 점수 높은 순으로, 로그 확률의 합과 함께 "
              "보여 줍니다. 번역 후보를 고르면 그 번역을 만들 때의 인코더-디코더 어텐션을 볼 수 있습니다"
              "(그 후보를 디코더 입력으로 모델을 다시 실행합니다).",
    },
    "beam.alpha": {"en": "Length penalty of {model}: α = {alpha:.1f} (chosen on its validation split; score = "
                         "log-prob / ((5 + length) / 6)^α).",
                   "ko": "{model}의 길이 페널티: α = {alpha:.1f} (검증 데이터로 고른 값; 점수 = 로그 확률 / "
                         "((5 + 길이) / 6)^α)."},
    "beam.size": {"en": "Beam size N", "ko": "빔 크기 N"},
    "beam.run": {"en": "Search", "ko": "탐색하기"},
    "beam.table": {"en": "Hypotheses with log-probabilities", "ko": "번역 후보와 로그 확률"},
    "beam.figure": {"en": "Scores and prefix tree", "ko": "점수와 접두사 트리"},
    "beam.choose": {"en": "Show the attention of hypothesis", "ko": "어텐션을 볼 번역 후보"},
    "beam.grid": {"en": "Encoder-Decoder Attention of the chosen hypothesis, all layers × heads (an RNN has one of each)",
                  "ko": "선택한 번역 후보의 인코더-디코더 어텐션 (모든 레이어 × 헤드, RNN은 하나씩)"},
    "beam.mean": {"en": "Last layer, mean over heads (an RNN: its one map)",
                  "ko": "마지막 레이어, 헤드 평균 (RNN은 그 하나의 맵)"},
}
