"""Language-model data for GPT: English documents, a split by document, token streams, batches of
windows, and held-out perplexity beside a Kneser-Ney trigram on the same tokens.

Corpora (all English): english-more (Wikipedia from WikiText-2's training part, Gutenberg fiction and
non-fiction, State of the Union addresses, the CIA World Factbook), WikiText-2's validation part
(held out whole, as BERT has it) and the English side of Tatoeba en-fr (each distinct sentence a
document, split as the translation models split it: `data.split_by_source`, seed and fractions
shared). Every other corpus holds out `heldout_frac` of its documents, in two disjoint halves,
valid and test (`data.split_docs`, `data.halves`).

Tokens are the shipped BERT's WordPiece (assets/bert/tokenizer.json), so GPT and BERT read the same
pieces. A document is `[CLS] text [SEP]`: [CLS] opens a text (a prompt is read after it, as BERT
reads one) and [SEP] ends it (generation stops there). Training draws windows of max_len + 1 tokens
at random offsets of one stream of all training documents (the targets are the inputs shifted by one).

Perplexity on a held-out stream: windows of max_len tokens every max_len / 2, each token scored once,
with at least max_len / 2 tokens of context after the first window. A [CLS] target (always right
after [SEP]) is not scored. Per word: the same total log-likelihood over the number of scored
words, a word being a token that does not start with "##" (BERT's pre-tokenizer splits punctuation,
so "," is a word, and [SEP] counts as the end-of-text word, as <eos> does in WikiText's word-level
perplexity).
"""
from __future__ import annotations

import math
import random
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

from models.training import data
from models.training.ngram import KneserNeyTrigram

ROOT = Path(__file__).resolve().parents[2]
TOKENIZER = ROOT / "assets" / "bert" / "tokenizer.json"  # the shipped BERT's WordPiece
DOC_CORPORA = ("wikitext2-train", "wikitext2-valid", "fiction", "nonfiction", "sotu", "factbook")
HELD_WHOLE = "wikitext2-valid"  # never trained on: held-out Wikipedia, halves for valid and test
TATOEBA = "tatoeba"
SPLIT_FRACS = (0.01, 0.015)  # Tatoeba's valid and test fractions: the translation split's (models.training.train)


def load_documents(data_dir: Path, seed: int, heldout_frac: float, required: bool = True) -> dict:
    """{"train" | "valid" | "test": {corpus: [document text, ...]}}. required=False skips missing files
    (the smoke run's fixtures hold only some)."""
    out = {"train": {}, "valid": {}, "test": {}}
    for name in DOC_CORPORA:
        rel, reader, _ = data.BERT_CORPORA[name]
        try:
            path = data.find(data_dir, rel)
        except FileNotFoundError:
            if required:
                raise
            continue
        docs = [" ".join(d) for d in reader(path) if d]
        train, held = ([], docs) if name == HELD_WHOLE else data.split_docs(docs, seed, heldout_frac)
        valid, test = data.halves(held, seed)
        for split, ds in (("train", train), ("valid", valid), ("test", test)):
            if ds:
                out[split][name] = ds
    try:
        pairs = data.read_pairs(data_dir, "en-fr")
    except FileNotFoundError:
        if required:
            raise
        pairs = []
    if pairs:
        split = data.split_by_source(pairs, seed, *SPLIT_FRACS)
        for k in ("train", "valid", "test"):
            out[k][TATOEBA] = sorted({en for en, _ in split[k]})
    return out


def files(data_dir: Path) -> dict:
    """sha256 of every corpus file that exists (for metrics.json)."""
    rels = [data.BERT_CORPORA[n][0] for n in DOC_CORPORA] + [data.TRANSLATION_FILES["en-fr"]]
    out = {}
    for rel in rels:
        try:
            out[rel] = data.file_sha256(data.find(data_dir, rel))
        except FileNotFoundError:
            pass
    return out


