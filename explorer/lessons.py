"""The course as a path through the app: the five lecture decks, in their order, each slide that has a
view in the app as one step with the deck's own example and a short explanation in the deck's words
(Korean and English; the terms follow explorer/glossary.py).

Pure data, no torch and no gradio: explorer/views/lessons.py draws a step with the real views, and
ui/tabs/lessons.py walks the path. A step's id ("transformer-4") is its link: `/?lesson=transformer-4`
opens the app at that step, drawn (`/?lesson=transformer-4&lang=ko` in Korean).

    from explorer.lessons import DECKS, step, neighbours
    [s.id for s in DECKS[2].steps]   # the Transformer deck's slides, in order
"""
from __future__ import annotations

from dataclasses import dataclass, field

IT_SENTENCE = "The animal didn't cross the street because it was too tired."
PIPELINE_SENTENCES = ("I love this product! It's amazing and works perfectly.",  # the lecture's code slide
                      "This is the worst experience I've ever had. Completely disappointed.")


@dataclass(frozen=True)
class Step:
    id: str  # "<deck>-<n>", n from 1 in the deck's order: the step's link (?lesson=<id>)
    title: dict  # {"en": ..., "ko": ...}: the slide's subject, in the deck's words
    text: dict  # {"en": ..., "ko": ...}: what to see in the figure, two or three sentences (markdown)
    view: str  # the drawing in explorer/views/lessons.py (RENDERERS)
    args: dict  # the deck's example: the view's inputs
    tab: str  # i18n key of the tab where the same view lives, to explore further


@dataclass(frozen=True)
class Deck:
    id: str  # "seq2seq", "attention", "transformer", "bert", "gpt"
    title: dict
    steps: tuple = field(default_factory=tuple)


def _s(deck: str, n: int, en_title: str, ko_title: str, en: str, ko: str, view: str, tab: str, **args) -> Step:
    return Step(f"{deck}-{n}", {"en": en_title, "ko": ko_title}, {"en": en, "ko": ko}, view, args, tab)


