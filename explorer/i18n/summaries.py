"""Strings of what the first three tabs compute: the result lines of seq2seq, the Transformer and BERT:
key -> {"en": ..., "ko": ...} (explorer/i18n/__init__.py merges every module here)."""

STRINGS = {
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
}
