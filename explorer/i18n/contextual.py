"""Strings of the contextual vectors tab (ui/tabs/contextual.py):
key -> {"en": ..., "ko": ...} (explorer/i18n/__init__.py merges every module here)."""

STRINGS = {
    "ctx.intro": {
        "en": "A static embedding gives a word one vector whatever the sentence; a contextual model gives it a "
              "different vector in every context (Ethayarajh 2019). Type a word and sentences that use it, one per "
              "line. The heatmap is the cosine between the word's contextual vectors, the bars the cosine of each "
              "with the word's own static (input) embedding. English words go through BERT's last layer; the "
              "Korean 배 (belly / boat / pear) through bert-ko, a small Korean BERT trained here with one piece per "
              "syllable, so that 배 is its own token whatever particle follows. On sentences written for the check, "
              "배가 in both senses finds its own sense as nearest neighbour 8 times of 8, 배를 only 2 to 4 of 8, and "
              "pear is rare in its text (docs/korean-bert.md). How much a vector knows of its context is learnt "
              "from data.",
        "ko": "정적 임베딩은 문장과 상관없이 한 단어에 벡터 하나를 주지만, 문맥 임베딩 모델은 문맥마다 다른 벡터를 줍니다"
              "(Ethayarajh 2019). 단어와 그 단어가 들어간 문장을 한 줄에 하나씩 입력하세요. 히트맵은 문맥별 벡터 "
              "사이의 코사인 유사도, 막대는 각 벡터와 그 단어의 정적(입력) 임베딩 사이의 코사인 유사도입니다. 영어 "
              "단어는 BERT의 마지막 레이어로, 한국어 '배'(신체의 배 / 타는 배 / 먹는 배)는 bert-ko로 비교합니다. "
              "bert-ko는 여기서 학습한 작은 한국어 BERT로, 음절 하나가 조각 하나여서 어떤 조사가 붙어도 '배'가 "
              "자기 토큰이 됩니다. 확인용으로 쓴 문장에서 두 뜻의 '배가'는 8개 중 8개가 가장 가까운 이웃으로 같은 "
              "뜻을 찾지만, '배를'은 8개 중 2~4개뿐이고, 먹는 배는 학습 텍스트에 드뭅니다(docs/korean-bert.md). "
              "벡터가 문맥을 얼마나 담는지는 데이터에서 배웁니다.",
    },
    "ctx.word": {"en": "Word", "ko": "단어"},
    "ctx.sentences": {"en": "Sentences, one per line (empty: the built-in ones for bank, stick, 배)",
                      "ko": "문장, 한 줄에 하나 (비워 두면 bank, stick, 배의 기본 예문)"},
    "ctx.model": {"en": "Model (auto: the example's, else BERT)", "ko": "모델 (auto: 예시에 맞는 모델, 없으면 BERT)"},
    "ctx.run": {"en": "Compare contexts", "ko": "문맥 비교하기"},
    "ctx.figure": {"en": "Cosine similarities", "ko": "코사인 유사도"},
    "ctx.table": {"en": "Contexts", "ko": "문맥"},
    "ctx.summary": {
        "en": "**{word}** in {model} ({source}): cosine between contexts from {lo:.3f} to {hi:.3f}.",
        "ko": "{model}({source})의 **{word}**: 문맥 사이 코사인 유사도 {lo:.3f} ~ {hi:.3f}.",
    },
    "ctx.summary_two": {
        "en": "**{word}** in {model} ({source}): cosine between the two contexts {cos:.3f}.",
        "ko": "{model}({source})의 **{word}**: 두 문맥 사이 코사인 유사도 {cos:.3f}.",
    },
    "ctx.summary_one": {
        "en": "**{word}** in {model} ({source}): one context, whose cosine with the static embedding is {static:.3f}.",
        "ko": "{model}({source})의 **{word}**: 문맥 하나. 정적 임베딩과의 코사인 유사도는 {static:.3f}.",
    },
    # lab.ContextualResult.source, the vectors compared
    "ctx.source.BERT last layer": {"en": "BERT last layer", "ko": "BERT 마지막 레이어"},
    "ctx.source.Transformer encoder output": {"en": "Transformer encoder output", "ko": "트랜스포머 인코더 출력"},
}
