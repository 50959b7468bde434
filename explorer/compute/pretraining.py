"""BERT's two pre-training objectives counted over many draws, with the training's own data code.

Devlin et al. 2018, "BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding":
* sec. 3.1, task #1 and appendix A.1 (masked LM): 15% of the tokens are chosen for prediction; of those, 80%
  become [MASK], 10% a random token and 10% stay unchanged. One sentence and a seed show a handful of chosen
  tokens; the ratios only appear over many sentences. `masking_shares` draws single sentences through
  `models.data.BertSampler.batch` (the path of the training's single sentences: [CLS] s [SEP], padded into a
  batch, then `models.data.mask_tokens`) and counts, sentence after sentence, the running shares.
* sec. 3.1, task #2 (NSP): B follows A half of the time (IsNext) and comes from another document otherwise
  (NotNext). `nsp_pairs` draws pairs with `models.data.BertSampler.pair`, the training's own construction,
  from a few short documents written here, and counts the running share of IsNext.

Both tokenise with the shipped BERT's WordPiece vocabulary (assets/bert/tokenizer.json; the model itself is not
loaded), are seeded, take a few tens of milliseconds and are kept once computed. The sentences are written here
(the corpora BERT trained on are not shipped with the app). tests/explorer/test_pretraining.py recounts both.

    m = masking_shares()       # m.sentences, m.chosen_share, m.mask_share, ...: running shares
    p = nsp_pairs()            # p.labels (0 = IsNext, 1 = NotNext), p.is_next_share, p.rows(6)
"""
from __future__ import annotations

import functools
import inspect
import random
from dataclasses import dataclass

import numpy as np
from tokenizers import Tokenizer

from explorer.compute.inference import ASSETS
from models.tokenizers import special_ids
from models.training.data import BertSampler, mask_tokens

MLM_PROB = inspect.signature(mask_tokens).parameters["prob"].default  # 0.15: what the training passes (the default)
# Among the chosen tokens: models.data.mask_tokens's thresholds (r < 0.8, 0.8 <= r < 0.9, the rest), the paper's A.1
MASK_SHARE, RANDOM_SHARE, KEEP_SHARE = 0.8, 0.1, 0.1
IS_NEXT, NOT_NEXT = 0, 1  # BertSampler's NSP labels (Hugging Face's convention: 0 = IsNext)
IS_NEXT_SHARE = 0.5  # BertSampler.pair's coin (rng.random() < 0.5 -> IsNext), the paper's 50%
BATCH = 256  # sentences per masked batch, as BertSampler.batch draws them
NSP_MAX_LEN = 40  # [CLS] A [SEP] B [SEP] in at most 40 tokens (the model's is 256), so that a pair fits a table row


def _sentences() -> list[str]:
    """360 short English sentences: every subject with every action and every time (12 x 10 x 3)."""
    subjects = ["The students", "My sister", "Our teacher", "The old man", "Two children", "The doctor",
                "A young woman", "The farmers", "His father", "The musicians", "Her friends", "The tired driver"]
    actions = ["opened their books", "walked to the station", "cooked a simple dinner", "read the long letter",
               "painted the small kitchen", "watched the heavy rain", "played music in the park",
               "wrote a story about the sea", "fixed the broken chair", "carried water up the hill"]
    times = ["in the morning.", "after the storm.", "before the lesson started."]
    return [f"{s} {a} {t}" for s in subjects for a in actions for t in times]


SENTENCES: tuple[str, ...] = tuple(_sentences())

# A few short documents, each a paragraph split into sentences: NSP's IsNext pairs come from one document, its
# NotNext pairs from two. Every sentence appears once, so a pair can be traced back (the tests do).
DOCUMENTS: tuple[tuple[str, ...], ...] = (
    ("I went to the store after work.", "I bought some milk and a loaf of bread.",
     "The cashier asked if I needed a bag.", "I said no and carried everything home.",
     "At home I made a sandwich for dinner."),
    ("The river rose quickly during the night.", "By morning the water covered the lower road.",
     "Farmers moved their cattle to higher fields.", "The bridge was closed until noon.",
     "In the evening the water finally went down."),
    ("Our school held a science fair in spring.", "Each class built a project about energy.",
     "One group made a small wind turbine.", "Another measured the sunlight on the roof.",
     "The judges gave a prize to the youngest team."),
    ("The old library stands in the middle of town.", "It was built more than a hundred years ago.",
     "Its reading room has tall windows and long tables.", "Students come there to study before exams.",
     "On weekends it is quiet and almost empty."),
    ("My grandmother grows tomatoes in her garden.", "She plants the seeds early in April.",
     "Every morning she waters them by hand.", "In August the plants are taller than she is.",
     "She gives the extra tomatoes to her neighbours."),
    ("The train to the coast leaves at nine.", "It stops at four small towns on the way.",
     "Most passengers get off at the last station.", "From there a bus goes down to the beach.",
     "The whole trip takes about three hours."),
)


@functools.lru_cache(maxsize=1)
def tokenizer() -> Tokenizer:
    """The shipped BERT's WordPiece tokenizer (only its vocabulary: no weights are read)."""
    return Tokenizer.from_file(str(ASSETS / "bert" / "tokenizer.json"))


def _encode(texts) -> list[list[int]]:
    return [e.ids for e in tokenizer().encode_batch(list(texts), add_special_tokens=False)]


