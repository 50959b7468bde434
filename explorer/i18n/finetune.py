"""Strings of the fine-tuning tab (ui/tabs/finetune.py), the NLI labels as the page shows them:
key -> {"en": ..., "ko": ...} (explorer/i18n/__init__.py merges every module here)."""

STRINGS = {
    "tab.finetune": {"en": "Fine-tuning", "ko": "파인튜닝"},
    "ft.intro": {
        "en": "### Fine-tuning: one pre-trained BERT, a small head per task\nPick a task and type an input. The "
              "shipped BERT (frozen, shared) carries low-rank adapters and a head trained for that task "
              "(Devlin et al. 2018, figure 4; Hu et al. 2021). Below the prediction: the fine-tuned model's "
              "attention beside the pre-trained model's on the same tokens, their difference per head, and what "
              "[CLS] attends to.",
        "ko": "### 파인튜닝: 사전 학습된 BERT 하나, 작업마다 작은 헤드\n작업을 고르고 입력을 넣으세요. 함께 제공되는 "
              "BERT(고정, 공유)에 그 작업을 위해 학습한 저랭크 어댑터와 헤드가 붙습니다(Devlin et al. 2018, 그림 4; "
              "Hu et al. 2021). 예측 아래에는 같은 토큰에서 파인튜닝한 모델과 사전 학습 모델의 어텐션, 헤드마다의 "
              "차이, [CLS]가 보는 곳이 나옵니다."},
    "ft.task": {"en": "Task", "ko": "작업"},
    "ft.task_sentiment": {"en": "Sentiment analysis (one sentence -> label)", "ko": "감정 분석 (문장 하나 -> 레이블)"},
    "ft.task_nli": {"en": "NLI (sentence pair -> label)", "ko": "자연어 추론 (NLI, 문장 쌍 -> 레이블)"},
    # the NLI labels as the page shows them (models/task_data.py NLI_LABELS; label_text)
    "label.entailment": {"en": "entailment", "ko": "함의 (entailment)"},
    "label.neutral": {"en": "neutral", "ko": "중립 (neutral)"},
    "label.contradiction": {"en": "contradiction", "ko": "모순 (contradiction)"},
    "ft.task_pos": {"en": "POS tagging (a tag per word)", "ko": "품사 태깅 (단어마다 태그)"},
    "ft.task_ner": {"en": "Named entities (a tag per word)", "ko": "개체명 인식 (단어마다 태그)"},
    "ft.task_qa": {"en": "Question answering (answer span)", "ko": "질의응답 (답 구간)"},
    "ft.task_sentiment-ko": {"en": "Korean sentiment analysis (NSMC reviews, on bert-ko)",
                             "ko": "한국어 감정 분석 (NSMC 영화 리뷰, bert-ko)"},
    "ft.text": {"en": "Sentence, premise or question", "ko": "문장, 전제 또는 질문"},
    "ft.text_b": {"en": "Hypothesis (NLI) or paragraph (question answering)",
                  "ko": "가설(hypothesis, 자연어 추론) 또는 문단(질의응답)"},
    "ft.run": {"en": "Predict and compare attention", "ko": "예측하고 어텐션 비교하기"},
    "ft.first": {"en": "Pick a task, type an input and press the button.",
                 "ko": "작업을 고르고 입력을 넣은 뒤 버튼을 누르세요."},
    "ft.prediction": {"en": "Prediction", "ko": "예측"},
    "ft.table": {"en": "Prediction as numbers", "ko": "예측 수치"},
    "ft.explain_sentiment": {
        "en": "(b) Single sentence classification: [CLS] sentence [SEP] -> the final hidden states, pooled -> "
              "softmax over POSITIVE / NEGATIVE (SST-2 in the paper; Rotten Tomatoes snippets here).",
        "ko": "(b) 단일 문장 분류: [CLS] 문장 [SEP] -> 마지막 은닉 상태를 풀링 -> POSITIVE / NEGATIVE 소프트맥스 "
              "(논문은 SST-2, 여기서는 Rotten Tomatoes 문장)."},
    "ft.explain_sentiment-ko": {
        "en": "(b) Single sentence classification, in Korean: [CLS] 문장 [SEP] -> bert-ko's final hidden states, "
              "pooled -> softmax over POSITIVE / NEGATIVE; LoRA adapters trained on Naver movie reviews (NSMC). "
              "bert-ko is small and was trained here on a CPU: docs/korean-bert.md has its figures.",
        "ko": "(b) 단일 문장 분류(한국어): [CLS] 문장 [SEP] -> bert-ko의 마지막 은닉 상태를 풀링 -> POSITIVE / NEGATIVE "
              "소프트맥스. 네이버 영화 리뷰(NSMC)로 LoRA 어댑터를 학습했습니다. bert-ko는 여기서 CPU로 학습한 작은 "
              "모델입니다(수치는 docs/korean-bert.md)."},
    "ft.explain_nli": {
        "en": "(a) Sentence pair classification: [CLS] premise [SEP] hypothesis [SEP] -> pooled -> softmax over "
              "entailment / neutral / contradiction (MNLI in the paper; SNLI here).",
        "ko": "(a) 문장 쌍 분류: [CLS] 전제 [SEP] 가설 [SEP] -> 풀링 -> 함의(entailment) / 중립(neutral) / 모순(contradiction) 소프트맥스 "
              "(논문은 MNLI, 여기서는 SNLI)."},
    "ft.explain_qa": {
        "en": "(c) Question answering: [CLS] question [SEP] paragraph [SEP]; a start vector S and an end vector E "
              "score every paragraph token, and the answer is the span i..j with the highest S·T_i + E·T_j "
              "(SQuAD v1.1).",
        "ko": "(c) 질의응답: [CLS] 질문 [SEP] 문단 [SEP]; 시작 벡터 S와 끝 벡터 E가 문단의 모든 토큰에 점수를 매기고, "
              "S·T_i + E·T_j가 가장 큰 구간 i..j가 답입니다(SQuAD v1.1)."},
    "ft.explain_pos": {
        "en": "(d) Single sentence tagging: each word's first subword -> softmax over the 17 universal POS tags "
              "(UD English EWT).",
        "ko": "(d) 단일 문장 태깅: 각 단어의 첫 서브워드 -> 17개 범용 품사 태그 소프트맥스(UD English EWT)."},
    "ft.explain_ner": {
        "en": "(d) Single sentence tagging: each word's first subword -> softmax over B-/I-/O tags for PER, ORG, "
              "LOC (CoNLL-2003 in the paper; Universal NER English EWT here).",
        "ko": "(d) 단일 문장 태깅: 각 단어의 첫 서브워드 -> PER, ORG, LOC의 B-/I-/O 태그 소프트맥스 "
              "(논문은 CoNLL-2003, 여기서는 Universal NER English EWT)."},
    "ft.probs_title": {"en": "Label probabilities", "ko": "레이블 확률"},
    "ft.tags_title": {"en": "Tag probabilities at each word (the chosen tag under it)",
                      "ko": "단어마다 태그 확률 (고른 태그는 단어 아래)"},
    "ft.span_title": {"en": "P(start) and P(end) over every token (answer shaded)",
                      "ko": "모든 토큰의 P(시작)과 P(끝) (답은 음영)"},
    "ft.summary_label": {"en": "**{label}** (probability {p:.4f})", "ko": "**{label}** (확률 {p:.4f})"},
    "ft.summary_tags": {"en": "{n} words tagged.", "ko": "단어 {n}개에 태그를 붙였습니다."},
    "ft.summary_answer": {"en": "Answer: **{answer}** (character {start}; P(start)·P(end) = {p:.4f})",
                          "ko": "답: **{answer}** ({start}번째 글자부터; P(시작)·P(끝) = {p:.4f})"},
    "ft.head_ft": {"en": "Fine-tuned · layer {l}, head {h}", "ko": "파인튜닝 후 · 레이어 {l}, 헤드 {h}"},
    "ft.head_pt": {"en": "Pre-trained · layer {l}, head {h}", "ko": "사전 학습 · 레이어 {l}, 헤드 {h}"},
    "ft.diff_title": {"en": "Fine-tuned minus pre-trained · layer {l}, head {h}",
                      "ko": "파인튜닝 후 - 사전 학습 · 레이어 {l}, 헤드 {h}"},
    "ft.change_title": {"en": "How far each head moved (mean total variation of its rows)",
                        "ko": "헤드마다 바뀐 정도 (행별 총변동 거리의 평균)"},
    "ft.cls_title": {"en": "What [CLS] attends to · layer {l}, head {h}",
                     "ko": "[CLS]가 보는 곳 · 레이어 {l}, 헤드 {h}"},
    "ftf.probability": {"en": "probability", "ko": "확률"},
    "ftf.label": {"en": "label", "ko": "레이블"},
    "ftf.word": {"en": "word", "ko": "단어"},
    "ftf.token": {"en": "token", "ko": "토큰"},
    "ftf.start": {"en": "P(start)", "ko": "P(시작)"},
    "ftf.end": {"en": "P(end)", "ko": "P(끝)"},
    "ftf.answer": {"en": "answer", "ko": "답"},
    "ftf.layer": {"en": "layer", "ko": "레이어"},
    "ftf.head": {"en": "head", "ko": "헤드"},
    "ftf.change": {"en": "mean change of a row (total variation)", "ko": "행 변화의 평균 (총변동 거리)"},
    "ftf.finetuned": {"en": "fine-tuned", "ko": "파인튜닝 후"},
    "ftf.pretrained": {"en": "pre-trained", "ko": "사전 학습"},
    "ftf.attention": {"en": "attention", "ko": "어텐션"},
    "col.label": {"en": "label", "ko": "레이블"},
    "col.word": {"en": "word", "ko": "단어"},
    "col.pieces": {"en": "pieces", "ko": "조각"},
    "col.tag": {"en": "tag", "ko": "태그"},
    "what.premise": {"en": "premise", "ko": "전제"},
    "what.hypothesis": {"en": "hypothesis", "ko": "가설"},
    "what.question": {"en": "question", "ko": "질문"},
    "what.paragraph": {"en": "paragraph", "ko": "문단"},
    "err.unknown_task": {"en": "Unknown task '{name}'. Available: {known}.",
                         "ko": "알 수 없는 작업 '{name}'입니다. 가능한 작업: {known}."},
    "err.task_missing": {"en": "The {task} model is not installed.", "ko": "{task} 모델이 설치되어 있지 않습니다."},
    "err.wrong_task": {"en": "'{task}' is not one of {wanted}.", "ko": "'{task}'는 {wanted} 중 하나가 아닙니다."},
    "err.no_context": {"en": "Please give a paragraph to find the answer in: the context is empty.",
                       "ko": "답을 찾을 문단을 넣으세요. 문단이 비어 있습니다."},
    "err.question_longer": {"en": "The question is longer than the paragraph: give the paragraph that holds the "
                                  "answer as the context.",
                            "ko": "질문이 문단보다 깁니다. 답이 들어 있는 문단을 넣으세요."},
    "err.too_long": {"en": "The {what} is {n} characters long; the limit is {limit}.",
                     "ko": "{what}의 길이가 {n}자입니다. 최대 {limit}자까지 읽습니다."},
    "err.no_hypothesis": {"en": "Please type a hypothesis: NLI reads a premise and a hypothesis.",
                          "ko": "가설(hypothesis)을 입력하세요. 자연어 추론은 전제와 가설을 함께 읽습니다."},
    "err.qa_line": {"en": 'Expected a JSON object with "question" and "context" on each line.',
                    "ko": '각 줄에 "question"과 "context"가 있는 JSON 객체가 필요합니다.'},
    "err.nli_line": {"en": "Expected two sentences separated by a tab: PREMISE<TAB>HYPOTHESIS.",
                     "ko": "탭으로 나눈 두 문장이 필요합니다: 전제<TAB>가설."},
    "note.ft_cut": {"en": "Input cut to BERT's {limit} tokens.", "ko": "입력을 BERT가 읽는 {limit}개 토큰으로 잘랐습니다."},
    "note.untagged": {"en": "{n} word(s) have no tokens the model read; tagged {tag}.",
                      "ko": "단어 {n}개는 모델이 읽은 토큰이 없어 {tag}로 표시했습니다."},
    "note.qa_windows": {"en": "The paragraph was read in {n} overlapping windows; shown: the one holding the answer.",
                        "ko": "문단을 겹치는 창 {n}개로 나누어 읽었습니다. 답이 있는 창을 보여 줍니다."},
}
