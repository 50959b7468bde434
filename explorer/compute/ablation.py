"""Head ablation: switch attention heads off and see what the model predicts without them (Michel, Levy & Neubig
2019, "Are Sixteen Heads Really Better than One?", section 3; Voita et al. 2019, "Analyzing Multi-Head
Self-Attention"). A head is switched off by zeroing its output, its slice of the concatenated heads, before W^O
(models.attention.MultiHeadAttention's `head_mask`); it still attends, it only adds nothing.

* `fill_mask_ablated` / `translate_ablated`: one sentence before and after, as plain records (BERT's top-k for
  each [MASK]; the Transformer's greedy translation, with the probability of each version under both models).
* `bert_importance` / `transformer_importance`: Michel et al.'s table, each head removed alone, on the fixed
  sentences below: BERT's mean log-probability (and top-1 accuracy) of the true word at a [MASK] over CLOZE, the
  Transformer's mean log-probability per reference token, teacher-forced, over EN_FR. Then `pruning_curve`: the
  heads removed together, least important first (their figure 3).

Heads are named 0-based here: (layer, head) for BERT, (kind, layer, head) for the Transformer, kind one of
KINDS (the Trace's field names). `python -m scripts.ablation_table` writes docs/head-ablation.md and .json.
Figures: explorer/figures/ablation.py.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

import numpy as np
import torch
import torch.nn.functional as F

from explorer.compute.inference import (Registry, UserError, _bert_ids, _pieces, check_int, encode_source, masked_texts,
                                registry)
from models.decoding import greedy
from models.tokenizers import special_ids
from models.transformer import HeadMask

BERT = "bert"
TRANSLATOR = "transformer-en-fr"
KINDS = ("enc_self", "dec_self", "cross")
PRUNE_FRACTIONS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)

# One word masked per sentence; the answer is one WordPiece of the shipped BERT's vocabulary (a test checks it).
# Short, everyday sentences whose blank a reader fills at once, in the register of the Tatoeba sentences the
# model read: what the heads buy is then the model's, not the puzzle's.
CLOZE = (
    ("the cat is sleeping on the [MASK].", "bed"), ("i drink a cup of [MASK] every morning.", "coffee"),
    ("paris is the capital of [MASK].", "france"), ("she opened the [MASK] and went outside.", "door"),
    ("we eat breakfast in the [MASK].", "morning"), ("he wrote a [MASK] to his mother.", "letter"),
    ("the sun rises in the [MASK].", "east"), ("my brother is older than [MASK].", "me"),
    ("it is very cold in [MASK].", "winter"), ("i have two [MASK] and a sister.", "brothers"),
    ("the children are playing in the [MASK].", "park"), ("tom is reading a [MASK].", "book"),
    ("she can speak three [MASK].", "languages"), ("please close the [MASK].", "window"),
    ("i go to [MASK] by bus.", "school"), ("the water is too [MASK] to drink.", "hot"),
    ("he is the best [MASK] in the team.", "player"), ("i don't know what to [MASK].", "do"),
    ("we went to the [MASK] to buy some bread.", "store"), ("the dog is barking at the [MASK].", "door"),
    ("she has long black [MASK].", "hair"), ("the train leaves at six [MASK].", "o"),
    ("it's raining, so take an [MASK].", "umbrella"), ("there are seven days in a [MASK].", "week"),
    ("there are twelve months in a [MASK].", "year"), ("i was born in [MASK].", "boston"),
    ("the doctor told me to stay in [MASK].", "bed"), ("what time is [MASK]?", "it"),
    ("i'm very [MASK] to meet you.", "glad"), ("thank you very [MASK].", "much"),
    ("he lives in a small [MASK] near the sea.", "house"), ("tom and mary are [MASK] married.", "getting"),
    ("can you help me, [MASK]?", "please"), ("i have a lot of [MASK] to do today.", "work"),
    ("she looked out of the [MASK].", "window"), ("the baby is [MASK] in her room.", "sleeping"),
    ("he drank a glass of [MASK].", "water"), ("the book is on the [MASK].", "table"),
    ("i want to be a [MASK] when i grow up.", "doctor"), ("we need to talk about the [MASK].", "problem"),
    ("the sky is [MASK] today.", "blue"), ("snow is [MASK].", "white"),
    ("i listen to [MASK] every day.", "music"), ("she is playing the [MASK].", "piano"),
    ("he has been waiting for an [MASK].", "hour"), ("tom is taller than his [MASK].", "father"),
    ("do you speak [MASK]?", "french"), ("i'll be back in five [MASK].", "minutes"),
    ("mary is cooking dinner in the [MASK].", "kitchen"), ("turn off the [MASK] before you leave.", "lights"),
    ("i forgot my [MASK] at home.", "keys"), ("she bought a new [MASK] to wear.", "dress"),
    ("the car stopped at the red [MASK].", "light"), ("he washed his [MASK] before dinner.", "hands"),
    ("we watched a [MASK] at the cinema.", "movie"), ("my favorite color is [MASK].", "blue"),
    ("the birds are singing in the [MASK].", "trees"), ("i brush my [MASK] twice a day.", "teeth"),
    ("he fell asleep on the [MASK].", "couch"), ("they live on the third [MASK].", "floor"),
    ("i have a [MASK] in my head.", "headache"), ("he is afraid of the [MASK].", "dark"),
    ("the king and the [MASK] lived in a castle.", "queen"), ("she sent me a [MASK] yesterday.", "message"),
    ("i will call you [MASK].", "tomorrow"), ("tom went to bed [MASK].", "early"),
    ("the [MASK] is shining.", "sun"), ("fish live in the [MASK].", "water"),
    ("i need a [MASK] to cut the paper.", "knife"), ("we took a lot of [MASK] on our trip.", "pictures"),
    ("he plays [MASK] every weekend.", "tennis"), ("she wears [MASK] to read.", "glasses"),
    ("the [MASK] is full of stars tonight.", "sky"), ("they got married last [MASK].", "year"),
    ("i am hungry, let's [MASK] something.", "eat"), ("my mother is a [MASK] at a hospital.", "nurse"),
    ("put the cake in the [MASK].", "oven"), ("he is looking for a [MASK].", "job"),
    ("tom can't [MASK] french.", "speak"), ("we should [MASK] the police.", "call"),
    ("i don't have enough [MASK] to buy it.", "money"), ("the meeting was [MASK] until next week.", "postponed"),
    ("she is the [MASK] of three children.", "mother"), ("the river flows into the [MASK].", "sea"),
    ("he climbed to the top of the [MASK].", "mountain"), ("it's too dark to [MASK] anything.", "see"),
    ("the museum is closed on [MASK].", "sundays"), ("she smiled and said [MASK].", "nothing"),
    ("i have known him for ten [MASK].", "years"), ("what are you [MASK] here?", "doing"),
    ("the shop opens at nine in the [MASK].", "morning"), ("where is the nearest train [MASK]?", "station"),
    ("i'd like a [MASK] for two, please.", "table"), ("let's meet in front of the [MASK].", "station"),
    ("the [MASK] barked all night.", "dog"), ("he put on his coat and [MASK].", "hat"),
    ("she can't find her [MASK].", "keys"), ("how [MASK] are you?", "old"),
    ("i'm sorry i'm [MASK].", "late"), ("tom is [MASK] than mary.", "taller"),
)

# Short English-French pairs, each French a plain translation of its English (teacher-forced, so the metric is
# the log-probability the model gives this reference, not whether it would have chosen it).
EN_FR = (
    ("I am a student.", "Je suis étudiant."), ("I like apples.", "J'aime les pommes."),
    ("The cat is black.", "Le chat est noir."), ("Where is the station?", "Où est la gare ?"),
    ("I don't know.", "Je ne sais pas."), ("She is my sister.", "C'est ma sœur."),
    ("We are hungry.", "Nous avons faim."), ("It is cold today.", "Il fait froid aujourd'hui."),
    ("He reads a book.", "Il lit un livre."), ("Thank you very much.", "Merci beaucoup."),
    ("I have two brothers.", "J'ai deux frères."), ("The door is open.", "La porte est ouverte."),
    ("Tom is tired.", "Tom est fatigué."), ("Where are you?", "Où es-tu ?"),
    ("I love you.", "Je t'aime."), ("This is my house.", "C'est ma maison."),
    ("The water is cold.", "L'eau est froide."), ("I want to sleep.", "Je veux dormir."),
    ("She speaks French.", "Elle parle français."), ("We live in Paris.", "Nous habitons à Paris."),
    ("The dog is sleeping.", "Le chien dort."), ("I need help.", "J'ai besoin d'aide."),
    ("He is a doctor.", "Il est médecin."), ("What time is it?", "Quelle heure est-il ?"),
    ("I am happy.", "Je suis heureux."), ("Close the window.", "Ferme la fenêtre."),
    ("The book is on the table.", "Le livre est sur la table."), ("I drink coffee.", "Je bois du café."),
    ("We are friends.", "Nous sommes amis."), ("It's raining.", "Il pleut."),
    ("I am going home.", "Je rentre à la maison."), ("The car is red.", "La voiture est rouge."),
    ("She has a dog.", "Elle a un chien."), ("I don't like milk.", "Je n'aime pas le lait."),
    ("Tom is my friend.", "Tom est mon ami."), ("I lost my keys.", "J'ai perdu mes clés."),
    ("Come with me.", "Viens avec moi."), ("The children are playing.", "Les enfants jouent."),
    ("I am not afraid.", "Je n'ai pas peur."), ("He is very tall.", "Il est très grand."),
    ("Do you speak English?", "Parlez-vous anglais ?"), ("I have a question.", "J'ai une question."),
    ("The sky is blue.", "Le ciel est bleu."), ("My mother is a teacher.", "Ma mère est professeur."),
    ("I eat bread.", "Je mange du pain."), ("We have time.", "Nous avons le temps."),
    ("She is reading.", "Elle lit."), ("I know him.", "Je le connais."),
    ("The shop is closed.", "Le magasin est fermé."), ("I am cold.", "J'ai froid."),
    ("He works here.", "Il travaille ici."), ("I like music.", "J'aime la musique."),
    ("The food is good.", "La nourriture est bonne."), ("It is late.", "Il est tard."),
    ("I want a new car.", "Je veux une nouvelle voiture."), ("Where is my bag?", "Où est mon sac ?"),
    ("She is sick.", "Elle est malade."), ("We are late.", "Nous sommes en retard."),
    ("I see a bird.", "Je vois un oiseau."), ("The room is small.", "La chambre est petite."),
    ("He has a big house.", "Il a une grande maison."), ("I am learning French.", "J'apprends le français."),
    ("Tom likes cats.", "Tom aime les chats."), ("Open the door.", "Ouvre la porte."),
    ("I have no money.", "Je n'ai pas d'argent."), ("The sun is shining.", "Le soleil brille."),
    ("My father is old.", "Mon père est vieux."), ("I'm sorry.", "Je suis désolé."),
    ("She is beautiful.", "Elle est belle."), ("We went to the beach.", "Nous sommes allés à la plage."),
    ("He is my brother.", "C'est mon frère."), ("I live here.", "J'habite ici."),
    ("The train is late.", "Le train est en retard."), ("I like to swim.", "J'aime nager."),
    ("This is a good idea.", "C'est une bonne idée."), ("I am busy.", "Je suis occupé."),
    ("The girl is singing.", "La fille chante."), ("He drinks water.", "Il boit de l'eau."),
    ("I forgot.", "J'ai oublié."), ("Tom is at home.", "Tom est à la maison."),
    ("The weather is nice.", "Il fait beau."), ("I can swim.", "Je sais nager."),
    ("She was born in France.", "Elle est née en France."), ("We need water.", "Nous avons besoin d'eau."),
    ("I have a cat.", "J'ai un chat."), ("He is sleeping.", "Il dort."),
    ("The movie was long.", "Le film était long."), ("I am thirsty.", "J'ai soif."),
    ("Give me the book.", "Donne-moi le livre."), ("They are students.", "Ils sont étudiants."),
    ("I like this song.", "J'aime cette chanson."), ("She is in the kitchen.", "Elle est dans la cuisine."),
    ("My name is Tom.", "Je m'appelle Tom."), ("I understand.", "Je comprends."),
    ("The bus is coming.", "Le bus arrive."), ("I want to go home.", "Je veux rentrer à la maison."),
    ("He is right.", "Il a raison."), ("The tea is hot.", "Le thé est chaud."),
    ("I read the newspaper.", "Je lis le journal."), ("We are in the garden.", "Nous sommes dans le jardin."),
)


# ----------------------------------------------------------------------------- head masks


def bert_head_mask(n_layers: int, n_heads: int, heads_off: Iterable) -> torch.Tensor:
    """(n_layers, n_heads) float mask, 0 at every (layer, head) of heads_off (0-based), 1 elsewhere."""
    mask = torch.ones(n_layers, n_heads)
    for layer, head in heads_off:
        layer, head = check_int(layer, "Layer", 0, n_layers - 1), check_int(head, "Head", 0, n_heads - 1)
        mask[layer, head] = 0.0
    return mask


def transformer_head_mask(config, heads_off: Iterable) -> HeadMask:
    """A HeadMask with 0 at every (kind, layer, head) of heads_off (0-based; kind in KINDS)."""
    n_dec = config.n_dec_layers or config.n_layers
    masks = {"enc_self": torch.ones(config.n_layers, config.n_heads),
             "dec_self": torch.ones(n_dec, config.n_heads), "cross": torch.ones(n_dec, config.n_heads)}
    for kind, layer, head in heads_off:
        if kind not in masks:
            raise UserError(f"Unknown attention kind {kind!r}: choose one of {', '.join(KINDS)}.")
        m = masks[kind]
        m[check_int(layer, "Layer", 0, m.shape[0] - 1), check_int(head, "Head", 0, m.shape[1] - 1)] = 0.0
    return HeadMask(**masks)


# ----------------------------------------------------------------------------- one sentence


@dataclass(frozen=True)
class MaskAblation:
    index: int  # the [MASK]'s position in tokens
    before: list[tuple[str, float]]  # top-k (token, probability), every head on
    after: list[tuple[str, float]]  # top-k with heads_off switched off
    before_top_after: float  # the probability the ablated model gives the full model's top-1 word


@dataclass(frozen=True)
class FillMaskAblation:
    tokens: list[str]  # WordPiece tokens with [CLS]/[SEP]
    heads_off: list[tuple[int, int]]  # (layer, head), 0-based
    masks: list[MaskAblation]
    notices: list[str] = field(default_factory=list)

    def to_json(self) -> dict:
        return {"tokens": self.tokens, "heads_off": [list(h) for h in self.heads_off],
                "masks": [m.__dict__ for m in self.masks], "notices": list(self.notices)}


def _topk(row: torch.Tensor, tok, k: int) -> list[tuple[str, float]]:
    p, idx = row.topk(k)
    return [(_pieces(tok, [j])[0], round(float(q), 6)) for q, j in zip(p.tolist(), idx.tolist())]


@torch.inference_mode()
def fill_mask_ablated(text: str, heads_off: Iterable, top_k: int = 5, name: str = BERT,
                      reg: Registry | None = None) -> FillMaskAblation:
    """BERT's top-k for every [MASK] of `text` with every head on, and with the heads of `heads_off`
    ((layer, head), 0-based) switched off."""
    ckpt = (reg or registry()).get(name, "bert")
    top_k = check_int(top_k, "top-k", 1, 100)
    c = ckpt.config
    heads_off = sorted({(int(l), int(h)) for l, h in heads_off})
    mask = bert_head_mask(c.n_layers, c.n_heads, heads_off)
    text, _, notices = masked_texts(text)
    ids, segs, sp = _bert_ids(ckpt, text, None, notices)
    at = [i for i, t in enumerate(ids) if t == sp["mask"]]
    if not at:
        raise UserError("Every [MASK] fell beyond BERT's length limit; put one earlier in the text.", "mask_too_late")
    args = (torch.tensor([ids]), torch.tensor([segs]))
    pos = torch.tensor([at], dtype=torch.long)
    before = torch.softmax(ckpt.model(*args, mlm_positions=pos).mlm_logits[0].float(), -1)  # (masks, V)
    after = torch.softmax(ckpt.model(*args, mlm_positions=pos, head_mask=mask).mlm_logits[0].float(), -1)
    tok = ckpt.tokenizer
    masks = [MaskAblation(i, _topk(b, tok, top_k), _topk(a, tok, top_k), round(float(a[b.argmax()]), 6))
             for i, b, a in zip(at, before, after)]
    return FillMaskAblation(_pieces(tok, ids), heads_off, masks, notices)


class _Ablated:
    """models.decoding's interface (start, step) over a Transformer with some heads off. A per-call object:
    the shared model is not touched."""

    def __init__(self, model, head_mask: HeadMask):
        self.model, self.head_mask = model, head_mask

    def start(self, src):
        return self.model.start(src, head_mask=self.head_mask)

    def step(self, memory, prefix, state):
        return self.model.step(memory, prefix, state, head_mask=self.head_mask)


@dataclass(frozen=True)
class TranslationAblation:
    source_tokens: list[str]  # the encoder's tokens, ending in </s>
    heads_off: list[tuple[str, int, int]]  # (kind, layer, head), 0-based
    before: str  # greedy translation, every head on
    after: str  # greedy translation with heads_off switched off
    before_tokens: list[str]
    after_tokens: list[str]
    # mean log-probability per token (with </s>) of each translation under each model: [full, ablated]
    before_logprob: tuple[float, float]
    after_logprob: tuple[float, float]
    notices: list[str] = field(default_factory=list)

    def to_json(self) -> dict:
        return {**self.__dict__, "heads_off": [list(h) for h in self.heads_off],
                "before_logprob": list(self.before_logprob), "after_logprob": list(self.after_logprob),
                "notices": list(self.notices)}


def _mean_logprob(model, src: torch.Tensor, out_ids: list[int], bos: int, eos: int,
                  head_mask: HeadMask | None) -> float:
    """Mean log p(token | source, tokens before) over out_ids + </s>, teacher-forced."""
    tgt = torch.tensor([[bos] + out_ids + [eos]])
    logits = model(src, tgt[:, :-1], head_mask=head_mask).logits[0]  # (T, V)
    return round(float(F.log_softmax(logits.double(), -1).gather(1, tgt[0, 1:, None]).mean()), 4)


@torch.inference_mode()
def translate_ablated(text: str, heads_off: Iterable, name: str = TRANSLATOR,
                      reg: Registry | None = None) -> TranslationAblation:
    """The greedy translation of `text` with every head on and with `heads_off` ((kind, layer, head), 0-based,
    kind in KINDS) switched off, and how probable each translation is under each of the two models."""
    ckpt = (reg or registry()).get(name, "transformer")
    heads_off = sorted({(str(k), int(l), int(h)) for k, l, h in heads_off})
    mask = transformer_head_mask(ckpt.config, heads_off)
    text, _, ids, notices = encode_source(ckpt, text)
    tok, model, sp = ckpt.tokenizer, ckpt.model, special_ids(ckpt.tokenizer)
    src = torch.tensor([ids + [sp["eos"]]])
    max_out = min(ckpt.config.max_len - 2, 2 * src.size(1) + 10)
    before = greedy(model, src, sp["bos"], sp["eos"], max_out)[0]
    after = greedy(_Ablated(model, mask), src, sp["bos"], sp["eos"], max_out)[0]
    lp = [tuple(_mean_logprob(model, src, out, sp["bos"], sp["eos"], m) for m in (None, mask))
          for out in (before, after)]
    return TranslationAblation(_pieces(tok, src[0].tolist()), heads_off, tok.decode(before), tok.decode(after),
                               _pieces(tok, before), _pieces(tok, after), lp[0], lp[1], notices)


# ----------------------------------------------------------------------------- importance over a set


def cloze_batch(ckpt, items=CLOZE) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """CLOZE as BERT's padded batch: ids (N, T), each [MASK]'s position (N, 1), the answer's id (N,)."""
    tok, sp = ckpt.tokenizer, special_ids(ckpt.tokenizer)
    rows, pos, ans = [], [], []
    for text, answer in items:
        ids = tok.encode(text).ids
        answer_ids = tok.encode(answer, add_special_tokens=False).ids
        if len(answer_ids) != 1 or ids.count(sp["mask"]) != 1:
            raise ValueError(f"cloze item {text!r} -> {answer!r}: needs one [MASK] and a one-piece answer")
        rows.append(ids)
        pos.append([ids.index(sp["mask"])])
        ans.append(answer_ids[0])
    T = max(map(len, rows))
    ids = torch.tensor([r + [sp["pad"]] * (T - len(r)) for r in rows])  # (N, T)
    return ids, torch.tensor(pos), torch.tensor(ans)


