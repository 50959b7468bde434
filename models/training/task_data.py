"""The five fine-tuning datasets: readers, seeded validation splits, encodings and metrics.

Devlin et al. 2018, figure 4, puts every downstream task into one of four input/output shapes:
(a) sentence pair -> label (NLI: SNLI), (b) one sentence -> label (sentiment: Pang & Lee's
Rotten Tomatoes polarity), (c) question + paragraph -> answer span (SQuAD v1.1), (d) one
sentence -> a tag per token (POS: UD English EWT; NER: Universal NER English EWT). Each
folder's SOURCE.md (in the data folder) gives origin, licence and counts; the test parts are
kept back, so validation comes from the files we have:

    sentiment  train.tsv / dev.tsv as given (dev is validation)
    nli        snli_1.0_dev.tsv cut by premise (each premise has ~3 hypotheses), seeded, 10%
    pos        v2.0 train / v2.0 dev as given
    ner        dev.tsv cut by sentence, seeded, 20%
    qa         train.jsonl cut by article (no paragraph in both), seeded, 4 of 38 articles

Metrics: accuracy; UPOS accuracy over words; entity F1 over exact (type, start, end) chunks of
IOB2 tags, as conlleval / seqeval's default mode read them (an I- after O or after another
type starts a chunk); SQuAD EM and F1 with the official script's answer normalisation
(lower case, no punctuation, no articles a/an/the, single spaces), the best over the references.
"""
from __future__ import annotations

import collections
import json
import random
import re
import string
from pathlib import Path

import torch

from models.training.data import file_sha256, pad

TASKS = ("sentiment", "nli", "pos", "ner", "qa", "sentiment-ko")
KIND = {"sentiment": "sequence", "nli": "sequence", "pos": "token", "ner": "token", "qa": "span",
        "sentiment-ko": "sequence"}
SENTIMENT_LABELS = ("NEGATIVE", "POSITIVE")  # index = the file's label (0 negative, 1 positive)
NLI_LABELS = ("entailment", "neutral", "contradiction")
UPOS = ("ADJ", "ADP", "ADV", "AUX", "CCONJ", "DET", "INTJ", "NOUN", "NUM", "PART", "PRON", "PROPN", "PUNCT",
        "SCONJ", "SYM", "VERB", "X")  # the 17 universal POS tags
NER_LABELS = ("O", "B-PER", "I-PER", "B-ORG", "I-ORG", "B-LOC", "I-LOC")
LABELS = {"sentiment": SENTIMENT_LABELS, "nli": NLI_LABELS, "pos": UPOS, "ner": NER_LABELS, "qa": ("start", "end"),
          "sentiment-ko": SENTIMENT_LABELS}
FILES = {  # task -> files read, relative to the data folder (hashed into metrics.json)
    "sentiment": ("sentiment-rt-polarity/train.tsv", "sentiment-rt-polarity/dev.tsv"),
    "nli": ("nli-snli/snli_1.0_dev.tsv",),
    "pos": ("pos-ud-english-ewt/v2.0-word-upos-xpos/en-ud-tag.v2.train.txt",
            "pos-ud-english-ewt/v2.0-word-upos-xpos/en-ud-tag.v2.dev.txt"),
    "ner": ("ner-uner-english-ewt/dev.tsv",),
    "qa": ("qa-squad-v1.1/train.jsonl",),
    "sentiment-ko": ("korean-nsmc/train.tsv",),  # NSMC's training split; its official test split is not here
}
NLI_VALID_FRAC, NER_VALID_FRAC, QA_VALID_ARTICLES = 0.1, 0.2, 4


# ----------------------------------------------------------------------------- reading


def _path(data_dir: Path, rel: str) -> Path:
    p = Path(data_dir) / rel
    if not p.is_file():
        raise FileNotFoundError(f"{p} not found: --data-dir must hold the task folders of ../shared/data")
    return p


def _tsv(path: Path) -> list[list[str]]:
    with open(path, encoding="utf-8") as f:
        rows = [line.rstrip("\n").split("\t") for line in f]
    return rows[1:]  # header