DECKS = (
    Deck("seq2seq", {"en": "1. Seq2seq: an encoder, a decoder and one vector between them",
                     "ko": "1. Seq2seq: 인코더, 디코더, 그 사이의 벡터 하나"}, (
        _s("seq2seq", 1, "The bottleneck: one vector for the whole sentence", "병목: 문장 전체를 벡터 하나에",
           "Without attention the encoder squeezes the whole source sentence into its last hidden state, and the "
           "decoder sees nothing else. The figure shows test BLEU by source length: the model without attention "
           "(seq2seq-none) loses more as sentences get longer than the models with attention.",
           "어텐션이 없으면 인코더는 입력 문장 전체를 마지막 은닉 상태 하나에 담고, 디코더는 그것만 봅니다. "
           "그림은 입력 길이별 테스트 BLEU입니다: 어텐션이 없는 모델(seq2seq-none)은 문장이 길어질수록 어텐션이 "
           "있는 모델보다 더 많이 떨어집니다.",
           "length", "tab.length"),
        _s("seq2seq", 2, "Attention: each output word looks back at every input word",
           "어텐션: 출력 단어마다 입력 단어 전부를 다시 봅니다",
           "With attention the decoder reads a weighted sum of all encoder states at every step. Each row of the "
           "alignment is one French word, each column an English word; a row sums to 1.",
           "어텐션이 있으면 디코더는 매 시점 인코더의 모든 은닉 상태의 가중합을 읽습니다. 정렬 그림의 행은 "
           "프랑스어 단어 하나, 열은 영어 단어 하나이고, 한 행의 합은 1입니다.",
           "seq2seq", "tab.seq2seq", text="I am a student.", model="seq2seq-dot"),
    )),
    Deck("attention", {"en": "2. Attention: Luong's steps and the score functions (deck 000)",
                       "ko": "2. 어텐션: Luong의 단계와 스코어 함수 (deck 000)"}, (
        _s("attention", 1, "Four score functions side by side", "스코어 함수 네 가지 비교",
           "dot, scaled dot, general and additive (Bahdanau) score the same decoder state against the encoder "
           "states in four ways. Each model below was trained with one of them on the same data.",
           "dot, scaled dot, general, additive(Bahdanau)는 같은 디코더 상태와 인코더 상태들의 점수를 네 가지 "
           "방식으로 계산합니다. 아래 모델은 같은 데이터로 각 스코어 함수를 써서 학습했습니다.",
           "scores", "tab.scores", text="I am a student."),
        _s("attention", 2, "Luong's steps: Attention Score -> Distribution -> Value -> Prediction Vector",
           "Luong의 단계: 어텐션 스코어 -> 분포 -> 값 -> 예측 벡터",
           "Step 1, Attention Score: e_t = score(h_t, h_i) for every encoder state h_i. Step 2, Attention "
           "Distribution: alpha_t = softmax(e_t). Step 3, Attention Value: a_t = sum_i alpha_t,i h_i. Step 4, "
           "Prediction Vector: h~_t = tanh(W_c [a_t; h_t]), then softmax(W_s h~_t) gives the next word.",
           "1단계 어텐션 스코어: 인코더 은닉 상태 h_i마다 e_t = score(h_t, h_i). 2단계 어텐션 분포: "
           "alpha_t = softmax(e_t). 3단계 어텐션 값: a_t = sum_i alpha_t,i h_i. 4단계 예측 벡터: "
           "h~_t = tanh(W_c [a_t; h_t]), 그다음 softmax(W_s h~_t)가 다음 단어를 고릅니다.",
           "luong", "tab.luong", text="I am a student.", model="seq2seq-general"),
        _s("attention", 3, "Which word comes next: the 'it' sentence", "다음 단어 고르기: 'it' 문장",
           "The deck's sentence: what is tired, the animal or the street? The bars are the model's own "
           "probabilities for the next French word at each step; at the pronoun, 'il' (the animal) and 'elle' "
           "(the street) compete.",
           "강의의 문장입니다: 피곤한 것은 동물일까요, 길일까요? 막대는 각 시점에서 다음 프랑스어 단어에 대한 "
           "모델의 확률입니다. 대명사 자리에서 'il'(동물)과 'elle'(길)이 경쟁합니다.",
           "choices", "tab.choices", text=IT_SENTENCE, model="transformer-en-fr"),
    )),
    Deck("transformer", {"en": "3. The Transformer", "ko": "3. 트랜스포머"}, (
        _s("transformer", 1, "Query, Key, Value and the scaled dot product", "쿼리, 키, 값과 스케일드 닷 프로덕트",
           "One query q (the chosen word) is compared with every key k: q.k / sqrt(d_k), then softmax gives the "
           "weights, and the output is the weighted sum of the values V. The numbers are recomputed from the "
           "model's own weights and match its attention.",
           "선택한 단어의 쿼리 q를 모든 키 k와 비교합니다: q.k / sqrt(d_k), softmax가 가중치를 주고, 출력은 "
           "값 V의 가중합입니다. 숫자는 모델의 가중치로 다시 계산한 것이며 모델의 어텐션과 같습니다.",
           "query_key", "tab.qk", text="The cat sat on the mat."),
        _s("transformer", "qk-hand", "A worked example a class can check by hand", "손으로 확인하는 계산 예제",
           "Top: a 4 x 2 Q, K and V of small integers (d_k = 2). Multiply Q K^T, divide by sqrt(d_k), take the "
           "softmax row by row (each row sums to 1), multiply by V: every intermediate matrix has its numbers in "
           "its cells. Bottom: the same steps on one head of the real model (encoder layer 1, head 1, d_k = 32; "
           "q, k and v show their first 4 dimensions): the recomputed softmax matches the model's own attention.",
           "위: 작은 정수로 된 4 x 2 Q, K, V입니다(d_k = 2). Q K^T를 곱하고, sqrt(d_k)로 나누고, 행마다 "
           "softmax를 취한 뒤(각 행의 합은 1), V를 곱합니다. 중간 행렬마다 칸에 숫자가 적혀 있습니다. 아래: 실제 "
           "모델의 헤드 하나(인코더 레이어 1, 헤드 1, d_k = 32; q, k, v는 처음 4차원만 표시)에서 같은 단계를 "
           "계산합니다. 다시 계산한 softmax는 모델 자신의 어텐션과 같습니다.",
           "qk_hand", "tab.qk", text="I am a student.", model="transformer-en-fr"),
        _s("transformer", 2, "Positional Encoding", "포지셔널 인코딩",
           "Self-attention alone does not know word order, so a vector that depends only on the position is added "
           "to each word's embedding: PE(pos, 2i) = sin(pos / 10000^(2i/d)), PE(pos, 2i+1) = cos(...).",
           "셀프 어텐션만으로는 단어 순서를 모르므로, 위치에만 의존하는 벡터를 각 단어의 임베딩에 더합니다: "
           "PE(pos, 2i) = sin(pos / 10000^(2i/d)), PE(pos, 2i+1) = cos(...).",
           "positional", "tab.positional", text="I am a student."),
        _s("transformer", 3, "Multi-Head self-attention in the encoder", "인코더의 멀티 헤드 셀프 어텐션",
           "Every head of every encoder layer: each small map is one head (rows: the word that looks, columns: "
           "the words it looks at). Different heads learn different patterns.",
           "인코더 모든 레이어의 모든 헤드입니다. 작은 그림 하나가 헤드 하나(행: 보는 단어, 열: 보이는 단어)이며, "
           "헤드마다 다른 패턴을 학습합니다.",
           "enc_grid", "tab.transformer", text="I am a student.", model="transformer-en-fr"),
        _s("transformer", 4, "Masked Multi-Head Attention: the Attention Score Matrix",
           "마스크드 멀티 헤드 어텐션: 어텐션 스코어 행렬",
           "In the decoder a word may not look at the words after it: the Attention Score Matrix QK^T/sqrt(d_k) "
           "is set to -inf above the diagonal, so after the softmax those weights are exactly 0.",
           "디코더에서는 뒤의 단어를 볼 수 없습니다: 어텐션 스코어 행렬 QK^T/sqrt(d_k)의 대각선 위를 -inf로 두어 "
           "softmax 뒤 그 가중치는 정확히 0이 됩니다.",
           "dec_scores", "tab.transformer", text="I am a student.", model="transformer-en-fr"),
        _s("transformer", 5, "Encoder-Decoder Attention", "인코더-디코더 어텐션",
           "The decoder's queries meet the encoder's keys and values: each French word (row) looks at the English "
           "words (columns) it translates.",
           "디코더의 쿼리가 인코더의 키와 값을 만납니다: 프랑스어 단어(행)마다 번역하는 영어 단어(열)를 봅니다.",
           "cross_grid", "tab.transformer", text="I am a student.", model="transformer-en-fr"),
        _s("transformer", 6, "Add & Norm and the Position-wise FFN: one layer's whole computation",
           "Add & Norm과 포지션 와이즈 FFN: 한 레이어의 계산 전체",
           "The residual stream of one encoder layer, vector by vector in the order it is computed: the input, "
           "multi-head attention, the residual add and LayerNorm, the Position-wise FFN, add and LayerNorm again.",
           "인코더 레이어 하나의 잔차 흐름을 계산 순서대로 벡터마다 보여 줍니다: 입력, 멀티 헤드 어텐션, 잔차 "
           "연결과 LayerNorm, 포지션 와이즈 FFN, 다시 잔차 연결과 LayerNorm.",
           "inside", "tab.layer", text="I am a student.", model="transformer-en-fr"),
        _s("transformer", "gelu", "GELU beside ReLU: the Position-wise FFN's activation",
           "GELU와 ReLU: 포지션 와이즈 FFN의 활성화 함수",
           "The Transformer's Position-wise FFN uses ReLU, max(0, x); BERT's uses GELU, x Phi(x) (the exact erf "
           "form). Top: both over [-4, 4]. Below: the FFN pre-activations x W_1 + b_1 of layer 1 over every token "
           "of the sentence, in transformer-en-fr (ReLU) and in BERT (GELU): ReLU sets every negative one to "
           "exactly 0, GELU only damps it to a small negative value.",
           "트랜스포머의 포지션 와이즈 FFN은 ReLU, max(0, x)를, BERT는 GELU, x Phi(x)(erf를 쓰는 정확한 식)를 "
           "씁니다. 위: [-4, 4]에서 두 함수. 아래: 문장의 모든 토큰에서 레이어 1의 FFN 활성화 이전 값 "
           "x W_1 + b_1, transformer-en-fr(ReLU)와 BERT(GELU): ReLU는 음수를 모두 정확히 0으로 만들고, GELU는 "
           "작은 음수로 줄일 뿐입니다.",
           "gelu", "tab.layer", text="I am a student.", model="transformer-en-fr", bert="bert"),
    )),
    Deck("bert", {"en": "4. ELMo and BERT", "ko": "4. ELMo와 BERT"}, (
        _s("bert", 1, "Contextual vectors: one word, several meanings", "문맥 벡터: 한 단어, 여러 뜻",
           "A static embedding gives 'bank' one vector; a contextual model gives it a vector per sentence. The "
           "cosines show the river bank apart from the money bank.",
           "정적 임베딩은 'bank'에 벡터 하나를 주지만, 문맥 모델은 문장마다 다른 벡터를 줍니다. 코사인 유사도에서 "
           "강둑의 bank와 은행의 bank가 갈라집니다.",
           "contextual", "tab.contextual", word="bank"),
        _s("bert", 2, "BERT's input: token + segment + position embeddings", "BERT의 입력: 토큰 + 세그먼트 + 위치 임베딩",
           "WordPiece tokens with [CLS] first and [SEP] after each sentence; each token's input vector is the sum "
           "of its token embedding, its segment embedding (sentence A or B) and its position embedding.",
           "WordPiece 토큰 앞에 [CLS], 문장마다 뒤에 [SEP]를 둡니다. 각 토큰의 입력 벡터는 토큰 임베딩, "
           "세그먼트 임베딩(문장 A 또는 B), 위치 임베딩의 합입니다.",
           "bert_inputs", "tab.bert_inputs", text="my dog is cute", text_b="he likes playing"),
        _s("bert", 3, "Masked LM: 15% of the tokens, 80/10/10", "마스크드 LM: 토큰의 15%, 80/10/10",
           "15% of the tokens are chosen for prediction; of those 80% become [MASK], 10% a random token and 10% "
           "stay as they are, so the model cannot rely on seeing [MASK]. The table draws one such masking.",
           "토큰의 15%를 예측 대상으로 고르고, 그중 80%는 [MASK], 10%는 무작위 토큰, 10%는 그대로 둡니다. "
           "그래서 모델은 [MASK]만 믿을 수 없습니다. 표는 그런 마스킹 한 번을 뽑은 것입니다.",
           "masking", "tab.bert_inputs", text="The students opened their books and started to read."),
        _s("bert", "8010-many", "80/10/10 over many sentences", "여러 문장에 걸친 80/10/10",
           "One sentence shows only a handful of chosen tokens. Here the training's own masking runs over "
           "thousands of short sentences, one after another: the share of tokens chosen settles at 15%, and among "
           "them [MASK], random token and unchanged settle at 80%, 10% and 10%. The dotted lines are the rule.",
           "문장 하나로는 고른 토큰이 몇 개뿐입니다. 여기서는 학습에 쓰는 마스킹을 짧은 문장 수천 개에 차례로 "
           "적용합니다: 예측 대상으로 고른 토큰의 비율은 15%에, 그중 [MASK], 무작위 토큰, 그대로의 비율은 80%, "
           "10%, 10%에 모입니다. 점선이 규칙의 값입니다.",
           "masking_many", "tab.bert_inputs", draws=4096, seed=0),
        _s("bert", 4, "Fill-mask: what goes in [MASK]?", "빈칸 채우기: [MASK]에 들어갈 단어는?",
           "BERT reads the whole sentence in both directions and scores every word of its vocabulary for the "
           "[MASK] position; the bars are its top five.",
           "BERT는 문장 전체를 양방향으로 읽고 [MASK] 자리에 어휘의 모든 단어 점수를 매깁니다. 막대는 상위 "
           "다섯 개입니다.",
           "fill_mask", "tab.bert", text="I am a [MASK].", text_b=""),
        _s("bert", "heads-off", "Are all the heads needed? Switching three off", "헤드가 모두 필요할까? 세 개 끄기",
           "Each head's output can be switched off before W^O (Michel et al. 2019). Removed one at a time, most of "
           "BERT's 72 heads change almost nothing (docs/head-ablation.md); these three cost the most. The bars are "
           "the [MASK]'s top words with every head on and with layer 3 head 5, layer 5 head 6 and layer 9 head 6 off.",
           "각 헤드의 출력을 W^O 앞에서 끌 수 있습니다(Michel et al. 2019). 하나씩 끄면 BERT의 헤드 72개 대부분은 "
           "거의 아무것도 바꾸지 않습니다(docs/head-ablation.md). 가장 영향이 큰 세 헤드가 이것입니다. 막대는 모든 헤드를 "
           "켰을 때와 레이어 3 헤드 5, 레이어 5 헤드 6, 레이어 9 헤드 6을 껐을 때 [MASK]의 상위 단어입니다.",
           "heads_off", "tab.bert", text="He went to the [MASK] to buy some bread.", heads_off=((2, 4), (4, 5), (8, 5))),
        _s("bert", 5, "Next Sentence Prediction", "다음 문장 예측 (NSP)",
           "Sentence B follows sentence A half of the time in training (IsNext) and is a random sentence "
           "otherwise (NotNext); [CLS]'s output decides.",
           "학습 때 절반은 문장 B가 문장 A 바로 다음 문장(IsNext)이고, 나머지는 무작위 문장(NotNext)입니다. "
           "[CLS]의 출력이 판단합니다.",
           "nsp", "tab.bert", text="I went to the store.", text_b="I bought some milk."),
        _s("bert", "nsp-pairs", "How NSP's pairs are built", "NSP의 문장 쌍을 만드는 방법",
           "The training's own pair builder on six short documents: sentence A is one or a few sentences of one "
           "document; sentence B is what follows A in the same document half of the time (IsNext) and sentences of "
           "another document otherwise (NotNext). The table shows the first pairs; below, the share of IsNext "
           "settles at 50%.",
           "학습에 쓰는 문장 쌍 생성 코드를 짧은 문서 여섯 개에 적용했습니다. 문장 A는 한 문서의 문장 하나 또는 "
           "몇 개이고, 문장 B는 절반은 같은 문서에서 A 바로 다음 문장(IsNext), 나머지는 다른 문서의 문장"
           "(NotNext)입니다. 표는 처음 뽑은 쌍들이고, 아래 그래프에서 IsNext의 비율은 50%에 모입니다.",
           "nsp_pairs", "tab.bert", draws=4096, seed=0, shown=6),
        _s("bert", 6, "Fine-tuning: Sentiment analysis", "파인튜닝: 감정 분석",
           "The pre-trained BERT with a small classifier on [CLS], fine-tuned on labelled movie reviews: the "
           "pipeline('sentiment-analysis') of the lecture's code slide.",
           "사전 학습된 BERT의 [CLS] 위에 작은 분류기를 얹어 레이블이 있는 영화평으로 파인튜닝했습니다. 강의 코드 "
           "슬라이드의 pipeline('sentiment-analysis')입니다.",
           "sentiment", "tab.finetune", text="This movie was wonderful, I loved every minute of it."),
        _s("bert", 7, "The code slide: pipeline('sentiment-analysis')", "코드 슬라이드: pipeline('sentiment-analysis')",
           "The lecture's code, run here on the fine-tuned BERT of this app; the table is what it returns:\n\n"
           "```python\nfrom explorer.compute.pipeline import pipeline\nclassifier = pipeline(\"sentiment-analysis\")\n"
           f"classifier({list(PIPELINE_SENTENCES)!r})\n```",
           "강의의 코드를 이 앱의 파인튜닝된 BERT로 실행했습니다. 표가 그 결과입니다:\n\n"
           "```python\nfrom explorer.compute.pipeline import pipeline\nclassifier = pipeline(\"sentiment-analysis\")\n"
           f"classifier({list(PIPELINE_SENTENCES)!r})\n```",
           "pipeline", "tab.finetune", sentences=PIPELINE_SENTENCES),
    )),
    Deck("gpt", {"en": "5. GPT: a left-to-right decoder", "ko": "5. GPT: 왼쪽에서 오른쪽으로 읽는 디코더"}, (
        _s("gpt", 1, "What each token may see: BERT vs GPT", "토큰이 볼 수 있는 것: BERT와 GPT",
           "BERT's self-attention lets every token see every other; GPT's masked self-attention lets a token see "
           "only itself and the tokens before it: the lower triangle.",
           "BERT의 셀프 어텐션은 모든 토큰이 서로를 보게 하고, GPT의 마스크드 셀프 어텐션은 자기 자신과 앞의 "
           "토큰만 보게 합니다: 아래 삼각형입니다.",
           "visibility", "tab.gpt", text="The students opened their books."),
        _s("gpt", 2, "Generating one token at a time", "토큰을 하나씩 생성하기",
           "GPT predicts the next token from the ones before it, appends it and repeats. The bars are the "
           "model's probabilities for the last step (greedy: the most likely token is taken).",
           "GPT는 앞의 토큰들로 다음 토큰을 예측하고, 그것을 붙여 다시 예측합니다. 막대는 마지막 시점의 확률입니다 "
           "(greedy: 가장 확률이 높은 토큰을 고릅니다).",
           "generate", "tab.gpt", text="The students opened their", max_new_tokens=6),
    )),
)

STEPS = {s.id: s for d in DECKS for s in d.steps}
ORDER = [s.id for d in DECKS for s in d.steps]
FIRST = ORDER[0]


def step(step_id: str | None) -> Step:
    """The step `step_id`, or the first one for an unknown or empty id (a link typed by hand)."""
    return STEPS.get((step_id or "").strip(), STEPS[FIRST])


def deck_of(step_id: str) -> Deck:
    return next(d for d in DECKS if any(s.id == step(step_id).id for s in d.steps))


def neighbours(step_id: str) -> tuple[str | None, str | None]:
    """(previous, next) step ids along the whole course, None at either end."""
    i = ORDER.index(step(step_id).id)
    return (ORDER[i - 1] if i > 0 else None, ORDER[i + 1] if i + 1 < len(ORDER) else None)
