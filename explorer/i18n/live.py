"""Strings of live training (ui/tabs/live.py):
key -> {"en": ..., "ko": ...} (explorer/i18n/__init__.py merges every module here)."""

STRINGS = {
    "live.intro": {
        "en": "Train a tiny attentional encoder-decoder (64-dimensional embeddings and states) on a toy English → French grammar on this "
              "server's CPU and watch the alignment on the probe sentence sharpen. In French, colours follow the "
              "noun and negation wraps the verb (ne … pas), so the right alignment is not the diagonal. Its rows are "
              "the reference translation, fed to the decoder (teacher forcing); the model's own output is shown "
              "beside it. One training "
              "runs at a time (others wait in line); it stops at the time limit, when you press Stop, or when you "
              "close the page.",
        "ko": "작은 어텐션 인코더-디코더(임베딩·은닉 상태 64차원)를 이 서버의 CPU에서 토이 영어 → 프랑스어 문법으로 학습시키며, "
              "관찰 문장의 정렬(alignment)이 점점 또렷해지는 것을 지켜보세요. 프랑스어에서는 색깔 형용사가 명사 뒤에 오고 "
              "부정이 동사를 감싸므로(ne … pas) 올바른 정렬은 대각선이 아닙니다. 정렬의 행은 디코더에 넣어 준 정답 "
              "번역(teacher forcing)의 토큰이며, 모델이 만든 번역은 따로 보여 줍니다. 한 번에 하나의 학습만 실행되며 "
              "(다른 사람은 차례를 기다림), 시간 제한에 도달하거나 멈추기를 누르거나 페이지를 닫으면 멈춥니다.",
    },
    "live.seconds": {"en": "Training time (seconds)", "ko": "학습 시간 (초)"},
    "live.score": {"en": "Score function", "ko": "점수(유사도) 함수"},
    "live.probe": {"en": "Probe sentence (words of the toy grammar)", "ko": "관찰 문장 (토이 문법의 영어 단어만)"},
    "live.start": {"en": "Start training", "ko": "학습 시작"},
    "live.stop": {"en": "Stop", "ko": "멈추기"},
    "live.loss": {"en": "Training loss", "ko": "학습 손실"},
    "live.align": {"en": "Alignment on the probe sentence", "ko": "관찰 문장의 정렬"},
    "live.translation": {"en": "Current translation of the probe", "ko": "관찰 문장의 현재 번역"},
    "live.files": {"en": "Download: the final record (JSON)", "ko": "다운로드: 최종 기록 (JSON)"},
    "live.stopped": {"en": "Stopped.", "ko": "멈췄습니다."},
    "live.starting": {"en": "Starting: building the model…", "ko": "시작하는 중: 모델을 만드는 중…"},
    "live.align_title": {"en": "after {step} steps", "ko": "{step} 스텝 후"},
    "live.status": {"en": "Training… {s:.0f} s, step {step}, loss {loss}",
                    "ko": "학습 중… {s:.0f}초, {step} 스텝, 손실 {loss}"},
    "live.done": {"en": "Done: {s:.0f} s, {step} steps, last loss {loss}.",
                  "ko": "완료: {s:.0f}초, {step} 스텝, 마지막 손실 {loss}."},
}
