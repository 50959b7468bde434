"""Non-neural baselines for the five fine-tuning tasks, in plain Python and numpy (no sklearn).

* sentiment: multinomial Naive Bayes over unigrams and bigrams, add-one smoothing (Pang et al. 2002;
  Wang & Manning 2012 report ~0.77-0.78 on this corpus).
* nli: multinomial Naive Bayes over hypothesis words, hypothesis bigrams, "cross" features (hypothesis
  words absent from the premise) and the binned share of hypothesis words in the premise: the
  hypothesis-only and overlap cues SNLI is known for (Gururangan et al. 2018).
* pos / ner: the most frequent tag of each word in training (lower-cased as a fallback); an unseen word
  gets the most frequent tag overall (NOUN / O); for NER an I- that cannot continue becomes B-.
* qa: the sliding-window baseline of Richardson et al. 2013 as SQuAD's paper describes it: every
  candidate span of 1-3 words not in the question, scored by the question words in a window around it.
"""
from __future__ import annotations

import collections
import math
import re

from models.training import task_data

_WORD = re.compile(r"\w+|[^\w\s]")
STOP = frozenset("a an the of in on at to for by with from and or is are was were be been what which who whom whose "
                 "when where why how did does do that this these those it its as into than".split())


def _words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


class NaiveBayes:
    """Multinomial Naive Bayes with add-one smoothing over lists of string features."""

    def fit(self, docs: list[list[str]], labels: list[int]) -> "NaiveBayes":
        self.classes = sorted(set(labels))
        counts = {c: collections.Counter() for c in self.classes}
        prior = collections.Counter(labels)
        for d, y in zip(docs, labels):
            counts[y].update(d)
        vocab = set().union(*counts.values())
        self.log_prior = {c: math.log(prior[c] / len(labels)) for c in self.classes}
        self.log_like, self.unseen = {}, {}
        for c in self.classes:
            total = sum(counts[c].values()) + len(vocab)
            self.log_like[c] = {w: math.log((n + 1) / total) for w, n in counts[c].items()}
            self.unseen[c] = math.log(1 / total)
        self.vocab = vocab
        return self

    def predict(self, docs: list[list[str]]) -> list[int]:
        out = []
        for d in docs:
            d = [w for w in d if w in self.vocab]
            scores = {c: self.log_prior[c] + sum(self.log_like[c].get(w, self.unseen[c]) for w in d)
                      for c in self.classes}
            out.append(max(scores, key=scores.get))
        return out


def sentiment_features(text: str) -> list[str]:
    w = _words(text)
    return w + [a + " " + b for a, b in zip(w, w[1:])]


def korean_sentiment_features(text: str) -> list[str]:
    """Eojeol and character bigrams inside them: Korean glues particles and endings to words, so
    bigrams of syllables carry what English word bigrams do (재밌 in 재밌다, 재밌어요)."""
    w = text.split()
    return w + [f"{a}{b}" for x in w for a, b in zip(x, x[1:])]


def nli_features(pair) -> list[str]:
    premise, hypothesis = (set(_words(pair[0])), _words(pair[1]))
    content = [w for w in hypothesis if w not in STOP and w.isalnum()]
    share = sum(w in premise for w in content) / max(1, len(content))
    return (["h:" + w for w in hypothesis] + ["h2:" + a + " " + b for a, b in zip(hypothesis, hypothesis[1:])]
            + ["new:" + w for w in content if w not in premise] + [f"overlap:{round(share * 4)}"] * 3)


def most_frequent_tagger(train: list[tuple[list[str], list[str]]]):
    exact, lower = collections.defaultdict(collections.Counter), collections.defaultdict(collections.Counter)
    overall = collections.Counter()
    for words, tags in train:
        for w, t in zip(words, tags):
            exact[w][t] += 1
            lower[w.lower()][t] += 1
            overall[t] += 1
    default = overall.most_common(1)[0][0]

    def tag(words: list[str]) -> list[str]:
        out = []
        for w in words:
            seen = exact.get(w) or lower.get(w.lower())
            out.append(seen.most_common(1)[0][0] if seen else default)
        return out
    return tag


def repair_iob2(tags: list[str]) -> list[str]:
    """An I-X that follows neither B-X nor I-X becomes B-X."""
    out = []
    for t in tags:
        if t.startswith("I-") and (not out or out[-1][2:] != t[2:] or out[-1] == "O"):
            t = "B-" + t[2:]
        out.append(t)
    return out


def sliding_window_answer(question: str, context: str, window: int = 6, max_words: int = 3) -> tuple[str, int]:
    """(answer text, char start): the span of 1..max_words words, none of them a question word, whose
    `window` words on each side hold the most (idf-free) question content words."""
    q = {w for w in _words(question) if w not in STOP and w.isalnum()}
    toks = [(m.group(0).lower(), m.start(), m.end()) for m in re.finditer(r"\w+", context)]
    best, best_score = (0, 0), -1.0
    hits = [1.0 if w in q else 0.0 for w, _, _ in toks]
    for i in range(len(toks)):
        for n in range(1, max_words + 1):
            j = i + n
            if j > len(toks) or any(toks[k][0] in q or toks[k][0] in STOP for k in range(i, j)):
                break
            score = sum(hits[max(0, i - window):i]) + sum(hits[j:j + window])
            if score > best_score:
                best, best_score = (i, j), score
    if not toks:
        return "", 0
    i, j = best
    return context[toks[i][1]:toks[j - 1][2]], toks[i][1]


def baseline(task: str, train: list, valid: list) -> dict:
    """The task's non-neural baseline, trained on `train`, scored on `valid` with the task's metric."""
    if task in ("sentiment", "nli", "sentiment-ko"):
        feats = {"sentiment": sentiment_features, "nli": nli_features, "sentiment-ko": korean_sentiment_features}[task]
        nb = NaiveBayes().fit([feats(x) for x, _ in train], [y for _, y in train])
        acc = task_data.accuracy(nb.predict([feats(x) for x, _ in valid]), [y for _, y in valid])
        return {"name": "naive Bayes, bag of words" + {"nli": " + overlap", "sentiment": " + bigrams",
                                                      "sentiment-ko": " + syllable bigrams"}[task],
                "score": acc, "accuracy": acc}
    if task in ("pos", "ner"):
        tag = most_frequent_tagger(train)
        pred = [tag(w) for w, _ in valid]
        gold = [t for _, t in valid]
        acc = task_data.tag_accuracy(pred, gold)
        if task == "pos":
            return {"name": "most frequent tag per word", "score": acc, "accuracy": acc}
        f = task_data.entity_f1([repair_iob2(p) for p in pred], gold)
        return {"name": "most frequent tag per word", "score": f["f1"], "entity_f1": f["f1"],
                "precision": f["precision"], "recall": f["recall"], "token_accuracy": acc}
    preds = [sliding_window_answer(x["question"], x["context"])[0] for x in valid]
    s = task_data.squad_scores(preds, [x["answers"] for x in valid])
    return {"name": "sliding-window word overlap", "score": s["f1"], **s}
