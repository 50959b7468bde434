"""Strings of the GPT tab (ui/tabs/gpt.py):
key -> {"en": ..., "ko": ...} (explorer/i18n/__init__.py merges every module here)."""

STRINGS = {
    "tab.gpt": {"en": "GPT", "ko": "GPT 글 생성"},
    "gpt.intro": {
        "en": "## GPT: a decoder that reads left to right\nA small GPT trained in this repo (6 layers, 8 heads, "
              "8.9 M parameters) continues a prompt one token at a time: at every step it turns the tokens so far "
              "into a probability for each of its 16,000 tokens (the shipped BERT's WordPiece vocabulary, "
              "lower-cased) and one is chosen. **Greedy** takes the most likely; otherwise one is drawn after "
              "dividing the scores by the **temperature** (below 1 sharper, above 1 flatter), keeping the **top-k** "
              "most likely (0 keeps all) and the smallest set whose probability reaches **top-p**. The same seed "
              "gives the same text. Its self-attention is masked: a token sees itself and the tokens before it, "
              "never after (scores −∞ above the diagonal).",
        "ko": "## GPT: 왼쪽에서 오른쪽으로 읽는 디코더\n이 저장소에서 학습한 작은 GPT(레이어 6개, 헤드 8개, 파라미터 "
              "890만 개)가 프롬프트를 토큰 하나씩 이어 씁니다. 매 단계마다 지금까지의 토큰으로 16,000개 토큰(함께 "
              "제공되는 BERT의 WordPiece 어휘, 소문자) 각각의 확률을 계산하고 그중 하나를 고릅니다. **그리디** 방식은 가장 "
              "확률이 높은 토큰을 고르고, 그 밖에는 점수를 **온도** 값으로 나눈 뒤(1보다 작으면 더 뾰족하게, 크면 더 "
              "평평하게) 확률이 높은 **top-k** 개(0이면 전부)와 확률 합이 **top-p** 값에 이르는 가장 작은 집합만 남겨 "
              "뽑습니다. 같은 시드는 같은 글을 냅니다. 마스크드 셀프 어텐션이어서 토큰은 자기 자신과 앞의 "
              "토큰만 보고 뒤의 토큰은 보지 못합니다(대각선 위의 점수는 −∞).",
    },
    "gpt.prompt": {"en": "Prompt", "ko": "프롬프트"},
    "gpt.run": {"en": "Generate", "ko": "생성하기"},
    "gpt.stop": {"en": "Stop", "ko": "멈추기"},
    "gpt.greedy": {"en": "Greedy (the most likely token every step)", "ko": "그리디 (매 단계 가장 확률이 높은 토큰)"},
    "gpt.temperature": {"en": "Temperature", "ko": "온도"},
    "gpt.top_k": {"en": "Top-k (0 = all tokens)", "ko": "Top-k (0 = 모든 토큰)"},
    "gpt.top_p": {"en": "Top-p (nucleus)", "ko": "Top-p (누클리어스)"},
    "gpt.seed": {"en": "Seed", "ko": "시드"},
    "gpt.max_new": {"en": "New tokens (at most)", "ko": "새 토큰 수 (최대)"},
    "gpt.text": {"en": "Text (the continuation in bold)", "ko": "글 (이어 쓴 부분은 굵게)"},
    "gpt.steps": {"en": "Steps: each token chosen, its probability and the most likely alternatives",
                  "ko": "단계: 고른 토큰, 그 확률, 가장 확률이 높은 다른 후보"},
    "gpt.step": {"en": "Step", "ko": "단계"},
    "gpt.step_plot": {"en": "Next-token distribution at the chosen step", "ko": "고른 단계의 다음 토큰 분포"},
    "gpt.scores": {"en": "Attention Score Matrix QKᵀ/√d_k (masked) and its softmax",
                   "ko": "어텐션 스코어 행렬 (Attention Score Matrix) QKᵀ/√d_k (마스크드)와 소프트맥스"},
    "gpt.files": {"en": "Downloads: the generation (JSON), tables (CSV), figures (HTML)",
                  "ko": "다운로드: 생성 기록 (JSON), 표 (CSV), 그림 (HTML)"},
    "gpt.no_steps": {"en": "No token was generated.", "ko": "생성된 토큰이 없습니다."},
    "gpt.generate_first": {"en": "Generate a text to see its attention.", "ko": "글을 생성하면 어텐션이 보입니다."},
    "gpt.title": {"en": "GPT masked self-attention", "ko": "GPT 마스크드 셀프 어텐션"},
    "gpt.step_title": {"en": "Step {i}: the most likely next tokens", "ko": "단계 {i}: 가장 확률이 높은 다음 토큰"},
    "gpt.step_label": {"en": "step {i}: chose '{token}' (p = {p:.4f})",
                       "ko": "단계 {i}: '{token}' 선택 (p = {p:.4f})"},
    "gpt.scores_title": {"en": "GPT layer {l}, head {h}: Attention Score Matrix (masked) and softmax",
                         "ko": "GPT 레이어 {l}, 헤드 {h}: 어텐션 스코어 행렬 (마스크드)과 소프트맥스"},
    "gpt.compare_tab": {"en": "BERT beside GPT", "ko": "BERT와 GPT 나란히"},
    "gpt.compare_intro": {
        "en": "The same text through BERT (reads both ways, trained to fill in masked words) and the GPT (reads left "
              "to right, trained to predict the next word), on the same WordPiece tokens, [CLS] text [SEP]. Left: "
              "what each token may see. Below: where the chosen head of each model looks.",
        "ko": "같은 글을 같은 WordPiece 토큰([CLS] 글 [SEP])으로 BERT(양방향으로 읽고, 가려진 단어를 맞히도록 "
              "학습)와 GPT(왼쪽에서 오른쪽으로 읽고, 다음 단어를 맞히도록 학습)에 넣습니다. 위: 각 토큰이 볼 수 "
              "있는 토큰. 아래: 각 모델에서 고른 헤드가 보는 곳.",
    },
    "gpt.compare_run": {"en": "Compare", "ko": "비교하기"},
    "gpt.bert_layer": {"en": "BERT layer", "ko": "BERT 레이어"},
    "gpt.bert_head_slider": {"en": "BERT head", "ko": "BERT 헤드"},
    "gpt.gpt_layer": {"en": "GPT layer", "ko": "GPT 레이어"},
    "gpt.gpt_head_slider": {"en": "GPT head", "ko": "GPT 헤드"},
    "gpt.bert_plot": {"en": "BERT's chosen head", "ko": "BERT에서 고른 헤드"},
    "gpt.gpt_plot": {"en": "GPT's chosen head", "ko": "GPT에서 고른 헤드"},
    "gpt.visibility": {"en": "What each token may see", "ko": "각 토큰이 볼 수 있는 것"},
    "gpt.visibility_title": {"en": "What each token may see: BERT (left, every token) │ GPT (right, itself and "
                                   "the tokens before it)",
                             "ko": "각 토큰이 볼 수 있는 것: BERT (왼쪽, 모든 토큰) │ GPT (오른쪽, 자기 자신과 앞의 토큰)"},
    "gpt.visibility_keys": {"en": "key (BERT │ GPT)", "ko": "키 (BERT │ GPT)"},
    "gpt.bert_head": {"en": "BERT layer {l}, head {h}", "ko": "BERT 레이어 {l}, 헤드 {h}"},
    "gpt.gpt_head": {"en": "GPT layer {l}, head {h}", "ko": "GPT 레이어 {l}, 헤드 {h}"},
    "gpt.compare_summary": {
        "en": "On average a query of the chosen BERT head looks {bd:+.2f} tokens back (negative: ahead) and puts "
              "{ahead:.1%} of its attention on later tokens; the chosen GPT head looks {gd:+.2f} tokens back and, "
              "by its mask, 0% ahead.",
        "ko": "고른 BERT 헤드의 쿼리는 평균 {bd:+.2f} 토큰 뒤를 보고(음수면 앞) 어텐션의 {ahead:.1%}를 뒤에 오는 "
              "토큰에 둡니다. 고른 GPT 헤드는 평균 {gd:+.2f} 토큰 뒤를 보고, 마스크 때문에 뒤에 오는 토큰에는 "
              "0%를 둡니다.",
    },
    "col.step": {"en": "step", "ko": "단계"},
    "col.sampled probability": {"en": "sampled probability", "ko": "뽑은 분포에서의 확률"},
    "col.entropy (nats)": {"en": "entropy (nats)", "ko": "엔트로피 (nats)"},
    "col.most likely next tokens": {"en": "most likely next tokens", "ko": "가장 확률이 높은 다음 토큰"},
    "what.prompt": {"en": "prompt", "ko": "프롬프트"},
    "what.Max new tokens": {"en": "Max new tokens", "ko": "새 토큰 수"},
    "what.Seed": {"en": "Seed", "ko": "시드"},
    "what.Sampling top-k": {"en": "Sampling top-k", "ko": "샘플링 top-k"},
    "what.Temperature": {"en": "Temperature", "ko": "온도"},
    "what.Top-p": {"en": "Top-p", "ko": "Top-p"},
    "err.gpt_number": {"en": "{name} must be a number.", "ko": "{name} 값은 숫자여야 합니다."},
    "err.gpt_temperature": {"en": "Temperature must be above 0 and at most {hi} (got {value}); for the most likely "
                                  "token at every step choose greedy.",
                            "ko": "온도는 0보다 크고 {hi} 이하여야 합니다(입력: {value}). 매 단계 가장 확률이 높은 "
                                  "토큰을 원하면 그리디를 고르세요."},
    "err.gpt_top_p": {"en": "Top-p must be above 0 and at most 1 (got {value}).",
                      "ko": "Top-p는 0보다 크고 1 이하여야 합니다(입력: {value})."},
    "err.gpt_no_tokens": {"en": "The prompt has no tokens the model can read.",
                          "ko": "프롬프트에 모델이 읽을 수 있는 토큰이 없습니다."},
    "err.gpt_vocab": {"en": "Model '{bert}' reads other tokens than '{gpt}': choose the shipped BERT.",
                      "ko": "'{bert}' 모델은 '{gpt}'와 다른 토큰을 읽습니다. 함께 제공되는 BERT를 고르세요."},
    "note.gpt_prompt_cut": {"en": "Prompt cut to its last {keep} tokens ({dropped} dropped): the model reads "
                                  "{context} tokens in all, and half is kept for the new ones.",
                            "ko": "프롬프트를 마지막 {keep}개 토큰으로 잘랐습니다({dropped}개 제외). 모델은 모두 "
                                  "{context}개 토큰을 읽으며, 절반은 새 토큰을 위해 남겨 둡니다."},
    "note.gpt_room": {"en": "At most {n} new tokens fit after this prompt (the model reads {context} tokens).",
                      "ko": "이 프롬프트 뒤에는 새 토큰이 최대 {n}개 들어갑니다(모델은 {context}개 토큰을 읽습니다)."},
    "note.gpt_side_cut": {"en": "Text cut to its first {keep} tokens, the GPT's context.",
                          "ko": "글을 GPT가 읽을 수 있는 처음 {keep}개 토큰으로 잘랐습니다."},
}
