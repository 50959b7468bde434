"""Strings of the attention rollout tab (ui/tabs/rollout.py):
key -> {"en": ..., "ko": ...} (explorer/i18n/__init__.py merges every module here)."""

STRINGS = {
    "ro.intro": {
        "en": "Raw attention shows one layer at a time, but information also flows through the residual "
              "connections and every layer before. **Attention rollout** (Abnar & Zuidema 2020) multiplies the "
              "layers' head-averaged attention, with the residual added as 0.5·A + 0.5·I, to estimate how much of "
              "each input token reaches each position. **Row entropy** says how spread a head's attention is "
              "(0 = on one token, log T = uniform over the T tokens).",
        "ko": "원시(raw) 어텐션은 한 번에 한 레이어만 보여 주지만, 정보는 잔차 연결과 앞선 모든 레이어를 거쳐서도 "
              "흐릅니다. **어텐션 롤아웃**(Abnar & Zuidema 2020)은 각 레이어의 헤드 평균 어텐션에 잔차를 "
              "0.5·A + 0.5·I로 더해 레이어 순서대로 곱하여, 각 입력 토큰의 정보가 각 위치에 얼마나 도달하는지 "
              "추정합니다. **행 엔트로피**(row entropy)는 헤드의 어텐션이 얼마나 퍼져 있는지 나타냅니다(0 = 한 토큰에 집중, "
              "log T = T개 토큰에 균등).",
    },
    "ro.model": {"en": "Model (BERT or a Transformer's encoder)", "ko": "모델 (BERT 또는 트랜스포머 인코더)"},
    "ro.run": {"en": "Show rollout", "ko": "롤아웃 보기"},
    "ro.grid": {"en": "Raw self-attention, every layer × head", "ko": "원시 셀프 어텐션 (모든 레이어 × 헤드)"},
    "ro.rollout": {"en": "The layer's head mean vs the rollout up to it", "ko": "해당 레이어의 헤드 평균 vs 그 레이어까지의 롤아웃"},
    "ro.entropy": {"en": "Mean row entropy per head", "ko": "헤드별 평균 행 엔트로피"},
    "ro.row_entropy": {"en": "Row entropy in the layer, head × query token",
                       "ko": "해당 레이어의 행 엔트로피 (헤드 × 쿼리 토큰)"},
}
