"""Does a model's vector of a word tell its senses apart? The nearest-neighbour check of the ELMo slide.

For each sentence, the other sentence whose vector of the word is nearest (cosine) should use the word in the
same sense. `sense_check` counts how often it does, at every layer, for sentences written here with the word
at the same position and with the same particle in both senses (배가 아파서 / 배가 항구에), so that only the
words around it can decide. Pear (배 as fruit) is rare in the Korean text here and is reported apart.

    python -m explorer.compute.senses --model bert-ko          # the table, one JSON line per set and layer
"""
from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass

import numpy as np

from explorer.compute.elmo import word_vector
from explorer.compute.inference import Registry, registry

# word -> set name -> [(sense, sentence)]; written for this check, in no corpus here
SETS = {
    "배": {
        "배가": [("belly", "배가 아파서 병원에 갔어요."), ("belly", "배가 고파서 밥을 먹었어요."),
                ("belly", "배가 불러서 더 못 먹겠어요."), ("belly", "배가 너무 아파서 약을 먹었어요."),
                ("boat", "배가 항구에 도착했어요."), ("boat", "배가 바다 위에 떠 있어요."),
                ("boat", "배가 파도에 흔들렸어요."), ("boat", "배가 섬으로 출발했어요.")],
        "배를": [("belly", "배를 잡고 크게 웃었어요."), ("belly", "배를 문지르면서 아프다고 했어요."),
                ("belly", "배를 채우려고 식당에 갔어요."), ("belly", "배를 두드리며 잘 먹었다고 했어요."),
                ("boat", "배를 타고 섬에 갔어요."), ("boat", "배를 타고 강을 건넜어요."),
                ("boat", "배를 항구에 묶어 두었어요."), ("boat", "배를 만들어 바다에 띄웠어요.")],
        "pear": [("pear", "배를 깎아서 먹었어요."), ("pear", "배가 달고 시원해요."),
                 ("pear", "배와 사과를 샀어요."), ("pear", "배 한 상자를 선물했어요."),
                 ("belly", "배가 아파서 병원에 갔어요."), ("boat", "배를 타고 섬에 갔어요.")],
    },
    "bank": {
        "bank": [("river", "I sat on the bank of the river."), ("river", "The boat drifted to the bank."),
                 ("river", "Fish swim near the muddy bank."), ("river", "We walked along the river bank."),
                 ("money", "I put my money in the bank."), ("money", "The bank gave me a loan."),
                 ("money", "She works at the bank downtown."), ("money", "The bank opens at nine.")],
    },
}


def nearest_same(vectors: np.ndarray, senses: list[str]) -> list[bool]:
    """For each row, whether its nearest other row (cosine) has the same sense: the nearest same-sense row is
    strictly nearer than every row of another sense (a tie, e.g. identical vectors, counts as a miss)."""
    v = vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
    sim = v @ v.T
    np.fill_diagonal(sim, -np.inf)
    same = np.array([[a == b for b in senses] for a in senses])
    near_same = np.where(same, sim, -np.inf).max(1)
    near_other = np.where(~same, sim, -np.inf).max(1)
    return [bool(x) for x in near_same > near_other + 1e-9]


@dataclass(frozen=True)
class SenseCheck:
    model: str
    word: str
    set_name: str
    senses: list[str]
    sentences: list[str]
    hits: np.ndarray  # (L + 1, N) bool: sentence i's nearest neighbour at layer j shares its sense

    def rows(self) -> list[dict]:
        return [{"model": self.model, "word": self.word, "set": self.set_name, "layer": j,
                 "same_sense": int(h.sum()), "of": len(h),
                 "per_sense": {s: int(sum(x for x, t in zip(h, self.senses) if t == s)) for s in dict.fromkeys(self.senses)}}
                for j, h in enumerate(self.hits)]


def sense_check(word: str, set_name: str, name: str, reg: Registry | None = None) -> SenseCheck:
    reg = reg or registry()
    items = SETS[word][set_name]
    senses, sentences = [s for s, _ in items], [t for _, t in items]
    n_layers = word_vector(word, sentences[0], name, 0, reg).n_layers
    per_layer = np.stack([np.stack([word_vector(word, t, name, j, reg).vector for t in sentences])
                          for j in range(n_layers + 1)])  # (L + 1, N, d)
    hits = np.array([nearest_same(v, senses) for v in per_layer])
    return SenseCheck(name, word, set_name, senses, sentences, hits)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m explorer.compute.senses", description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", default="bert-ko")
    ap.add_argument("--word", default=None, help="배 for a Korean model, bank for an English one (default)")
    args = ap.parse_args(argv)
    word = args.word or ("bank" if args.model == "bert" else "배")
    for set_name in SETS[word]:
        for row in sense_check(word, set_name, args.model).rows():
            print(json.dumps(row, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
