"""Corpora, deterministic splits, batching and the training objectives.

Translation: Tatoeba pairs (English-French, English-Korean), split by distinct source
sentence (all translations of one sentence land in the same split), seeded. Batches are
bucketed by length and capped by tokens, with teacher forcing: tgt_in = <s> y, tgt_out = y </s>.

BERT (Devlin et al. 2018, sec. 3.1 and appendix A.1): documents -> sentences -> pairs
(A, B) where B follows A in the same document 50% of the time (IsNext) and is drawn from
another document of the same corpus otherwise (NotNext); 15% of the tokens are chosen for
prediction, of which 80% become [MASK], 10% a random token and 10% stay unchanged.
Short Tatoeba sentences are single-segment examples with no NSP label.
"""
from __future__ import annotations

import gzip
import hashlib
import random
import re
from dataclasses import dataclass
from pathlib import Path

import torch

from models.tokenizers import special_ids

# ----------------------------------------------------------------------------- files


def find(data_dir: Path, rel: str) -> Path:
    """data_dir/rel, or the same file without .gz (test fixtures are plain text)."""
    p = Path(data_dir) / rel
    if p.is_file():
        return p
    if p.suffix == ".gz" and p.with_suffix("").is_file():
        return p.with_suffix("")
    raise FileNotFoundError(f"{p} not found: see docs/data.md for where to get the corpora")


def open_text(path: Path):
    return gzip.open(path, "rt", encoding="utf-8") if str(path).endswith(".gz") else open(path, encoding="utf-8")


def file_sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


TRANSLATION_FILES = {"en-fr": "tatoeba-eng-fra/fra.txt.gz", "en-ko": "tatoeba-eng-kor/kor.txt"}
# Korean-English pairs beside Tatoeba's (CC BY-SA or free use, kept in their own files and attributed apart
# in docs/data.md): training data only, never in a validation or test split. Each set is one or more TSV
# files with a header row naming the columns `ko` and `en`.
EXTRA_KO_EN = {"ntrex": ("parallel-ko-en-ntrex128/ntrex128_ko_en.tsv",),
               "pud": ("parallel-ko-en-ud-korean-pud/ko_pud_ko_en.tsv",),
               "jhe": ("parallel-ko-en-more/jhe/dev.tsv",),
               "park-news": ("parallel-ko-en-more/park-news/dev.tsv",),
               "pawsx": ("parallel-ko-en-more/pawsx-ko/dev.tsv", "parallel-ko-en-more/pawsx-ko/test.tsv"),
               "korsts": ("parallel-ko-en-more/korsts-stsb/dev.tsv", "parallel-ko-en-more/korsts-stsb/test.tsv")}
PTB_TOKENIZED = {"pawsx"}  # English side written Penn-Treebank style ("was born ." , "do n't"): detokenized
VALID_FRAC, TEST_FRAC = 0.01, 0.015  # the translation split's defaults; BERT holds out the same English sentences


def read_pairs(data_dir: Path, pair: str) -> list[tuple[str, str]]:
    """(english, other) pairs from a Tatoeba/manythings file (extra columns ignored)."""
    out = []
    with open_text(find(data_dir, TRANSLATION_FILES[pair])) as f:
        for line in f:
            cols = line.rstrip("\n").split("\t")
            if len(cols) >= 2 and cols[0].strip() and cols[1].strip():
                out.append((cols[0].strip(), cols[1].strip()))
    return out


def detokenize_ptb(text: str) -> str:
    """Penn-Treebank tokenized English back to running text: "the Council , was n't it ?" ->
    "the Council, wasn't it?" (the rules of Moses' detokenizer that PAWS-X's English needs)."""
    text = text.replace("-LRB-", "(").replace("-RRB-", ")").replace("``", '"').replace("''", '"')
    text = re.sub(r" (n't|'s|'re|'ve|'m|'ll|'d)\b", r"\1", text)
    text = re.sub(r" ([.,;:!?%)\]}])", r"\1", text)
    text = re.sub(r"([(\[{$]) ", r"\1", text)
    text = re.sub(r'" (.*?) "', r'"\1"', text)
    return re.sub(r" {2,}", " ", text).strip()


