"""Every string of the app's interface in English and Korean, and the examples of each language.

One dictionary, key -> {"en": ..., "ko": ...}. The tabs (ui/tabs/) build each label, button and
explanation from `t(key)` in English and registers the component with its key; the language
switch at the top of the page then sends `t(key, "ko")` (or back) to every registered
component. Strings that the views compute (a summary line, a status) take their language as
an argument and use the same dictionary, with str.format fields.

Korean uses the course lectures' terms, listed with the keys that show them in explorer/glossary.py
(docs/glossary.md; tests/explorer/test_glossary.py holds every string to it): 어텐션, 셀프 어텐션,
인코더-디코더 어텐션 (Encoder-Decoder Attention; not 교차 어텐션), 멀티 헤드 어텐션, 마스크드 (never
마스크된), 포지셔널 인코딩, 포지션 와이즈 FFN, 어텐션 스코어 행렬, Luong's four steps as deck 000 names
them, 정렬 for alignment, 감정 분석, 전제 / 가설, 함의 / 중립 / 모순; Multiplicative (general) and Bahdanau
(additive) attention, scores explained as 유사도 (similarity); paper titles and formulas stay as they are.
No gradio here (only app.py and ui/ import it).
"""
from __future__ import annotations

import functools

LANGS = ("en", "ko")
CHOICES = {"English": "en", "한국어": "ko"}  # the switch's labels -> language code
SWITCH_LABEL = "Language · 언어"  # the switch itself stays bilingual: it is how one finds it


def lang_code(choice) -> str:
    """The switch's value ("English", "한국어") or a code ("en", "ko") -> a code; anything else -> "en"."""
    if choice in LANGS:
        return choice
    return CHOICES.get(choice, "en")


