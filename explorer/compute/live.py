"""Train it yourself, live: a tiny attentional encoder-decoder learns a toy English->French
grammar on the CPU while the alignment on one probe sentence sharpens on screen.

The model is `models.seq2seq.Seq2Seq` (Luong et al. 2015 / Bahdanau et al. 2015 score
functions, chosen by name) with 64-wide embeddings and states. The data are
`assets/live_pairs.tsv`, sentences of a small grammar (below) in which colour adjectives
follow the noun in French ("the red car" -> "la voiture rouge") and negation wraps the verb
("does not see" -> "ne voit pas"), so a correct alignment is visibly NOT the diagonal.

`train_live(...)` validates its arguments and returns a generator of `LiveProgress`
records, one about every second. The model, optimizer and random generators live inside
that generator; nothing shared is touched (not even the global torch RNG; only the calling
thread's torch thread count, set to 1 during each chunk of work and restored), so many
visitors can train at once. The generator stops by itself at the time limit (at most
MAX_SECONDS), and stops at once when its consumer stops iterating: between two records it
does not run at all, and `close()` (what a web session does when it ends) finishes it.

    python -m explorer.compute.live --seconds 20 --attention additive   # watch it in a terminal
    python -m explorer.compute.live --write-pairs                        # regenerate the TSV
"""
from __future__ import annotations

import argparse
import math
import random
import re
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

import numpy as np
import torch
import torch.nn as nn
from tokenizers import Tokenizer, models, pre_tokenizers, trainers

from explorer.compute.inference import ASSETS, UserError, clean_text
from models.attention import SCORE_FUNCTIONS
from models.checkpoint import NoRandomInit
from models.decoding import greedy
from models.seq2seq import Seq2Seq, Seq2SeqConfig
from models.tokenizers import TRANSLATION_SPECIALS, special_ids
from models.training.data import pad

PAIRS_FILE = ASSETS / "live_pairs.tsv"
MAX_SECONDS = 120  # hard cap on one live training run
MAX_PROBE_WORDS = 20
DEFAULT_PROBE = "the black dog does not see the red car"  # kept out of the training pairs

# ----------------------------------------------------------------------------- the grammar
#
#   S  -> NP VERB NP | NP "does not" VERB_BASE NP        (French: NP ne VERB pas NP)
#   NP -> "the" NOUN | "the" ADJ NOUN                    (French: le/la [ADJ] NOUN [ADJ])
#
# Nouns carry their French gender (article and adjective agreement) and a kind that picks
# which adjectives and verbs fit. Size/age adjectives precede the noun in French as in
# English; colours follow it. Every French word starts with a consonant so that no
# elision (l', n') blurs the one-word-to-one-word alignment.

NOUNS = {  # English -> (French, gender, kind)
    "cat": ("chat", "m", "animal"), "dog": ("chien", "m", "animal"), "horse": ("cheval", "m", "animal"),
    "girl": ("fille", "f", "person"), "boy": ("garçon", "m", "person"), "woman": ("femme", "f", "person"),
    "car": ("voiture", "f", "thing"), "book": ("livre", "m", "thing"), "house": ("maison", "f", "thing"),
    "ball": ("balle", "f", "thing"), "hat": ("chapeau", "m", "thing"),
    "apple": ("pomme", "f", "food"), "cake": ("gâteau", "m", "food"),
}
ADJECTIVES = {  # English -> (French masculine, feminine, goes before the noun in French)
    "small": ("petit", "petite", True), "big": ("grand", "grande", True), "young": ("jeune", "jeune", True),
    "red": ("rouge", "rouge", False), "black": ("noir", "noire", False), "white": ("blanc", "blanche", False),
    "green": ("vert", "verte", False),
}
ADJECTIVES_FOR = {  # noun kind -> adjectives that make sense with it
    "animal": ("small", "big", "young", "black", "white"), "person": ("small", "big", "young"),
    "thing": ("small", "big", "red", "black", "white", "green"), "food": ("small", "big", "red", "green"),
}
VERBS = {  # English 3rd person -> (base form after "does not", French 3rd person, object kinds)
    "sees": ("see", "voit", ("thing", "food", "animal")), "wants": ("want", "veut", ("thing", "food")),
    "finds": ("find", "trouve", ("thing", "food")), "watches": ("watch", "regarde", ("thing", "animal")),
    "buys": ("buy", "achète", ("thing", "food")), "eats": ("eat", "mange", ("food",)),
}
SUBJECT_KINDS = ("animal", "person")