def read_extra_pairs(data_dir: Path, name: str, max_words: int = 0) -> list[tuple[str, str]]:
    """(english, korean) pairs of an EXTRA_KO_EN set; with max_words, only pairs whose English has at
    most that many words (these news and Wikipedia sentences are ~20 words, Tatoeba's ~6)."""
    pairs = []
    for rel in EXTRA_KO_EN[name]:
        with open_text(find(data_dir, rel)) as f:
            header = f.readline().rstrip("\n").split("\t")
            ko, en = header.index("ko"), header.index("en")
            rows = [line.rstrip("\n").split("\t") for line in f]
        pairs += [(r[en].strip(), r[ko].strip()) for r in rows
                  if len(r) > max(ko, en) and r[en].strip() and r[ko].strip()]
    if name in PTB_TOKENIZED:
        pairs = [(detokenize_ptb(en), ko) for en, ko in pairs]
    return [p for p in pairs if not max_words or len(p[0].split()) <= max_words]


def split_by_source(pairs, seed: int, valid_frac: float, test_frac: float):
    """Deterministic train/valid/test split by distinct English sentence."""
    sources = sorted({en for en, _ in pairs})
    random.Random(seed).shuffle(sources)
    n_test, n_valid = max(1, int(len(sources) * test_frac)), max(1, int(len(sources) * valid_frac))
    test, valid = set(sources[:n_test]), set(sources[n_test:n_test + n_valid])
    split = {"train": [], "valid": [], "test": []}
    for p in pairs:
        split["test" if p[0] in test else "valid" if p[0] in valid else "train"].append(p)
    return split


def split_by_pair(pairs, seed: int, valid_frac: float, test_frac: float):
    """The pairs themselves shuffled and cut (not their sources): a validation or test source may have
    another translation among the training pairs. For comparison with numbers read on such splits
    only; `split_by_source` is the split of every shipped model."""
    order = list(range(len(pairs)))
    random.Random(seed).shuffle(order)
    n_test, n_valid = max(1, int(len(pairs) * test_frac)), max(1, int(len(pairs) * valid_frac))
    parts = {"test": order[:n_test], "valid": order[n_test:n_test + n_valid], "train": order[n_test + n_valid:]}
    return {k: [pairs[i] for i in idx] for k, idx in parts.items()}


def translation_split(pairs, direction: str, seed: int, valid_frac: float, test_frac: float, by: str = "source"):
    """(split turned to `direction`, pairs dropped from valid and test). by="source": `split_by_source`
    then `oriented_split`; by="pair": `split_by_pair`, nothing dropped."""
    if by == "pair":
        split = split_by_pair(pairs, seed, valid_frac, test_frac)
        return {k: orient(v, direction) for k, v in split.items()}, {"valid": 0, "test": 0}
    return oriented_split(split_by_source(pairs, seed, valid_frac, test_frac), direction)


def orient(pairs, direction: str):
    """Pairs are stored (english, other); 'ko-en' or 'fr-en' flips them."""
    return [(b, a) for a, b in pairs] if direction.endswith("-en") else list(pairs)


def oriented_split(split: dict, direction: str) -> tuple[dict, dict]:
    """`split_by_source`'s split turned to `direction`, with validation and test keeping only the
    pairs whose source sentence is never a training source. The split groups pairs by their English
    sentence, which is the source for en-fr and en-ko; into English, one Korean or French sentence
    with two English translations could be a training source and a test source ("안녕." is "Hi." in
    training and "Hello." in the test). Returns (split, pairs dropped from valid and test)."""
    out = {k: orient(v, direction) for k, v in split.items()}
    seen = {src for src, _ in out["train"]}
    dropped = {}
    for k in ("valid", "test"):
        kept = [p for p in out[k] if p[0] not in seen]
        dropped[k], out[k] = len(out[k]) - len(kept), kept
        seen |= {src for src, _ in kept}  # test keeps no validation source either (beam and alpha are chosen there)
    return out, dropped


_HANGUL = re.compile(r"[\uac00-\ud7a3]")  # precomposed Hangul syllables


