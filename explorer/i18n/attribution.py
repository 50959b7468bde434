"""Strings of what attention explains: attribution beside attention (ui/tabs/attribution.py):
key -> {"en": ..., "ko": ...} (explorer/i18n/__init__.py merges every module here)."""

STRINGS = {
    "tab.attribution": {"en": "What attention explains", "ko": "어텐션이 설명하는 것"},
    "attr.intro": {
        "en": "### Attention beside attribution\nOne prediction, six answers to *which input tokens mattered?*: "
              "the last layer's **attention** (heads averaged), **rollout** through the layers (Abnar & Zuidema "
              "2020), the **norm** ‖Σ α·f(x)‖ of what each token sends (Kobayashi et al. 2020), **value zeroing** "
              "(Mohebbi et al. 2023: a token's value set to 0, how far the output moves), **gradient × input** and "
              "**integrated gradients** (Sundararajan et al. 2017). Each row is scaled to its own largest value; "
              "the matrix gives Spearman's ρ between the rankings. Where attention's ranking disagrees with the "
              "gradient methods', attention is not the explanation.",
        "ko": "### 어텐션과 기여도 나란히\n예측 하나에 대해 ‘어떤 입력 토큰이 중요했나?’라는 물음에 여섯 가지 답: 마지막 "
              "레이어의 **어텐션**(헤드 평균), 레이어를 거친 **롤아웃**(Abnar & Zuidema 2020), 각 토큰이 보내는 "
              "벡터의 **노름** ‖Σ α·f(x)‖(Kobayashi et al. 2020), **값 0 만들기**(Mohebbi et al. 2023: 한 토큰의 "
              "값 벡터를 0으로 두었을 때 출력이 움직이는 정도), **그래디언트 × 입력**, **적분 그래디언트**"
              "(Sundararajan et al. 2017). 각 행은 그 행의 최댓값으로 나누었고, 행렬은 순위 사이의 스피어만 ρ입니다. "
              "어텐션의 순위가 그래디언트 방법들과 다르면 어텐션은 설명이 아닙니다."},
    "attr.task": {"en": "Prediction", "ko": "예측"},
    "attr.task_fill": {"en": "BERT: the word at [MASK]", "ko": "BERT: [MASK] 자리의 단어"},
    "attr.task_translate": {"en": "Transformer en→fr: a translated word", "ko": "Transformer 영→불: 번역된 단어"},
    "attr.text": {"en": "Sentence", "ko": "문장"},
    "attr.run": {"en": "Compute the six measures", "ko": "여섯 가지 측정 계산"},
    "attr.target": {"en": "Which prediction", "ko": "어느 예측"},
    "attr.measures": {"en": "Each measure over the input tokens", "ko": "입력 토큰별 각 측정"},
    "attr.correlations": {"en": "Rank correlations", "ko": "순위 상관"},
    "attr.m_attention": {"en": "attention (last layer)", "ko": "어텐션 (마지막 레이어)"},
    "attr.m_rollout": {"en": "rollout", "ko": "롤아웃"},
    "attr.m_norm": {"en": "norm ‖αf(x)‖", "ko": "노름 ‖αf(x)‖"},
    "attr.m_value_zeroing": {"en": "value zeroing", "ko": "값 0 만들기"},
    "attr.m_grad_input": {"en": "gradient × input", "ko": "그래디언트 × 입력"},
    "attr.m_integrated_gradients": {"en": "integrated gradients", "ko": "적분 그래디언트"},
    "attr.at_mask": {"en": "at [MASK]", "ko": "[MASK] 자리"},
    "attr.at_word": {"en": "word {n} of the translation", "ko": "번역의 {n}번째 단어"},
    "attr.map_title": {"en": "Which tokens mattered for '{word}' ({where})",
                       "ko": "'{word}'({where})에 중요했던 토큰"},
    "attr.corr_title": {"en": "Spearman's ρ between the measures ({n} tokens, special ones aside)",
                        "ko": "측정 사이의 스피어만 ρ (특수 토큰을 뺀 토큰 {n}개)"},
    "attr.prediction": {"en": "**{model}** predicts **{word}** with probability {p:.1f}%.",
                        "ko": "예측 (**{model}**): **{word}** (확률 {p:.1f}%)."},
    "attr.complete_ok": {"en": "Integrated gradients ({steps} steps) sum to {total:.3f}; the log-probability's change "
                               "from the baseline is {gap:.3f} (off by {err:.2f}%: complete).",
                         "ko": "적분 그래디언트({steps}단계)의 합은 {total:.3f}, 기준점에서의 로그 확률 변화는 {gap:.3f}입니다 "
                               "(차이 {err:.2f}%: 완전성 성립)."},
    "attr.complete_off": {"en": "⚠️ Integrated gradients ({steps} steps) sum to {total:.3f} where the log-probability "
                                "changes by {gap:.3f} ({err:.1f}% off): along the path the word switches on abruptly, "
                                "and {steps} steps miss part of it; read the row's ranking, not its sizes.",
                          "ko": "⚠️ 적분 그래디언트({steps}단계)의 합은 {total:.3f}인데 로그 확률은 {gap:.3f} 바뀝니다 "
                                "({err:.1f}% 차이): 경로 위에서 단어가 갑자기 바뀌어 {steps}단계가 일부를 놓칩니다. 크기보다 순위를 읽으세요."},
    "attr.agree": {"en": "Against integrated gradients: attention's ρ = {att:+.2f}; the closest measure is {best} "
                         "(ρ = {rb:+.2f}), the farthest {worst} (ρ = {rw:+.2f}).",
                   "ko": "적분 그래디언트와 비교: 어텐션의 ρ = {att:+.2f}; 가장 가까운 측정은 {best}(ρ = {rb:+.2f}), "
                         "가장 먼 측정은 {worst}(ρ = {rw:+.2f})입니다."},
    "attrf.token": {"en": "input token", "ko": "입력 토큰"},
    "attrf.measure": {"en": "measure", "ko": "측정"},
    "attrf.share": {"en": "share of the row's largest", "ko": "행 최댓값 대비 비율"},
    "attrf.value": {"en": "value", "ko": "값"},
    "attrf.rho": {"en": "Spearman's ρ", "ko": "스피어만 ρ"},
    "err.attr_empty": {"en": "The model translated this sentence to nothing; try a longer one.",
                       "ko": "모델이 이 문장을 빈 번역으로 옮겼습니다. 더 긴 문장을 넣어 보세요."},
    "err.syntax_no_table": {"en": "No heads-vs-syntax table for '{name}'.",
                            "ko": "'{name}'의 헤드-구문 표가 없습니다."},
    "err.syntax_relation": {"en": "Unknown relation '{name}'. Available: {known}.",
                            "ko": "알 수 없는 관계 '{name}'입니다. 가능한 관계: {known}."},
    "err.syntax_unreadable": {"en": "The sentence is too long for the model, or has a word it reads as nothing.",
                              "ko": "문장이 모델에 너무 길거나, 모델이 아무 토큰으로도 읽지 못하는 단어가 있습니다."},
}
