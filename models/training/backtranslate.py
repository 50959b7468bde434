"""Back-translation (Sennrich et al. 2016): an English -> Korean model turns English sentences into
synthetic Korean sources, and a Korean -> English model trains on (synthetic Korean, real English).
The English side is human text, so the decoder learns English from far more sentences than the
4.7k human Korean-English pairs; the sources are sampled from the model's top-k (Edunov et al. 2018)
and tagged at training time (models.training.train --synthetic-pairs, Caswell et al. 2019).

    python -m models.training.backtranslate runs/en-ko/checkpoint --data-dir ../shared/data --out runs/bt.tsv \
        --max-words 15 --top-k 10 --seed 0

English sources: Tatoeba's English side of the English-French file (short everyday sentences), each
distinct sentence once, none of the English-Korean split's validation or test sentences (the same
split seed and fractions as the ko-en model that will read the file), at most --max-words words.
Writes a TSV with the header `en<TAB>ko` and, beside it, FILE.json: counts, seed, command, hashes.
"""
from __future__ import annotations

import argparse
import json
import random
import shlex
import sys
import time
from pathlib import Path

import torch

from models.checkpoint import load
from models.decoding import sample
from models.tokenizers import special_ids
from models.training import data


def english_sources(data_dir: Path, split_seed: int, valid_frac: float, test_frac: float, max_words: int,
                    limit: int | None, seed: int) -> tuple[list[str], int]:
    """Distinct English sentences of Tatoeba en-fr, none held out of the en-ko split (by english_key).
    Returns (sentences, how many were dropped as held out)."""
    ko = data.read_pairs(data_dir, "en-ko")
    split = data.split_by_source(ko, split_seed, valid_frac, test_frac)
    held = {data.english_key(en) for en, _ in split["valid"] + split["test"]}
    seen, out, dropped = set(), [], 0
    for en, _ in data.read_pairs(data_dir, "en-fr"):
        key = data.english_key(en)
        if key in seen or not key or len(en.split()) > max_words:
            continue
        seen.add(key)
        if key in held:
            dropped += 1
            continue
        out.append(en)
    random.Random(seed).shuffle(out)
    return (out[:limit] if limit else out), dropped


@torch.inference_mode()
def back_translate(model, tok, sentences: list[str], top_k: int, seed: int, batch_size: int, device: str,
                   max_len: int = 64) -> list[str]:
    sp = special_ids(tok)
    gen = torch.Generator(device=device).manual_seed(seed)
    order = sorted(range(len(sentences)), key=lambda i: len(sentences[i]))
    out = [""] * len(sentences)
    for start in range(0, len(order), batch_size):
        idx = order[start:start + batch_size]
        enc = tok.encode_batch([sentences[i] for i in idx], add_special_tokens=False)
        src = data.pad([e.ids[: max_len - 1] + [sp["eos"]] for e in enc], sp["pad"]).to(device)
        rows = sample(model, src, sp["bos"], sp["eos"], min(max_len, int(src.size(1) * 1.5) + 10), top_k,
                      generator=gen)
        for i, row in zip(idx, rows):
            out[i] = tok.decode(row).replace("\t", " ").replace("\n", " ").strip()
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("checkpoint", type=Path, help="an en-ko translation checkpoint")
    ap.add_argument("--data-dir", type=Path, required=True)
    ap.add_argument("--out", type=Path, required=True, help="the TSV to write (en, ko)")
    ap.add_argument("--max-words", type=int, default=15)
    ap.add_argument("--limit", type=int, default=None, help="at most this many sentences (default: all)")
    ap.add_argument("--top-k", type=int, default=10)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--split-seed", type=int, default=0)
    ap.add_argument("--valid-frac", type=float, default=0.05, help="the ko-en model's split (transformer-ko-en: 0.05)")
    ap.add_argument("--test-frac", type=float, default=0.08, help="the ko-en model's split (transformer-ko-en: 0.08)")
    ap.add_argument("--batch-size", type=int, default=512)
    ap.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    args = ap.parse_args(argv)
    ck = load(args.checkpoint)
    if ck.metrics.get("data", {}).get("direction") != "en-ko":
        raise SystemExit(f"{args.checkpoint}: not an en-ko translation checkpoint")
    model = ck.model.float().to(args.device).eval()
    t0 = time.time()
    sents, dropped = english_sources(args.data_dir, args.split_seed, args.valid_frac, args.test_frac,
                                     args.max_words, args.limit, args.seed)
    ko = back_translate(model, ck.tokenizer, sents, args.top_k, args.seed, args.batch_size, args.device)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with open(args.out, "w", encoding="utf-8") as f:
        f.write("en\tko\n")
        f.writelines(f"{e}\t{k}\n" for e, k in zip(sents, ko) if k)
    src = data.find(args.data_dir, data.TRANSLATION_FILES["en-fr"])
    meta = {"command": "python -m models.training.backtranslate " + shlex.join(sys.argv[1:] if argv is None else argv),
            "n_pairs": sum(1 for k in ko if k), "n_dropped_held_out": dropped, "seconds": round(time.time() - t0, 1),
            "model": str(args.checkpoint), "model_metrics_test": ck.metrics.get("test"),
            "files": {data.TRANSLATION_FILES["en-fr"]: data.file_sha256(src)}, "sha256": data.file_sha256(args.out)}
    Path(str(args.out) + ".json").write_text(json.dumps(meta, indent=1, ensure_ascii=False))
    print(json.dumps({k: meta[k] for k in ("n_pairs", "n_dropped_held_out", "seconds")}))


if __name__ == "__main__":
    main()
