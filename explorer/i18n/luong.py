"""Strings of Luong's four steps, named and numbered as deck 000 has them (ui/tabs/luong.py):
key -> {"en": ..., "ko": ...} (explorer/i18n/__init__.py merges every module here)."""

STRINGS = {
    # Luong's four steps (explorer/compute/luong.py), named and numbered as the lecture deck 000 has them
    "lu.intro": {
        "en": "One decoding step of an RNN encoder-decoder (Luong et al. 2015) in four steps. Given the encoder's "
              "hidden states h_i and the decoder's hidden state h_t: 1. Attention Score e_t = score(h_t, h_i) (dot, "
              "general = Multiplicative, scaled dot); 2. Attention Distribution α_t = softmax(e_t); 3. Attention "
              "Value a_t = Σ α_t,i h_i, the context vector; 4. Prediction Vector h~_t = tanh(W_c [a_t; h_t]), and "
              "softmax(W_s h~_t) over the vocabulary. Bahdanau (additive) attention scores with the previous state "
              "s_{t-1} instead and feeds a_t to the LSTM. Every number is recomputed from the weights and equals "
              "the model's own step.",
        "ko": "RNN 인코더-디코더(Luong 외 2015)의 디코딩 한 스텝을 네 단계로 봅니다. 인코더 은닉 상태 h_i와 디코더 은닉 "
              "상태 h_t에서 시작합니다: 1. 어텐션 스코어(Attention Score) e_t = score(h_t, h_i) (dot, general = "
              "Multiplicative(곱셈) 어텐션, scaled dot); 2. 어텐션 분포(Attention Distribution) α_t = softmax(e_t); "
              "3. 어텐션 값(Attention Value) a_t = Σ α_t,i h_i, 곧 컨텍스트 벡터; 4. 예측 벡터(Prediction Vector) "
              "h~_t = tanh(W_c [a_t; h_t])와 어휘 전체에 대한 softmax(W_s h~_t). Bahdanau(additive, 덧셈) 어텐션은 "
              "이전 상태 s_{t-1}로 점수를 내고 a_t를 LSTM에 넣습니다. 모든 숫자는 가중치로 다시 계산한 값이며 모델 "
              "자신의 스텝과 같습니다.",
    },
    "lu.step": {"en": "Decoding step t", "ko": "디코딩 스텝 t"},
    "lu.run": {"en": "Show the four steps", "ko": "네 단계 보기"},
    "lu.top_k": {"en": "Top-k next words", "ko": "다음 단어 후보 수 (top-k)"},
    "lu.panel_scores": {"en": "1. Attention Score e_t = score({query}, h_i)",
                        "ko": "1. 어텐션 스코어 (Attention Score) e_t = score({query}, h_i)"},
    "lu.panel_weights": {"en": "2. Attention Distribution α_t = softmax(e_t)",
                         "ko": "2. 어텐션 분포 (Attention Distribution) α_t = softmax(e_t)"},
    "lu.panel_top": {"en": "4. softmax(W_s h~_t): top {k}", "ko": "4. softmax(W_s h~_t): 상위 {k}개"},
    "lu.fig_steps": {"en": "Step {t}: reads '{read}', puts out '{token}'", "ko": "스텝 {t}: '{read}'을(를) 읽고 '{token}'을(를) 냄"},
    "lu.fig_vectors": {"en": "The vectors of step {t}", "ko": "스텝 {t}의 벡터들"},
    "lu.row_enc": {"en": "h_{i} ('{token}')", "ko": "h_{i} ('{token}')"},
    "lu.row_query": {"en": "the state that scores: {query}", "ko": "점수를 내는 상태: {query}"},
    "lu.row_state": {"en": "the new state {state}", "ko": "새 상태 {state}"},
    "lu.row_context": {"en": "3. Attention Value a_t = Σ α_t,i h_i (context vector)",
                       "ko": "3. 어텐션 값 (Attention Value) a_t = Σ α_t,i h_i (컨텍스트 벡터)"},
    "lu.row_attentional": {"en": "4. Prediction Vector h~_t = tanh(W_c {concat})",
                           "ko": "4. 예측 벡터 (Prediction Vector) h~_t = tanh(W_c {concat})"},
    "lu.summary": {"en": "**{model}** ({score}), step {t}: reads **{read}**, puts out **{token}** with p = {p} (rank {rank}); "
                         "the most attended source token is **{src}** (α = {a:.3f}).",
                   "ko": "**{model}** ({score}), 스텝 {t}: 읽은 토큰 **{read}**, 낸 토큰 **{token}**, p = {p} "
                         "(순위 {rank}). 가장 많이 보는 원문 토큰: **{src}** (α = {a:.3f})."},
    "lu.score_dot": {"en": "dot", "ko": "dot (내적)"},
    "lu.score_scaled_dot": {"en": "scaled dot", "ko": "scaled dot (스케일드 내적)"},
    "lu.score_general": {"en": "general (Multiplicative)", "ko": "general (Multiplicative, 곱셈)"},
    "lu.score_additive": {"en": "Bahdanau (additive)", "ko": "Bahdanau (additive, 덧셈)"},
}