STRINGS: dict[str, dict[str, str]] = {
    # ------------------------------------------------------------------ page
    "app.warning_head": {  # the head of Gradio's warning toast, which reads "Warning" whatever its title= (style.css)
        "en": "Warning",
        "ko": "경고",
    },
    "app.intro": {
        "en": "# Attention Explorer\nSee what the attention models trained in this repo look at. Hover over any "
              "cell for its exact value; to zoom, pick the magnifier in a plot's toolbar (double-click to zoom "
              "out); SVG, a vector picture: its camera icon. On a phone a swipe over a plot scrolls the page: pick the magnifier "
              "first to zoom, or to read a cell by tapping it.",
        "ko": "# 어텐션 탐색기\n이 저장소에서 학습한 어텐션 모델들이 무엇을 보는지 살펴봅니다. 칸 위에 마우스를 올리면 "
              "정확한 값이 보입니다. 확대하려면 그림 툴바의 돋보기를 고르세요(더블클릭하면 원래대로). SVG(벡터 그림)로 "
              "저장하려면 툴바의 카메라 아이콘을 누르세요. 휴대폰에서는 그림 위를 밀면 페이지가 스크롤됩니다. 확대하거나 칸을 "
              "눌러 값을 보려면 먼저 돋보기를 고르세요.",
    },
    # ------------------------------------------------------------------ shared
    "common.examples": {"en": "Examples", "ko": "예시"},
    "common.model": {"en": "Model", "ko": "모델"},
    "common.sentence": {"en": "Sentence", "ko": "문장"},
    "common.translate": {"en": "Translate", "ko": "번역하기"},
    "common.translation": {"en": "Translation", "ko": "번역 결과"},
    "common.layer": {"en": "Layer", "ko": "레이어"},
    "common.head": {"en": "Head", "ko": "헤드"},
    "common.all_heads": {"en": "All heads", "ko": "모든 헤드"},
    "common.selected_head": {"en": "Selected head", "ko": "선택한 헤드"},
    "common.downloads": {"en": "Downloads: record JSON and tables CSV", "ko": "다운로드: 기록 JSON과 표 CSV"},
    "common.download_record": {"en": "Download: the record (JSON)", "ko": "다운로드: 기록 (JSON)"},
    "common.make_files": {"en": "Prepare the downloads", "ko": "내려받을 파일 만들기"},
    # ------------------------------------------------------------------ tabs
    "tab.seq2seq": {"en": "seq2seq + attention", "ko": "seq2seq + 어텐션"},
    "tab.scores": {"en": "Score functions", "ko": "점수(유사도) 함수 비교"},
    "tab.transformer": {"en": "Transformer", "ko": "트랜스포머"},
    "tab.beam": {"en": "Beam search", "ko": "빔 서치"},
    "tab.bert": {"en": "BERT", "ko": "BERT"},
    "tab.inside": {"en": "Inside attention", "ko": "어텐션 들여다보기"},
    "tab.rollout": {"en": "Rollout & entropy", "ko": "롤아웃과 엔트로피"},
    "tab.qk": {"en": "Query · key", "ko": "쿼리 · 키"},
    "tab.contextual": {"en": "Contextual vs static", "ko": "문맥 임베딩 vs 정적 임베딩"},
    "tab.positional": {"en": "Positional encoding", "ko": "포지셔널 인코딩"},
    "tab.training": {"en": "Training", "ko": "학습 과정"},
    "tab.snapshots": {"en": "Attention over training", "ko": "학습에 따른 어텐션 변화"},
    "tab.live": {"en": "Train it yourself, live", "ko": "직접 학습시키기 (실시간)"},
    "tab.length": {"en": "BLEU by length", "ko": "문장 길이별 BLEU"},
    "tab.models": {"en": "Models", "ko": "모델 목록"},
    "tab.enc": {"en": "Encoder self-attention", "ko": "인코더 셀프 어텐션"},
    "tab.dec": {"en": "Decoder masked self-attention", "ko": "디코더 마스크드 셀프 어텐션"},
    "tab.cross": {"en": "Encoder-Decoder Attention", "ko": "인코더-디코더 어텐션"},
    # ------------------------------------------------------------------ seq2seq
    "s2s.intro": {
        "en": "An RNN encoder-decoder (English → French). Pick how the decoder scores each source state; the "
              "alignment shows, for every produced token (row), the attention over the source (columns). "
              "'I am a student.' should come out as 'je suis étudiant'. The four attention models were trained with "
              "one extra loss, guided alignment (Chen et al. 2016): each French word's attention is pulled toward the "
              "English word transformer-en-fr attends to most, so these maps are taught as well as learned.",
        "ko": "RNN 인코더-디코더(영어 → 프랑스어)입니다. 디코더가 각 소스 상태와의 유사도를 점수로 매기는 방식(점수 함수)을 "
              "고르세요. 정렬(alignment) 그림에서 행은 디코더가 만든 토큰, 열은 소스 토큰이고, 값은 그 토큰을 만들 때 각 소스 "
              "토큰에 준 어텐션 가중치입니다. 'I am a student.'는 'je suis étudiant'로 번역되어야 합니다. "
              "어텐션이 있는 네 모델은 손실 하나를 더해 학습했습니다(guided alignment, Chen et al. 2016). 프랑스어 "
              "단어마다 transformer-en-fr 모델이 가장 많이 보는 영어 단어 쪽으로 어텐션을 끌어당기므로, 이 정렬은 "
              "스스로 배운 것이면서 가르친 것이기도 합니다. 모델이 영어 문장을 읽으므로 예시도 영어입니다.",
    },
    "s2s.none_choice": {"en": "none (no attention)", "ko": "없음 (어텐션 없음)"},
    "s2s.score": {"en": "Score function", "ko": "점수(유사도) 함수"},
    "s2s.text": {"en": "English sentence", "ko": "영어 문장"},
    "s2s.align": {"en": "Alignment (target × source)", "ko": "정렬 (타깃 × 소스)"},
    "s2s.step": {"en": "Decoding step", "ko": "디코딩 단계"},
    "s2s.bars": {"en": "Attention at this step", "ko": "이 단계의 어텐션"},
    "s2s.files": {"en": "Downloads: record JSON, alignment CSV, alignment figure HTML (every step)",
                  "ko": "다운로드: 기록 JSON, 정렬 CSV, 정렬 그림 HTML (모든 단계)"},
    # ------------------------------------------------------------------ score functions
    "sf.intro": {
        "en": "The same English sentence through the five RNN encoder-decoders: **dot** sᵀh and **general** sᵀWh, "
              "Multiplicative attention (Luong et al. 2015), **scaled dot** sᵀh/√d (Vaswani et al. 2017), **additive** vᵀtanh(W₁s + W₂h), "
              "Bahdanau attention (Bahdanau et al. 2015) and **none**, the fixed-vector bottleneck (Sutskever et al. 2014). In dot, "
              "general and scaled dot, s is the decoder's current state hₜ (Luong); in additive it is the previous "
              "state sₜ₋₁ and the context vector feeds the LSTM (Bahdanau), so the models differ in more than the "
              "score. The four attention models have a bidirectional encoder; none reads the source reversed with "
              "a one-way encoder, as Sutskever et al. did. All four attention models were trained with the same "
              "guided-alignment loss (see the first tab), so their maps differ less than their score functions alone "
              "would make them. Below the alignments: the entropy of every attention row "
              "in nats; 0 means all weight on one source token, log S means spread evenly over all S of them.",
        "ko": "같은 영어 문장을 다섯 가지 RNN 인코더-디코더에 넣어 봅니다: **dot** sᵀh와 **general** sᵀWh, 곧 "
              "Multiplicative(곱셈) 어텐션 (Luong et al. 2015), **scaled dot** sᵀh/√d (Vaswani et al. 2017), **additive** vᵀtanh(W₁s + W₂h), 곧 "
              "Bahdanau(덧셈, additive) 어텐션 (Bahdanau et al. 2015), 그리고 어텐션 없이 고정 크기 벡터 하나만 쓰는 **none** (Sutskever et al. "
              "2014). dot·general·scaled dot에서 s는 디코더의 현재 상태 hₜ이고(Luong), additive에서는 이전 상태 "
              "sₜ₋₁이며 컨텍스트 벡터가 LSTM 입력으로 들어갑니다(Bahdanau). 점수는 디코더 상태와 각 소스 상태가 얼마나 비슷한지(유사도)를 잽니다. "
              "따라서 모델들은 점수 함수만 다른 것이 아닙니다. 어텐션이 있는 네 모델은 양방향 인코더를 쓰고, none은 Sutskever et al.처럼 단방향 인코더로 "
              "소스를 거꾸로 읽습니다. 어텐션이 있는 네 모델은 모두 같은 guided alignment 손실로 학습했으므로(첫 번째 탭 "
              "참고), 정렬의 차이는 점수 함수만으로 생길 차이보다 작습니다. "
              "정렬 그림 아래는 어텐션 각 행의 엔트로피(nats)입니다. 0이면 소스 토큰 하나에 "
              "모든 가중치가 몰린 것이고, log S면 S개 토큰에 고르게 퍼진 것입니다.",
    },
    "sf.run": {"en": "Compare", "ko": "비교하기"},
    "sf.figure": {"en": "Alignments and entropy per row", "ko": "정렬과 행별 엔트로피"},
    "sf.table": {"en": "Translation and mean attention entropy per model", "ko": "모델별 번역과 평균 어텐션 엔트로피"},
    "sf.summary": {
        "en": "Most peaked attention: **{model}** (mean row entropy {h:.2f} nats; uniform would be {u:.2f}).",
        "ko": "가장 집중된 어텐션: **{model}** (평균 행 엔트로피 {h:.2f} nats, 균등 분포라면 {u:.2f}).",
    },
    # ------------------------------------------------------------------ Transformer
    "tr.intro": {
        "en": "Encoder self-attention (Multi-Head Attention), the decoder's masked self-attention (Masked Multi-Head "
              "Attention) and Encoder-Decoder Attention (cross attention), every layer and head at a glance; pick "
              "one to see it large. Greedy search is beam size 1.",
        "ko": "인코더 셀프 어텐션(멀티 헤드 어텐션), 디코더의 마스크드 셀프 어텐션(마스크드 멀티 헤드 어텐션), "
              "인코더-디코더 어텐션(Encoder-Decoder Attention)을 모든 레이어와 헤드에 걸쳐 한눈에 "
              "봅니다. 레이어와 헤드를 고르면 크게 볼 수 있습니다. 빔 크기 1은 그리디 디코딩입니다.",
    },
    "tr.beam": {"en": "Beam size (1 = greedy)", "ko": "빔 크기 (1 = 그리디)"},
    "tr.hyps": {"en": "Hypotheses (best first)", "ko": "번역 후보 (점수 높은 순)"},
    "tr.scores": {"en": "Selected head: scores before and after softmax", "ko": "선택한 헤드: 소프트맥스 전후의 점수(유사도)"},
    "tr.files": {"en": "Downloads: record JSON, selected matrices CSV, figures HTML",
                 "ko": "다운로드: 기록 JSON, 선택한 행렬 CSV, 그림 HTML"},
    # ------------------------------------------------------------------ beam search
    "beam.intro": {
        "en": "Beam search keeps the N best partial translations at every step and ranks the finished ones by "
              "log-probability divided by a length penalty (Wu et al. 2016) with each model's own α, chosen on its "
              "validation split (shown under the translation). The table lists them best "
              "first with their summed log-probability; choose one to see the Encoder-Decoder Attention that produced it "
              "(the model is run again, teacher-forced on that hypothesis).",
        "ko": "빔 서치는 매 단계마다 가장 좋은 N개의 부분 번역을 남기고, 완성된 번역을 길이 페널티(Wu et al. "
              "2016; α는 모델마다 검증 데이터로 고른 값이며 번역 아래에 표시됩니다)로 나눈 로그 확률로 "
              "순위를 매깁니다. 표는 번역 후보들을 점수 높은 순으로, 로그 확률의 합과 함께 "
              "보여 줍니다. 번역 후보를 고르면 그 번역을 만들 때의 인코더-디코더 어텐션을 볼 수 있습니다"
              "(그 후보를 디코더 입력으로 모델을 다시 실행합니다).",
    },
    "beam.alpha": {"en": "Length penalty of {model}: α = {alpha:.1f} (chosen on its validation split; score = "
                         "log-prob / ((5 + length) / 6)^α).",
                   "ko": "{model}의 길이 페널티: α = {alpha:.1f} (검증 데이터로 고른 값; 점수 = 로그 확률 / "
                         "((5 + 길이) / 6)^α)."},
    "beam.size": {"en": "Beam size N", "ko": "빔 크기 N"},
    "beam.run": {"en": "Search", "ko": "탐색하기"},
    "beam.table": {"en": "Hypotheses with log-probabilities", "ko": "번역 후보와 로그 확률"},
    "beam.figure": {"en": "Scores and prefix tree", "ko": "점수와 접두사 트리"},
    "beam.choose": {"en": "Show the attention of hypothesis", "ko": "어텐션을 볼 번역 후보"},
    "beam.grid": {"en": "Encoder-Decoder Attention of the chosen hypothesis, all layers × heads (an RNN has one of each)",
                  "ko": "선택한 번역 후보의 인코더-디코더 어텐션 (모든 레이어 × 헤드, RNN은 하나씩)"},
    "beam.mean": {"en": "Last layer, mean over heads (an RNN: its one map)",
                  "ko": "마지막 레이어, 헤드 평균 (RNN은 그 하나의 맵)"},
    # ------------------------------------------------------------------ BERT
    "bert.intro": {
        "en": "WordPiece tokens with their segment (A/B), fill-mask for any number of [MASK]s, next-sentence "
              "prediction, and every head's self-attention (A/B marked on the axes).",
        "ko": "WordPiece 토큰과 세그먼트(A/B), 여러 개의 [MASK]를 채우는 마스크 언어 모델, 다음 문장 예측(NSP), "
              "그리고 모든 헤드의 셀프 어텐션(축에 A/B 표시)을 봅니다. 이 BERT는 영어로 학습했으므로 예시도 "
              "영어입니다.",
    },
    "bert.model": {"en": "BERT model", "ko": "BERT 모델"},
    "bert.a": {"en": "Sentence A", "ko": "문장 A"},
    "bert.b": {"en": "Sentence B (optional for fill-mask)", "ko": "문장 B ([MASK] 채우기에는 선택)"},
    "bert.k": {"en": "top-k", "ko": "상위 k개"},
    "bert.fill": {"en": "Fill [MASK]", "ko": "[MASK] 채우기"},
    "bert.nsp": {"en": "Is B the next sentence?", "ko": "B가 다음 문장일까?"},
    "bert.enc": {"en": "Tokens and attention (no [MASK] needed)", "ko": "토큰과 어텐션 보기 ([MASK] 없이도)"},
    "bert.tokens": {"en": "WordPiece tokens", "ko": "WordPiece 토큰"},
    "bert.masks": {"en": "Fill-mask predictions", "ko": "[MASK] 예측"},
    "bert.topk": {"en": "Top-k per [MASK]", "ko": "[MASK]별 상위 k개"},
    "bert.nspfig": {"en": "Next-sentence prediction", "ko": "다음 문장 예측"},
    "bert.files": {"en": "Downloads: record JSON, tables and selected matrix CSV, figures HTML",
                   "ko": "다운로드: 기록 JSON, 표와 선택한 행렬 CSV, 그림 HTML"},
    "bert.hub_intro": {
        "en": "**Bring your own BERT.** Load a BERT checkpoint from the Hugging Face Hub (at most {cap} MB). It "
              "is converted into this repo's BERT and added to the model choices above.",
        "ko": "**내 BERT 불러오기.** Hugging Face 허브의 BERT 체크포인트(최대 {cap} MB)를 불러와 이 저장소의 BERT로 "
              "변환하고, 위의 모델 목록에 추가합니다.",
    },
    "bert.hub_repo": {"en": "Hub repository id (e.g. prajjwal1/bert-tiny)", "ko": "허브 저장소 ID (예: prajjwal1/bert-tiny)"},
    "bert.hub_load": {"en": "Load from the Hub", "ko": "허브에서 불러오기"},
    "bert.hub_loaded": {"en": "Loaded **{name}**: {layers} layers × {heads} heads; choose it above.",
                        "ko": "불러오기 완료: **{name}** ({layers}개 레이어 × {heads}개 헤드). 위의 모델 목록에서 고르세요."},
    # ------------------------------------------------------------------ rollout
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
    # ------------------------------------------------------------------ query / key
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
    # ------------------------------------------------------------------ queries and keys of many sentences
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
    # ------------------------------------------------------------------ contextual
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
    # ------------------------------------------------------------------ positional
    "pos.intro": {
        "en": "The sinusoidal positional encoding of Vaswani et al. 2017 (sec. 3.5): PE(pos, 2i) = "
              "sin(pos / 10000^(2i/d)), PE(pos, 2i+1) = cos(pos / 10000^(2i/d)). The dot product of two positions "
              "depends only on their distance. With a sentence: what adding the model's table does to its token "
              "embeddings (scaled by √d_model, sec. 3.4).",
        "ko": "Vaswani et al. 2017(3.5절)의 사인파 포지셔널 인코딩(Positional Encoding, 위치 인코딩): PE(pos, 2i) = sin(pos / 10000^(2i/d)), "
              "PE(pos, 2i+1) = cos(pos / 10000^(2i/d)). 두 위치의 내적은 위치 사이의 거리에만 의존합니다. 문장을 "
              "넣으면 모델의 포지셔널 인코딩을 더했을 때 토큰 임베딩(√d_model 배, 3.4절)이 어떻게 달라지는지 보여 줍니다.",
    },
    "pos.max_len": {"en": "Positions in the PE table", "ko": "PE 표의 위치 개수"},
    "pos.d_model": {"en": "d_model of the PE table (even; the sentence uses its model's own)",
                    "ko": "PE 표의 d_model (짝수; 문장은 모델 자신의 값을 씀)"},
    "pos.text": {"en": "Sentence (optional)", "ko": "문장 (선택)"},
    "pos.model": {"en": "Translation model for the sentence", "ko": "문장에 쓸 번역 모델"},
    "pos.run": {"en": "Draw", "ko": "그리기"},
    "pos.table": {"en": "Positional encoding table and PE·PEᵀ", "ko": "포지셔널 인코딩 표와 PE·PEᵀ"},
    "pos.sentence": {"en": "The sentence before and after adding positions", "ko": "포지셔널 인코딩을 더하기 전과 후의 문장"},
    "pos.no_sentence": {"en": "Type a sentence to see what adding the positions does to it.",
                        "ko": "문장을 입력하면 포지셔널 인코딩을 더했을 때의 변화를 보여 줍니다."},
    "pos.summary": {
        "en": "{model} (d_model = {d}): mean ‖embedding·√d‖ = {e:.2f}, ‖PE‖ = {p:.2f}.",
        "ko": "{model} (d_model = {d}): 평균 ‖임베딩·√d‖ = {e:.2f}, ‖PE‖ = {p:.2f}.",
    },
    # ------------------------------------------------------------------ attention over training
    "snap.intro": {
        "en": "Encoder-Decoder Attention on fixed probe sentences (mean over heads), saved while each translation model "
              "trained. At first it is nearly uniform (entropy near log S); it sharpens as the model learns which "
              "source word to read. The four RNN attention models also had a loss that pulls each French word's "
              "attention toward transformer-en-fr's alignment (guided alignment); the Transformers learned theirs from "
              "translation alone. The rows are the reference translation, fed to the decoder (teacher forcing), "
              "not the model's own output at that point. The last snapshot is the end of training, not necessarily "
              "the shipped (best) checkpoint.",
        "ko": "각 번역 모델을 학습하는 동안 고정된 관찰 문장(probe)의 인코더-디코더 어텐션(헤드 평균)을 저장해 두었습니다. "
              "처음에는 거의 균등하고(엔트로피가 log S에 가까움), 모델이 어떤 소스 단어를 읽어야 하는지 배우면서 "
              "점점 뾰족해집니다. 어텐션이 있는 네 RNN 모델은 프랑스어 단어마다 어텐션을 transformer-en-fr 모델의 정렬 쪽으로 "
              "끌어당기는 손실(guided alignment)도 함께 받았고, 트랜스포머들은 번역만으로 스스로 배웠습니다. "
              "행은 모델이 그 시점에 만든 번역이 아니라, 디코더에 넣어 준 정답 번역(teacher "
              "forcing)의 토큰입니다. 마지막 스냅샷은 학습이 끝난 시점이며, 배포한(가장 좋은) 체크포인트와 다를 수 "
              "있습니다.",
    },
    "snap.model": {"en": "Translation model", "ko": "번역 모델"},
    "snap.probe": {"en": "Probe sentence", "ko": "관찰 문장"},
    "snap.slider": {"en": "Snapshot (training progress)", "ko": "스냅샷 (학습 진행)"},
    "snap.heatmap": {"en": "Attention at this step", "ko": "이 시점의 어텐션"},
    "snap.entropy": {"en": "Mean row entropy over training", "ko": "학습에 따른 평균 행 엔트로피"},
    "snap.summary": {
        "en": "Step **{step}** (snapshot {k} of {n}; training ended at step {final}): mean row entropy **{h:.3f}** "
              "nats (uniform over the {S} source tokens: log {S} = {u:.3f}).",
        "ko": "**{step}** 스텝 (스냅샷 {k}/{n}, 학습은 {final} 스텝에서 끝남): 평균 행 엔트로피 **{h:.3f}** nats "
              "(소스 토큰 {S}개에 균등하면 log {S} = {u:.3f}).",
    },
    # ------------------------------------------------------------------ live training
    "live.intro": {
        "en": "Train a tiny attentional encoder-decoder (64-dimensional embeddings and states) on a toy English → French grammar on this "
              "server's CPU and watch the alignment on the probe sentence sharpen. In French, colours follow the "
              "noun and negation wraps the verb (ne … pas), so the right alignment is not the diagonal. Its rows are "
              "the reference translation, fed to the decoder (teacher forcing); the model's own output is shown "
              "beside it. One training "
              "runs at a time (others wait in line); it stops at the time limit, when you press Stop, or when you "
              "close the page.",
        "ko": "작은 어텐션 인코더-디코더(임베딩·은닉 상태 64차원)를 이 서버의 CPU에서 토이 영어 → 프랑스어 문법으로 학습시키며, "
              "관찰 문장의 정렬(alignment)이 점점 또렷해지는 것을 지켜보세요. 프랑스어에서는 색깔 형용사가 명사 뒤에 오고 "
              "부정이 동사를 감싸므로(ne … pas) 올바른 정렬은 대각선이 아닙니다. 정렬의 행은 디코더에 넣어 준 정답 "
              "번역(teacher forcing)의 토큰이며, 모델이 만든 번역은 따로 보여 줍니다. 한 번에 하나의 학습만 실행되며 "
              "(다른 사람은 차례를 기다림), 시간 제한에 도달하거나 멈추기를 누르거나 페이지를 닫으면 멈춥니다.",
    },
    "live.seconds": {"en": "Training time (seconds)", "ko": "학습 시간 (초)"},
    "live.score": {"en": "Score function", "ko": "점수(유사도) 함수"},
    "live.probe": {"en": "Probe sentence (words of the toy grammar)", "ko": "관찰 문장 (토이 문법의 영어 단어만)"},
    "live.start": {"en": "Start training", "ko": "학습 시작"},
    "live.stop": {"en": "Stop", "ko": "멈추기"},
    "live.loss": {"en": "Training loss", "ko": "학습 손실"},
    "live.align": {"en": "Alignment on the probe sentence", "ko": "관찰 문장의 정렬"},
    "live.translation": {"en": "Current translation of the probe", "ko": "관찰 문장의 현재 번역"},
    "live.files": {"en": "Download: the final record (JSON)", "ko": "다운로드: 최종 기록 (JSON)"},
    "live.stopped": {"en": "Stopped.", "ko": "멈췄습니다."},
    "live.starting": {"en": "Starting: building the model…", "ko": "시작하는 중: 모델을 만드는 중…"},
    "live.align_title": {"en": "after {step} steps", "ko": "{step} 스텝 후"},
    "live.status": {"en": "Training… {s:.0f} s, step {step}, loss {loss}",
                    "ko": "학습 중… {s:.0f}초, {step} 스텝, 손실 {loss}"},
    "live.done": {"en": "Done: {s:.0f} s, {step} steps, last loss {loss}.",
                  "ko": "완료: {s:.0f}초, {step} 스텝, 마지막 손실 {loss}."},
    # ------------------------------------------------------------------ BLEU by length
    "len.intro": {
        "en": "Test BLEU by source-sentence length, the figure of Bahdanau et al. 2015 (fig. 2): without "
              "attention, one fixed-size vector holds long sentences badly. Read from each model's metrics.json "
              "(no model is run).",
        "ko": "소스 문장 길이별 테스트 BLEU로, Bahdanau et al. 2015의 그림 2에 해당합니다. 어텐션이 없으면 고정 "
              "크기 벡터 하나에 긴 문장을 담기 어렵습니다. 각 모델의 metrics.json에서 읽어 오며 모델은 실행하지 "
              "않습니다.",
    },
    "len.refresh": {"en": "Reload", "ko": "다시 읽기"},
    "models.status_ok": {"en": "loaded", "ko": "불러옴"},
    "models.status_error": {"en": "not loaded", "ko": "불러오지 못함"},
    "metric.split_valid": {"en": "validation", "ko": "검증"},
    "metric.split_test": {"en": "test", "ko": "테스트"},
    "metric.valid_bleu_greedy": {"en": "BLEU (greedy)", "ko": "BLEU(그리디)"},
    "metric.valid_chrf_greedy": {"en": "chrF (greedy)", "ko": "chrF(그리디)"},
    "metric.bleu": {"en": "BLEU", "ko": "BLEU"},
    "metric.chrf": {"en": "chrF", "ko": "chrF"},
    "metric.fill_mask_top1_wiki": {"en": "fill-mask top-1 on Wikipedia", "ko": "위키백과 [MASK] 채우기 top-1"},
    "metric.fill_mask_top1_short": {"en": "fill-mask top-1 on short sentences", "ko": "짧은 문장 [MASK] 채우기 top-1"},
    "metric.nsp_acc": {"en": "NSP accuracy", "ko": "NSP 정확도"},
    "metric.valid_ppl_token": {"en": "perplexity per token", "ko": "토큰당 퍼플렉서티"},
    "metric.ppl_token": {"en": "perplexity per token", "ko": "토큰당 퍼플렉서티"},
    "metric.ppl_word": {"en": "per word", "ko": "단어당"},
    "metric.trigram_ppl_token": {"en": "Kneser-Ney trigram per token", "ko": "Kneser-Ney 트라이그램 토큰당"},
    "metric.trigram_ppl_word": {"en": "per word", "ko": "단어당"},
    "metric.mlm_top1_mixed": {"en": "MLM top-1 on sentence pairs (mixed corpora)",
                              "ko": "문장 쌍(여러 말뭉치 혼합)의 MLM top-1"},
    "len.family_0": {"en": "RNN, no attention", "ko": "RNN, 어텐션 없음"},
    "len.family_1": {"en": "RNN + attention", "ko": "RNN + 어텐션"},
    "len.family_2": {"en": "Transformer", "ko": "트랜스포머"},
    "len.msg_models": {"en": "Test BLEU by source length (words) for {n} model(s).",
                       "ko": "모델 {n}개의 소스 길이(단어 수)별 테스트 BLEU."},
    "len.msg_empty": {"en": "No translation model has test.bleu_by_length in its metrics.json yet (run "
                            "`python -m models.evaluate assets/<model> --write`).",
                      "ko": "metrics.json에 test.bleu_by_length가 있는 번역 모델이 아직 없습니다"
                            "(`python -m models.evaluate assets/<model> --write`를 실행하세요)."},
    "len.msg_lacking": {"en": "Not evaluated yet: {names}.", "ko": "아직 평가하지 않은 모델: {names}."},
    "len.msg_broken": {"en": "Unreadable metrics: {names}.", "ko": "읽을 수 없는 metrics: {names}."},
    "len.figure": {"en": "BLEU by source length", "ko": "소스 길이별 BLEU"},
    "len.table": {"en": "BLEU per length bucket (words)", "ko": "길이 구간(단어 수)별 BLEU"},
    # ------------------------------------------------------------------ words inside the figures (figures.LABELS)
    # (every "fig.*" key is one of them; titles of the views follow)
    "fig.key": {"en": "key", "ko": "키"},
    "fig.query": {"en": "query", "ko": "쿼리"},
    "fig.word_start": {"en": "▁ = start of a word", "ko": "▁ = 단어의 시작"},
    "fig.layer": {"en": "layer", "ko": "레이어"},
    "fig.head": {"en": "head", "ko": "헤드"},
    "fig.value": {"en": "cell value", "ko": "칸 값"},  # not "value": in attention that reads as V
    "fig.no_heads": {"en": "No attention heads.", "ko": "어텐션 헤드가 없습니다."},
    "tr.query_reads": {"en": "query: the decoder input it reads", "ko": "쿼리: 읽는 디코더 입력"},
    "tr.key_reads": {"en": "key: decoder input (later ones masked)", "ko": "키: 디코더 입력(뒤쪽은 마스킹)"},
    "tr.query_produces": {"en": "query: the token it produces", "ko": "쿼리: 만들어 내는 토큰"},
    "tr.key_source": {"en": "key: source token", "ko": "키: 소스 토큰"},
    "fig.score": {"en": "score", "ko": "점수"},
    "fig.weight": {"en": "weight", "ko": "가중치"},
    "fig.masked": {"en": "masked", "ko": "마스크됨"},
    "fig.scores_panel": {"en": "scores QKᵀ/√d_k (before softmax)", "ko": "점수(유사도) QKᵀ/√d_k (소프트맥스 전)"},
    "fig.softmax_panel": {"en": "softmax (attention weights)", "ko": "소프트맥스 (어텐션 가중치)"},
    "fig.source": {"en": "source", "ko": "소스"},
    "fig.source_token": {"en": "source token", "ko": "소스 토큰"},
    "fig.attention_weight": {"en": "attention weight", "ko": "어텐션 가중치"},
    "fig.probability": {"en": "probability", "ko": "확률"},
    "fig.no_mask": {"en": "No [MASK] to predict.", "ko": "예측할 [MASK]가 없습니다."},
    "fig.grid_too_large": {
        "en": "Every head at a glance is drawn for inputs of up to {limit} tokens; this one has "
              "{tokens} ({maps} maps of {tokens} × {tokens} would stall the browser).",
        "ko": "모든 헤드를 한눈에 보는 격자는 {limit}개 토큰까지의 입력에만 그립니다. 이 입력은 {tokens}개 토큰입니다"
              "({tokens} × {tokens} 맵 {maps}개는 브라우저를 멈추게 할 수 있습니다)."},
    "view.target_produced": {"en": "target (produced)", "ko": "타깃 (생성)"},
    "view.all_heads": {"en": "{title}: all layers × heads", "ko": "{title}: 모든 레이어 × 헤드"},
    "view.layer_head": {"en": "{title}: layer {l}, head {h}", "ko": "{title}: 레이어 {l}, 헤드 {h}"},
    # the API's one figure (/translate, /fill_mask, /nsp): the last layer's attention, averaged over its heads
    "api.cross_mean": {"en": "{model}: cross attention, layer {l}, mean of {h} heads",
                       "ko": "{model}: 인코더-디코더 어텐션, 레이어 {l}, 헤드 {h}개 평균"},
    "api.bert_mean": {"en": "BERT: self-attention, layer {l}, mean of {h} heads",
                      "ko": "BERT: 셀프 어텐션, 레이어 {l}, 헤드 {h}개 평균"},
    "api.target": {"en": "target", "ko": "타깃"},
    # ------------------------------------------------------------------ words inside the lab's figures
    # (explorer.figures.lab.LABELS: every "lab.*" key is one of them)
    "lab.no_model": {"en": "No model to compare.", "ko": "비교할 모델이 없습니다."},
    "lab.no_attention": {"en": "no attention", "ko": "어텐션 없음"},
    "lab.mean_h": {"en": "mean H = {h:.2f} nats", "ko": "평균 H = {h:.2f} nats"},
    "lab.entropy_per_target": {"en": "Attention entropy per target token", "ko": "타깃 토큰별 어텐션 엔트로피"},
    "lab.no_attention_panel": {"en": "no attention:<br>the decoder sees only<br>the encoder's final state",
                               "ko": "어텐션 없음:<br>디코더는 인코더의<br>마지막 상태만 봅니다"},
    "lab.uniform": {"en": "uniform: log S = {u:.2f}", "ko": "균등 분포: log S = {u:.2f}"},
    "lab.target_step": {"en": "target step", "ko": "타깃 단계"},
    "lab.entropy_nats": {"en": "entropy (nats)", "ko": "엔트로피 (nats)"},
    "lab.no_length": {"en": "No BLEU-by-length results yet.", "ko": "아직 길이별 BLEU 결과가 없습니다."},
    "lab.source_length": {"en": "source length (words)", "ko": "소스 길이 (단어 수)"},
    "lab.test_bleu": {"en": "test BLEU", "ko": "테스트 BLEU"},
    "lab.length_hover": {"en": "{model}, {bucket} words: BLEU {bleu:.2f} (n = {n})",
                         "ko": "{model}, {bucket}단어: BLEU {bleu:.2f} (n = {n})"},
    "lab.rollout_left": {"en": "Mean over heads (last layer)", "ko": "헤드 평균 (마지막 레이어)"},
    "lab.rollout_right": {"en": "Attention rollout (all layers)", "ko": "어텐션 롤아웃 (모든 레이어)"},
    "lab.entropy_hover": {"en": "layer {l}, head {h}: {v:.3f} nats", "ko": "레이어 {l}, 헤드 {h}: {v:.3f} nats"},
    "lab.head": {"en": "head", "ko": "헤드"},
    "lab.layer": {"en": "layer", "ko": "레이어"},
    "lab.nats": {"en": "nats", "ko": "nats"},
    "lab.entropy_per_head": {"en": "Mean attention entropy per head", "ko": "헤드별 평균 어텐션 엔트로피"},
    "lab.uniform_keys": {"en": " (uniform = log {n} = {u:.2f})", "ko": " (균등 분포 = log {n} = {u:.2f})"},
    "lab.dimension": {"en": "dimension", "ko": "차원"},
    "lab.position": {"en": "position", "ko": "위치"},
    "lab.cos_before": {"en": "cosine: embedding × √d", "ko": "코사인: 임베딩 × √d"},
    "lab.cos_after": {"en": "cosine: + positional encoding", "ko": "코사인: + 포지셔널 인코딩"},
    "lab.norms": {"en": "vector norms", "ko": "벡터 노름"},
    "lab.ctx_across": {"en": "'{word}' across contexts (cosine)", "ko": "문맥에 따른 '{word}' (코사인)"},
    "lab.ctx_static": {"en": "cosine with the static embedding", "ko": "정적 임베딩과의 코사인"},
    "lab.qk_query": {"en": "query q of '{token}'", "ko": "'{token}'의 쿼리 q"},
    "lab.qk_keys": {"en": "keys k_j", "ko": "키 k_j"},
    "lab.softmax": {"en": "softmax", "ko": "소프트맥스"},
    "lab.qk_dim": {"en": "dimension of the head", "ko": "헤드의 차원"},
    "lab.no_hyps": {"en": "No hypotheses.", "ko": "번역 후보가 없습니다."},
    "lab.beam_score": {"en": "score (length-normalised log-prob)", "ko": "점수 (길이로 정규화한 로그 확률)"},
    "lab.beam_tree": {"en": "prefix tree (colour: cumulative log-prob)", "ko": "접두사 트리 (색: 누적 로그 확률)"},
    "lab.step": {"en": "step", "ko": "단계"},
    "lab.word_start": {"en": "▁ = start of a word", "ko": "▁ = 단어의 시작"},
    "lab.logprob": {"en": "log-prob", "ko": "로그 확률"},
    "lab.score": {"en": "score", "ko": "점수"},
    "lab.token_logprob": {"en": "log p(token)", "ko": "log p(토큰)"},
    "lab.cumulative": {"en": "cumulative", "ko": "누적"},
    "lab.norm_embedding": {"en": "‖embedding × √d‖", "ko": "‖임베딩 × √d‖"},
    "lab.norm_pe": {"en": "‖PE‖", "ko": "‖PE‖"},
    "lab.sf_map": {"en": "{name}: attention over the source", "ko": "{name}: 소스에 대한 어텐션"},
    "lab.target_source": {"en": "target / source", "ko": "타깃 / 소스"},
    "lab.rollout_axes": {"en": "position / input token", "ko": "위치 / 입력 토큰"},
    "lab.positions": {"en": "position / position", "ko": "위치 / 위치"},
    "lab.layer_head": {"en": "layer / head", "ko": "레이어 / 헤드"},
    # words inside the training figures (explorer.figures.live.LABELS: every "lvf.*" key is one of them)
    "lvf.weight": {"en": "weight", "ko": "가중치"},
    "lvf.source": {"en": "source", "ko": "소스"},
    "lvf.target": {"en": "target", "ko": "타깃"},
    "lvf.step_n": {"en": "step {n}", "ko": "{n} 스텝"},
    "lvf.snapshot_n": {"en": "snapshot {k} of {n}", "ko": "스냅샷 {k}/{n}"},
    "lvf.layer_of": {"en": "{step} · layer {l} of {L}", "ko": "{step} · 레이어 {l}/{L}"},
    "lvf.layer_n": {"en": "layer {l}", "ko": "레이어 {l}"},
    "lvf.mean_row_entropy": {"en": "mean row entropy", "ko": "평균 행 엔트로피"},
    "lvf.uniform": {"en": "uniform (log S)", "ko": "균등 분포 (log S)"},
    "lvf.training_step": {"en": "training step", "ko": "학습 스텝"},
    "lvf.entropy_nats": {"en": "entropy (nats)", "ko": "엔트로피 (nats)"},
    "lvf.step": {"en": "step", "ko": "스텝"},
    "lvf.cross_entropy": {"en": "cross-entropy (nats/token)", "ko": "교차 엔트로피 (nats/토큰)"},
    "lvf.loss": {"en": "loss", "ko": "손실"},
    "lvf.word_start": {"en": "▁ = start of a word", "ko": "▁ = 단어의 시작"},
    # table column headers ("col.<the English header>"), for i18n.localized
    "col.model": {"en": "model", "ko": "모델"},
    "col.status": {"en": "status", "ko": "상태"},
    "col.architecture": {"en": "architecture", "ko": "구조"},
    "col.parameters": {"en": "parameters", "ko": "파라미터 수"},
    "col.trained on (last stage)": {"en": "trained on (last stage)", "ko": "학습 장치 (마지막 단계)"},
    "col.train seconds (all stages)": {"en": "train seconds (all stages)", "ko": "학습 시간(초, 모든 단계)"},
    "col.weights on disk": {"en": "weights on disk", "ko": "저장 형식"},
    "col.metrics / error": {"en": "metrics / error", "ko": "지표 / 오류"},
    "col.score function": {"en": "score function", "ko": "점수(유사도) 함수"},
    "col.translation": {"en": "translation", "ko": "번역"},
    "col.mean entropy (nats)": {"en": "mean entropy (nats)", "ko": "평균 엔트로피 (nats)"},
    "col.uniform log S (nats)": {"en": "uniform log S (nats)", "ko": "균등 분포 log S (nats)"},
    "col.log-prob": {"en": "log-prob", "ko": "로그 확률"},
    "col.score": {"en": "score", "ko": "점수"},
    "col.attention shown": {"en": "attention shown", "ko": "어텐션 표시"},
    "col.tokens": {"en": "tokens", "ko": "토큰"},
    "col.position": {"en": "position", "ko": "위치"},
    "col.key token": {"en": "key token", "ko": "키 토큰"},
    "col.query PC 1": {"en": "query PC 1", "ko": "쿼리 주성분 1"},
    "col.query PC 2": {"en": "query PC 2", "ko": "쿼리 주성분 2"},
    "col.key PC 1": {"en": "key PC 1", "ko": "키 주성분 1"},
    "col.key PC 2": {"en": "key PC 2", "ko": "키 주성분 2"},
    "col.softmax": {"en": "softmax", "ko": "소프트맥스"},
    "col.model attention": {"en": "model attention", "ko": "모델의 어텐션"},
    "col.sentence": {"en": "sentence", "ko": "문장"},
    "col.tokens of the word": {"en": "tokens of the word", "ko": "단어의 토큰"},
    "col.cosine with static": {"en": "cosine with static", "ko": "정적 임베딩과의 코사인"},
    "col.direction": {"en": "direction", "ko": "방향"},
    "col.family": {"en": "family", "ko": "계열"},
    "col.token": {"en": "token", "ko": "토큰"},
    "col.segment": {"en": "segment", "ko": "세그먼트"},
    "col.mask": {"en": "mask", "ko": "마스크"},
    "col.rank": {"en": "rank", "ko": "순위"},
    "col.probability": {"en": "probability", "ko": "확률"},
    # titles the lab's views give their figures
    "view.no_attention_model": {"en": "No attention in this model.", "ko": "이 모델에는 어텐션이 없습니다."},
    "view.hyp_grid": {"en": "Hypothesis #{i}: Encoder-Decoder Attention, all layers × heads",
                      "ko": "번역 후보 #{i}: 인코더-디코더 어텐션, 모든 레이어 × 헤드"},
    "view.hyp_mean": {"en": "Hypothesis #{i}: last layer, mean over heads",
                      "ko": "번역 후보 #{i}: 마지막 레이어, 헤드 평균"},
    "view.hyp_one": {"en": "Hypothesis #{i}: Encoder-Decoder Attention (one layer, one head)",
                     "ko": "번역 후보 #{i}: 인코더-디코더 어텐션 (레이어 하나, 헤드 하나)"},
    "view.run_first": {"en": "Run a sentence first.", "ko": "먼저 문장을 실행하세요."},
    "view.layer_mean": {"en": "Layer {l}: mean over heads", "ko": "레이어 {l}: 헤드 평균"},
    "view.rollout_through": {"en": "Rollout through layers 1–{l}", "ko": "레이어 1–{l}까지의 롤아웃"},
    "view.row_entropy": {"en": "Layer {l}: entropy of each head's attention row (nats; uniform = log {n} = {u:.2f})",
                         "ko": "레이어 {l}: 헤드별 어텐션 행의 엔트로피 (nats, 균등 분포 = log {n} = {u:.2f})"},
    "view.query_token": {"en": "query token", "ko": "쿼리 토큰"},
    "view.head_n": {"en": "head {h}", "ko": "헤드 {h}"},
    "view.self_grid": {"en": "{model}: self-attention, all layers × heads",
                       "ko": "{model}: 셀프 어텐션, 모든 레이어 × 헤드"},
    # ------------------------------------------------------------------ what the first three tabs compute
    "view.translate_first": {"en": "Translate a sentence first.", "ko": "먼저 문장을 번역하세요."},
    "s2s.no_attention": {
        "en": "**No attention in this model.** The decoder never looks back at the source: the encoder's final "
              "state (h and c), which starts the decoder, is all it knows of the sentence, so the whole sentence "
              "must fit through one fixed-size vector (the bottleneck of Sutskever et al. 2014, who also read the "
              "source reversed, as this model does; attention, Bahdanau et al. 2015, removes it).",
        "ko": "**이 모델에는 어텐션이 없습니다.** 디코더는 소스를 다시 보지 않습니다. 디코더의 초기 상태가 되는 "
              "인코더의 마지막 상태(h와 c)가 문장에 대해 아는 전부이므로, 문장 전체가 고정 크기 벡터 하나를 "
              "통과해야 합니다(Sutskever et al. 2014의 병목이며, 이 모델도 그들처럼 소스를 거꾸로 읽습니다. "
              "Bahdanau et al. 2015의 어텐션이 이 병목을 없앱니다).",
    },
    "s2s.align_none": {"en": "No attention: the decoder starts from the encoder's final state and never looks back.",
                       "ko": "어텐션 없음: 디코더는 인코더의 마지막 상태에서 시작하며 소스를 다시 보지 않습니다."},
    "s2s.align_title_none": {"en": "{model}: alignment", "ko": "{model}: 정렬"},
    "s2s.align_title": {"en": "{model}: target × source alignment", "ko": "{model}: 타깃 × 소스 정렬"},
    # {end}: "." unless the produced token already ends a sentence ("ant." gave "ant..")
    "s2s.step_head": {"en": "**Step {t}/{T}**: the decoder read *{fed}* and produced **{produced}**{end}",
                      "ko": "**{t}/{T}단계**: 디코더 입력 *{fed}*, 출력 **{produced}**{end}"},
    "s2s.bars_none": {"en": "No attention weights: the encoder's final state only starts the decoder; no step looks "
                            "back at the source.",
                      "ko": "어텐션 가중치가 없습니다: 인코더의 마지막 상태는 디코더의 초기 상태로만 쓰이고, 어느 단계도 "
                            "소스를 다시 보지 않습니다."},
    "s2s.step_none": {"en": "There is no attention: all the decoder knows of the source came in through its initial "
                            "state, the encoder's final (h, c).",
                      "ko": "어텐션이 없습니다: 디코더가 소스에 대해 아는 것은 모두 초기 상태, 즉 인코더의 마지막 (h, c)로 "
                            "들어온 것입니다."},
    "s2s.step_context": {"en": "Its Attention Value, the context vector a{t} = Σᵢ αᵢ hᵢ, came mostly from {top} "
                               "({share} of the weight).",
                         "ko": "이 단계의 어텐션 값(컨텍스트 벡터) a{t} = Σᵢ αᵢ hᵢ는 주로 {top}에서 왔습니다(가중치의 {share})."},
    "s2s.bars_title": {"en": "Step {t}: attention while producing '{produced}'",
                       "ko": "{t}단계: '{produced}' 출력 시의 어텐션"},
    "tr.title_enc": {"en": "Encoder self-attention", "ko": "인코더 셀프 어텐션"},
    "tr.title_dec": {"en": "Decoder masked self-attention", "ko": "디코더 마스크드 셀프 어텐션"},
    "tr.title_cross": {"en": "Encoder-Decoder Attention (decoder → encoder)", "ko": "인코더-디코더 어텐션 (디코더 → 인코더)"},
    "tr.no_view": {"en": "This model has no {what}.", "ko": "이 모델에는 {what}이 없습니다."},
    "tr.scores_title": {"en": "Decoder Attention Score Matrix (masked), layer {l}, head {h}",
                        "ko": "디코더 어텐션 스코어 행렬 (마스크드), 레이어 {l}, 헤드 {h}"},
    "bert.first": {"en": "Run BERT on a sentence first.", "ko": "먼저 문장에 BERT를 실행하세요."},
    "bert.title": {"en": "BERT self-attention", "ko": "BERT 셀프 어텐션"},
    "bert.topk_title": {"en": "Fill-mask: top predictions", "ko": "[MASK] 채우기: 상위 예측"},
    "bert.mask_label": {"en": "[MASK] #{i} (position {p})", "ko": "[MASK] #{i} (위치 {p})"},
    "bert.nsp_title": {"en": "Next-sentence prediction", "ko": "다음 문장 예측 (NSP)"},
    "bert.nsp_no_b": {"en": "Give a sentence B to see P(IsNext).", "ko": "P(IsNext)를 보려면 문장 B를 입력하세요."},
    "bert.nsp_follows": {
        "en": "P(IsNext) = **{p:.4f}**, P(NotNext) = **{q:.4f}**: BERT thinks sentence B follows sentence A.",
        "ko": "P(IsNext) = **{p:.4f}**, P(NotNext) = **{q:.4f}**: BERT는 문장 B가 문장 A 다음에 이어진다고 봅니다.",
    },
    "bert.nsp_not_follows": {
        "en": "P(IsNext) = **{p:.4f}**, P(NotNext) = **{q:.4f}**: BERT thinks sentence B does not follow sentence A.",
        "ko": "P(IsNext) = **{p:.4f}**, P(NotNext) = **{q:.4f}**: BERT는 문장 B가 문장 A 다음에 이어지지 않는다고 "
              "봅니다.",
    },
    # ------------------------------------------------------------------ request limits (ui/limits.py)
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
    # ------------------------------------------------------------------ the whole computation (Inside a layer, ...)
    "tab.layer": {"en": "Inside a layer", "ko": "레이어 내부 들여다보기"},
    "tab.luong": {"en": "Luong's four steps", "ko": "Luong 어텐션의 네 단계"},
    "tab.choices": {"en": "Next-word choices", "ko": "다음 단어 후보"},
    "tab.bert_inputs": {"en": "BERT's inputs & masking", "ko": "BERT 입력과 마스킹"},
    "tab.elmo": {"en": "ELMo: mixing layers", "ko": "ELMo: 레이어 가중합"},
    "what.target": {"en": "target", "ko": "목표 번역"},
    "col.top-k": {"en": "top-k", "ko": "상위 k개"},
    "col.original": {"en": "original", "ko": "원래 토큰"},
    "col.action": {"en": "action", "ko": "처리"},
    "col.model reads": {"en": "model reads", "ko": "모델 입력"},
    "col.layer": {"en": "layer", "ko": "레이어"},
    "col.weight s_j": {"en": "weight s_j", "ko": "가중치 s_j"},
    "col.cosine 1·2": {"en": "cosine 1·2", "ko": "코사인 유사도 1·2"},
    # inside a layer (explorer/compute/inside.py)
    "il.intro": {
        "en": "Follow one token through one layer, as the model computes it: x → Query, Key, Value (Q, K, V) per "
              "head (d_k = d_model / h) "
              "→ scores QK^T/√d_k (−∞ where the decoder's mask hides a key) → softmax → weights × V = each head's "
              "output → Concat · W^O (**Multi-Head Attention**) → + residual → LayerNorm → Position-wise FFN (W1, "
              "activation, W2) → + residual → LayerNorm → the next layer's input. Every number is recomputed from "
              "the weights and equals the model's own forward pass.",
        "ko": "토큰 하나를 레이어 하나에 통과시키며 모델이 계산하는 순서대로 따라갑니다: x → 헤드별 쿼리(Q), 키(K), 값(V) "
              "(d_k = d_model / h) → 점수 QK^T/√d_k (디코더의 마스크가 가린 키는 −∞) → 소프트맥스 → 가중치 × 값(V) = "
              "헤드별 출력 → Concat · W^O (**멀티 헤드 어텐션 (Multi-Head Attention)**) → + 잔차 연결 → LayerNorm → "
              "포지션 와이즈 FFN (Position-wise FFN; W1, 활성화 함수, W2) → + 잔차 연결 → LayerNorm → 다음 레이어의 입력. 모든 숫자는 가중치로 "
              "다시 계산한 값이며 모델 자신의 순전파 결과와 같습니다.",
    },
    "il.model": {"en": "Model", "ko": "모델"},
    "il.stack": {"en": "Stack", "ko": "스택"},
    "il.encoder": {"en": "Encoder", "ko": "인코더"},
    "il.decoder": {"en": "Decoder", "ko": "디코더"},
    "il.token": {"en": "Token to follow", "ko": "따라갈 토큰"},
    "il.target": {"en": "Your own translation (optional, decoder)", "ko": "직접 입력한 번역 (선택, 디코더)"},
    "il.run": {"en": "Follow the token", "ko": "토큰 따라가기"},
    "il.plot_stream": {"en": "The residual stream, step by step", "ko": "잔차 스트림, 단계별"},
    "il.plot_scores": {"en": "Scores and softmax, every head", "ko": "헤드별 점수와 소프트맥스"},
    "il.plot_qkv": {"en": "Queries and each head's output", "ko": "쿼리와 헤드별 출력"},
    "il.plot_heads": {"en": "Each head's contribution", "ko": "헤드별 기여도"},
    "il.plot_ffn": {"en": "Position-wise FFN: the hidden layer", "ko": "포지션 와이즈 FFN (Position-wise FFN)의 은닉층"},
    "lu.model": {"en": "Model (RNN with attention)", "ko": "모델 (어텐션이 있는 RNN)"},
    "lu.plot_steps": {"en": "Steps 1, 2 and 4", "ko": "1, 2, 4단계"},
    "lu.plot_vectors": {"en": "The vectors (h_i, h_t; steps 3 and 4)", "ko": "벡터들 (h_i, h_t; 3, 4단계)"},
    "lu.table": {"en": "Next-word candidates", "ko": "다음 단어 후보"},
    "ch.model": {"en": "Translation model", "ko": "번역 모델"},
    "ch.plot": {"en": "Attention rows and next-word choices", "ko": "어텐션 행과 다음 단어 후보"},
    "ch.table": {"en": "Every step's choices", "ko": "스텝별 후보"},
    "ch.top_k": {"en": "Top-k", "ko": "상위 k개 (top-k)"},
    "bi.plot_sum": {"en": "The input sum", "ko": "입력의 합"},
    "bi.plot_pos": {"en": "Position tables", "ko": "위치 표"},
    "bi.mask_table": {"en": "Chosen tokens and the model's predictions", "ko": "고른 토큰과 모델의 예측"},
    "el.model": {"en": "Model", "ko": "모델"},
    "el.plot": {"en": "Layer weights and cosine similarity", "ko": "레이어 가중치와 코사인 유사도"},
    "el.table": {"en": "Per layer", "ko": "레이어별"},
    "el.plot_vectors": {"en": "The word's vector at every layer, and their mix", "ko": "레이어별 단어 벡터와 가중합"},
    "el.vectors": {"en": "'{word}' in sentence 1 ({sentence}): h_j at every layer and ELMo",
                   "ko": "문장 1({sentence})의 '{word}': 레이어별 h_j와 ELMo"},
    "tab.computation": {"en": "The whole computation", "ko": "계산 과정 전체"},
    "il.summary_md": {"en": "Summary", "ko": "요약"},
    "il.fig_stream": {"en": "The residual stream at '{token}', layer {l}", "ko": "'{token}'의 잔차 스트림, 레이어 {l}"},
    "il.fig_qkv": {"en": "{kind}: the query q of '{token}' and each head's output, weights × V (h = {h}, d_k = {d_k})",
                   "ko": "{kind}: '{token}'의 쿼리 q와 헤드별 출력 가중치 × 값(V) (h = {h}, d_k = {d_k})"},
    "il.fig_scores": {"en": "{kind}: the query '{token}' in every head", "ko": "{kind}: 모든 헤드에서 쿼리 '{token}'"},
    "il.fig_heads": {"en": "{kind}: each head's contribution |head_j · W^O_j|",
                     "ko": "{kind}: 헤드별 기여도 |head_j · W^O_j|"},
    "il.fig_ffn": {"en": "Position-wise FFN at '{token}': W1 → {act} → W2 (d_ff = {d_ff})",
                   "ko": "'{token}'의 포지션 와이즈 FFN: W1 → {act} → W2 (d_ff = {d_ff})"},
    "il.kind_self": {"en": "Multi-Head Attention (self)", "ko": "멀티 헤드 어텐션 (Multi-Head Attention, 셀프)"},
    "il.kind_masked_self": {"en": "Masked Multi-Head Attention", "ko": "마스크드 멀티 헤드 어텐션 (Masked Multi-Head Attention)"},
    "il.kind_cross": {"en": "Encoder-Decoder Attention", "ko": "인코더-디코더 어텐션 (Encoder-Decoder Attention)"},
    "il.row_x": {"en": "x: the layer's input", "ko": "x: 레이어 입력"},
    "il.row_in": {"en": "{kind}: input", "ko": "{kind}: 입력"},
    "il.row_ln": {"en": "LayerNorm(x)", "ko": "LayerNorm(x)"},
    "il.row_out": {"en": "{kind}: Concat · W^O", "ko": "{kind}: Concat · W^O"},
    "il.row_residual": {"en": "+ residual", "ko": "+ 잔차 연결"},
    "il.row_add_norm": {"en": "Add & Norm", "ko": "Add & Norm"},
    "il.short_self": {"en": "self-attention", "ko": "셀프 어텐션"},
    "il.short_masked_self": {"en": "masked self-attention", "ko": "마스크드 셀프 어텐션"},
    "il.short_cross": {"en": "Encoder-Decoder Attention", "ko": "인코더-디코더 어텐션"},
    "il.row_ffn_out": {"en": "Position-wise FFN output", "ko": "포지션 와이즈 FFN 출력"},
    "il.row_next": {"en": "the next layer's input", "ko": "다음 레이어의 입력"},
    "il.row_final": {"en": "after the final LayerNorm", "ko": "마지막 LayerNorm 뒤"},
    "il.row_q": {"en": "q head {h}", "ko": "q 헤드 {h}"},
    "il.row_head_out": {"en": "weights × V, head {h}", "ko": "가중치 × 값(V), 헤드 {h}"},
    "il.row_hidden_pre": {"en": "x W1 + b1", "ko": "x W1 + b1"},
    "il.row_hidden": {"en": "{act}(x W1 + b1)", "ko": "{act}(x W1 + b1)"},
    "il.head": {"en": "head {h}", "ko": "헤드 {h}"},
    "il.scores": {"en": "scores q·k/√d_k", "ko": "점수 (유사도) q·k/√d_k"},
    "il.softmax": {"en": "softmax: the attention weights", "ko": "소프트맥스: 어텐션 가중치"},
    "il.key": {"en": "key", "ko": "키"},
    "il.dimension": {"en": "dimension", "ko": "차원"},
    "il.norm": {"en": "norm", "ko": "노름"},
    "il.qk_norm": {"en": " The scores use q and k after QK-LayerNorm (this model has it); the raw ones are in the record.",
                   "ko": " 이 모델은 QK-LayerNorm을 쓰므로 점수는 정규화한 q와 k로 계산합니다. 정규화 전 값은 기록에 있습니다."},
    "il.order_post": {"en": "post-LN, the paper's order: {chain}", "ko": "post-LN, 논문의 순서: {chain}"},
    "il.order_pre": {"en": "pre-LN, the order this model computes: {chain}", "ko": "pre-LN, 이 모델이 계산하는 순서: {chain}"},
    "il.summary": {"en": "**{model}**, {stack} layer {l} of {n}, token **{token}** (position {i}). d_model = {d} = h × d_k "
                         "= {h} × {d_k}; d_ff = {d_ff}. {order}. |x| = {nx:.2f} → |next input| = {nn:.2f}.",
                   "ko": "**{model}**, {stack} 레이어 {l}/{n}, 토큰 **{token}** (위치 {i}). d_model = {d} = h × d_k "
                         "= {h} × {d_k}; d_ff = {d_ff}. {order}. |x| = {nx:.2f} → |다음 입력| = {nn:.2f}."},
    # Luong's four steps (explorer/compute/luong.py), named and numbered as the lecture deck 000 has them
    "lu.intro": {
        "en": "One decoding step of an RNN encoder-decoder (Luong et al. 2015) in four steps. Given the encoder's "
              "hidden states h_i and the decoder's hidden state h_t: 1. Attention Score e_t = score(h_t, h_i) (dot, "
              "general = Multiplicative, scaled dot); 2. Attention Distribution α_t = softmax(e_t); 3. Attention "
              "Value a_t = Σ α_t,i h_i, the context vector; 4. Prediction Vector h~_t = tanh(W_c [a_t; h_t]), and "
              "softmax(W_s h~_t) over the vocabulary. Bahdanau (additive) attention scores with the previous state "
              "s_{t-1} instead and feeds a_t to the LSTM. Every number is recomputed from the weights and equals "
              "the model's own step.",
        "ko": "RNN 인코더-디코더(Luong 외 2015)의 디코딩 한 스텝을 네 단계로 봅니다. 인코더 은닉 상태 h_i와 디코더 은닉 "
              "상태 h_t에서 시작합니다: 1. 어텐션 스코어(Attention Score) e_t = score(h_t, h_i) (dot, general = "
              "Multiplicative(곱셈) 어텐션, scaled dot); 2. 어텐션 분포(Attention Distribution) α_t = softmax(e_t); "
              "3. 어텐션 값(Attention Value) a_t = Σ α_t,i h_i, 곧 컨텍스트 벡터; 4. 예측 벡터(Prediction Vector) "
              "h~_t = tanh(W_c [a_t; h_t])와 어휘 전체에 대한 softmax(W_s h~_t). Bahdanau(additive, 덧셈) 어텐션은 "
              "이전 상태 s_{t-1}로 점수를 내고 a_t를 LSTM에 넣습니다. 모든 숫자는 가중치로 다시 계산한 값이며 모델 "
              "자신의 스텝과 같습니다.",
    },
    "lu.step": {"en": "Decoding step t", "ko": "디코딩 스텝 t"},
    "lu.run": {"en": "Show the four steps", "ko": "네 단계 보기"},
    "lu.top_k": {"en": "Top-k next words", "ko": "다음 단어 후보 수 (top-k)"},
    "lu.panel_scores": {"en": "1. Attention Score e_t = score({query}, h_i)",
                        "ko": "1. 어텐션 스코어 (Attention Score) e_t = score({query}, h_i)"},
    "lu.panel_weights": {"en": "2. Attention Distribution α_t = softmax(e_t)",
                         "ko": "2. 어텐션 분포 (Attention Distribution) α_t = softmax(e_t)"},
    "lu.panel_top": {"en": "4. softmax(W_s h~_t): top {k}", "ko": "4. softmax(W_s h~_t): 상위 {k}개"},
    "lu.fig_steps": {"en": "Step {t}: reads '{read}', puts out '{token}'", "ko": "스텝 {t}: '{read}'을(를) 읽고 '{token}'을(를) 냄"},
    "lu.fig_vectors": {"en": "The vectors of step {t}", "ko": "스텝 {t}의 벡터들"},
    "lu.row_enc": {"en": "h_{i} ('{token}')", "ko": "h_{i} ('{token}')"},
    "lu.row_query": {"en": "the state that scores: {query}", "ko": "점수를 내는 상태: {query}"},
    "lu.row_state": {"en": "the new state {state}", "ko": "새 상태 {state}"},
    "lu.row_context": {"en": "3. Attention Value a_t = Σ α_t,i h_i (context vector)",
                       "ko": "3. 어텐션 값 (Attention Value) a_t = Σ α_t,i h_i (컨텍스트 벡터)"},
    "lu.row_attentional": {"en": "4. Prediction Vector h~_t = tanh(W_c {concat})",
                           "ko": "4. 예측 벡터 (Prediction Vector) h~_t = tanh(W_c {concat})"},
    "lu.summary": {"en": "**{model}** ({score}), step {t}: reads **{read}**, puts out **{token}** with p = {p} (rank {rank}); "
                         "the most attended source token is **{src}** (α = {a:.3f}).",
                   "ko": "**{model}** ({score}), 스텝 {t}: 읽은 토큰 **{read}**, 낸 토큰 **{token}**, p = {p} "
                         "(순위 {rank}). 가장 많이 보는 원문 토큰: **{src}** (α = {a:.3f})."},
    "lu.score_dot": {"en": "dot", "ko": "dot (내적)"},
    "lu.score_scaled_dot": {"en": "scaled dot", "ko": "scaled dot (스케일드 내적)"},
    "lu.score_general": {"en": "general (Multiplicative)", "ko": "general (Multiplicative, 곱셈)"},
    "lu.score_additive": {"en": "Bahdanau (additive)", "ko": "Bahdanau (additive, 덧셈)"},
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
    # BERT's inputs and the 80/10/10 rule (explorer/compute/bert_inputs.py)
    "bi.intro": {
        "en": "BERT's input, as the paper's figure 2 draws it: token + segment + position embeddings, summed, then "
              "LayerNorm. BERT learns its position embeddings; the Transformer's Positional Encoding is a fixed "
              "sinusoidal table. The cosine similarity between positions shows what each table encodes.",
        "ko": "논문 그림 2처럼 BERT의 입력을 봅니다: 토큰 + 세그먼트 + 위치 임베딩을 더한 뒤 LayerNorm. BERT는 위치 "
              "임베딩을 학습하고, 트랜스포머의 포지셔널 인코딩 (Positional Encoding)은 고정된 사인/코사인 표입니다. "
              "위치 사이의 코사인 유사도로 두 표가 무엇을 담는지 봅니다.",
    },
    "bi.text_b": {"en": "Sentence B (optional)", "ko": "문장 B (선택)"},
    "bi.positions": {"en": "Positions in the tables", "ko": "표에 그릴 위치 수"},
    "bi.run": {"en": "Show the input", "ko": "입력 보기"},
    "bi.fig_sum": {"en": "Input = token + segment + position embeddings → LayerNorm",
                   "ko": "입력 = 토큰 + 세그먼트 + 위치 임베딩 → LayerNorm"},
    "bi.tok": {"en": "token embedding", "ko": "토큰 임베딩"},
    "bi.seg": {"en": "segment embedding", "ko": "세그먼트 임베딩"},
    "bi.pos": {"en": "position embedding (learned)", "ko": "위치 임베딩 (학습됨)"},
    "bi.sum": {"en": "sum", "ko": "합"},
    "bi.norm": {"en": "LayerNorm(sum): the first layer's input", "ko": "LayerNorm(합): 첫 레이어의 입력"},
    "bi.fig_pos": {"en": "Cosine similarity between positions", "ko": "위치 사이의 코사인 유사도"},
    "bi.learned": {"en": "BERT: learned position embeddings", "ko": "BERT: 학습된 위치 임베딩"},
    "bi.sinusoid": {"en": "Transformer: sinusoidal Positional Encoding", "ko": "트랜스포머: 사인/코사인 포지셔널 인코딩"},
    "bi.position": {"en": "position", "ko": "위치"},
    "bi.sizes": {"en": "Sizes: {rows}.", "ko": "크기: {rows}."},
    "bi.size_row": {"en": "{name} L = {layers}, H = {d_model}, A = {heads}, {params} parameters",
                    "ko": "{name} L = {layers}, H = {d_model}, A = {heads}, 파라미터 {params}개"},
    "bi.mask_intro": {
        "en": "Masked LM's 80/10/10 rule, applied to your sentence with the training code's own function: 15% of the "
              "tokens are chosen; of those 80% become [MASK], 10% a random token, 10% stay as they are. The model "
              "must predict every chosen token. Change the seed for another draw.",
        "ko": "마스크드 LM의 80/10/10 규칙을 학습 코드의 함수 그대로 입력한 문장에 적용합니다: 토큰의 15%를 고르고, 그중 "
              "80%는 [MASK], 10%는 무작위 토큰, 10%는 그대로 둡니다. 모델은 고른 토큰을 모두 맞혀야 합니다. 시드를 "
              "바꾸면 다시 뽑습니다.",
    },
    "bi.seed": {"en": "Seed", "ko": "시드"},
    "bi.prob": {"en": "Share of tokens chosen", "ko": "고르는 토큰 비율"},
    "bi.mask_run": {"en": "Mask and predict", "ko": "마스킹하고 예측하기"},
    "bi.action_mask": {"en": "→ [MASK] (80%)", "ko": "→ [MASK] (80%)"},
    "bi.action_random": {"en": "→ random token (10%)", "ko": "→ 무작위 토큰 (10%)"},
    "bi.action_keep": {"en": "kept as is (10%)", "ko": "그대로 (10%)"},
    "bi.none_chosen": {"en": "No token was chosen in this draw: try another seed or a larger share.",
                       "ko": "이번에는 고른 토큰이 없습니다. 다른 시드나 더 큰 비율을 써 보세요."},
    "bi.mask_summary": {"en": "The model reads: {inputs}", "ko": "모델이 읽는 입력: {inputs}"},
    # ELMo (explorer/compute/elmo.py)
    "el.intro": {
        "en": "ELMo's equation, ELMo_k = γ Σ_j s_j h_k,j, on this repo's encoders: a word's vector from every layer "
              "(j = 0 is the input embedding), mixed with the weights s_j (scaled to sum to 1; uniform by default) "
              "and the scale γ. The line shows the cosine similarity between two senses of the word with each layer "
              "alone; the dashed line, with your mix. γ scales the vector and leaves every cosine as it is.",
        "ko": "ELMo의 식 ELMo_k = γ Σ_j s_j h_k,j 를 이 저장소의 인코더에 적용합니다: 단어의 벡터를 레이어마다 꺼내 "
              "(j = 0은 입력 임베딩) 가중치 s_j(합이 1이 되도록 조정, 기본은 균등)와 배율 γ로 섞습니다. 실선은 레이어 "
              "하나만 쓸 때 두 의미 사이의 코사인 유사도, 점선은 지정한 가중합의 코사인 유사도입니다. γ는 벡터의 크기만 "
              "바꾸고 코사인 유사도는 바꾸지 않습니다.",
    },
    "el.word": {"en": "Word", "ko": "단어"},
    "el.sentences": {"en": "Sentences (one per line; the first two are compared)",
                     "ko": "문장 (한 줄에 하나; 앞의 두 문장을 비교)"},
    "el.weights": {"en": "Layer weights s_j, comma-separated (blank: uniform)", "ko": "레이어 가중치 s_j, 쉼표로 구분 (비우면 균등)"},
    "el.gamma": {"en": "γ (scale)", "ko": "γ (배율)"},
    "el.normalize": {"en": "LayerNorm each layer before mixing (Peters et al. 2018, sec. 3.2)",
                     "ko": "섞기 전에 레이어마다 LayerNorm (Peters 외 2018, 3.2절)"},
    "el.run": {"en": "Mix the layers", "ko": "레이어 섞기"},
    "el.figure": {"en": "'{word}' in {model}: layer weights and the cosine similarity of two senses",
                  "ko": "{model}의 '{word}': 레이어 가중치와 두 의미의 코사인 유사도"},
    "el.s": {"en": "weight s_j", "ko": "가중치 s_j"},
    "el.cos_layer": {"en": "cosine, one layer alone", "ko": "코사인 유사도, 레이어 하나만"},
    "el.cos_mix": {"en": "cosine of the mix", "ko": "가중합의 코사인 유사도"},
    "el.embeddings": {"en": "embeddings", "ko": "임베딩"},
    "el.layer": {"en": "layer {j}", "ko": "레이어 {j}"},
    "el.summary": {"en": "Sentences 1 and 2: cosine {mix:.3f} with this mix; from {lo:.3f} ({lo_layer}) to {hi:.3f} "
                         "({hi_layer}) with one layer alone.",
                   "ko": "문장 1과 2: 이 가중합의 코사인 유사도 {mix:.3f}; 레이어 하나만 쓰면 {lo:.3f} ({lo_layer}) ~ "
                         "{hi:.3f} ({hi_layer})."},
    # ------------------------------------------------------------------ how sure the model is (explorer/figures/confidence.py)
    "conf.legend": {
        "en": "Each word's probability under the model (the product of its subwords' probabilities, each given the "
              "source and the words before it): the darker the shade, the less sure the model is; a word under {u} is "
              "also underlined with dots. Hover over a word for its number.",
        "ko": "모델이 매긴 각 단어의 확률(서브워드 확률의 곱, 각각 소스와 앞 단어들이 주어졌을 때): 색이 진할수록 "
              "모델이 덜 확신합니다. 확률이 {u} 미만인 단어에는 점선 밑줄도 그어집니다. 단어 위에 마우스를 올리면 값이 "
              "보입니다.",
    },
    "conf.word_title": {"en": "probability {p}", "ko": "확률 {p}"},
    # ------------------------------------------------------------------ errors (explorer.compute.inference.UserError keys)
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
    # ------------------------------------------------------------------ notices beside a result (Notice keys)
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
    # ------------------------------------------------------------------ models
    "models.intro": {
        "en": "Every checkpoint under assets/ (parameters, where it was trained, held-out metrics). A model that "
              "failed to load shows which file is wrong.",
        "ko": "assets/ 아래의 모든 체크포인트(파라미터 수, 학습한 장치, 검증·테스트 지표)입니다. 불러오지 못한 "
              "모델은 어떤 파일이 잘못됐는지 보여 줍니다.",
    },
    # ------------------------------------------------------------------ GPT tab (explorer/views/gpt.py)
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
              "뽑습니다. 같은 시드는 같은 글을 냅니다. 셀프 어텐션은 마스크되어 있어 토큰은 자기 자신과 앞의 "
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
    # ------------------------------------------------------------------ fine-tuning (explorer/views/finetune.py)
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
    # ------------------------------------------------------------------ head ablation (Michel et al. 2019)
    "tab.ablation": {"en": "Switching heads off", "ko": "헤드 끄기"},
    "abl.intro": {
        "en": "Switch attention heads off and see what the model does without them, as Michel et al. (2019, *Are "
              "Sixteen Heads Really Better than One?*) did: a head switched off still attends, but its output (its "
              "slice of the heads' concatenation, before W^O) is set to 0. Name heads as **L3H5** (layer 3, head 5) "
              "or **L3** (every head of layer 3); for the Transformer put **enc**, **dec** or **cross** (its "
              "Encoder-Decoder Attention) first: `cross L2H6, enc L1`. The grid was computed once on 100 fixed "
              "sentences (`python -m scripts.ablation_table`): what removing each head alone costs.",
        "ko": "어텐션 헤드를 끄고 모델이 그 헤드 없이 무엇을 하는지 봅니다. Michel et al. (2019, *Are Sixteen Heads "
              "Really Better than One?*)처럼, 끈 헤드도 어텐션은 계산하지만 출력(W^O 앞에서 헤드들을 이어 붙인 것 중 "
              "그 헤드의 몫)은 0이 됩니다. 헤드는 **L3H5**(레이어 3, 헤드 5) 또는 **L3**(레이어 3의 모든 헤드)로 "
              "적습니다. Transformer는 앞에 **enc**, **dec**, **cross**(인코더-디코더 어텐션)를 붙입니다: "
              "`cross L2H6, enc L1`. 격자는 고정된 100문장으로 한 번 계산했습니다(`python -m scripts.ablation_table`): "
              "헤드 하나만 뺐을 때 잃는 것.",
    },
    "abl.task": {"en": "Model", "ko": "모델"},
    "abl.text": {"en": "Sentence", "ko": "문장"},
    "abl.heads": {"en": "Heads to switch off", "ko": "끌 헤드"},
    "abl.run": {"en": "Switch them off", "ko": "헤드 끄기"},
    "abl.bars": {"en": "The [MASK]'s top words, every head vs heads off", "ko": "[MASK]의 상위 단어: 모든 헤드 vs 끈 헤드"},
    "abl.grid": {"en": "What removing each head alone costs (precomputed)", "ko": "헤드 하나만 뺐을 때 잃는 것 (미리 계산)"},
    "abl.kind_enc_self": {"en": "enc", "ko": "enc"},
    "abl.kind_dec_self": {"en": "dec", "ko": "dec"},
    "abl.kind_cross": {"en": "cross", "ko": "cross"},
    "abl.off": {"en": "### {n} heads off: {names}", "ko": "### 끈 헤드 {n}개: {names}"},
    "abl.mask_line": {"en": "## Every head: **{before}** {p0:.1f}% → heads off: **{after}** {p1:.1f}%\n\nThe full "
                            "model's word now gets {kept:.1f}%.",
                      "ko": "## 모든 헤드: **{before}** {p0:.1f}% → 헤드 끔: **{after}** {p1:.1f}%\n\n전체 모델의 "
                            "단어는 이제 {kept:.1f}%입니다."},
    "abl.translation_line": {
        "en": "## Every head: {before}\n## Heads off: {after}\n\n{same} Mean log-probability per token: {lb:.3f} "
              "before, {la:.3f} after (each under its own model).",
        "ko": "## 모든 헤드: {before}\n## 헤드 끔: {after}\n\n{same} 토큰당 평균 로그 확률: 전 {lb:.3f}, 후 {la:.3f} "
              "(각자 자기 모델에서).",
    },
    "abl.same": {"en": "The translation did not change.", "ko": "번역이 바뀌지 않았습니다."},
    "abl.changed": {"en": "The translation changed.", "ko": "번역이 바뀌었습니다."},
    "abl.grid_title": {"en": "{model}: each head removed alone", "ko": "{model}: 헤드를 하나씩 뺐을 때"},
    "abl.g_note": {"en": "red: removing the head lowers the score (it helped)",
                   "ko": "빨강: 헤드를 빼면 점수가 내려감 (도움이 된 헤드)"},
    "abl.g_layer": {"en": "layer", "ko": "레이어"},
    "abl.g_head": {"en": "head", "ko": "헤드"},
    "abl.g_change": {"en": "change (nats)", "ko": "변화 (nat)"},
    "abl.g_off": {"en": "switched off here", "ko": "여기서 끈 헤드"},
    "abl.bars_title": {"en": "Top words at the [MASK]", "ko": "[MASK]의 상위 단어"},
    "abl.every_head": {"en": "every head", "ko": "모든 헤드"},
    "abl.heads_off": {"en": "heads off", "ko": "헤드 끔"},
    "abl.probability": {"en": "probability", "ko": "확률"},
    "abl.ours": {
        "en": "**Here ({model}, {sentences} sentences; {metric} = {base:.3f} with every head):** {n} of {total} heads "
              "cost more than 0.05 nats when removed alone; the median head costs {median:.3f}. Removing the {half} "
              "least important heads together gives {pruned:.3f}.",
        "ko": "**여기서는 ({model}, {sentences}문장; 모든 헤드일 때 {metric} = {base:.3f}):** 헤드 {total}개 중 "
              "{n}개만 하나만 뺐을 때 0.05 nat 넘게 잃습니다. 중간값 헤드는 {median:.3f}. 덜 중요한 헤드 {half}개를 "
              "함께 빼면 {pruned:.3f}입니다.",
    },
    "abl.papers": {
        "en": "**The papers:** Michel et al. (2019) found that only 8 of the 96 encoder self-attention heads of their "
              "WMT Transformer change BLEU significantly when removed alone; Voita et al. (2019) pruned 38 of 48 "
              "encoder heads for −0.15 BLEU, and the heads that stayed were positional, syntactic and rare-word "
              "heads. Our small models agree: most heads can go alone, a few cannot, and removing many together "
              "costs far more than the sum of their single costs.",
        "ko": "**논문:** Michel et al. (2019)은 WMT Transformer의 인코더 셀프 어텐션 헤드 96개 중 8개만 하나만 뺐을 "
              "때 BLEU가 유의하게 바뀐다고 보고했고, Voita et al. (2019)은 인코더 헤드 48개 중 38개를 잘라내고 BLEU "
              "−0.15만 잃었습니다. 남은 헤드는 위치, 구문, 드문 단어를 맡은 헤드였습니다. 우리의 작은 모델도 "
              "같습니다: 헤드 대부분은 하나씩 빼도 되고, 몇 개는 안 되며, 여럿을 함께 빼면 하나씩 뺄 때의 합보다 "
              "훨씬 많이 잃습니다.",
    },
    "err.bad_heads": {"en": "Name heads as L3H5 (layer 3, head 5) or L3 (all of layer 3); got {item!r}.",
                      "ko": "헤드는 L3H5(레이어 3, 헤드 5) 또는 L3(레이어 3 전체)로 적으세요. 받은 값: {item!r}."},
    "err.heads_range": {"en": "{item}: layers go from 1 to {layers}, heads from 1 to {heads}.",
                        "ko": "{item}: 레이어는 1부터 {layers}까지, 헤드는 1부터 {heads}까지입니다."},
    "err.no_heads": {"en": "Name at least one head to switch off, as L3H5.",
                     "ko": "끌 헤드를 하나 이상 적으세요. 예: L3H5."},
    "err.bad_task": {"en": "Task {task!r}: choose fill-mask or translation.",
                     "ko": "작업 {task!r}: fill-mask 또는 translation을 고르세요."},
    # ------------------------------------------------------------------ alignment error rate (Och & Ney 2003)
    "tab.alignment": {"en": "Attention as alignment", "ko": "정렬로 읽은 어텐션"},
    "aln.intro": {
        "en": "Read the Encoder-Decoder Attention as a word alignment: each target word is linked to the source "
              "word it attends to most (subwords pooled to words, heads averaged), and scored against links a person "
              "drew (open squares) with the **alignment error rate** (Och & Ney 2003; lower is better). **Naive**: "
              "the decoder step that *predicts* the word. **Shifted** (Chen et al. 2020): the step whose *input* is "
              "the word, one later. Pick a hand-aligned pair, or type your own (an empty target: the model's "
              "translation; links as i-j, words counted from 0).",
        "ko": "인코더-디코더 어텐션을 단어 정렬로 읽습니다. 타깃 단어마다 가장 많이 어텐션하는 소스 단어에 잇고(서브워드는 "
              "단어로 합치고, 헤드는 평균), 사람이 그린 연결(빈 네모)과 **정렬 오류율**(AER, Och & Ney 2003; 낮을수록 "
              "좋음)로 비교합니다. **Naive**: 그 단어를 *예측하는* 디코더 단계. **Shifted** (Chen et al. 2020): 그 "
              "단어가 *입력인* 단계, 한 단계 뒤. 사람이 정렬한 문장 쌍을 고르거나 직접 입력하세요(타깃이 비면 모델의 "
              "번역; 연결은 i-j, 단어는 0부터).",
    },
    "aln.model": {"en": "Model", "ko": "모델"},
    "aln.pair": {"en": "Hand-aligned pair", "ko": "사람이 정렬한 문장 쌍"},
    "aln.source": {"en": "Source", "ko": "소스"},
    "aln.target": {"en": "Target (empty: the model's translation)", "ko": "타깃 (비우면 모델의 번역)"},
    "aln.links": {"en": "Gold links (i-j, from 0)", "ko": "정답 연결 (i-j, 0부터)"},
    "aln.run": {"en": "Read the alignment", "ko": "정렬 읽기"},
    "aln.naive_plot": {"en": "Naive: the step that predicts the word", "ko": "Naive: 단어를 예측하는 단계"},
    "aln.shifted_plot": {"en": "Shifted: the step whose input is the word", "ko": "Shifted: 단어가 입력인 단계"},
    "aln.table": {"en": "AER on the whole checks, % (docs/alignment-error.md)",
                  "ko": "전체 점검 세트의 AER, % (docs/alignment-error.md)"},
    "aln.col_aligner": {"en": "aligner", "ko": "정렬기"},
    "aln.col_check": {"en": "test set", "ko": "평가 세트"},
    "aln.col_naive": {"en": "AER (naive)", "ko": "AER (naive)"},
    "aln.col_shifted": {"en": "AER (shifted)", "ko": "AER (shifted)"},
    "aln.hansards": {"en": "Hansards En-Fr (published)", "ko": "Hansards En-Fr (발표된 값)"},
    "aln.scores": {"en": "## AER on this pair: naive {naive:.1f}, shifted {shifted:.1f}\n\n{gold} gold links; layer "
                         "{layer} of {layers}.",
                   "ko": "## 이 문장 쌍의 AER: naive {naive:.1f}, shifted {shifted:.1f}\n\n정답 연결 {gold}개; "
                         "레이어 {layer}/{layers}."},
    "aln.no_gold": {"en": "## No gold links: the links are drawn, no AER.\n\nTarget: {target}",
                    "ko": "## 정답 연결이 없어 연결만 그리고 AER은 없습니다.\n\n타깃: {target}"},
    "aln.readings": {
        "en": "In our models the shifted reading is worse: the step that predicts a word already attends to its "
              "source, so shifted links land one word late. Chen et al. measured their gain on larger 6-layer "
              "Transformers; the table beside compares both with IBM Models 1 and 2.",
        "ko": "우리 모델에서는 shifted가 더 나쁩니다. 단어를 예측하는 단계가 이미 그 소스에 어텐션하므로 shifted 연결은 "
              "한 단어 늦게 놓입니다. Chen et al.은 더 큰 6층 Transformer에서 이득을 쟀습니다. 옆의 표는 둘을 IBM "
              "Model 1, 2와 비교합니다.",
    },
    "aln.f_source": {"en": "source word", "ko": "소스 단어"},
    "aln.f_target": {"en": "target word", "ko": "타깃 단어"},
    "aln.f_gold": {"en": "gold link", "ko": "정답 연결"},
    "aln.f_predicted": {"en": "attention's link", "ko": "어텐션의 연결"},
    "aln.title_naive": {"en": "Naive reading: AER {aer}", "ko": "Naive 읽기: AER {aer}"},
    "aln.title_shifted": {"en": "Shifted reading: AER {aer}", "ko": "Shifted 읽기: AER {aer}"},
    "aln.title_naive_nogold": {"en": "Naive reading", "ko": "Naive 읽기"},
    "aln.title_shifted_nogold": {"en": "Shifted reading", "ko": "Shifted 읽기"},
    "err.bad_link": {"en": "A link is written i-j (source word i, target word j, from 0); got {link!r}.",
                     "ko": "연결은 i-j로 적습니다(소스 단어 i, 타깃 단어 j, 0부터). 받은 값: {link!r}."},
    "err.link_past_end": {"en": "The link {link} points past the last word ({n_src} source, {n_tgt} target words).",
                          "ko": "연결 {link}이(가) 마지막 단어를 넘습니다 (소스 {n_src}단어, 타깃 {n_tgt}단어)."},
    "err.too_many_words": {"en": "Keep the {what} within {n} words (it has {got}).",
                           "ko": "{what}은(는) {n}단어 이내로 적으세요 (지금 {got}단어)."},
    "err.no_alignment_model": {"en": "{name} is not read as an alignment here.",
                               "ko": "{name}은(는) 여기서 정렬로 읽지 않습니다."},
    # ------------------------------------------------------------------ heads vs syntax (Clark et al. 2019)
    "tab.syntax": {"en": "Heads vs syntax", "ko": "헤드와 구문 구조"},
    "syn.intro": {
        "en": "Does one attention head find a word's **dependency head** (the noun of a determiner, the verb of "
              "an object)? As Clark et al. (2019, *What Does BERT Look At?*) did: each head names, for every word, "
              "the other word it attends to most ([CLS]/[SEP] and the word itself ignored; a word's pieces are "
              "pooled: attention to a word is the sum over its pieces, from a word the mean), scored against UD "
              "English EWT's dev parses and against the best **fixed offset** (always the word 1 to the right, ...). "
              "**dep → head**: the word's own row; **head → dep**: the word that attends most to it. The table was "
              "computed once (`python3 -m explorer.compute.syntax`). No dependency parser installs here, so a typed "
              "sentence shows the head's attention alone; the example sentences carry a parse written for this "
              "repo, drawn under the words.",
        "ko": "어텐션 헤드 하나가 단어의 **의존 관계 지배어(head)** 를 찾을까요? (한정사의 명사, 목적어의 동사) "
              "Clark et al. (2019, *What Does BERT Look At?*)처럼 각 헤드가 단어마다 가장 많이 어텐션하는 다른 단어를 "
              "고르게 하고([CLS]/[SEP]와 자기 자신은 제외, 한 단어의 서브워드는 합칩니다: 단어로 가는 어텐션은 조각들의 "
              "합, 단어에서 나가는 어텐션은 평균), UD English EWT dev의 구문 분석과, 가장 좋은 **고정 거리** "
              "(항상 오른쪽 1번째 단어 등) 기준선과 비교합니다. **dep → head**: 단어 자신의 행, **head → dep**: 그 "
              "단어에 가장 많이 어텐션하는 단어. 표는 미리 한 번 계산했습니다(`python3 -m explorer.compute.syntax`). 여기에는 "
              "설치되는 의존 구문 분석기가 없어서, 직접 입력한 문장에는 헤드의 어텐션만 보입니다. 예시 문장에는 이 "
              "저장소에서 작성한 구문 분석이 있어 단어 아래에 그려집니다.",
    },
    "syn.model": {"en": "Model", "ko": "모델"},
    "syn.relation": {"en": "Relation (UD)", "ko": "의존 관계 (UD)"},
    "syn.direction": {"en": "Direction", "ko": "방향"},
    "syn.table": {"en": "Each relation's best head vs the best fixed offset (accuracy, %)",
                  "ko": "관계별 최고 헤드 vs 최고 고정 거리 기준선 (정확도, %)"},
    "syn.grid": {"en": "The relation's accuracy per layer × head", "ko": "관계의 레이어 × 헤드별 정확도"},
    "syn.sentence": {"en": "Sentence (an example with its parse, or type your own)",
                     "ko": "문장 (구문 분석이 있는 예시, 또는 직접 입력)"},
    "syn.run": {"en": "Draw the head on the sentence", "ko": "문장 위에 헤드 그리기"},
    "syn.arcs": {"en": "The head's attention over the sentence", "ko": "문장 위의 헤드 어텐션"},
    "syn.col_relation": {"en": "relation", "ko": "관계"},
    "syn.col_count": {"en": "words", "ko": "단어 수"},
    "syn.col_head": {"en": "best head", "ko": "최고 헤드"},
    "syn.col_direction": {"en": "direction", "ko": "방향"},
    "syn.col_accuracy": {"en": "accuracy %", "ko": "정확도 %"},
    "syn.col_offset": {"en": "best offset", "ko": "최고 고정 거리"},
    "syn.col_baseline": {"en": "offset accuracy %", "ko": "고정 거리 정확도 %"},
    "syn.col_clark": {"en": "Clark et al. (BERT-base)", "ko": "Clark et al. (BERT-base)"},
    "syn.dir_dep": {"en": "dep → head", "ko": "dep → head"},
    "syn.dir_head": {"en": "head → dep", "ko": "head → dep"},
    "syn.grid_title": {"en": "{rel}, {direction}: accuracy of each head of {model} ({n} words)",
                       "ko": "{rel}, {direction}: {model}의 헤드별 정확도 (단어 {n}개)"},
    "syn.arcs_title": {"en": "{model}, layer {layer} head {head}: where each word looks",
                       "ko": "{model}, 레이어 {layer} 헤드 {head}: 각 단어가 보는 곳"},
    "syn.no_parse": {"en": "A typed sentence has no parse here (no dependency parser installs in this app): the arcs "
                           "are the head's attention alone. Pick an example sentence to see its parse under it.",
                     "ko": "직접 입력한 문장은 여기서 구문 분석할 수 없습니다(이 앱에는 의존 구문 분석기가 없습니다). "
                           "호는 헤드의 어텐션뿐입니다. 예시 문장을 고르면 구문 분석이 아래에 보입니다."},
    "syn.hits": {"en": "On this sentence the head points {k} of {n} words (punctuation and root aside) at their "
                       "head: {hits}.",
                 "ko": "이 문장에서 이 헤드는 단어 {n}개 중 {k}개(구두점과 root 제외)에서 지배어를 가리킵니다: {hits}."},
    "syn.source": {"en": "Table: UD English EWT v2.15 dev, {sentences} sentences, {words} words ({skipped} "
                         "sentences too long for the model left out), file sha256 {sha}…; made by {command}.",
                   "ko": "표: UD English EWT v2.15 dev, 문장 {sentences}개, 단어 {words}개(모델에 너무 긴 문장 "
                         "{skipped}개 제외), 파일 sha256 {sha}…; 만든 명령: {command}."},
    "synf.layer": {"en": "layer", "ko": "레이어"},
    "synf.head": {"en": "head", "ko": "헤드"},
    "synf.accuracy": {"en": "accuracy", "ko": "정확도"},
    "synf.best": {"en": "best head", "ko": "최고 헤드"},
    "synf.attention": {"en": "attention (this head)", "ko": "어텐션 (이 헤드)"},
    "synf.parse": {"en": "parse: word → its head", "ko": "구문 분석: 단어 → 지배어"},
    "synf.weight": {"en": "weight", "ko": "가중치"},
    "synf.baseline": {"en": "best fixed offset", "ko": "최고 고정 거리"},
    # ------------------------------------------------------------------ what attention explains (attribution)
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
    # the lesson path (ui/tabs/lessons.py; the steps' own texts are explorer/lessons.py's)
    "tab.lessons": {"en": "Lessons", "ko": "강의"},
    "lesson.intro": {"en": "**The course, slide by slide.** Choose a deck, then walk its slides with *Next*: each "
                              "step draws the slide's example with the app's own model. The link under the figure "
                              "opens the app at that step, for a slide or a student.",
                     "ko": "**강의를 슬라이드 순서대로.** 강의 자료를 고르고 *다음*으로 슬라이드를 따라가세요. 단계마다 "
                           "슬라이드의 예시를 앱의 모델로 그립니다. 그림 아래 링크는 앱을 그 단계로 엽니다 "
                           "(슬라이드나 학생에게 붙여 주세요)."},
    "lesson.deck": {"en": "Deck", "ko": "강의 자료"},
    "lesson.step": {"en": "Slide", "ko": "슬라이드"},
    "lesson.previous": {"en": "◀ Previous", "ko": "◀ 이전"},
    "lesson.next": {"en": "Next ▶", "ko": "다음 ▶"},
    "lesson.figure": {"en": "The slide's example", "ko": "슬라이드의 예시"},
    "lesson.presenter": {"en": "Presenter mode (large type for a projector)", "ko": "발표자 모드 (프로젝터용 큰 글씨)"},
    "lesson.explore": {"en": "Explore further in the tab “{tab}”.", "ko": "“{tab}” 탭에서 더 살펴보세요."},
    "lesson.link": {"en": "Link to this step: `{link}` (add it to the app's address)",
                    "ko": "이 단계의 링크: `{link}` (앱 주소 뒤에 붙이세요)"},
    # inside a layer: Q, K and V per head, and each LayerNorm's mean and standard deviation (explorer/views/inside.py)
    "il.plot_kv": {"en": "Q, K and V, every head", "ko": "헤드별 쿼리(Q), 키(K), 값(V)"},
    "il.fig_kv": {"en": "{kind}: the query q of '{token}' over every key's k (K) and v (V), per head "
                        "(h = {h}, d_k = {d_k})",
                  "ko": "{kind}: 헤드별 '{token}'의 쿼리 q와 모든 키의 k (K), 값 v (V) (h = {h}, d_k = {d_k})"},
    "il.band_q": {"en": "q of '{token}'", "ko": "'{token}'의 쿼리 q"},
    "il.band_k": {"en": "K: every key's k", "ko": "K: 각 키의 k"},
    "il.band_v": {"en": "V: every key's v", "ko": "V: 각 키의 값 v"},
    "il.plot_ln": {"en": "LayerNorm of u (x + sublayer(x) at each Add & Norm; x before a pre-LN sublayer): mean and "
                         "standard deviation before and after normalising",
                   "ko": "u의 LayerNorm (Add & Norm에서는 x + 서브레이어(x), pre-LN에서는 서브레이어 앞의 x): 정규화 "
                         "전후의 평균과 표준편차"},
    "col.LayerNorm": {"en": "LayerNorm", "ko": "LayerNorm"},
    "col.mean μ": {"en": "mean μ", "ko": "평균 μ"},
    "col.std σ": {"en": "std σ = √(var + ε)", "ko": "표준편차 σ = √(분산 + ε)"},
    "col.mean of (u − μ)/σ": {"en": "mean of (u − μ)/σ", "ko": "(u − μ)/σ의 평균"},
    "col.std of (u − μ)/σ": {"en": "std of (u − μ)/σ", "ko": "(u − μ)/σ의 표준편차"},
    "col.mean after γ, β": {"en": "mean after γ, β", "ko": "γ, β 적용 후 평균"},
    "col.std after γ, β": {"en": "std after γ, β", "ko": "γ, β 적용 후 표준편차"},
    "il.ln_final": {"en": "the stack's final LayerNorm", "ko": "스택의 마지막 LayerNorm"},
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

# Example inputs per view and language. A model reads the language it was trained on, so
# the English models keep English inputs in Korean mode; where a Korean model exists
# (transformer-ko-en) Korean mode puts its sentences first.
_EN = ["I am a student.", "The animal didn't cross the street because it was too tired.", "Let's stick to the plan."]
_KO = ["나는 학생 입니다", "그는 의사입니다.", "오늘 날씨가 좋아요.", "이 책은 재미있어요."]
EXAMPLES: dict[str, dict[str, list[list]]] = {
    "seq2seq": {"en": [[s] for s in _EN], "ko": [[s] for s in _EN]},
    "transformer": {"en": [[s, "transformer-en-fr"] for s in _EN] + [[_KO[0], "transformer-ko-en"]],
                    "ko": [[s, "transformer-ko-en"] for s in _KO] + [[_EN[0], "transformer-en-fr"]]},
    "rollout": {"en": [[_EN[1], "bert"], [_EN[1], "transformer-en-fr"], [_KO[0], "transformer-ko-en"]],
                "ko": [[_KO[1], "transformer-ko-en"], [_KO[0], "transformer-ko-en"], [_EN[1], "bert"]]},
    "bert": {lang: [["the man went to the [MASK] .", "he bought a gallon of milk ."],
                    ["the man went to the [MASK] .", ""], ["Here is the sentence I want embeddings for.", ""],
                    [_EN[1], ""], ["the man went to the store .", "he bought a gallon of milk ."]] for lang in LANGS},
    # next-word choices: [sentence, model, typed translation]; the "it" sentence first (il or elle?)
    "choices": {lang: [[_EN[1], "transformer-en-fr", ""],
                       [_EN[1], "transformer-en-fr", "L'animal n'a pas traversé la rue parce qu'il était trop fatigué."],
                       [_EN[0], "transformer-en-fr", "Je suis étudiant."], [_KO[0], "transformer-ko-en", ""]]
                for lang in LANGS},
    "contextual": {"en": [["bank", ""], ["stick", ""], ["배", ""]],
                   "ko": [["배", ""], ["bank", ""], ["stick", ""]]},
}


def t(key: str, lang: str = "en", **fields) -> str:
    """The string `key` in `lang` ("en" or "ko", or the switch's label), formatted with `fields`."""
    s = STRINGS[key][lang_code(lang)]
    return s.format(**fields) if fields else s


def _prefixed(prefix: str, lang: str) -> dict[str, str]:
    return _prefixed_in(prefix, lang_code(lang))


@functools.lru_cache(maxsize=None)
def _prefixed_in(prefix: str, code: str) -> dict[str, str]:
    """Built once per (prefix, language): every figure of every request asks for it. The figure
    functions only read it (they merge it into a dict of their own)."""
    return {k[len(prefix):]: v[code] for k, v in STRINGS.items() if k.startswith(prefix)}


def localized(table, lang: str = "en"):
    """A table (pandas DataFrame) with its column headers in `lang`; headers without a "col.*" key
    (numbers, "#", symbols) stay as they are."""
    code = lang_code(lang)
    return table.rename(columns={n: STRINGS[f"col.{n}"][code] for n in table.columns if f"col.{n}" in STRINGS})


def lab_labels(lang: str = "en") -> dict[str, str]:
    """explorer.figures.lab.LABELS in `lang` (the "lab.*" keys)."""
    return _prefixed("lab.", lang)


def live_labels(lang: str = "en") -> dict[str, str]:
    """explorer.figures.live.LABELS in `lang` (the "lvf.*" keys)."""
    return _prefixed("lvf.", lang)


def ft_labels(lang: str = "en") -> dict[str, str]:
    """explorer.figures.finetune.LABELS in `lang` (the "ftf.*" keys)."""
    return _prefixed("ftf.", lang)


def figure_labels(lang: str = "en") -> dict[str, str]:
    """explorer.figures.LABELS in `lang` (the "fig.*" keys): the words a figure draws besides its title and
    tokens."""
    return _prefixed("fig.", lang)


def _keyed(prefix: str, obj, lang: str) -> str:
    """obj's text in `lang` from STRINGS[prefix + obj.key], its fields filled in (a "what"/"name" that
    has a "what." string is translated, a field that is keyed itself too); else str(obj)."""
    key = getattr(obj, "key", None)
    if lang_code(lang) == "en" or not key or f"{prefix}{key}" not in STRINGS:
        return str(obj)  # English is the message itself, word for word
    fields = {}
    for k, v in obj.fields.items():
        if getattr(v, "key", None):
            v = _keyed(prefix, v, lang)
        elif k in ("what", "name") and f"what.{v}" in STRINGS:
            v = t(f"what.{v}", lang)
        fields[k] = v
    return t(f"{prefix}{key}", lang, **fields)


def error_text(e: Exception, lang: str = "en") -> str:
    """A UserError's message in `lang`: its key's string when it has one, else its own (English) text."""
    return _keyed("err.", e, lang)


def notice_text(n: str, lang: str = "en") -> str:
    """A notice (explorer.compute.inference.Notice) in `lang`; a plain string stays as it is."""
    return _keyed("note.", n, lang)


def label_text(label: str, lang: str = "en") -> str:
    """A fine-tuned head's label in `lang` (the NLI labels have Korean names); others stay as they are."""
    key = f"label.{label}"
    return t(key, lang) if key in STRINGS else label


def examples(view: str, lang: str = "en") -> list[list]:
    return EXAMPLES[view][lang_code(lang)]


# What the input boxes hold when the page opens (the models read English, so these stay English in Korean).
DEFAULT_INPUTS = {
    "sentences": ["I am a student.", "The animal didn't cross the street because it was too tired.",
                  "Let's stick to the plan."],
    "mask": "the man went to the [MASK] .",
    "next": "he bought a gallon of milk .",
    "query_key": "the cat sat on the mat because it was tired .",
}


def missing() -> list[str]:
    """Keys lacking a non-empty string in some language (the tests want none)."""
    return sorted(k for k, v in STRINGS.items() if any(not str(v.get(lang) or "").strip() for lang in LANGS))
