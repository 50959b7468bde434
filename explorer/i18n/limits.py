"""Strings of request limits and refusals (ui/limits.py), a brought BERT's file sizes (explorer/compute/byo_bert.py):
key -> {"en": ..., "ko": ...} (explorer/i18n/__init__.py merges every module here)."""

STRINGS = {
    "limit.body": {"en": "This request is too large ({size} bytes; the limit is {limit}). Inputs are cut to "
                         "2,000 characters anyway: please send a shorter text.",
                   "ko": "요청이 너무 큽니다({size}바이트, 한도 {limit}바이트). 입력은 어차피 2,000자까지만 읽으니 "
                         "더 짧은 텍스트를 보내 주세요."},
    "limit.remote_file": {"en": "This server does not fetch files from other web sites.",
                          "ko": "이 서버는 다른 웹사이트의 파일을 가져오지 않습니다."},
    "limit.not_finite": {"en": "A number in the request is {value}, not a number the app can use: sliders and "
                               "number boxes take finite numbers only.",
                         "ko": "요청의 숫자 하나가 {value}입니다. 슬라이더와 숫자 입력에는 유한한 숫자만 쓸 수 "
                               "있습니다."},
    "limit.not_number": {"en": "The slider '{name}' takes a number, not '{value}'.",
                         "ko": "슬라이더 '{name}'에는 숫자를 넣어야 합니다('{value}'는 숫자가 아닙니다)."},
    "limit.rate": {"en": "Too many requests from this page at once.",
                   "ko": "이 페이지에서 한꺼번에 보낸 요청이 너무 많습니다."},
    "limit.busy_same": {"en": "The same request from this page is still running: wait for its result.",
                        "ko": "이 페이지의 같은 요청이 아직 실행 중입니다. 결과를 기다려 주세요."},
    "limit.busy_session": {"en": "This page already has {n} requests waiting or running: wait for their results.",
                           "ko": "이 페이지의 요청 {n}개가 이미 대기 중이거나 실행 중입니다. 결과를 기다려 주세요."},
    "limit.busy_address": {"en": "Your network already has {n} requests waiting or running on this server: wait for "
                                 "their results.",
                           "ko": "같은 네트워크에서 보낸 요청 {n}개가 이미 이 서버에서 대기 중이거나 실행 중입니다. "
                                 "결과를 기다려 주세요."},
    "limit.retry": {"en": "Try again in {s} s.", "ko": "{s}초 뒤에 다시 시도하세요."},
    "limit.unheard": {"en": "This request was dropped: the page was not listening for its result for {s} s. "
                            "Press the button again.",
                      "ko": "이 요청은 취소되었습니다: 페이지가 {s}초 동안 결과를 받지 않았습니다. 버튼을 다시 누르세요."},
    # ui/limits.py's refusals of hostile requests, and a brought BERT's vocab.txt sizes (explorer/compute/byo_bert.py)
    "limit.bad_fn_index": {"en": "fn_index must be a whole number that names one of this app's events, not {value}.",
                           "ko": "fn_index는 이 앱의 이벤트를 가리키는 정수여야 합니다({value}는 아닙니다)."},
    "limit.unknown_fn": {"en": "This app has no event number {value}.", "ko": "이 앱에는 {value}번 이벤트가 없습니다."},
    "limit.unknown_api": {"en": "This app has no API endpoint '{name}' (the list: /gradio_api/info).",
                          "ko": "이 앱에는 '{name}' API 엔드포인트가 없습니다(목록: /gradio_api/info)."},
    "limit.queued_only": {"en": "This endpoint runs through the queue: call it with POST /gradio_api/call/<name> "
                                "(gradio_client does).",
                          "ko": "이 엔드포인트는 대기열로만 실행됩니다. POST /gradio_api/call/<이름>으로 호출하세요"
                                "(gradio_client가 그렇게 합니다)."},
    "limit.closed": {"en": "This server does not serve {path}.", "ko": "이 서버는 {path}를 제공하지 않습니다."},
    "limit.no_session": {"en": "Nothing is waiting to be read for this session or event: its results were read or "
                               "dropped, or it never existed.",
                         "ko": "이 세션이나 이벤트에 대해 읽을 결과가 없습니다. 이미 읽었거나 버려졌거나, 처음부터 "
                               "없었습니다."},
    "limit.rate_address": {"en": "Too many requests from your address at once.",
                           "ko": "같은 주소에서 한꺼번에 보낸 요청이 너무 많습니다."},
    "limit.sessions": {"en": "Too many new sessions from your address: {n} in {m} minutes.",
                       "ko": "같은 주소에서 새 세션이 너무 많습니다: {m}분에 {n}개."},
    "limit.busy_call": {"en": "This session already has {n} requests to this endpoint waiting or running: wait for "
                              "their results.",
                        "ko": "이 세션에서 이 엔드포인트로 보낸 요청 {n}개가 이미 대기 중이거나 실행 중입니다. 결과를 "
                              "기다려 주세요."},
    "limit.undelivered": {"en": "This result was dropped: nobody read it within {s} s of its being ready. Send the "
                                "request again and read its stream.",
                          "ko": "이 결과는 버려졌습니다: 준비된 뒤 {s}초 동안 아무도 읽지 않았습니다. 요청을 다시 보내고 "
                                "결과 스트림을 읽으세요."},
    "err.vocab_too_big": {"en": "{path} is {size} bytes, over this server's limit of {limit} bytes for a vocab.txt; "
                                "refusing to read it.",
                          "ko": "{path}는 {size}바이트로, 이 서버의 vocab.txt 한도 {limit}바이트를 넘습니다. 읽지 "
                                "않습니다."},
    "err.vocab_too_many": {"en": "{path} has more than {n} tokens (one a line) but the model only {n} embeddings "
                                 "(config.json's vocab_size); refusing to read it.",
                           "ko": "{path}의 토큰(한 줄에 하나)이 {n}개보다 많지만 모델의 임베딩은 {n}개뿐입니다"
                                 "(config.json의 vocab_size). 읽지 않습니다."},
    "err.vocab_long_entry": {"en": "Line {line} of {path} is {size} bytes long, over this server's limit of {limit} "
                                   "bytes for one token (WordPiece matches words of at most 100 characters); "
                                   "refusing to read it.",
                             "ko": "{path}의 {line}번째 줄은 {size}바이트로, 이 서버의 토큰 하나 한도 {limit}바이트를 "
                                   "넘습니다(WordPiece는 100자 이하의 단어만 맞춥니다). 읽지 않습니다."},
    "err.hub_file_too_big": {"en": "The {file} of '{repo}' is {size} bytes, over this server's limit of {limit} "
                                   "bytes for it; not downloading.",
                             "ko": "'{repo}'의 {file}은 {size}바이트로, 이 서버의 한도 {limit}바이트를 넘습니다. "
                                   "내려받지 않습니다."},
    "err.tokenizer_too_big": {"en": "{path} is {size} bytes, over this server's limit of {limit} bytes for a "
                                    "tokenizer.json; refusing to read it.",
                              "ko": "{path}는 {size}바이트로, 이 서버의 tokenizer.json 한도 {limit}바이트를 넘습니다. "
                                    "읽지 않습니다."},
    "err.tokenizer_too_many": {"en": "The {what} of {path} has more than {n} entries but the model only {n} "
                                     "embeddings (config.json's vocab_size); refusing to read it.",
                               "ko": "{path}의 {what} 항목이 {n}개보다 많지만 모델의 임베딩은 {n}개뿐입니다"
                                     "(config.json의 vocab_size). 읽지 않습니다."},
    "err.tokenizer_long_entry": {"en": "Entry {n} of {path}'s vocabulary is {size} bytes long, over this server's "
                                       "limit of {limit} bytes for one token; refusing to read it.",
                                 "ko": "{path} 어휘의 {n}번째 항목은 {size}바이트로, 이 서버의 토큰 하나 한도 "
                                       "{limit}바이트를 넘습니다. 읽지 않습니다."},
}