def _noun_phrase(noun: str, adj: str | None) -> tuple[str, str]:
    fr, gender, _ = NOUNS[noun]
    article = "le" if gender == "m" else "la"
    if adj is None:
        return f"the {noun}", f"{article} {fr}"
    masc, fem, before = ADJECTIVES[adj]
    a = masc if gender == "m" else fem
    return f"the {adj} {noun}", f"{article} {a} {fr}" if before else f"{article} {fr} {a}"


def _random_sentence(rng: random.Random) -> tuple[str, str]:
    def np_of(kinds):
        noun = rng.choice([n for n, (_, _, k) in NOUNS.items() if k in kinds])
        adj = rng.choice(ADJECTIVES_FOR[NOUNS[noun][2]]) if rng.random() < 0.6 else None
        return _noun_phrase(noun, adj)

    verb = rng.choice(list(VERBS))
    base, fr_verb, objects = VERBS[verb]
    (se, sf), (oe, of) = np_of(SUBJECT_KINDS), np_of(objects)
    if rng.random() < 0.25:
        return f"{se} does not {base} {oe}", f"{sf} ne {fr_verb} pas {of}"
    return f"{se} {verb} {oe}", f"{sf} {fr_verb} {of}"


def grammar_pairs(n: int = 500, seed: int = 0, exclude=(DEFAULT_PROBE,)) -> list[tuple[str, str]]:
    """n distinct (English, French) sentences of the grammar, in a seeded order."""
    rng, seen, out = random.Random(seed), set(exclude), []
    while len(out) < n:
        en, fr = _random_sentence(rng)
        if en not in seen:
            seen.add(en)
            out.append((en, fr))
    return out


def grammar_translate(english: str) -> str | None:
    """The grammar's French for an English sentence of the grammar, else None."""
    words = english.split()

    def noun_phrase(i):  # -> (French, next index) or None
        if i + 1 < len(words) and words[i] == "the" and words[i + 1] in NOUNS:
            return _noun_phrase(words[i + 1], None)[1], i + 2
        if (i + 2 < len(words) and words[i] == "the" and words[i + 1] in ADJECTIVES
                and words[i + 2] in NOUNS):
            return _noun_phrase(words[i + 2], words[i + 1])[1], i + 3
        return None

    subject = noun_phrase(0)
    if subject is None:
        return None
    sf, i = subject
    base_forms = {base: fr for base, fr, _ in VERBS.values()}
    if words[i: i + 2] == ["does", "not"] and i + 2 < len(words) and words[i + 2] in base_forms:
        verb_fr, i = f"ne {base_forms[words[i + 2]]} pas", i + 3
    elif i < len(words) and words[i] in VERBS:
        verb_fr, i = VERBS[words[i]][1], i + 1
    else:
        return None
    obj = noun_phrase(i)
    if obj is None or obj[1] != len(words):
        return None
    return f"{sf} {verb_fr} {obj[0]}"


def write_pairs(path: Path = PAIRS_FILE, n: int = 500, seed: int = 0) -> Path:
    header = ("# English<TAB>French, generated by `python -m explorer.compute.live --write-pairs` from the toy\n"
              f"# grammar in explorer/compute/live.py (grammar_pairs(n={n}, seed={seed})); the probe "
              f"'{DEFAULT_PROBE}' is left out.\n")
    Path(path).write_text(header + "".join(f"{en}\t{fr}\n" for en, fr in grammar_pairs(n, seed)), encoding="utf-8")
    return Path(path)


