"""Strings of attention as alignment, alignment error rate (ui/tabs/alignment.py; Och & Ney 2003):
key -> {"en": ..., "ko": ...} (explorer/i18n/__init__.py merges every module here)."""

STRINGS = {
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
}
