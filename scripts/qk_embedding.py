"""assets/qk_embedding/<model>.qk (safetensors) and .json: every head's queries and keys of held-out sentences in one
PCA plane (explorer/compute/qk_embedding.py, after AttentionViz), for the Query · key tab.

    python -m scripts.qk_embedding                                # BERT, UD English EWT dev, ~2,500 pieces
    python -m scripts.qk_embedding --data-dir ../shared/data --model bert --tokens 2500

The sentences are UD English EWT v2.15 **dev** (the treebank's test file is kept back; the shipped BERT never
trained on the treebank), spread evenly over the file, 5 to 40 words each; every piece is one query and one key of
every head, tagged with its word's universal part of speech. The JSON records the command, the data file's
sha256 and the counts. The same checkpoint and data give the same bytes (no clock, no randomness).
"""
from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from pathlib import Path

from safetensors.numpy import save_file

from explorer.compute import qk_embedding as qe
from models.training.data import file_sha256

DEV = Path("pos-ud-english-ewt") / "v2.15-conllu" / "en_ewt-ud-dev.conllu"  # under --data-dir


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--data-dir", default="../shared/data", help="the folder holding pos-ud-english-ewt/")
    p.add_argument("--model", default="bert", help="a BERT of the registry (default: the shipped one)")
    p.add_argument("--tokens", type=int, default=2500, help="about this many pieces (each a query and a key)")
    p.add_argument("--out", default=str(qe.FOLDER), help="the folder to write <model>.qk/.json into")
    args = p.parse_args(argv)
    data = Path(args.data_dir) / DEV
    if not data.is_file():
        print(f"no {data}: give --data-dir the folder that holds {DEV.parts[0]}/", file=sys.stderr)
        return 1
    start = time.perf_counter()
    sentences = qe.read_upos(data)
    chosen = qe.pick(sentences, args.tokens)
    tensors, meta = qe.build([sentences[i] for i in chosen], args.model)
    command = "python -m scripts.qk_embedding " + " ".join(shlex.quote(a) for a in (argv or sys.argv[1:]))
    meta = {"model": meta.pop("model"), "method": "AttentionViz (Yeh et al. 2023) PCA, explorer/compute/qk_embedding.py",
            "command": command.strip(),
            "data": {"file": DEV.as_posix(), "sha256": file_sha256(data), "sentences_in_file": len(sentences),
                     "sentence_indices": chosen},
            **meta}
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    tensors_path, meta_path = qe.asset_paths(args.model, out)
    save_file(tensors, str(tensors_path), metadata={"model": args.model})
    meta_path.write_text(json.dumps(meta, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"{meta['sentences']} sentences, {meta['points']} pieces, {meta['layers']}x{meta['heads']} heads -> "
          f"{tensors_path} ({tensors_path.stat().st_size / 1e6:.2f} MB) and {meta_path} "
          f"({meta_path.stat().st_size / 1e3:.0f} kB) in {time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