@dataclass(frozen=True)
class MaskingShares:
    """Running counts of the masked-LM corruption, one entry per sentence drawn (cumulative over 1..i)."""
    seed: int
    sentences: np.ndarray  # (N,) 1..N: sentences drawn so far
    tokens: np.ndarray  # (N,) tokens that may be chosen (not [CLS], [SEP], [PAD], [UNK], [MASK])
    chosen: np.ndarray  # (N,) tokens chosen for prediction (a label other than -100)
    masked: np.ndarray  # (N,) chosen and shown as [MASK]
    random: np.ndarray  # (N,) chosen and shown as another token
    kept: np.ndarray  # (N,) chosen and shown as they were (a random draw of the same token reads as kept)

    @property
    def chosen_share(self) -> np.ndarray:  # -> MLM_PROB
        return self.chosen / self.tokens

    def _of_chosen(self, counts: np.ndarray) -> np.ndarray:
        return np.divide(counts, self.chosen, out=np.full(len(counts), np.nan), where=self.chosen > 0)

    @property
    def mask_share(self) -> np.ndarray:  # -> MASK_SHARE
        return self._of_chosen(self.masked)

    @property
    def random_share(self) -> np.ndarray:  # -> RANDOM_SHARE
        return self._of_chosen(self.random)

    @property
    def keep_share(self) -> np.ndarray:  # -> KEEP_SHARE
        return self._of_chosen(self.kept)

    def curves(self) -> dict:
        """The arrays the figure draws (explorer.figures.pretraining.masking_shares)."""
        return {"sentences": self.sentences, "chosen": self.chosen_share, "mask": self.mask_share,
                "random": self.random_share, "keep": self.keep_share,
                "targets": {"chosen": MLM_PROB, "mask": MASK_SHARE, "random": RANDOM_SHARE, "keep": KEEP_SHARE}}


def count_masking(inputs, labels, specials: dict) -> dict[str, np.ndarray]:
    """Per row of one masked batch: how many tokens could be chosen, were chosen, and became [MASK], a random
    token or stayed. Reads only mask_tokens's outputs: a chosen position's label is its original token, and an
    unchosen position is left as it was, so the tokens that could be chosen are the chosen ones plus the
    non-special ones still in the input (a random replacement is never a special token)."""
    x, y = inputs.numpy(), labels.numpy()
    chosen = y != -100
    special = np.isin(x, [specials[k] for k in ("pad", "unk", "cls", "sep", "mask")])
    masked = chosen & (x == specials["mask"])
    kept = chosen & (x == y)
    return {"tokens": (chosen | ~special).sum(1), "chosen": chosen.sum(1), "masked": masked.sum(1),
            "random": (chosen & ~masked & ~kept).sum(1), "kept": kept.sum(1)}


@functools.lru_cache(maxsize=4)
def masking_shares(draws: int = 4096, seed: int = 0) -> MaskingShares:
    """`draws` sentences of SENTENCES (with replacement, as the training draws its single sentences) masked in
    batches of BATCH by BertSampler.batch, seeded; the running counts after each sentence."""
    tok = tokenizer()
    sampler = BertSampler({}, {}, _encode(SENTENCES), 1.0, special_ids(tok), tok.get_vocab_size(),
                          rng=random.Random(seed))
    parts = []
    for start in range(0, draws, BATCH):
        b = sampler.batch(min(BATCH, draws - start))
        parts.append(count_masking(b["input_ids"], b["mlm_labels"], sampler.specials))
    run = {k: np.cumsum(np.concatenate([p[k] for p in parts])) for k in parts[0]}
    return MaskingShares(seed, np.arange(1, draws + 1), **run)


@dataclass(frozen=True)
class NspPairs:
    """NSP pairs as BertSampler.pair draws them, and the running share of IsNext."""
    seed: int
    a: list  # (N,) segment A of each pair, token ids
    b: list  # (N,) segment B, token ids
    labels: np.ndarray  # (N,) IS_NEXT or NOT_NEXT

    @property
    def draws(self) -> np.ndarray:
        return np.arange(1, len(self.labels) + 1)

    @property
    def is_next_share(self) -> np.ndarray:  # -> 0.5
        return np.cumsum(self.labels == IS_NEXT) / self.draws

    def rows(self, n: int) -> list[tuple[str, str, str]]:
        """The first n pairs as (A, B, "IsNext" or "NotNext"), read back from their tokens."""
        tok = tokenizer()
        return [(tok.decode(a), tok.decode(b), "IsNext" if y == IS_NEXT else "NotNext")
                for a, b, y in zip(self.a[:n], self.b[:n], self.labels[:n].tolist())]

    def curves(self, shown: int) -> dict:
        """What the figure draws (explorer.figures.pretraining.nsp_pairs): the first `shown` pairs and the share."""
        return {"rows": self.rows(shown), "draws": self.draws, "is_next_share": self.is_next_share,
                "target": IS_NEXT_SHARE}


@functools.lru_cache(maxsize=4)
def nsp_pairs(draws: int = 4096, seed: int = 0) -> NspPairs:
    """`draws` (A, B, label) pairs from DOCUMENTS by BertSampler.pair (the training's path, seeded): A is a run of
    sentences of one document; B the run after it (IsNext) or a run of another document (NotNext)."""
    tok = tokenizer()
    flat = _encode(s for d in DOCUMENTS for s in d)
    it = iter(flat)
    docs = [[next(it) for _ in d] for d in DOCUMENTS]
    sampler = BertSampler({"lesson": docs}, {"lesson": 1.0}, [], 0.0, special_ids(tok), tok.get_vocab_size(),
                          NSP_MAX_LEN, random.Random(seed))
    pairs = [sampler.pair() for _ in range(draws)]
    return NspPairs(seed, [p[0] for p in pairs], [p[1] for p in pairs], np.array([p[2] for p in pairs]))
