"""Where NER's validation-vs-held-out gap comes from: the shipped head (assets/finetune/ner) on its own
validation split (dev.tsv, 20% of the sentences, seeded as its metrics.json says), decoded both as the
per-word argmax and as the most probable valid IOB2 sequence (models.lora.tags_of, what the app ships).
Prints entity F1 (exact type and span, models.training.task_data.entity_f1) overall and by type, the
errors by kind (task_data.entity_errors), and F1 by how the entity's words are cut into WordPieces,
by whether its text is also an entity in the training sentences, by whether its sentence's document has
sentences in training, and by the web genre the sentence comes from.

    python3 -m bench.ner_gap --data-dir ../shared/data [--limit N]
"""
from __future__ import annotations

import argparse
import collections
import time
from pathlib import Path

from models import checkpoint
from models.lora import load_task, tags_of
from models.training import task_data
from models.training.finetune import predict_tags

ROOT = Path(__file__).resolve().parent.parent
TYPES = ("PER", "ORG", "LOC")


def sentence_ids(path: Path) -> list[str]:
    """dev.tsv's `# sent_id = ...` lines in file order, one per sentence (task_data's reader skips them)."""
    with open(path, encoding="utf-8") as f:
        return [line.rstrip("\n")[len("# sent_id = "):] for line in f if line.startswith("# sent_id = ")]


def document(sent_id: str) -> str:
    return sent_id.rsplit("-", 1)[0]  # "weblog-...-0007" -> the document; EWT numbers sentences per document


def only(tags: list[str], typ: str) -> list[str]:
    return [t if t.endswith("-" + typ) else "O" for t in tags]


def text_of(words, i, j) -> str:
    return " ".join(words[i:j + 1]).lower()


def prf(tp: int, n_pred: int, n_gold: int) -> str:
    p, r = tp / n_pred if n_pred else 0.0, tp / n_gold if n_gold else 0.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return f"F1 {f:.3f} (P {p:.3f}, R {r:.3f}; {n_gold} gold, {n_pred} predicted)"


def by_chunk(sents, pred, gold, key) -> dict:
    """P/R/F1 per value of key(words, type, i, j), a property of one chunk: a predicted chunk counts under
    its own value, a gold one under its own, a match is both."""
    tp, n_pred, n_gold = collections.Counter(), collections.Counter(), collections.Counter()
    for words, p, g in zip(sents, pred, gold):
        cp, cg = task_data.chunks(p), task_data.chunks(g)
        for c in cg:
            n_gold[key(words, *c)] += 1
            tp[key(words, *c)] += c in cp
        for c in cp:
            n_pred[key(words, *c)] += 1
    return {k: prf(tp[k], n_pred[k], n_gold[k]) for k in sorted(set(n_gold) | set(n_pred), key=str)}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data-dir", type=Path, default=Path("../shared/data"))
    ap.add_argument("--limit", type=int, default=0, help="first N validation sentences (0: all 400)")
    args = ap.parse_args(argv)
    base = checkpoint.load(ROOT / "assets" / "bert")
    model, metrics = load_task(ROOT / "assets" / "finetune" / "ner", base.model)
    seed, labels = metrics["data"]["split_seed"], model.config.labels
    split = task_data.read_task("ner", args.data_dir, seed)
    ids = sentence_ids(Path(args.data_dir) / task_data.FILES["ner"][0])
    held = task_data.ner_valid_indices(len(ids), seed)
    assert len(ids) == len(split["train"]) + len(split["valid"]) and len(held) == len(split["valid"])
    valid_ids = [ids[i] for i in sorted(held)][:args.limit or None]
    train_docs = {document(s) for i, s in enumerate(ids) if i not in held}
    valid = split["valid"][:args.limit or None]
    sents, gold = [w for w, _ in valid], [t for _, t in valid]
    seen = {text_of(w, i, j) for w, t in split["train"] for _, i, j in task_data.chunks(t)}
    tok = task_data.task_tokenizer(base.tokenizer, model.config.max_len)

    t0 = time.time()
    probs = predict_tags(model, tok, sents)
    decoded = {"argmax": [tags_of(p, labels, "O", constrained=False) for p in probs],
               "IOB2 Viterbi": [tags_of(p, labels, "O") for p in probs]}
    print(f"NER validation split (split seed {seed}): {len(sents)} sentences, "
          f"{sum(len(task_data.chunks(g)) for g in gold)} gold entities; {time.time() - t0:.1f} s on CPU")
    for name, pred in decoded.items():
        f = task_data.entity_f1(pred, gold)
        invalid = sum(any(t.startswith("I-") and (i == 0 or p[i - 1][2:] != t[2:]) for i, t in enumerate(p))
                      for p in pred)
        print(f"\n{name}: entity F1 {f['f1']:.4f} (P {f['precision']:.4f}, R {f['recall']:.4f}); "
              f"sentences with an invalid I- tag: {invalid}")
        for typ in TYPES:
            ft = task_data.entity_f1([only(p, typ) for p in pred], [only(g, typ) for g in gold])
            print(f"  {typ}: F1 {ft['f1']:.3f} (P {ft['precision']:.3f}, R {ft['recall']:.3f}, "
                  f"{ft['n_gold_entities']} gold)")
        err = task_data.entity_errors(pred, gold)
        print("  gold entities: " + ", ".join(f"{k} {err[k]}" for k in ("correct", "boundary", "type",
                                                                         "boundary+type", "missed"))
              + f"; predicted, overlapping no gold entity: spurious {err['spurious']}")

    pred = decoded["IOB2 Viterbi"]
    pieces = {w: len(tok.encode([w], is_pretokenized=True, add_special_tokens=False).ids) for s in sents for w in s}
    views = {
        "most WordPieces in one word of the entity": lambda w, t, i, j: min(3, max(pieces[x] for x in w[i:j + 1])),
        "words in the entity": lambda w, t, i, j: min(3, j - i + 1),
        "entity text also an entity in the training sentences": lambda w, t, i, j: text_of(w, i, j) in seen,
    }
    print("\nIOB2 Viterbi, by property of the entity (3 means 3 or more):")
    for title, key in views.items():
        print(f"  {title}:")
        for k, line in by_chunk(sents, pred, gold, key).items():
            print(f"    {k}: {line}")
    print("\nIOB2 Viterbi, by sentence:")
    for title, key in {"document has sentences in training": lambda s: document(s) in train_docs,
                       "genre": lambda s: s.split("-", 1)[0]}.items():
        print(f"  {title}:")
        groups = collections.defaultdict(list)
        for s, p, g in zip(valid_ids, pred, gold):
            groups[key(s)].append((p, g))
        for k in sorted(groups, key=str):
            ps, gs = zip(*groups[k])
            f = task_data.entity_f1(list(ps), list(gs))
            n_pred = sum(len(task_data.chunks(p)) for p in ps)
            print(f"    {k}: {len(groups[k])} sentences, "
                  + prf(round(f["recall"] * f["n_gold_entities"]), n_pred, f["n_gold_entities"]))


if __name__ == "__main__":
    main()
