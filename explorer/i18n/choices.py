"""Strings of next-word choices (ui/tabs/choices.py):
key -> {"en": ..., "ko": ...} (explorer/i18n/__init__.py merges every module here)."""

STRINGS = {
    # next-word choices (explorer/compute/choices.py)
    "ch.intro": {
        "en": "Every decoding step ends in a softmax over the vocabulary's pieces; here they are put back together "
              "into whole words. For each word of the translation: the words the model weighed there (top-k), beside "
              "the Encoder-Decoder Attention row of the step that began it; the word the translation has is outlined. "
              "A rival word starts with one of the most probable pieces that can begin a word and goes on with the "
              "model's own greedy choice of pieces; its probability is the product of its pieces' probabilities. "
              "Type your own translation to see how probable the model finds each of its words (teacher forcing: "
              "your words in the model's own pieces, each word the product of its pieces) and where it attends. "
              "Try the \"it\" sentence: does the model say il (the animal) or elle (the street)?",
        "ko": "디코딩의 각 스텝은 어휘의 조각(서브워드) 전체에 대한 소프트맥스로 끝납니다. 여기서는 조각을 다시 온전한 단어로 "
              "묶어 보여 줍니다. 번역의 단어마다 모델이 저울질한 단어들(상위 k개와 확률)을, 그 단어를 시작한 스텝의 "
              "인코더-디코더 어텐션 (Encoder-Decoder Attention) 행 옆에 보여 줍니다. 번역에 들어간 단어는 테두리로 "
              "표시합니다. 후보 단어는 단어를 시작할 수 있는 가장 확률 높은 조각에서 시작해 모델 자신의 그리디 선택으로 "
              "이어지며, 그 확률은 조각 확률의 곱입니다. 원하는 번역을 직접 입력하면 모델이 그 단어 하나하나를 얼마나 "
              "그럴듯하게 보는지(teacher forcing: 입력한 단어를 모델 자신의 조각으로 나누고, 단어의 확률은 조각 확률의 곱)와 "
              "어디를 보는지 알 수 있습니다. \"it\" 문장을 넣어 보세요: 모델은 il(동물)이라고 할까요, elle(길)이라고 할까요?",
    },
    "ch.target": {"en": "Your own translation (optional)", "ko": "직접 입력한 번역 (선택)"},
    "ch.run": {"en": "Show the choices", "ko": "후보 보기"},
    "ch.figure": {"en": "Next-word choices at every step", "ko": "스텝별 다음 단어 후보"},
    "ch.att_axis": {"en": "source: the step's attention row", "ko": "원문: 그 스텝의 어텐션 행"},
    "ch.rank_axis": {"en": "top-k rank of whole words (the word in the translation outlined)",
                     "ko": "온전한 단어의 상위 k 순위 (번역에 들어간 단어는 테두리)"},
    "ch.summary": {"en": "{which}: **{text}**. log p = {lp}, perplexity {ppl} per piece; {off} of {n} words are not the "
                         "model's first choice.",
                   "ko": "{which}: **{text}**. log p = {lp}, 조각당 퍼플렉서티 {ppl}; {n}개 단어 중 {off}개는 모델의 1순위가 "
                         "아닙니다."},
    "ch.forced": {"en": "Your translation, teacher-forced", "ko": "입력한 번역 (teacher forcing)"},
    "ch.own": {"en": "The model's translation", "ko": "모델의 번역"},
}
