"""Strings of errors (explorer.compute.inference.UserError keys) and the names they use:
key -> {"en": ..., "ko": ...} (explorer/i18n/__init__.py merges every module here)."""

STRINGS = {
    "err.bad_stack": {"en": "Stack must be one of encoder, decoder (got {stack!r}).",
                      "ko": "스택은 encoder 또는 decoder여야 합니다 (입력: {stack!r})."},
    "err.no_known_tokens": {"en": "The sentence has no tokens the model knows.",
                            "ko": "문장에 모델이 아는 토큰이 없습니다."},
    "err.bert_encoder_only": {"en": "BERT has an encoder only.", "ko": "BERT에는 인코더만 있습니다."},
    "err.no_target_tokens": {"en": "The target has no tokens the model knows.",
                             "ko": "입력한 번역에 모델이 아는 토큰이 없습니다."},
    "err.no_attention": {"en": "{name} has no attention (Sutskever et al. 2014): its decoder reads only the encoder's "
                                 "last state, so there are no scores, weights or context to show. Choose a model with "
                                 "attention.",
                         "ko": "{name}에는 어텐션이 없습니다 (Sutskever 외 2014). 디코더가 인코더의 마지막 상태만 읽으므로 "
                               "보여 줄 점수, 가중치, 컨텍스트가 없습니다. 어텐션이 있는 모델을 고르세요."},
    "err.no_attention_export": {"en": "{name} has no attention to export.", "ko": "{name}에는 내보낼 어텐션이 없습니다."},
    "err.needs_bertviz": {"en": "Writing HTML needs the bertviz package: pip install bertviz",
                          "ko": "HTML을 쓰려면 bertviz 패키지가 필요합니다: pip install bertviz"},
    "err.bad_view": {"en": "View must be one of head, model (got {view!r}).",
                     "ko": "보기는 head 또는 model이어야 합니다 (입력: {view!r})."},
    "err.bad_prob": {"en": "The share of tokens chosen must be between 0 and 1 (got {value}).",
                     "ko": "고르는 토큰 비율은 0과 1 사이여야 합니다 (입력: {value})."},
    "err.weights_not_numbers": {"en": "Layer weights must be numbers.", "ko": "레이어 가중치는 숫자여야 합니다."},
    "err.weights_count": {"en": "Give one weight per layer: {n} (embeddings and {layers} layers), got {got}.",
                          "ko": "레이어마다 가중치를 하나씩 주세요: {n}개 (임베딩과 레이어 {layers}개), 입력은 {got}개."},
    "err.weights_range": {"en": "Layer weights must be non-negative and not all zero.",
                          "ko": "레이어 가중치는 0 이상이어야 하고 모두 0이면 안 됩니다."},
    "err.gamma_range": {"en": "gamma must be a positive number.", "ko": "γ는 양수여야 합니다."},
    "abl.no_bars": {"en": "A translation has no [MASK] to guess: its two versions, every head and heads off, are above.",
                    "ko": "번역에는 맞힐 [MASK]가 없습니다. 모든 헤드일 때와 헤드를 끈 때의 두 번역은 위에 있습니다."},
    "err.layer_range": {"en": "layer must be a whole number from 0 (the embeddings) to {n}.",
                        "ko": "레이어는 0(임베딩)부터 {n}까지의 정수여야 합니다."},
    "err.two_sentences": {"en": "Give at least two sentences that use '{word}', to compare its senses.",
                          "ko": "'{word}'의 의미를 비교하려면 그 단어가 들어간 문장을 두 개 이상 주세요."},
    "note.target_cut": {"en": "Target cut to {limit} subword tokens ({dropped} dropped).",
                        "ko": "입력한 번역을 서브워드 토큰 {limit}개로 잘랐습니다 ({dropped}개 제외)."},
    "err.generic": {
        "en": "Sorry, something went wrong on our side (the details are in the server log). Please try another input.",
        "ko": "죄송합니다. 서버 쪽에서 문제가 생겼습니다(자세한 내용은 서버 로그에 있습니다). 다른 입력으로 다시 "
              "시도해 주세요.",
    },
    "err.empty": {"en": "Please type a {what}: the input is empty.", "ko": "{what} 입력이 비어 있습니다. 내용을 입력하세요."},
    # the {what} and {name} of the messages above, as explorer.compute.inference names them
    "what.sentence": {"en": "sentence", "ko": "문장"},
    "what.first sentence": {"en": "first sentence", "ko": "첫 번째 문장"},
    "what.second sentence": {"en": "second sentence", "ko": "두 번째 문장"},
    "what.word": {"en": "word", "ko": "단어"},
    "what.probe sentence": {"en": "probe sentence", "ko": "관찰 문장"},
    "what.Beam size": {"en": "Beam size", "ko": "빔 크기"},
    "what.Hypothesis": {"en": "Hypothesis", "ko": "번역 후보 번호"},
    "what.top-k": {"en": "top-k", "ko": "상위 k개"},
    "what.Layer": {"en": "Layer", "ko": "레이어"},
    "what.Head": {"en": "Head", "ko": "헤드"},
    "what.Query token": {"en": "Query token", "ko": "쿼리 토큰"},
    "what.Probe": {"en": "Probe", "ko": "관찰 문장"},
    "what.Snapshot": {"en": "Snapshot", "ko": "스냅샷"},
    "what.Number of positions": {"en": "Number of positions", "ko": "위치 개수"},
    "err.not_text": {"en": "The {what} must be text.", "ko": "{what} 입력은 텍스트여야 합니다."},
    "err.range": {"en": "{name} must be between {lo} and {hi} (got {value}).",
                  "ko": "{name} 값은 {lo}에서 {hi} 사이여야 합니다(입력: {value})."},
    "err.whole": {"en": "{name} must be a whole number between {lo} and {hi}.",
                  "ko": "{name} 값은 {lo}에서 {hi} 사이의 정수여야 합니다."},
    "err.whole_any": {"en": "{name} must be a whole number.", "ko": "{name} 값은 정수여야 합니다."},
    "err.nothing_to_choose": {"en": "There is no {name} to choose from.", "ko": "고를 수 있는 {name} 항목이 없습니다."},
    "err.no_tokens": {"en": "The sentence has no translatable tokens.", "ko": "문장에 번역할 수 있는 토큰이 없습니다."},
    "err.no_mask": {"en": "Put at least one [MASK] in the sentence, e.g. 'I am a [MASK].'",
                    "ko": "문장에 [MASK]를 하나 이상 넣으세요. 예: 'I am a [MASK].'"},
    "err.mask_too_late": {"en": "Every [MASK] fell beyond BERT's length limit; put one earlier in the text.",
                          "ko": "모든 [MASK]가 BERT의 길이 제한 밖에 있습니다. [MASK]를 더 앞에 넣으세요."},
    "err.word_unknown": {"en": "'{word}' is unknown to {name}'s vocabulary ({unk}).",
                         "ko": "'{word}': {name}의 어휘에 없는 단어입니다({unk})."},
    "err.word_no_token": {"en": "'{word}' is not (part of) any token in {name}'s vocabulary of {n} tokens, so it has no "
                                "static embedding to compare with.",
                          "ko": "'{word}': {name}의 어휘({n}개 토큰)의 어느 토큰에도 들어 있지 않아, 비교할 정적 "
                                "임베딩이 없습니다."},
    "err.unknown_model": {"en": "Unknown model '{name}'. Available: {known}.",
                          "ko": "알 수 없는 모델 '{name}'입니다. 사용할 수 있는 모델: {known}."},
    "err.not_loaded": {"en": "Model '{name}' could not be loaded: {error}",
                       "ko": "모델 '{name}' 불러오기 실패: {error}"},
    "err.mask_cut_off": {"en": "Every [MASK] lies beyond the first {chars} characters, which is all that is read; "
                               "put one earlier.",
                         "ko": "모든 [MASK]가 읽는 범위(앞의 {chars}자) 밖에 있습니다. [MASK]를 더 앞에 넣으세요."},
    "err.wrong_arch": {"en": "Model '{name}' is a {arch} model, not a {wanted} model.",
                       "ko": "모델 '{name}'은(는) {arch} 모델이며 {wanted} 모델이 아닙니다."},
    "err.word_not_found": {"en": "'{word}' does not occur as a word in: {text}",
                           "ko": "'{word}'이(가) 다음 문장에 단어로 나오지 않습니다: {text}"},
    "err.word_too_late": {"en": "'{word}' in '{text}' falls beyond the model's length limit.",
                          "ko": "'{text}'의 '{word}'은(는) 모델의 길이 제한 밖에 있습니다."},
    "err.need_sentences": {"en": "Give sentences that use '{word}', one per line.",
                           "ko": "'{word}'이(가) 들어간 문장을 한 줄에 하나씩 입력하세요."},
    "err.probe_no_words": {"en": "The probe sentence has no words.", "ko": "관찰 문장에 단어가 없습니다."},
    "err.probe_too_long": {"en": "The probe may have at most {most} words (got {value}).",
                           "ko": "관찰 문장은 최대 {most}단어까지입니다(입력: {value}단어)."},
    "err.probe_unknown_words": {"en": "The toy model only knows the words of its grammar; unknown: {unknown}. "
                                      "Known: {known}.",
                                "ko": "이 작은 모델은 자기 문법의 단어만 압니다. 모르는 단어: {unknown}. "
                                      "아는 단어: {known}."},
    "err.seconds_not_number": {"en": "Training time must be a number of seconds between 1 and {most}.",
                               "ko": "학습 시간은 1에서 {most} 사이의 초 단위 숫자여야 합니다."},
    "err.seconds_range": {"en": "Training time must be between 1 and {most} seconds (got {value}).",
                          "ko": "학습 시간은 1초에서 {most}초 사이여야 합니다(입력: {value})."},
    "err.no_rnn_models": {"en": "None of the RNN encoder-decoders is available: {why}",
                          "ko": "RNN 인코더-디코더를 하나도 사용할 수 없습니다: {why}"},
    "err.unknown_score": {"en": "Unknown score function '{name}'. Choose one of: {known}.",
                          "ko": "알 수 없는 점수 함수 '{name}'입니다. 다음 중에서 고르세요: {known}."},
    "err.odd_d_model": {"en": "d_model must be even: dimensions come in sin/cos pairs (got {value}).",
                        "ko": "d_model은 짝수여야 합니다. 차원이 sin/cos 쌍으로 이루어지기 때문입니다(입력: {value})."},
    # the Hub box (ATTN_EXPLORER_ALLOW_HUB=1: what a visitor can type reaches these)
    "err.hub_bad_id": {"en": "A Hugging Face model id looks like 'bert-base-uncased' or 'owner/name'.",
                       "ko": "Hugging Face 모델 ID는 'bert-base-uncased'나 'owner/name' 꼴입니다."},
    "err.hub_gated": {"en": "'{repo}' is gated on the Hugging Face Hub: it needs an accepted licence and a token.",
                      "ko": "'{repo}'은(는) Hugging Face 허브에서 접근이 제한된 모델입니다. 라이선스 동의와 토큰이 "
                            "필요합니다."},
    "err.hub_not_found": {"en": "No model '{repo}' on the Hugging Face Hub (or it is private).",
                          "ko": "Hugging Face 허브에 '{repo}' 모델이 없습니다(비공개일 수도 있습니다)."},
    "err.hub_no_revision": {"en": "'{repo}' has no such revision on the Hugging Face Hub.",
                            "ko": "Hugging Face 허브의 '{repo}'에 그런 리비전이 없습니다."},
    "err.hub_unreachable": {"en": "Could not reach the Hugging Face Hub for '{repo}' (no internet?): {error}",
                            "ko": "'{repo}'을(를) 가져오려 했지만 Hugging Face 허브에 연결하지 못했습니다(인터넷 연결을 "
                                  "확인하세요): {error}"},
    "err.hub_no_config": {"en": "The repository has no config.json.", "ko": "저장소에 config.json이 없습니다."},
    "err.hub_no_safetensors": {"en": "The repository has no safetensors weights; only safetensors are loaded.",
                               "ko": "저장소에 safetensors 가중치가 없습니다. safetensors만 불러옵니다."},
    "err.hub_pickles_only": {"en": "The repository has no safetensors weights (it has {files}: pickles, which are "
                                   "never loaded); only safetensors are loaded.",
                             "ko": "저장소에 safetensors 가중치가 없습니다({files}은(는) pickle 파일이라 불러오지 "
                                   "않습니다). safetensors만 불러옵니다."},
    "err.hub_unknown_size": {"en": "The Hub did not report the size of {files} in '{repo}'; not downloading.",
                             "ko": "허브가 '{repo}'의 {files} 크기를 알려 주지 않아 내려받지 않습니다."},
    "err.hub_too_big": {"en": "'{repo}' needs {mb} MB ({files}), over the limit of {limit} MB.",
                        "ko": "'{repo}'은(는) {mb} MB({files})가 필요해 제한 {limit} MB를 넘습니다."},
    "err.hub_attention_too_big": {
        "en": "{where} would keep {cells} M attention weights per request ({layers} layers x {heads} heads x "
              "{tokens}² tokens), over this server's limit of {limit} M.",
        "ko": "{where}은(는) 요청마다 어텐션 가중치 {cells}M개({layers} 레이어 x {heads} 헤드 x {tokens}² 토큰)를 "
              "만들어 이 서버의 한도 {limit}M개를 넘습니다."},
    "err.downloads_gone": {"en": "These files are no longer prepared on the server (a result's files wait {minutes} "
                                 "minutes after its last use, or less when many visitors are here); run the view again "
                                 "and press the button.",
                           "ko": "이 파일은 더 이상 서버에 준비되어 있지 않습니다(결과의 파일은 마지막 사용 후 {minutes}분, "
                                 "방문자가 많으면 더 짧게 기다립니다). 다시 실행한 뒤 버튼을 눌러 주세요."},
    "err.downloads_too_big": {"en": "These files would take {mb} MB, more than the server keeps for all visitors "
                                    "({limit} MB).",
                              "ko": "이 파일은 {mb} MB로, 서버가 모든 방문자를 위해 보관하는 양({limit} MB)보다 큽니다."},
    "err.record_gone": {"en": "This result is no longer kept on the server (it is dropped {minutes} minutes after its "
                              "last use, or sooner when many visitors are here); press the button again.",
                        "ko": "이 결과는 더 이상 서버에 보관되어 있지 않습니다(마지막 사용 후 {minutes}분이 지나거나 "
                              "방문자가 많으면 더 일찍 지워집니다). 버튼을 다시 눌러 주세요."},
    "err.tokenizer_failed": {"en": "This model's tokenizer failed on this text ({error}); try another text or model.",
                             "ko": "이 모델의 토크나이저가 이 텍스트에서 실패했습니다({error}). 다른 텍스트나 모델을 "
                                   "써 보세요."},
    "err.tokenizer_slow": {"en": "This model's tokenizer took over {s} s on this text (its rules are too slow); "
                                 "choose another model.",
                           "ko": "이 모델의 토크나이저가 이 텍스트에 {s}초 넘게 걸렸습니다(규칙이 너무 느립니다). 다른 "
                                 "모델을 고르세요."},
    "err.tokenizer_stuck": {"en": "This model's tokenizer stopped answering earlier; choose another model.",
                            "ko": "이 모델의 토크나이저가 앞서 응답을 멈췄습니다. 다른 모델을 고르세요."},
    "err.not_bert": {"en": "{where} holds a '{model_type}' model; only BERT (model_type 'bert') is supported.",
                     "ko": "{where}에는 '{model_type}' 모델이 있습니다. BERT(model_type 'bert')만 지원합니다."},
    "err.hub_off": {"en": "Loading models from the Hugging Face Hub is turned off on this server.",
                    "ko": "이 서버에서는 Hugging Face 허브에서 모델을 불러오는 기능이 꺼져 있습니다."},
    "err.hub_full": {"en": "This server already holds {n} models from the Hub; restart it to load others.",
                     "ko": "이 서버는 이미 허브 모델 {n}개를 가지고 있습니다. 다른 모델을 불러오려면 서버를 다시 "
                           "시작하세요."},
}
