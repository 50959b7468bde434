"""Strings of notices beside a result (Notice keys):
key -> {"en": ..., "ko": ...} (explorer/i18n/__init__.py merges every module here)."""

STRINGS = {
    "note.text_cut": {"en": "{what} cut to its first {chars} characters ({dropped} dropped).",
                      "ko": "{what} 입력을 앞의 {chars}자로 잘랐습니다({dropped}자 제외)."},
    "note.source_cut": {"en": "Source cut to {limit} subword tokens ({dropped} dropped).",
                        "ko": "소스를 서브워드 토큰 {limit}개로 잘랐습니다({dropped}개 제외)."},
    "note.no_eos": {"en": "The translation hit the length limit before </s>.",
                    "ko": "번역이 </s>에 이르기 전에 길이 제한에 닿았습니다."},
    "note.bert_cut": {"en": "Input cut to BERT's {limit} tokens ({dropped} dropped).",
                      "ko": "입력을 BERT의 토큰 {limit}개로 잘랐습니다({dropped}개 제외)."},
    "note.specials_dropped": {
        "en": "Left out {tokens}: the model adds its own special tokens, and typed ones would be read as real ones.",
        "ko": "{tokens}은(는) 뺐습니다. 특수 토큰은 모델이 직접 붙이며, 입력에 적은 것은 진짜 특수 토큰으로 읽히기 "
              "때문입니다."},
    "note.unknown_tokens": {
        "en": "Unknown to this model (read as {token}): {n} of {total} input tokens.",
        "ko": "입력 토큰 {total}개 중 {n}개는 이 모델이 모르는 토큰입니다({token}로 읽음)."},
    "note.unknown_tokens_lang": {
        "en": "Unknown to this model (read as {token}): {n} of {total} input tokens. Is it in a language this "
              "model reads ({reading})?",
        "ko": "입력 토큰 {total}개 중 {n}개는 이 모델이 모르는 토큰입니다({token}로 읽음). 이 모델이 읽는 언어"
              "({reading})로 쓴 문장인가요?"},
    "note.looks_french": {
        "en": "This model reads English ({direction}), and the sentence looks French: its translation will not mean "
              "much. Type an English sentence.",
        "ko": "이 모델은 영어를 읽는데({direction}) 문장이 프랑스어로 보입니다. 번역은 별 의미가 없을 것입니다. "
              "영어 문장을 입력하세요."},
    "note.not_korean": {
        "en": "This model reads Korean ({direction}), and the sentence has no Korean letters: its translation will "
              "not mean much. Choose a model for the sentence's language.",
        "ko": "이 모델은 한국어를 읽는데({direction}) 문장에 한글이 하나도 없습니다. 번역은 별 의미가 없을 것입니다. "
              "문장의 언어에 맞는 모델을 고르세요."},
    "note.api_trace_left_out": {
        "en": "attention.enc_self is sent for inputs of up to {limit} tokens (this one has {tokens}): the figure is "
              "the last layer's mean over heads; explorer.compute.inference in Python returns every layer and head for any "
              "length.",
        "ko": "attention.enc_self는 {limit}개 토큰까지의 입력에만 보냅니다(이 입력은 {tokens}개). 그림은 마지막 레이어의 "
              "헤드 평균이며, 파이썬의 explorer.inference는 길이와 상관없이 모든 레이어와 헤드를 돌려줍니다."},
    "note.unavailable": {"en": "{name} is not available.", "ko": "{name}을(를) 사용할 수 없습니다."},
    "note.unavailable_why": {"en": "{name} is not available: {why}.", "ko": "{name}을(를) 사용할 수 없습니다: {why}."},
    "note.of_model": {"en": "{name}: {notice}", "ko": "{name}: {notice}"},
    "note.first_of": {"en": "'{word}' occurs {n} times in '{text}'; the first is used.",
                      "ko": "'{word}'이(가) '{text}'에 {n}번 나옵니다. 첫 번째를 씁니다."},
    "note.first_sentences": {"en": "Only the first {n} sentences are compared.",
                             "ko": "앞의 {n}개 문장만 비교합니다."},
    "note.one_sentence": {"en": "One sentence: add another that uses '{word}' to compare its contexts.",
                          "ko": "문장이 하나뿐입니다. 문맥을 비교하려면 '{word}'이(가) 들어간 문장을 하나 더 넣으세요."},
}