def _conll(path: Path, comment: str | None = None) -> list[tuple[list[str], list[str]]]:
    """Sentences of `word<TAB>tag[<TAB>...]` lines separated by blank lines; lines starting with
    `comment` are skipped (a word can itself be '#', so only the exact prefix counts)."""
    out, words, tags = [], [], []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if comment and line.startswith(comment):
                continue
            if not line.strip():
                if words:
                    out.append((words, tags))
                words, tags = [], []
                continue
            cols = line.split("\t")
            words.append(cols[0])
            tags.append(cols[1])
    if words:
        out.append((words, tags))
    return out


def read_task(task: str, data_dir: Path, split_seed: int = 0) -> dict[str, list]:
    """{"train": [...], "valid": [...]} of examples:
    sentiment (text, label index); nli ((premise, hypothesis), label index); pos/ner (words, tags);
    qa {"question", "context", "answers": [texts], "starts": [char offsets], "id", "article"}."""
    rng = random.Random(split_seed)
    files = [_path(data_dir, f) for f in FILES[task]]
    if task == "sentiment":
        train, dev = ([(s, int(y)) for s, y in _tsv(f)] for f in files)
        return {"train": train, "valid": dev}
    if task == "sentiment-ko":  # the split bert-ko's pre-training left out (models/training/bert_ko.py): valid is ours
        from models.training.bert_ko import nsmc_split
        split = nsmc_split(Path(data_dir), split_seed)
        return {"train": split["train"], "valid": split["valid"], "test": split["test"]}
    if task == "nli":
        rows = [((p, h), NLI_LABELS.index(y)) for p, h, y in _tsv(files[0])]
        premises = sorted({p for (p, _), _ in rows})
        rng.shuffle(premises)
        held = set(premises[:max(1, int(len(premises) * NLI_VALID_FRAC))])
        return {"train": [r for r in rows if r[0][0] not in held], "valid": [r for r in rows if r[0][0] in held]}
    if task == "pos":
        return {"train": _conll(files[0]), "valid": _conll(files[1])}
    if task == "ner":
        sents = _conll(files[0], comment="# sent_id = ")
        held = ner_valid_indices(len(sents), split_seed)
        return {"train": [s for i, s in enumerate(sents) if i not in held],
                "valid": [s for i, s in enumerate(sents) if i in held]}
    if task == "qa":
        rows = []
        with open(files[0], encoding="utf-8") as f:
            for line in f:
                r = json.loads(line)
                rows.append({"id": r["id"], "article": r["title"], "question": r["question"], "context": r["context"],
                             "answers": r["answers"]["text"], "starts": r["answers"]["answer_start"]})
        articles = sorted({r["article"] for r in rows})
        rng.shuffle(articles)
        held = set(articles[:min(QA_VALID_ARTICLES, max(1, len(articles) // 4))])
        return {"train": [r for r in rows if r["article"] not in held], "valid": [r for r in rows if r["article"] in held]}
    raise ValueError(f"unknown task {task!r}; choose one of {TASKS}")


def ner_valid_indices(n_sentences: int, split_seed: int = 0) -> set[int]:
    """Which of dev.tsv's sentences (indices in file order) are NER's validation split: 20%, by sentence, seeded."""
    order = list(range(n_sentences))
    random.Random(split_seed).shuffle(order)
    return set(order[:max(1, int(n_sentences * NER_VALID_FRAC))])


def data_meta(task: str, data_dir: Path, split: dict, split_seed: int) -> dict:
    return {"files": {f: file_sha256(_path(data_dir, f)) for f in FILES[task]}, "split_seed": split_seed,
            "n_train": len(split["train"]), "n_valid": len(split["valid"])}


# ----------------------------------------------------------------------------- encoding


def task_tokenizer(tok, max_len: int):
    """A copy of the shared tokenizer that truncates to max_len (the shared one is never mutated)."""
    from tokenizers import Tokenizer
    t = Tokenizer.from_str(tok.to_str())
    t.no_padding()
    t.enable_truncation(max_length=max_len, strategy="longest_first")
    return t


def encode_sequences(tok, examples) -> list[dict]:
    """Sentence or sentence pair -> [CLS] A [SEP] (B [SEP]) ids, segments; label if given."""
    texts = [x[0] for x in examples]
    encs = tok.encode_batch([t if isinstance(t, str) else tuple(t) for t in texts])
    return [{"input_ids": e.ids, "segment_ids": e.type_ids, "labels": y} for e, (_, y) in zip(encs, examples)]


def encode_words(tok, words: list[str]):
    """One sentence given as words -> (encoding, first-subword position of each word or None).
    A word the normaliser empties (a control character) or truncation drops has no position."""
    enc = tok.encode(words, is_pretokenized=True)
    first: list[int | None] = [None] * len(words)
    for pos, w in enumerate(enc.word_ids):
        if w is not None and first[w] is None:
            first[w] = pos
    return enc, first


def encode_tagging(tok, examples, labels: tuple) -> list[dict]:
    """Tags on the first subword of each word, -100 on every other position (Devlin et al. 2018, sec. 5.3)."""
    index = {t: i for i, t in enumerate(labels)}
    out = []
    for words, tags in examples:
        enc, first = encode_words(tok, words)
        y = [-100] * len(enc.ids)
        for pos, tag in zip(first, tags):
            if pos is not None:
                y[pos] = index.get(tag, -100)
        out.append({"input_ids": enc.ids, "segment_ids": enc.type_ids, "labels": y})
    return out


def qa_windows(tok, question: str, context: str, max_len: int, stride: int, max_question: int = 64) -> list[dict]:
    """[CLS] question [SEP] context-window [SEP] for windows of the context's tokens that start every
    `stride` tokens until one reaches the end (BERT's run_squad.py 'doc_stride'). Each window keeps
    `offsets` (char start, end in the context) of its context tokens and `ctx_start`, the position
    of its first context token."""
    sp = {t: tok.token_to_id(t) for t in ("[CLS]", "[SEP]")}
    q = tok.encode(question, add_special_tokens=False).ids[:max_question]
    c = tok.encode(context, add_special_tokens=False)
    room = max(1, max_len - len(q) - 3)
    starts = list(range(0, max(1, len(c.ids) - room + stride), stride)) if len(c.ids) > room else [0]
    windows = []
    for s in starts:
        ids = c.ids[s:s + room]
        head = [sp["[CLS]"], *q, sp["[SEP]"]]
        windows.append({"input_ids": head + ids + [sp["[SEP]"]],
                        "segment_ids": [0] * len(head) + [1] * (len(ids) + 1),
                        "offsets": c.offsets[s:s + room], "ctx_start": len(head), "token_start": s})
        if s + room >= len(c.ids):
            break
    return windows


def encode_qa(tok, examples, max_len: int, stride: int) -> list[dict]:
    """Training windows: start/end positions of the first answer's tokens, or 0 ([CLS]) where the window
    does not hold the whole answer (as BERT's SQuAD v1.1 code trains). `span_mask` is True where an
    answer may start or end: [CLS] and the window's context tokens."""
    out = []
    for ex in examples:
        a_start = ex["starts"][0]
        a_end = a_start + len(ex["answers"][0])
        for w in qa_windows(tok, ex["question"], ex["context"], max_len, stride):
            s = e = 0
            toks = [i for i, (cs, ce) in enumerate(w["offsets"]) if ce > a_start and cs < a_end]
            if toks and w["offsets"][0][0] <= a_start and w["offsets"][-1][1] >= a_end:
                s, e = toks[0] + w["ctx_start"], toks[-1] + w["ctx_start"]
            mask = [False] * len(w["input_ids"])
            mask[0] = True
            for i in range(len(w["offsets"])):
                mask[w["ctx_start"] + i] = True
            out.append({"input_ids": w["input_ids"], "segment_ids": w["segment_ids"], "span_mask": mask,
                        "start_positions": s, "end_positions": e})
    return out


def collate(rows: list[dict], pad_id: int = 0) -> dict:
    """Pad to the batch's longest row: ids with pad_id, token labels with -100, span_mask with False."""
    batch = {"input_ids": pad([r["input_ids"] for r in rows], pad_id),
             "segment_ids": pad([r["segment_ids"] for r in rows], 0)}
    batch["attention_mask"] = batch["input_ids"] != pad_id
    if "span_mask" in rows[0]:
        batch["span_mask"] = pad([[int(m) for m in r["span_mask"]] for r in rows], 0).bool()
    for k in ("labels", "start_positions", "end_positions"):
        if k in rows[0] and rows[0][k] is not None:
            v = [r[k] for r in rows]
            batch[k] = pad(v, -100) if isinstance(v[0], list) else torch.tensor(v)
    return batch


def batches(encoded: list[dict], batch_size: int, rng: random.Random, pad_id: int = 0):
    """Shuffled batches forever (one pass over the data per epoch)."""
    while True:
        order = list(range(len(encoded)))
        rng.shuffle(order)
        for i in range(0, len(order), batch_size):
            yield collate([encoded[j] for j in order[i:i + batch_size]], pad_id)


# ----------------------------------------------------------------------------- metrics


def accuracy(pred, gold) -> float:
    return sum(p == g for p, g in zip(pred, gold)) / max(1, len(gold))


def tag_accuracy(pred: list[list[str]], gold: list[list[str]]) -> float:
    pairs = [(p, g) for ps, gs in zip(pred, gold) for p, g in zip(ps, gs)]
    return sum(p == g for p, g in pairs) / max(1, len(pairs))


def chunks(tags: list[str]) -> set[tuple[str, int, int]]:
    """(type, start, end inclusive) of every IOB2 entity. As conlleval and seqeval's default mode:
    B-X starts a chunk; I-X continues one of type X, else it starts one (an ill-formed I- still counts)."""
    out, cur = set(), None
    for i, t in enumerate(list(tags) + ["O"]):
        prefix, _, typ = t.partition("-")
        if cur and (prefix != "I" or typ != cur[0]):
            out.add((cur[0], cur[1], i - 1))
            cur = None
        if prefix == "B" or (prefix == "I" and cur is None):
            cur = (typ, i)
    return out


def entity_f1(pred: list[list[str]], gold: list[list[str]]) -> dict:
    """Micro precision, recall and F1 over exact chunks (type and both ends must match), per sentence."""
    tp = n_pred = n_gold = 0
    for p, g in zip(pred, gold):
        cp, cg = chunks(p), chunks(g)
        tp += len(cp & cg)
        n_pred += len(cp)
        n_gold += len(cg)
    prec, rec = tp / n_pred if n_pred else 0.0, tp / n_gold if n_gold else 0.0
    return {"precision": prec, "recall": rec, "f1": 2 * prec * rec / (prec + rec) if prec + rec else 0.0,
            "n_gold_entities": n_gold}


def entity_errors(pred: list[list[str]], gold: list[list[str]]) -> collections.Counter:
    """What went wrong, entity by entity, beside entity_f1's exact matches. Each gold chunk not predicted
    exactly is a "type" error (a predicted chunk has its span, another type), a "boundary" error (a
    predicted chunk of its type overlaps it, other ends), "boundary+type" (overlapped by another type's
    chunk) or "missed" (no predicted chunk overlaps it); a predicted chunk that overlaps no gold chunk is
    "spurious". "correct" counts the exact matches."""
    out = collections.Counter()
    for p, g in zip(pred, gold):
        cp, cg = chunks(p), chunks(g)
        for t, i, j in cg:
            over = [(u, a, b) for u, a, b in cp if a <= j and i <= b]
            if (t, i, j) in cp:
                out["correct"] += 1
            elif any((a, b) == (i, j) for _, a, b in over):
                out["type"] += 1
            elif any(u == t for u, _, _ in over):
                out["boundary"] += 1
            else:
                out["boundary+type" if over else "missed"] += 1
        out["spurious"] += sum(1 for _, a, b in cp if not any(a <= j and i <= b for _, i, j in cg))
    return +out  # without the kinds that did not occur


def normalize_answer(s: str) -> str:
    """SQuAD v1.1's evaluate-v1.1.py: lower case, punctuation removed, articles removed, whitespace collapsed."""
    s = s.lower()
    s = "".join(ch for ch in s if ch not in set(string.punctuation))
    s = re.sub(r"\b(a|an|the)\b", " ", s)
    return " ".join(s.split())


def squad_f1(pred: str, gold: str) -> float:
    p, g = normalize_answer(pred).split(), normalize_answer(gold).split()
    common = collections.Counter(p) & collections.Counter(g)
    same = sum(common.values())
    if same == 0:
        return 0.0
    prec, rec = same / len(p), same / len(g)
    return 2 * prec * rec / (prec + rec)


def squad_scores(preds: list[str], references: list[list[str]]) -> dict:
    """Exact match and F1 (fractions, not percentages), each the best over a question's references."""
    em = [max(float(normalize_answer(p) == normalize_answer(g)) for g in gs) for p, gs in zip(preds, references)]
    f1 = [max(squad_f1(p, g) for g in gs) for p, gs in zip(preds, references)]
    n = max(1, len(preds))
    return {"exact_match": sum(em) / n, "f1": sum(f1) / n}
