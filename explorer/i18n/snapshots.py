"""Strings of attention over training (ui/tabs/snapshots.py):
key -> {"en": ..., "ko": ...} (explorer/i18n/__init__.py merges every module here)."""

STRINGS = {
    "snap.intro": {
        "en": "Encoder-Decoder Attention on fixed probe sentences (mean over heads), saved while each translation model "
              "trained. At first it is nearly uniform (entropy near log S); it sharpens as the model learns which "
              "source word to read. The four RNN attention models also had a loss that pulls each French word's "
              "attention toward transformer-en-fr's alignment (guided alignment); the Transformers learned theirs from "
              "translation alone. The rows are the reference translation, fed to the decoder (teacher forcing), "
              "not the model's own output at that point. The last snapshot is the end of training, not necessarily "
              "the shipped (best) checkpoint.",
        "ko": "각 번역 모델을 학습하는 동안 고정된 관찰 문장(probe)의 인코더-디코더 어텐션(헤드 평균)을 저장해 두었습니다. "
              "처음에는 거의 균등하고(엔트로피가 log S에 가까움), 모델이 어떤 소스 단어를 읽어야 하는지 배우면서 "
              "점점 뾰족해집니다. 어텐션이 있는 네 RNN 모델은 프랑스어 단어마다 어텐션을 transformer-en-fr 모델의 정렬 쪽으로 "
              "끌어당기는 손실(guided alignment)도 함께 받았고, 트랜스포머들은 번역만으로 스스로 배웠습니다. "
              "행은 모델이 그 시점에 만든 번역이 아니라, 디코더에 넣어 준 정답 번역(teacher "
              "forcing)의 토큰입니다. 마지막 스냅샷은 학습이 끝난 시점이며, 배포한(가장 좋은) 체크포인트와 다를 수 "
              "있습니다.",
    },
    "snap.model": {"en": "Translation model", "ko": "번역 모델"},
    "snap.probe": {"en": "Probe sentence", "ko": "관찰 문장"},
    "snap.slider": {"en": "Snapshot (training progress)", "ko": "스냅샷 (학습 진행)"},
    "snap.heatmap": {"en": "Attention at this step", "ko": "이 시점의 어텐션"},
    "snap.entropy": {"en": "Mean row entropy over training", "ko": "학습에 따른 평균 행 엔트로피"},
    "snap.summary": {
        "en": "Step **{step}** (snapshot {k} of {n}; training ended at step {final}): mean row entropy **{h:.3f}** "
              "nats (uniform over the {S} source tokens: log {S} = {u:.3f}).",
        "ko": "**{step}** 스텝 (스냅샷 {k}/{n}, 학습은 {final} 스텝에서 끝남): 평균 행 엔트로피 **{h:.3f}** nats "
              "(소스 토큰 {S}개에 균등하면 log {S} = {u:.3f}).",
    },
}
