"""Strings of the score functions tab (ui/tabs/scores.py):
key -> {"en": ..., "ko": ...} (explorer/i18n/__init__.py merges every module here)."""

STRINGS = {
    "sf.intro": {
        "en": "The same English sentence through the five RNN encoder-decoders: **dot** sᵀh and **general** sᵀWh, "
              "Multiplicative attention (Luong et al. 2015), **scaled dot** sᵀh/√d (Vaswani et al. 2017), **additive** vᵀtanh(W₁s + W₂h), "
              "Bahdanau attention (Bahdanau et al. 2015) and **none**, the fixed-vector bottleneck (Sutskever et al. 2014). In dot, "
              "general and scaled dot, s is the decoder's current state hₜ (Luong); in additive it is the previous "
              "state sₜ₋₁ and the context vector feeds the LSTM (Bahdanau), so the models differ in more than the "
              "score. The four attention models have a bidirectional encoder; none reads the source reversed with "
              "a one-way encoder, as Sutskever et al. did. All four attention models were trained with the same "
              "guided-alignment loss (see the first tab), so their maps differ less than their score functions alone "
              "would make them. Below the alignments: the entropy of every attention row "
              "in nats; 0 means all weight on one source token, log S means spread evenly over all S of them.",
        "ko": "같은 영어 문장을 다섯 가지 RNN 인코더-디코더에 넣어 봅니다: **dot** sᵀh와 **general** sᵀWh, 곧 "
              "Multiplicative(곱셈) 어텐션 (Luong et al. 2015), **scaled dot** sᵀh/√d (Vaswani et al. 2017), **additive** vᵀtanh(W₁s + W₂h), 곧 "
              "Bahdanau(덧셈, additive) 어텐션 (Bahdanau et al. 2015), 그리고 어텐션 없이 고정 크기 벡터 하나만 쓰는 **none** (Sutskever et al. "
              "2014). dot·general·scaled dot에서 s는 디코더의 현재 상태 hₜ이고(Luong), additive에서는 이전 상태 "
              "sₜ₋₁이며 컨텍스트 벡터가 LSTM 입력으로 들어갑니다(Bahdanau). 점수는 디코더 상태와 각 소스 상태가 얼마나 비슷한지(유사도)를 잽니다. "
              "따라서 모델들은 점수 함수만 다른 것이 아닙니다. 어텐션이 있는 네 모델은 양방향 인코더를 쓰고, none은 Sutskever et al.처럼 단방향 인코더로 "
              "소스를 거꾸로 읽습니다. 어텐션이 있는 네 모델은 모두 같은 guided alignment 손실로 학습했으므로(첫 번째 탭 "
              "참고), 정렬의 차이는 점수 함수만으로 생길 차이보다 작습니다. "
              "정렬 그림 아래는 어텐션 각 행의 엔트로피(nats)입니다. 0이면 소스 토큰 하나에 "
              "모든 가중치가 몰린 것이고, log S면 S개 토큰에 고르게 퍼진 것입니다.",
    },
    "sf.run": {"en": "Compare", "ko": "비교하기"},
    "sf.figure": {"en": "Alignments and entropy per row", "ko": "정렬과 행별 엔트로피"},
    "sf.table": {"en": "Translation and mean attention entropy per model", "ko": "모델별 번역과 평균 어텐션 엔트로피"},
    "sf.summary": {
        "en": "Most peaked attention: **{model}** (mean row entropy {h:.2f} nats; uniform would be {u:.2f}).",
        "ko": "가장 집중된 어텐션: **{model}** (평균 행 엔트로피 {h:.2f} nats, 균등 분포라면 {u:.2f}).",
    },
}
