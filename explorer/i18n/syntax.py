"""Strings of heads vs syntax (ui/tabs/syntax.py; Clark et al. 2019):
key -> {"en": ..., "ko": ...} (explorer/i18n/__init__.py merges every module here)."""

STRINGS = {
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
}