def encode_stream(tok, docs: list[str]) -> np.ndarray:
    """[CLS] doc [SEP] [CLS] doc [SEP] ... as int32 ids."""
    cls, sep = tok.token_to_id("[CLS]"), tok.token_to_id("[SEP]")
    parts = [np.array([cls] + e.ids + [sep], dtype=np.int32)
             for e in tok.encode_batch(docs, add_special_tokens=False)]
    return np.concatenate(parts) if parts else np.zeros(0, dtype=np.int32)


def encode_splits(tok, docs: dict) -> dict:
    """{split: {corpus: stream}}."""
    return {split: {name: encode_stream(tok, ds) for name, ds in by_corpus.items()} for split, by_corpus in docs.items()}


def training_stream(streams: dict, tatoeba_repeat: int = 1) -> np.ndarray:
    """All training streams as one; Tatoeba's short sentences `tatoeba_repeat` times (sampled more often)."""
    parts = [s for name, s in sorted(streams.items()) for _ in range(tatoeba_repeat if name == TATOEBA else 1)]
    return np.concatenate(parts)


class WindowSampler:
    """Batches {"ids", "targets"} (B, T) of random windows of a token stream kept on the device."""

    def __init__(self, stream: np.ndarray, max_len: int, batch_size: int, device: str, seed: int):
        if len(stream) <= max_len + 1:
            stream = np.tile(stream, (max_len + 2) // max(len(stream), 1) + 1)  # a tiny smoke corpus
        self.stream = torch.from_numpy(stream.astype(np.int64)).to(device)
        self.T, self.B = max_len, batch_size
        self.g = torch.Generator(device=device).manual_seed(seed)
        self.offsets = torch.arange(max_len + 1, device=device)  # (T + 1,)

    def __iter__(self):
        return self

    def __next__(self) -> dict:
        start = torch.randint(0, len(self.stream) - self.T - 1, (self.B, 1), generator=self.g,
                              device=self.stream.device)
        w = self.stream[start + self.offsets]  # (B, T + 1)
        return {"ids": w[:, :-1], "targets": w[:, 1:]}


def windows(n: int, max_len: int) -> list[tuple[int, int]]:
    """(start, first scored offset) of the windows that score every target 1 .. n-1 of a stream of n tokens
    once: windows of max_len inputs every max_len // 2 tokens, the last one ending at the stream's end."""
    stride, out, covered = max(1, max_len // 2), [], 0  # targets 1 .. covered are scored
    start = 0
    while covered < n - 1:
        start = min(start, max(0, n - 1 - max_len))
        end = min(start + max_len, n - 1)  # last target position of this window
        out.append((start, covered - start))  # scores targets covered+1 .. end: offsets covered-start ..
        covered = end
        start += stride
    return out


@torch.inference_mode()
def token_nll(model, stream: np.ndarray, max_len: int, device="cpu", batch_size: int = 64,
              max_windows: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(negative log-likelihood in nats, target id) of every scored target of a stream (float64, int64).
    max_windows: read only the first so many windows (validation during training)."""
    model.eval()
    wins = windows(len(stream), max_len)[:max_windows]
    s = torch.from_numpy(stream.astype(np.int64))
    nll, tgt = [], []
    for i in range(0, len(wins), batch_size):
        chunk = wins[i:i + batch_size]
        n = min(max_len, len(stream) - 1)
        ids = torch.stack([s[a:a + n] for a, _ in chunk]).to(device)  # (b, n)
        targets = torch.stack([s[a + 1:a + 1 + n] for a, _ in chunk])  # (b, n)
        logits = model(ids).logits.float()  # (b, n, V)
        lp = -F.cross_entropy(logits.flatten(0, 1), targets.flatten().to(device), reduction="none").view(len(chunk), n)
        lp = lp.double().cpu()
        for row, (_, first) in enumerate(chunk):
            nll.append(-lp[row, first:].numpy())
            tgt.append(targets[row, first:].numpy())
    if not nll:
        return np.zeros(0), np.zeros(0, dtype=np.int64)
    return np.concatenate(nll), np.concatenate(tgt)


def word_starts(tok) -> np.ndarray:
    """(V,) bool: the tokens that start a word (not "##" pieces; [CLS] is not a word, [SEP] ends one)."""
    V = tok.get_vocab_size()
    out = np.array([not (tok.id_to_token(i) or "").startswith("##") for i in range(V)])
    out[tok.token_to_id("[CLS]")] = False
    return out


def trigram_nll(kn: KneserNeyTrigram, stream: np.ndarray, sep: int) -> tuple[np.ndarray, np.ndarray]:
    """The trigram's (nll, target) for targets 1 .. n-1 of a stream (the token before the first is [SEP])."""
    s = np.concatenate([[sep], stream.astype(np.int64)])
    u, v, w = s[:-2], s[1:-1], s[2:]
    return -np.log(kn.prob(u, v, w)), w


def perplexities(nll: np.ndarray, tgt: np.ndarray, cls: int, starts: np.ndarray) -> dict:
    keep = tgt != cls
    total, n_tok, n_word = float(nll[keep].sum()), int(keep.sum()), int(starts[tgt[keep]].sum())
    return {"ppl_token": round(math.exp(total / max(n_tok, 1)), 3), "ppl_word": round(math.exp(total / max(n_word, 1)), 3),
            "nll_token": round(total / max(n_tok, 1), 5), "tokens": n_tok, "words": n_word}


def heldout_eval(model, tok, streams: dict, max_len: int, device="cpu", kn: KneserNeyTrigram | None = None,
                 max_windows: int | None = None, batch_size: int = 64) -> dict:
    """Perplexity per token and per word of every held-out corpus and of all of them pooled, with the
    trigram's on the same scored targets when `kn` is given."""
    cls, sep = tok.token_to_id("[CLS]"), tok.token_to_id("[SEP]")
    starts = word_starts(tok)
    rows, pooled, pooled_kn = {}, [], []
    for name, stream in sorted(streams.items()):
        if len(stream) < 2:
            continue
        nll, tgt = token_nll(model, stream, max_len, device, batch_size, max_windows)
        rows[name] = {"gpt": perplexities(nll, tgt, cls, starts)}
        pooled.append((nll, tgt))
        if kn is not None:
            knll, ktgt = trigram_nll(kn, stream, sep)
            knll, ktgt = knll[: len(nll)], ktgt[: len(nll)]  # the same targets (all of them unless max_windows)
            rows[name]["trigram_kn"] = perplexities(knll, ktgt, cls, starts)
            pooled_kn.append((knll, ktgt))
    out = {"gpt": perplexities(np.concatenate([a for a, _ in pooled]), np.concatenate([b for _, b in pooled]),
                               cls, starts)}
    if kn is not None:
        out["trigram_kn"] = perplexities(np.concatenate([a for a, _ in pooled_kn]),
                                         np.concatenate([b for _, b in pooled_kn]), cls, starts)
    out["by_corpus"] = rows
    # flat copies of the pooled figures, for `models.training.evaluate`'s comparison with metrics.json
    out.update(ppl_token=out["gpt"]["ppl_token"], ppl_word=out["gpt"]["ppl_word"])
    if kn is not None:
        out.update(trigram_ppl_token=out["trigram_kn"]["ppl_token"], trigram_ppl_word=out["trigram_kn"]["ppl_word"])
    return out


def checkpoint_eval(ckpt, data_dir: Path, split: str = "test", device="cpu", max_windows: int | None = None,
                    batch_size: int = 32) -> dict:
    """A GPT checkpoint's held-out perplexity and the trigram's, on the split recreated from its metrics.json."""
    meta = ckpt.metrics["data"]
    docs = load_documents(data_dir, meta["split_seed"], meta["heldout_frac"], meta.get("required", True))
    streams = encode_splits(ckpt.tokenizer, docs)
    kn = KneserNeyTrigram(training_stream(streams["train"]), ckpt.tokenizer.get_vocab_size())
    return {"split": split, **heldout_eval(ckpt.model.to(device), ckpt.tokenizer, streams[split],
                                           ckpt.config.max_len, device, kn=kn, max_windows=max_windows,
                                           batch_size=batch_size), "device": device}
