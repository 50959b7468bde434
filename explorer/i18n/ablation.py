"""Strings of switching heads off (ui/tabs/ablation.py; Michel et al. 2019):
key -> {"en": ..., "ko": ...} (explorer/i18n/__init__.py merges every module here)."""

STRINGS = {
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
}