@torch.inference_mode()
def bert_scores(model, batch, head_mask: torch.Tensor | None = None) -> dict:
    """{"logprob": mean log p(answer), "top1": share of answers ranked first} over a cloze batch."""
    ids, pos, ans = batch
    logits = model(ids, mlm_positions=pos, head_mask=head_mask).mlm_logits[:, 0].double()  # (N, V)
    lp = F.log_softmax(logits, -1).gather(1, ans[:, None])[:, 0]
    return {"logprob": float(lp.mean()), "top1": float((logits.argmax(-1) == ans).double().mean())}


def pairs_batch(ckpt, pairs=EN_FR) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """EN_FR as the Transformer's padded batch: src (N, S), tgt_in (N, T) = <s> y, tgt_out (N, T) = y </s>."""
    tok, sp = ckpt.tokenizer, special_ids(ckpt.tokenizer)
    srcs = [tok.encode(en, add_special_tokens=False).ids + [sp["eos"]] for en, _ in pairs]
    tgts = [tok.encode(fr, add_special_tokens=False).ids for _, fr in pairs]
    S, T = max(map(len, srcs)), max(map(len, tgts)) + 1

    def pad(rows, n):
        return torch.tensor([r + [sp["pad"]] * (n - len(r)) for r in rows])

    return pad(srcs, S), pad([[sp["bos"]] + t for t in tgts], T), pad([t + [sp["eos"]] for t in tgts], T)