def read_pairs(path: Path = PAIRS_FILE) -> list[tuple[str, str]]:
    pairs = []
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or not line.strip():
            continue
        en, fr = line.split("\t")
        pairs.append((en, fr))
    return pairs


def word_tokenizer(pairs: list[tuple[str, str]]) -> Tokenizer:
    """One word-level vocabulary for both languages: one token per word keeps alignments readable."""
    tok = Tokenizer(models.WordLevel(unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    tok.train_from_iterator((s for p in pairs for s in p),
                            trainers.WordLevelTrainer(special_tokens=TRANSLATION_SPECIALS, show_progress=False))
    return tok


# ----------------------------------------------------------------------------- training


@dataclass(frozen=True)
class LiveProgress:
    step: int  # optimizer steps taken so far
    elapsed: float  # seconds since training started
    loss_steps: tuple[int, ...]  # the step at the end of each logged interval
    losses: tuple[float, ...]  # mean training cross-entropy (nats/token) over each interval
    source_tokens: tuple[str, ...]  # probe tokens x1..xn </s>: columns of `alignment`
    # the reference y1..ym </s> (or, for a probe outside the grammar, the model's greedy output y1..ym </s>, whose
    # last row reads "…" where decoding hit its cap without </s>): row t is the attention while producing it
    target_tokens: tuple[str, ...]
    decoder_input_tokens: tuple[str, ...]  # <s> y1..ym: the decoder's input at each row
    alignment: np.ndarray  # (T, S) cross attention on the probe, teacher-forced on the reference
    translation: str  # the current model's greedy translation of the probe
    done: bool  # True on the last record (the time limit was reached)


def _init_weights(model: nn.Module, gen: torch.Generator) -> None:
    """PyTorch's default initialisation, drawn from a private generator (the global RNG is shared)."""
    with torch.no_grad():
        for m in model.modules():
            if isinstance(m, nn.Embedding):
                nn.init.normal_(m.weight, 0.0, 1.0, generator=gen)
                if m.padding_idx is not None:
                    m.weight[m.padding_idx].zero_()
            elif isinstance(m, nn.Linear):
                bound = 1 / math.sqrt(m.in_features)
                for p in m.parameters():
                    nn.init.uniform_(p, -bound, bound, generator=gen)
            elif isinstance(m, nn.LSTM):
                bound = 1 / math.sqrt(m.hidden_size)
                for p in m.parameters():
                    nn.init.uniform_(p, -bound, bound, generator=gen)


def _clean_probe(probe, english_words: set[str]) -> str:
    text, _ = clean_text(probe, "probe sentence")  # control characters, surrogates, length
    words = re.sub(r"[^\w\s]", " ", text.lower()).split()
    if not words:
        raise UserError("The probe sentence has no words.", "probe_no_words")
    if len(words) > MAX_PROBE_WORDS:
        raise UserError(f"The probe may have at most {MAX_PROBE_WORDS} words (got {len(words)}).", "probe_too_long",
                        most=MAX_PROBE_WORDS, value=len(words))
    unknown = sorted({w[:30] for w in words if w not in english_words})
    if unknown:
        raise UserError(f"The toy model only knows the words of its grammar; unknown: {', '.join(unknown)}. "
                        f"Known: {', '.join(sorted(english_words))}.", "probe_unknown_words",
                        unknown=", ".join(unknown), known=", ".join(sorted(english_words)))
    return " ".join(words)


def train_live(seconds: float = 20, attention: str = "general", probe: str = DEFAULT_PROBE, *,
               seed: int = 0, every: float = 1.0, d_emb: int = 64, d_hidden: int = 64, batch_size: int = 32,
               lr: float = 3e-3, pairs: list[tuple[str, str]] | None = None) -> Iterator[LiveProgress]:
    """Check the arguments (UserError on bad ones), then return the training generator.

    `probe` must use the grammar's English words; when it is a sentence of the grammar its
    French is the reference the alignment is teacher-forced on, otherwise the alignment is
    that of the model's own greedy translation.
    """
    try:
        seconds = float(seconds)
    except (TypeError, ValueError):
        raise UserError(f"Training time must be a number of seconds between 1 and {MAX_SECONDS}.", "seconds_not_number",
                        most=MAX_SECONDS) from None
    if not 1 <= seconds <= MAX_SECONDS:
        raise UserError(f"Training time must be between 1 and {MAX_SECONDS} seconds (got {seconds:g}).", "seconds_range",
                        most=MAX_SECONDS, value=f"{seconds:g}")
    if attention not in SCORE_FUNCTIONS:
        raise UserError(f"Unknown score function '{str(attention)[:40]}'. "
                        f"Choose one of: {', '.join(SCORE_FUNCTIONS)}.", "unknown_score",
                        name=str(attention)[:40], known=", ".join(SCORE_FUNCTIONS))
    pairs = read_pairs() if pairs is None else list(pairs)
    probe = _clean_probe(probe, {w for en, _ in pairs for w in en.split()})
    return _train(seconds, attention, probe, grammar_translate(probe), seed, every, d_emb, d_hidden,
                  batch_size, lr, pairs)


@contextmanager
def _one_thread():
    """Run a block of work with one intra-op thread, then restore the previous count.

    The model is so small that a second thread buys nothing, while on a busy 2-core machine
    OpenMP threads waiting for each other made training ~90x slower in our measurements
    (3 steps instead of 263 in 20 s). With the OpenMP backend the count is per OS thread:
    other threads of the app keep theirs, though one that first runs torch during the block
    starts with one thread. The block never spans a `yield`, since the consumer may resume
    the generator on another thread.
    """
    previous = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(previous)


class _Run:
    """The model, optimizer and data of one live run; private to one generator."""

    def __init__(self, attention, probe, reference, seed, d_emb, d_hidden, batch_size, lr, pairs):
        self.tok = tok = word_tokenizer(pairs)
        self.sp = sp = special_ids(tok)
        self.encoded = [(tok.encode(en).ids + [sp["eos"]], tok.encode(fr).ids) for en, fr in pairs]  # src = x </s>
        V = tok.get_vocab_size()
        config = Seq2SeqConfig(src_vocab_size=V, tgt_vocab_size=V, d_emb=d_emb, d_hidden=d_hidden,
                               attention=attention, bidirectional=True, dropout=0.0, pad_id=sp["pad"])
        # built without drawing from the global RNG, then initialised privately (not on the meta device: there
        # nn.init and to_empty import torch._dynamo, ~1 s and ~40 MiB, as the first optimizer does)
        with NoRandomInit():
            self.model = Seq2Seq(config)
        _init_weights(self.model, torch.Generator().manual_seed(seed))
        # made at the first step: a process's first optimizer imports torch._dynamo (~1 s, ~40 MiB), which the
        # untrained first record (the tab's first screen) does not need
        self.opt, self.lr = None, lr
        self.rng, self.batch_size = random.Random(seed), batch_size
        self.src = torch.tensor([tok.encode(probe).ids + [sp["eos"]]])  # (1, S)
        self.ref_ids = tok.encode(reference).ids if reference is not None else None
        self.step, self.loss_steps, self.losses = 0, [], []

    def train_until(self, deadline: float) -> None:
        """Optimizer steps until time.monotonic() passes deadline; logs their mean loss."""
        sp, interval = self.sp, []
        if self.opt is None:
            self.opt = torch.optim.Adam(self.model.parameters(), lr=self.lr)
        self.model.train()
        while time.monotonic() < deadline:
            rows = [self.encoded[self.rng.randrange(len(self.encoded))] for _ in range(self.batch_size)]
            # Teacher forcing (tgt_in = <s> y, tgt_out = y </s>), padded to the longest row only:
            # the decoder runs one step per column, so every padded column costs time.
            src = pad([s for s, _ in rows], sp["pad"])  # (B, S)
            tgt_in = pad([[sp["bos"]] + t for _, t in rows], sp["pad"])  # (B, T)
            tgt_out = pad([t + [sp["eos"]] for _, t in rows], sp["pad"])  # (B, T)
            loss = self.model(src, tgt_in, tgt_out).loss
            self.opt.zero_grad(set_to_none=True)
            loss.backward()
            nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)
            self.opt.step()
            self.step += 1
            interval.append(loss.item())
        if interval:
            self.loss_steps.append(self.step)
            self.losses.append(round(sum(interval) / len(interval), 4))

    @torch.inference_mode()
    def progress(self, elapsed: float, done: bool) -> LiveProgress:
        tok, sp, src = self.tok, self.sp, self.src
        self.model.eval()
        cap = 2 * src.size(1) + 5
        out_ids = greedy(self.model, src, sp["bos"], sp["eos"], max_len=cap)[0]
        tgt_in = torch.tensor([[sp["bos"]] + (self.ref_ids if self.ref_ids is not None else out_ids)])  # (1, T)
        cross = self.model(src, tgt_in, need_weights=True).trace.cross[0, 0, 0]  # (T, S)
        dec_in = tuple(tok.id_to_token(i) for i in tgt_in[0].tolist())
        # the last row produces </s>, unless greedy decoding hit the cap first (an untrained model
        # does): then that row's output was never decoded, and it reads "…" as in inference.translate
        finished = self.ref_ids is not None or len(out_ids) < cap
        return LiveProgress(self.step, round(elapsed, 2), tuple(self.loss_steps), tuple(self.losses),
                            tuple(tok.id_to_token(i) for i in src[0].tolist()),
                            dec_in[1:] + ("</s>" if finished else "…",), dec_in,
                            cross.numpy().copy(), tok.decode(out_ids), done)


def _train(seconds, attention, probe, reference, seed, every, d_emb, d_hidden, batch_size, lr,
           pairs) -> Iterator[LiveProgress]:
    with _one_thread():
        run = _Run(attention, probe, reference, seed, d_emb, d_hidden, batch_size, lr, pairs)
        t0 = time.monotonic()  # the clock counts training, not building the model
        record = run.progress(time.monotonic() - t0, done=False)  # untrained: attention near uniform
    yield record
    done = False
    while not done:
        with _one_thread():
            run.train_until(min(time.monotonic() + every, t0 + seconds))
            done = time.monotonic() - t0 >= seconds
            record = run.progress(time.monotonic() - t0, done)
        yield record  # nothing runs while suspended; close() ends the run here


def main(argv=None):
    ap = argparse.ArgumentParser(description="Train the toy seq2seq live and print its progress.")
    ap.add_argument("--seconds", type=float, default=20)
    ap.add_argument("--attention", default="general", choices=SCORE_FUNCTIONS)
    ap.add_argument("--probe", default=DEFAULT_PROBE)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--write-pairs", action="store_true", help=f"regenerate {PAIRS_FILE.name} and exit")
    args = ap.parse_args(argv)
    if args.write_pairs:
        print(f"wrote {write_pairs()}")
        return
    for p in train_live(args.seconds, args.attention, args.probe, seed=args.seed):
        loss = f"{p.losses[-1]:.3f}" if p.losses else "-"
        print(f"{p.elapsed:6.1f}s step {p.step:5d} loss {loss}  ->  {p.translation}")
    print("alignment (rows: " + " ".join(p.target_tokens) + ")")
    print("         " + " ".join(f"{t[:6]:>6}" for t in p.source_tokens))
    for t, row in zip(p.target_tokens, p.alignment):
        print(f"{t[:8]:>8} " + " ".join(f"{x:6.2f}" for x in row))


if __name__ == "__main__":
    main()