def respace(text: str, p: float, rng: random.Random) -> str:
    """Korean spacing noise for training sources. Writers space Korean differently ('학생입니다'
    and '학생 입니다' are the same words; the course slides use the second, Tatoeba the first), and
    the variation sits mostly where a particle, the copula or an ending meets its word. So each
    space between two Hangul syllables is dropped with probability p, and each word with two or
    more syllables has its last one to three syllables written apart with probability p. Only
    spaces change: the letters, their order and every non-Hangul boundary stay as they are."""
    words = []
    for w in text.split(" "):
        cuts = [i for i in range(1, len(w)) if _HANGUL.match(w[i - 1]) and _HANGUL.match(w[i])][-3:]
        if cuts and rng.random() < p:
            i = rng.choice(cuts)
            w = w[:i] + " " + w[i:]
        if words and words[-1] and w and _HANGUL.match(words[-1][-1]) and _HANGUL.match(w[0]) and rng.random() < p:
            words[-1] += w
        else:
            words.append(w)
    return " ".join(words)


def english_key(sentence: str) -> str:
    """An English sentence compared without case, punctuation or spacing ('I am a student.' and
    'i am a student' meet), to keep another corpus's copy of a held-out sentence out of training."""
    return re.sub(r"[\W_]+", "", sentence.lower())


# ----------------------------------------------------------------------------- translation batches


def encode_pairs(tok, pairs, max_len: int):
    """Token ids: src = x </s>, tgt = y (no specials), both cropped to max_len."""
    eos = tok.token_to_id("</s>")
    srcs = tok.encode_batch([s for s, _ in pairs], add_special_tokens=False)
    tgts = tok.encode_batch([t for _, t in pairs], add_special_tokens=False)
    return [(s.ids[: max_len - 1] + [eos], t.ids[: max_len - 1]) for s, t in zip(srcs, tgts)]


