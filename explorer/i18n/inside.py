"""Strings of inside a layer (ui/tabs/inside.py, explorer/compute/inside.py):
key -> {"en": ..., "ko": ...} (explorer/i18n/__init__.py merges every module here)."""

STRINGS = {
    # inside a layer (explorer/compute/inside.py)
    "il.intro": {
        "en": "Follow one token through one layer, as the model computes it: x → Query, Key, Value (Q, K, V) per "
              "head (d_k = d_model / h) "
              "→ scores QK^T/√d_k (−∞ where the decoder's mask hides a key) → softmax → weights × V = each head's "
              "output → Concat · W^O (**Multi-Head Attention**) → + residual → LayerNorm → Position-wise FFN (W1, "
              "activation, W2) → + residual → LayerNorm → the next layer's input. Every number is recomputed from "
              "the weights and equals the model's own forward pass.",
        "ko": "토큰 하나를 레이어 하나에 통과시키며 모델이 계산하는 순서대로 따라갑니다: x → 헤드별 쿼리(Q), 키(K), 값(V) "
              "(d_k = d_model / h) → 점수 QK^T/√d_k (디코더의 마스크가 가린 키는 −∞) → 소프트맥스 → 가중치 × 값(V) = "
              "헤드별 출력 → Concat · W^O (**멀티 헤드 어텐션 (Multi-Head Attention)**) → + 잔차 연결 → LayerNorm → "
              "포지션 와이즈 FFN (Position-wise FFN; W1, 활성화 함수, W2) → + 잔차 연결 → LayerNorm → 다음 레이어의 입력. 모든 숫자는 가중치로 "
              "다시 계산한 값이며 모델 자신의 순전파 결과와 같습니다.",
    },
    "il.model": {"en": "Model", "ko": "모델"},
    "il.stack": {"en": "Stack", "ko": "스택"},
    "il.encoder": {"en": "Encoder", "ko": "인코더"},
    "il.decoder": {"en": "Decoder", "ko": "디코더"},
    "il.token": {"en": "Token to follow", "ko": "따라갈 토큰"},
    "il.target": {"en": "Your own translation (optional, decoder)", "ko": "직접 입력한 번역 (선택, 디코더)"},
    "il.run": {"en": "Follow the token", "ko": "토큰 따라가기"},
    "il.plot_stream": {"en": "The residual stream, step by step", "ko": "잔차 스트림, 단계별"},
    "il.plot_scores": {"en": "Scores and softmax, every head", "ko": "헤드별 점수와 소프트맥스"},
    "il.plot_qkv": {"en": "Queries and each head's output", "ko": "쿼리와 헤드별 출력"},
    "il.plot_heads": {"en": "Each head's contribution", "ko": "헤드별 기여도"},
    "il.plot_ffn": {"en": "Position-wise FFN: the hidden layer", "ko": "포지션 와이즈 FFN (Position-wise FFN)의 은닉층"},
    "lu.model": {"en": "Model (RNN with attention)", "ko": "모델 (어텐션이 있는 RNN)"},
    "lu.plot_steps": {"en": "Steps 1, 2 and 4", "ko": "1, 2, 4단계"},
    "lu.plot_vectors": {"en": "The vectors (h_i, h_t; steps 3 and 4)", "ko": "벡터들 (h_i, h_t; 3, 4단계)"},
    "lu.table": {"en": "Next-word candidates", "ko": "다음 단어 후보"},
    "ch.model": {"en": "Translation model", "ko": "번역 모델"},
    "ch.plot": {"en": "Attention rows and next-word choices", "ko": "어텐션 행과 다음 단어 후보"},
    "ch.table": {"en": "Every step's choices", "ko": "스텝별 후보"},
    "ch.top_k": {"en": "Top-k", "ko": "상위 k개 (top-k)"},
    "bi.plot_sum": {"en": "The input sum", "ko": "입력의 합"},
    "bi.plot_pos": {"en": "Position tables", "ko": "위치 표"},
    "bi.mask_table": {"en": "Chosen tokens and the model's predictions", "ko": "고른 토큰과 모델의 예측"},
    "el.model": {"en": "Model", "ko": "모델"},
    "el.plot": {"en": "Layer weights and cosine similarity", "ko": "레이어 가중치와 코사인 유사도"},
    "el.table": {"en": "Per layer", "ko": "레이어별"},
    "el.plot_vectors": {"en": "The word's vector at every layer, and their mix", "ko": "레이어별 단어 벡터와 가중합"},
    "el.vectors": {"en": "'{word}' in sentence 1 ({sentence}): h_j at every layer and ELMo",
                   "ko": "문장 1({sentence})의 '{word}': 레이어별 h_j와 ELMo"},
    "tab.computation": {"en": "The whole computation", "ko": "계산 과정 전체"},
    "il.summary_md": {"en": "Summary", "ko": "요약"},
    "il.fig_stream": {"en": "The residual stream at '{token}', layer {l}", "ko": "'{token}'의 잔차 스트림, 레이어 {l}"},
    "il.fig_qkv": {"en": "{kind}: the query q of '{token}' and each head's output, weights × V (h = {h}, d_k = {d_k})",
                   "ko": "{kind}: '{token}'의 쿼리 q와 헤드별 출력 가중치 × 값(V) (h = {h}, d_k = {d_k})"},
    "il.fig_scores": {"en": "{kind}: the query '{token}' in every head", "ko": "{kind}: 모든 헤드에서 쿼리 '{token}'"},
    "il.fig_heads": {"en": "{kind}: each head's contribution |head_j · W^O_j|",
                     "ko": "{kind}: 헤드별 기여도 |head_j · W^O_j|"},
    "il.fig_ffn": {"en": "Position-wise FFN at '{token}': W1 → {act} → W2 (d_ff = {d_ff})",
                   "ko": "'{token}'의 포지션 와이즈 FFN: W1 → {act} → W2 (d_ff = {d_ff})"},
    "il.kind_self": {"en": "Multi-Head Attention (self)", "ko": "멀티 헤드 어텐션 (Multi-Head Attention, 셀프)"},
    "il.kind_masked_self": {"en": "Masked Multi-Head Attention", "ko": "마스크드 멀티 헤드 어텐션 (Masked Multi-Head Attention)"},
    "il.kind_cross": {"en": "Encoder-Decoder Attention", "ko": "인코더-디코더 어텐션 (Encoder-Decoder Attention)"},
    "il.row_x": {"en": "x: the layer's input", "ko": "x: 레이어 입력"},
    "il.row_in": {"en": "{kind}: input", "ko": "{kind}: 입력"},
    "il.row_ln": {"en": "LayerNorm(x)", "ko": "LayerNorm(x)"},
    "il.row_out": {"en": "{kind}: Concat · W^O", "ko": "{kind}: Concat · W^O"},
    "il.row_residual": {"en": "+ residual", "ko": "+ 잔차 연결"},
    "il.row_add_norm": {"en": "Add & Norm", "ko": "Add & Norm"},
    "il.short_self": {"en": "self-attention", "ko": "셀프 어텐션"},
    "il.short_masked_self": {"en": "masked self-attention", "ko": "마스크드 셀프 어텐션"},
    "il.short_cross": {"en": "Encoder-Decoder Attention", "ko": "인코더-디코더 어텐션"},
    "il.row_ffn_out": {"en": "Position-wise FFN output", "ko": "포지션 와이즈 FFN 출력"},
    "il.row_next": {"en": "the next layer's input", "ko": "다음 레이어의 입력"},
    "il.row_final": {"en": "after the final LayerNorm", "ko": "마지막 LayerNorm 뒤"},
    "il.row_q": {"en": "q head {h}", "ko": "q 헤드 {h}"},
    "il.row_head_out": {"en": "weights × V, head {h}", "ko": "가중치 × 값(V), 헤드 {h}"},
    "il.row_hidden_pre": {"en": "x W1 + b1", "ko": "x W1 + b1"},
    "il.row_hidden": {"en": "{act}(x W1 + b1)", "ko": "{act}(x W1 + b1)"},
    "il.head": {"en": "head {h}", "ko": "헤드 {h}"},
    "il.scores": {"en": "scores q·k/√d_k", "ko": "점수 (유사도) q·k/√d_k"},
    "il.softmax": {"en": "softmax: the attention weights", "ko": "소프트맥스: 어텐션 가중치"},
    "il.key": {"en": "key", "ko": "키"},
    "il.dimension": {"en": "dimension", "ko": "차원"},
    "il.norm": {"en": "norm", "ko": "노름"},
    "il.qk_norm": {"en": " The scores use q and k after QK-LayerNorm (this model has it); the raw ones are in the record.",
                   "ko": " 이 모델은 QK-LayerNorm을 쓰므로 점수는 정규화한 q와 k로 계산합니다. 정규화 전 값은 기록에 있습니다."},
    "il.order_post": {"en": "post-LN, the paper's order: {chain}", "ko": "post-LN, 논문의 순서: {chain}"},
    "il.order_pre": {"en": "pre-LN, the order this model computes: {chain}", "ko": "pre-LN, 이 모델이 계산하는 순서: {chain}"},
    "il.summary": {"en": "**{model}**, {stack} layer {l} of {n}, token **{token}** (position {i}). d_model = {d} = h × d_k "
                         "= {h} × {d_k}; d_ff = {d_ff}. {order}. |x| = {nx:.2f} → |next input| = {nn:.2f}.",
                   "ko": "**{model}**, {stack} 레이어 {l}/{n}, 토큰 **{token}** (위치 {i}). d_model = {d} = h × d_k "
                         "= {h} × {d_k}; d_ff = {d_ff}. {order}. |x| = {nx:.2f} → |다음 입력| = {nn:.2f}."},
    # inside a layer: Q, K and V per head, and each LayerNorm's mean and standard deviation (explorer/views/inside.py)
    "il.plot_kv": {"en": "Q, K and V, every head", "ko": "헤드별 쿼리(Q), 키(K), 값(V)"},
    "il.fig_kv": {"en": "{kind}: the query q of '{token}' over every key's k (K) and v (V), per head "
                        "(h = {h}, d_k = {d_k})",
                  "ko": "{kind}: 헤드별 '{token}'의 쿼리 q와 모든 키의 k (K), 값 v (V) (h = {h}, d_k = {d_k})"},
    "il.band_q": {"en": "q of '{token}'", "ko": "'{token}'의 쿼리 q"},
    "il.band_k": {"en": "K: every key's k", "ko": "K: 각 키의 k"},
    "il.band_v": {"en": "V: every key's v", "ko": "V: 각 키의 값 v"},
    "il.plot_ln": {"en": "LayerNorm of u (x + sublayer(x) at each Add & Norm; x before a pre-LN sublayer): mean and "
                         "standard deviation before and after normalising",
                   "ko": "u의 LayerNorm (Add & Norm에서는 x + 서브레이어(x), pre-LN에서는 서브레이어 앞의 x): 정규화 "
                         "전후의 평균과 표준편차"},
    "col.LayerNorm": {"en": "LayerNorm", "ko": "LayerNorm"},
    "col.mean μ": {"en": "mean μ", "ko": "평균 μ"},
    "col.std σ": {"en": "std σ = √(var + ε)", "ko": "표준편차 σ = √(분산 + ε)"},
    "col.mean of (u − μ)/σ": {"en": "mean of (u − μ)/σ", "ko": "(u − μ)/σ의 평균"},
    "col.std of (u − μ)/σ": {"en": "std of (u − μ)/σ", "ko": "(u − μ)/σ의 표준편차"},
    "col.mean after γ, β": {"en": "mean after γ, β", "ko": "γ, β 적용 후 평균"},
    "col.std after γ, β": {"en": "std after γ, β", "ko": "γ, β 적용 후 표준편차"},
    "il.ln_final": {"en": "the stack's final LayerNorm", "ko": "스택의 마지막 LayerNorm"},
}