@torch.inference_mode()
def transformer_scores(model, batch, head_mask: HeadMask | None = None) -> dict:
    """{"logprob": mean log p(reference token) over every reference token and </s>, teacher-forced}."""
    src, tgt_in, tgt_out = batch
    logits = model(src, tgt_in, head_mask=head_mask).logits.double()  # (N, T, V)
    lp = F.log_softmax(logits, -1).gather(2, tgt_out[..., None])[..., 0]  # (N, T)
    real = tgt_out != model.config.pad_id
    return {"logprob": float(lp[real].mean())}


@dataclass(frozen=True)
class Importance:
    """Each head removed alone: the metric's change (ablated - full; negative = the head helped)."""
    model: str
    metric: str  # what `base` and `delta` measure
    n: int  # sentences
    base: float  # the metric with every head on
    delta: dict  # kind -> [layers][heads] change; BERT has the one kind "enc_self"
    extra: dict = field(default_factory=dict)  # other metrics: name -> {"base": x, "delta": {kind: grid}}
    pruning: list = field(default_factory=list)  # [{"fraction", "heads", "metric"}], least important off first

    def heads(self) -> list[tuple[str, int, int, float]]:
        """Every head with its delta, most harmful removal first."""
        out = [(k, l, h, v) for k, grid in self.delta.items() for l, row in enumerate(grid) for h, v in enumerate(row)]
        return sorted(out, key=lambda x: x[3])

    def to_json(self) -> dict:
        return dict(self.__dict__)