def pad(rows, pad_id: int = 0, multiple: int = 1) -> torch.Tensor:
    """Right-pad to the longest row, rounded up to `multiple` (fewer distinct shapes for GPU kernels)."""
    n = -(-max(len(r) for r in rows) // multiple) * multiple
    return torch.tensor([r + [pad_id] * (n - len(r)) for r in rows], dtype=torch.long)


def translation_batch(rows, bos: int, eos: int, pad_id: int = 0) -> dict:
    return {"src": pad([s for s, _ in rows], pad_id, 8),
            "tgt_in": pad([[bos] + t for _, t in rows], pad_id, 8),
            "tgt_out": pad([t + [eos] for _, t in rows], pad_id, 8)}


def translation_batches(encoded, max_tokens: int, rng: random.Random):
    """One epoch of length-bucketed batches with at most ~max_tokens (src+tgt, padded) each."""
    idx = list(range(len(encoded)))
    rng.shuffle(idx)
    batches = []
    for start in range(0, len(idx), 100 * 64):  # sort within pools so batches have similar lengths
        pool = sorted(idx[start:start + 100 * 64], key=lambda i: (len(encoded[i][0]), len(encoded[i][1])))
        cur, longest = [], 0
        for i in pool:
            n = len(encoded[i][0]) + len(encoded[i][1]) + 1
            if cur and max(longest, n) * (len(cur) + 1) > max_tokens:
                batches.append(cur)
                cur, longest = [], 0
            cur.append(i)
            longest = max(longest, n)
        if cur:
            batches.append(cur)
    rng.shuffle(batches)
    return batches


# ----------------------------------------------------------------------------- BERT corpora

_SENT = re.compile(r"(?<=[.!?])\s+(?=[\"'“‘(\[]?[A-Z0-9])")


def split_sentences(paragraph: str) -> list[str]:
    return [s.strip() for s in _SENT.split(paragraph.strip()) if s.strip()]


def _wikitext_docs(path: Path):
    """WikiText: an article starts at ' = Title = ' (single '='); paragraphs are the other lines."""
    docs, cur = [], []
    with open_text(path) as f:
        for line in f:
            s = line.strip()
            if re.fullmatch(r"= [^=].* =", s):
                if cur:
                    docs.append(cur)
                cur = []
            elif s and not s.startswith("= "):
                s = s.replace(" @-@ ", "-").replace(" @,@ ", ",").replace(" @.@ ", ".").replace("<unk>", "[UNK]")
                cur.extend(split_sentences(s))
    if cur:
        docs.append(cur)
    return docs


def _headed_docs(path: Path):
    """english-more common format: '= title | sub =' heading, paragraphs, blank line between documents."""
    docs, cur = [], []
    with open_text(path) as f:
        for line in f:
            s = line.strip()
            if not s:
                if cur:
                    docs.append(cur)
                cur = []
            elif not (s.startswith("= ") and s.endswith(" =")):
                cur.extend(split_sentences(s))
    if cur:
        docs.append(cur)
    return docs


# corpus name -> (relative path, reader, sampling weight); wikitext text keeps its own tokenisation
BERT_CORPORA = {
    "wikitext2-train": ("english-more/wikitext2-train.txt.gz", _wikitext_docs, 3.0),
    "wikitext2-valid": ("wikitext-2/valid.txt", _wikitext_docs, 0.0),  # never trained on: held-out Wikipedia
    "fiction": ("english-more/gutenberg-fiction.txt.gz", _headed_docs, 2.0),
    "nonfiction": ("english-more/gutenberg-nonfiction.txt.gz", _headed_docs, 1.0),
    "sotu": ("english-more/sotu-1945-2021.txt.gz", _headed_docs, 0.7),
    "factbook": ("english-more/factbook-2021.txt.gz", _headed_docs, 0.5),
    "bible": ("bible-eng-spa/web.paragraphs.txt.gz", _headed_docs, 0.5),  # chapters as documents, no headings
}
TATOEBA_WEIGHT = 2.0  # short everyday sentences, single-segment MLM examples


def load_bert_corpora(data_dir: Path, required: bool = True) -> dict[str, list[list[str]]]:
    """name -> documents -> sentences. With required=False, missing files are skipped (smoke runs)."""
    out = {}
    for name, (rel, reader, _) in BERT_CORPORA.items():
        try:
            path = find(data_dir, rel)
        except FileNotFoundError:
            if required:
                raise
            continue
        out[name] = [d for d in reader(path) if d]
    return out


def split_docs(docs: list, seed: int, heldout_frac: float):
    """Hold out whole documents (so NSP/MLM eval never sees a training document)."""
    idx = list(range(len(docs)))
    random.Random(seed).shuffle(idx)
    n = max(1, int(len(docs) * heldout_frac)) if len(docs) > 4 else 0
    held = set(idx[:n])
    return [d for i, d in enumerate(docs) if i not in held], [d for i, d in enumerate(docs) if i in held]


def halves(docs: list, seed: int) -> tuple[list, list]:
    """Held-out documents into two disjoint halves, (valid, test), by a seeded shuffle, so that the
    test metrics read documents that checkpoint selection never read."""
    idx = list(range(len(docs)))
    random.Random(seed).shuffle(idx)
    return [docs[i] for i in sorted(idx[0::2])], [docs[i] for i in sorted(idx[1::2])]


def wordpiece_texts(corpora: dict, pairs: list, seed: int, heldout_frac: float) -> list[str]:
    """What a new WordPiece vocabulary learns from: the training documents of every corpus and the
    English of the translation split's training pairs, none of the text `bert_split` holds out. (The
    shipped BERT's vocabulary predates this and saw the held-out documents' text; docs/training.md.)"""
    texts = [s for name, docs in corpora.items() if name != "wikitext2-valid"
             for d in split_docs(docs, seed, heldout_frac)[0] for s in d]
    return texts + sorted({en for en, _ in split_by_source(pairs, seed, VALID_FRAC, TEST_FRAC)["train"]})


def bert_split(tok, data_dir: Path, seed: int, heldout_frac: float, required: bool, corpora: dict | None = None):
    """BERT's split, tokenised: (corpora, train, held, singles). Documents per corpus for training
    and held out, the held-out ones in disjoint halves: held = {"valid": {corpus: docs}, "test":
    {corpus: docs}}. Tatoeba English sentences as singles = {"train", "valid", "test"}: the
    translation split's own three parts. corpora: what load_bert_corpora returned, when the caller
    has it already."""
    corpora = corpora if corpora is not None else load_bert_corpora(data_dir, required=required)
    train, held = {}, {"valid": {}, "test": {}}
    for name, docs in corpora.items():
        if name == "wikitext2-valid":
            tr, he = [], docs  # the held-out Wikipedia set
        else:
            tr, he = split_docs(docs, seed, heldout_frac)
        valid, test = halves(he, seed)
        for dest, ds in ((train, tr), (held["valid"], valid), (held["test"], test)):
            flat = [s for d in ds for s in d]
            ids = [e.ids for e in tok.encode_batch(flat, add_special_tokens=False)] if flat else []
            it, out = iter(ids), []
            for d in ds:
                out.append([next(it) for _ in d])
            dest[name] = out
    pairs = read_pairs(data_dir, "en-fr")
    split = split_by_source(pairs, seed, VALID_FRAC, TEST_FRAC)  # the translation split's valid/test English
    singles = {}
    for k in ("train", "valid", "test"):
        sents = sorted({en for en, _ in split[k]})
        singles[k] = [e.ids for e in tok.encode_batch(sents, add_special_tokens=False)]
    return corpora, train, held, singles


def bert_heldout_data(tok, data_dir: Path, meta: dict, split: str = "test"):
    """(held-out documents per corpus, held-out Tatoeba sentences) of one split, "valid" or "test",
    tokenised, from a run's data metadata."""
    _, _, held, singles = bert_split(tok, data_dir, meta["split_seed"], meta["heldout_frac"], meta.get("required", True))
    return held[split], singles[split]


def training_mix(train_docs: dict) -> tuple[dict, dict]:
    """(the corpora BERT trains on: those with documents and a positive weight, every corpus's weight)."""
    weights = {k: w for k, (_, _, w) in BERT_CORPORA.items()}
    return {k: v for k, v in train_docs.items() if v and weights[k] > 0}, weights


def pair_corpora(held: dict) -> dict:
    """The held-out corpora that can give sentence pairs: NSP's negatives need another document."""
    return {k: v for k, v in held.items() if len(v) > 1}


def checkpoint_train_sampler(ckpt, data_dir: Path, tatoeba_weight: float, rng: random.Random) -> "BertSampler":
    """Batches of a BERT checkpoint's own training mix (its recorded split), for benches and diagnostics;
    set `.rng` again to draw the same batches twice."""
    tok, meta = ckpt.tokenizer, ckpt.metrics["data"]
    _, train_docs, _, singles = bert_split(tok, data_dir, meta["split_seed"], meta["heldout_frac"], True)
    corpora, weights = training_mix(train_docs)
    return BertSampler(corpora, weights, singles["train"], tatoeba_weight, special_ids(tok),
                       tok.get_vocab_size(), meta["max_len"], rng)


@dataclass
class BertSampler:
    """Draws BERT pre-training examples from tokenised documents (lists of sentence id lists)."""
    corpora: dict  # name -> list of documents, each a list of sentence token-id lists
    weights: dict  # name -> sampling weight
    singles: list  # single sentences (token-id lists), sampled with weight `single_weight`
    single_weight: float
    specials: dict  # cls, sep, mask, pad ids
    vocab_size: int
    max_len: int = 128
    rng: random.Random = None
    single_pairs: float = 0.0  # share of sentence pairs with one sentence as A and one as B (what a student types)

    def __post_init__(self):
        self.rng = self.rng or random.Random(0)
        self.names = [n for n in self.corpora if self.corpora[n]]
        self.w = [self.weights[n] for n in self.names]
        if self.singles:
            self.names.append("<singles>")
            self.w.append(self.single_weight)
        if not self.names:
            raise ValueError("BertSampler has nothing to sample from")

    def pair(self):
        """(tokens_a, tokens_b or None, is_next 0/1 or -100)."""
        rng, budget = self.rng, self.max_len - 3
        name = rng.choices(self.names, self.w)[0]
        if name == "<singles>":
            return self.rng.choice(self.singles)[: self.max_len - 2], None, -100
        docs = self.corpora[name]
        doc = rng.choice(docs)
        while len(doc) < 2:
            doc = rng.choice(docs)
        if self.single_pairs and rng.random() < self.single_pairs:  # no draw at 0: the long-only stream stays as it was
            return self._single_pair(docs, doc)
        # short sequences 10% of the time, as in BERT, so that short inputs are in-distribution
        target = rng.randint(8, budget) if rng.random() < 0.1 else budget
        i = rng.randrange(len(doc) - 1)
        a_end = i + 1
        a = list(doc[i])
        while a_end < len(doc) - 1 and len(a) + len(doc[a_end]) < target // 2 and rng.random() < 0.7:
            a += doc[a_end]
            a_end += 1
        if rng.random() < 0.5:
            b, is_next = self._run(doc, a_end, target - len(a)), 0  # IsNext = 0 (HF convention)
        else:
            other = rng.choice(docs)
            while other is doc and len(docs) > 1:
                other = rng.choice(docs)
            b, is_next = self._run(other, rng.randrange(len(other)), target - len(a)), 1
        while len(a) + len(b) > budget:  # truncate the longer side, like BERT's truncate_seq_pair
            (a if len(a) > len(b) else b).pop()
        return a, b, is_next

    def _single_pair(self, docs, doc):
        """One sentence as A and, as B, the sentence after it (IsNext) or one sentence of another document
        (NotNext), each half the time: the pairs a student types, which BERT's long segments rarely are."""
        rng, budget = self.rng, self.max_len - 3
        i = rng.randrange(len(doc) - 1)
        a = list(doc[i])
        if rng.random() < 0.5:
            b, is_next = list(doc[i + 1]), 0
        else:
            other = rng.choice(docs)
            while other is doc and len(docs) > 1:
                other = rng.choice(docs)
            b, is_next = list(rng.choice(other)), 1
        while len(a) + len(b) > budget:
            (a if len(a) > len(b) else b).pop()
        return a, b, is_next

    def _run(self, doc, start, room):
        out = list(doc[start])
        j = start + 1
        while j < len(doc) and len(out) + len(doc[j]) <= max(room, 1):
            out += doc[j]
            j += 1
        return out

    def batch(self, n: int, short_len: int = 0) -> dict:
        """n examples, padded to the longest and masked. short_len > 0: split by split_batch."""
        rows, segs, nsp = [], [], []
        cls, sep = self.specials["cls"], self.specials["sep"]
        for _ in range(n):
            a, b, is_next = self.pair()
            ids, seg = [cls] + a + [sep], [0] * (len(a) + 2)
            if b is not None:
                ids, seg = ids + b + [sep], seg + [1] * (len(b) + 1)
            rows.append(ids)
            segs.append(seg)
            nsp.append(is_next)
        input_ids = pad(rows, self.specials["pad"])
        inputs, labels = mask_tokens(input_ids, self.specials, self.vocab_size, self.rng)
        out = {"input_ids": inputs, "segment_ids": pad(segs, 0), "mlm_labels": labels,
               "nsp_labels": torch.tensor(nsp, dtype=torch.long)}
        return split_batch(out, short_len, self.specials["pad"]) if short_len else out


def split_batch(batch: dict, short_len: int, pad_id: int = 0) -> dict:
    """A BERT batch's rows of at most short_len real tokens (the single sentences, mostly) as
    `short_*` tensors, the others as before, each part cropped to its own longest row, so that a
    short row no longer costs a full-length one (models.training.trainer.SplitBatch takes this). A part with
    no rows has shape (0, 1)."""
    n_real = (batch["input_ids"] != pad_id).sum(1)
    out = {}
    for prefix, rows in (("", n_real > short_len), ("short_", n_real <= short_len)):
        width = int(n_real[rows].max()) if rows.any() else 1
        out.update({prefix + k: batch[k][rows, :width] for k in ("input_ids", "segment_ids", "mlm_labels")})
        out[prefix + "nsp_labels"] = batch["nsp_labels"][rows]
    return out


def mask_tokens(input_ids: torch.Tensor, specials: dict, vocab_size: int, rng: random.Random,
                prob: float = 0.15, all_mask: bool = False):
    """BERT's masking: choose 15% of the non-special tokens; 80% -> [MASK], 10% -> random, 10% kept.

    Labels are -100 where no prediction is made. all_mask=True replaces every chosen token
    with [MASK] (the fill-mask evaluation)."""
    g = torch.Generator().manual_seed(rng.randrange(2**31))
    special = torch.zeros_like(input_ids, dtype=torch.bool)
    for k in ("pad", "unk", "cls", "sep", "mask"):
        special |= input_ids == specials[k]
    chosen = (torch.rand(input_ids.shape, generator=g) < prob) & ~special
    labels = torch.where(chosen, input_ids, torch.full_like(input_ids, -100))
    r = torch.rand(input_ids.shape, generator=g)
    to_mask = chosen & ((r < 0.8) | all_mask)
    to_random = chosen & (r >= 0.8) & (r < 0.9) & ~to_mask
    inputs = input_ids.masked_fill(to_mask, specials["mask"])
    random_ids = torch.randint(len(specials), vocab_size, input_ids.shape, generator=g)
    inputs = torch.where(to_random, random_ids, inputs)
    return inputs, labels
