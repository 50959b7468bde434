"""Bytes and time of the /translate JSON, as sent before and after the compact record (rounded attention).

    python3 -m bench.payload                   # transformer-en-fr, a 12-word and a 40-word sentence
    python3 -m bench.payload --repeat 20

For each sentence: the record JSON at 6 decimals (what /translate sent), at explorer.compute.inference.API_DECIMALS
(what it sends), and with heads=False (the mean over heads, for reference), serialized with orjson as Gradio
does, plus the cross-attention figure /translate sends beside it; and the median time of translate + record +
serialization. Drives explorer (views), not ui/; figures only, no asserts.
"""
from __future__ import annotations

import argparse
import statistics
import time


SENTENCES = {
    12: "The animal didn't cross the street because it was too tired today.",
    40: ("The old man walked slowly along the quiet river while the children played near the bridge, and the "
         "birds sang in the tall trees above them until the sun went down behind the hills and everyone went "
         "home for dinner."),
}


def main(argv=None) -> None:
    import orjson
    import torch

    from explorer.compute import inference as inf
    from explorer.views.api import cross_overview

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--model", default="transformer-en-fr")
    ap.add_argument("--repeat", type=int, default=10)
    args = ap.parse_args(argv)
    torch.set_num_threads(1)
    reg = inf.load_registry(names={args.model})
    print(f"model {args.model}; sizes in bytes of orjson's output; times: median of {args.repeat}")
    for words, text in SENTENCES.items():
        assert len(text.split()) == words, (words, len(text.split()))
        r = inf.translate(args.model, text, reg=reg)
        figure = len(cross_overview(r).to_json())
        variants = {"6 decimals (before)": {}, f"{inf.API_DECIMALS} decimals (after)": {"decimals": inf.API_DECIMALS},
                    f"{inf.API_DECIMALS} decimals, heads=False": {"decimals": inf.API_DECIMALS, "heads": False}}
        print(f"{words} words: {len(r.source_tokens)} source and {len(r.target_tokens)} target tokens, "
              f"figure {figure:,}")
        for name, kw in variants.items():
            size = len(orjson.dumps(r.to_json(**kw)))
            times = []
            for _ in range(args.repeat):
                t0 = time.perf_counter()
                orjson.dumps(inf.translate(args.model, text, reg=reg).to_json(**kw))
                times.append(time.perf_counter() - t0)
            print(f"  {name:28s} record {size:>9,}  record + figure {size + figure:>9,}  "
                  f"translate + JSON {1000 * statistics.median(times):6.1f} ms")


if __name__ == "__main__":
    main()