def _round(grid) -> list:
    return np.round(np.asarray(grid, dtype=float), 5).tolist()


def _importance(score, masks_of, shapes: dict, key: str, fractions) -> tuple[float, dict, dict, list]:
    """score(mask or None) -> {metric: value}; masks_of({kind: [(layer, head)]}) -> mask. Per-head deltas of every
    metric, and the pruning curve of `key` with heads removed least important (by `key`'s delta) first."""
    base = score(None)
    deltas = {m: {k: np.zeros(s) for k, s in shapes.items()} for m in base}
    for kind, (L, H) in shapes.items():
        for l in range(L):
            for h in range(H):
                got = score(masks_of({kind: [(l, h)]}))
                for m in base:
                    deltas[m][kind][l, h] = got[m] - base[m]
    order = sorted(((deltas[key][k][l, h], k, l, h) for k, (L, H) in shapes.items()
                    for l in range(L) for h in range(H)), reverse=True)  # least harm (or a gain) first
    pruning = []
    for f in fractions:
        n = int(round(f * len(order)))
        off: dict = {}
        for _, k, l, h in order[:n]:
            off.setdefault(k, []).append((l, h))
        pruning.append({"fraction": f, "heads": n, "metric": round(score(masks_of(off) if n else None)[key], 5)})
    return base, deltas, pruning


