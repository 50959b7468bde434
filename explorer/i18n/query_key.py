"""Strings of the query / key tab and the queries and keys of many sentences (ui/tabs/query_key.py):
key -> {"en": ..., "ko": ...} (explorer/i18n/__init__.py merges every module here)."""

STRINGS = {
    "qk.intro": {
        "en": "How one BERT head turns a query and the keys into attention (Vaswani et al. 2017, eq. 1): the "
              "query q of the chosen token, every key k_j, the terms q·k_j/√d_k and their softmax. The table's "
              "last column is the model's own attention for comparison; the two agree.",
        "ko": "BERT의 한 헤드가 쿼리와 키로부터 어텐션을 만드는 과정(Vaswani et al. 2017, 식 1)입니다: 선택한 "
              "토큰의 쿼리 q, 모든 키 k_j, q·k_j/√d_k 값과 그 소프트맥스. 표의 마지막 열은 비교를 위한 모델 자체의 "
              "어텐션이며, 두 값은 일치합니다.",
    },
    "qk.query": {"en": "Query token", "ko": "쿼리 토큰"},
    "qk.run": {"en": "Show", "ko": "보기"},
    "qk.figure": {"en": "Query, keys, scores and softmax", "ko": "쿼리, 키, 점수(유사도)와 소프트맥스"},
    "qk.table": {"en": "Terms per key", "ko": "키별 점수와 가중치"},
    "qk.summary": {
        "en": "Layer {layer}, head {head}: the query **{q}** attends most to **{k}** ({p:.3f}); d_k = {d}.",
        "ko": "레이어 {layer}, 헤드 {head}에서 어텐션이 가장 큰 키: 쿼리 **{q}** → 키 **{k}** ({p:.3f}). d_k = {d}.",
    },
    "qk.qk_norm": {
        "en": "This model has **QK-LayerNorm** (Dehghani et al. 2023): each head LayerNorms its queries and keys "
              "before the dot product, so q and every k_j above are the normed vectors, and a score can grow only "
              "through the norms' learned gains and biases.",
        "ko": "이 모델에는 **QK-LayerNorm**(Dehghani et al. 2023)이 있습니다: 각 헤드가 내적 전에 쿼리와 키를 "
              "LayerNorm하므로 위의 q와 모든 k_j는 정규화된 벡터이며, 점수는 정규화의 학습되는 스케일(γ)과 편향(β)을 "
              "통해서만 커질 수 있습니다.",
    },
    "qke.heading": {
        "en": "### Queries and keys of many sentences\n"
              "The same head's queries (●) and keys (◆) of a few thousand tokens of held-out sentences in one plane, "
              "as AttentionViz draws them (Yeh et al. 2023), with your sentence's own queries and keys drawn large "
              "and named. Layer and head follow the sliders above; the star is the chosen query token.",
        "ko": "### 여러 문장의 쿼리와 키\n"
              "학습에 쓰지 않은 문장들의 토큰 수천 개에 대해 같은 헤드의 쿼리(●)와 키(◆)를 한 평면에 그린 것입니다"
              "(AttentionViz, Yeh et al. 2023). 입력한 문장의 쿼리와 키는 크게, 토큰 이름과 함께 표시됩니다. "
              "레이어와 헤드는 위 슬라이더를 따르며, 별은 선택한 쿼리 토큰입니다.",
    },
    "qke.colour_by": {"en": "Colour the points by", "ko": "점의 색 기준"},
    "qke.by_kind": {"en": "query or key", "ko": "쿼리 또는 키"},
    "qke.by_position": {"en": "position in the sentence", "ko": "문장 안의 위치"},
    "qke.by_pos": {"en": "part of speech", "ko": "품사"},
    "qke.figure": {"en": "Queries and keys of many sentences", "ko": "여러 문장의 쿼리와 키"},
    "qke.title": {"en": "Layer {layer}, head {head}: {points:,} queries and {points:,} keys of {sentences} sentences",
                  "ko": "레이어 {layer}, 헤드 {head}: 문장 {sentences}개의 쿼리 {points:,}개와 키 {points:,}개"},
    "qke.text": {
        "en": "Each small mark is one token's query or key in layer {layer}, head {head}, for {points:,} tokens of "
              "{sentences} sentences of UD English EWT (dev, which the model never trained on), projected by one "
              "PCA of queries and keys together; the two axes hold {share:.0%} of their variance. Before the PCA "
              "the keys are moved so that their mean is the queries' mean, and both are scaled to the same mean "
              "length: neither changes the head's attention (the softmax ignores a number added to every score of "
              "a query). A query near many keys tends to score them high, but a plane keeps only part of the dot "
              "product: read it as a map of the head, and the table above for its attention.",
        "ko": "작은 점 하나는 레이어 {layer}, 헤드 {head}에서 토큰 하나의 쿼리 또는 키입니다. UD English EWT(dev, "
              "모델이 학습하지 않은 데이터)의 문장 {sentences}개, 토큰 {points:,}개를 쿼리와 키를 함께 넣은 PCA(주성분 "
              "분석) 하나로 투영했고, 두 축이 분산의 {share:.0%}를 담습니다. PCA 전에 키의 평균이 쿼리의 평균과 같도록 "
              "키를 옮기고, 둘의 평균 길이가 같도록 크기를 맞춥니다. 둘 다 헤드의 어텐션을 바꾸지 않습니다(한 쿼리의 모든 "
              "점수에 같은 수를 더해도 소프트맥스는 그대로입니다). 여러 키 가까이 있는 쿼리는 그 키들에 높은 점수를 주는 "
              "경향이 있지만, 평면은 내적의 일부만 담습니다. 헤드의 지도로 읽고, 어텐션 자체는 위의 표에서 보세요.",
    },
    "qke.none": {
        "en": "No embedding of many sentences was precomputed for **{model}**: it is made for the shipped BERT "
              "(`python -m scripts.qk_embedding`).",
        "ko": "**{model}** 모델에는 미리 계산한 여러 문장의 임베딩이 없습니다. 기본 제공 BERT용으로 만들어져 있습니다"
              "(`python -m scripts.qk_embedding`).",
    },
    "qkef.queries": {"en": "queries", "ko": "쿼리"},
    "qkef.keys": {"en": "keys", "ko": "키"},
    "qkef.your_queries": {"en": "your sentence: queries", "ko": "입력 문장: 쿼리"},
    "qkef.your_keys": {"en": "your sentence: keys", "ko": "입력 문장: 키"},
    "qkef.position": {"en": "position", "ko": "위치"},
    "qkef.pos": {"en": "part of speech", "ko": "품사"},
    "qkef.axis": {"en": "PC {n}", "ko": "주성분 {n}"},
    "qkef.chosen": {"en": "chosen query", "ko": "선택한 쿼리"},
    "qkef.sentence": {"en": "sentence", "ko": "문장"},
}