def bert_importance(name: str = BERT, reg: Registry | None = None, items=CLOZE,
                    fractions=PRUNE_FRACTIONS) -> Importance:
    """BERT's per-head importance on `items`: mean log p(true word) and top-1 accuracy at the [MASK]."""
    ckpt = (reg or registry()).get(name, "bert")
    c, batch = ckpt.config, cloze_batch(ckpt, items)

    def masks_of(off):
        return bert_head_mask(c.n_layers, c.n_heads, off.get("enc_self", []))

    base, deltas, pruning = _importance(lambda m: bert_scores(ckpt.model, batch, m), masks_of,
                                        {"enc_self": (c.n_layers, c.n_heads)}, "logprob", fractions)
    return Importance(name, "mean log p(true word at [MASK])", len(items), round(base["logprob"], 5),
                      {"enc_self": _round(deltas["logprob"]["enc_self"])},
                      {"top1": {"base": round(base["top1"], 5), "delta": {"enc_self": _round(deltas["top1"]["enc_self"])}}},
                      pruning)


def transformer_importance(name: str = TRANSLATOR, reg: Registry | None = None, pairs=EN_FR,
                           fractions=PRUNE_FRACTIONS) -> Importance:
    """The Transformer's per-head importance on `pairs`: mean log p(reference token), teacher-forced."""
    ckpt = (reg or registry()).get(name, "transformer")
    c, batch = ckpt.config, pairs_batch(ckpt, pairs)
    n_dec = c.n_dec_layers or c.n_layers
    shapes = {"enc_self": (c.n_layers, c.n_heads), "dec_self": (n_dec, c.n_heads), "cross": (n_dec, c.n_heads)}

    def masks_of(off):
        return transformer_head_mask(c, [(k, l, h) for k, lh in off.items() for l, h in lh])

    base, deltas, pruning = _importance(lambda m: transformer_scores(ckpt.model, batch, m), masks_of, shapes,
                                        "logprob", fractions)
    return Importance(name, "mean log p(reference token), teacher-forced", len(pairs), round(base["logprob"], 5),
                      {k: _round(v) for k, v in deltas["logprob"].items()}, {}, pruning)
