"""Single-sentence A/B pairs in BERT's sampler (students type one sentence A and one B), their
evaluation beside long segments, and the continued pre-training entry point's smoke run."""
import json
import random

import torch

from models.bert import Bert, BertConfig
from models.training import data
from models.training.evaluate import bert_heldout_eval, bert_single_vs_long

SPECIALS = {"pad": 0, "unk": 1, "cls": 2, "sep": 3, "mask": 4}


def docs_with_unique_sentences(n_docs=6, n_sents=5, length=3):
    """Documents whose sentences are distinct runs of ids, so a drawn segment names its sentence."""
    nxt, docs = 10, []
    for _ in range(n_docs):
        doc = []
        for _ in range(n_sents):
            doc.append(list(range(nxt, nxt + length)))
            nxt += length
        docs.append(doc)
    return docs


def test_single_pairs_are_one_sentence_each_and_labelled_by_where_b_comes_from():
    docs = docs_with_unique_sentences()
    where = {tuple(s): (d, i) for d, doc in enumerate(docs) for i, s in enumerate(doc)}
    sampler = data.BertSampler({"c": docs}, {"c": 1.0}, [], 0, SPECIALS, 200, max_len=64,
                               rng=random.Random(0), single_pairs=1.0)
    labels = []
    for _ in range(300):
        a, b, is_next = sampler.pair()
        (da, ia), (db, ib) = where[tuple(a)], where[tuple(b)]  # each side is exactly one sentence
        if is_next == 0:
            assert (db, ib) == (da, ia + 1)  # IsNext: the sentence after A
        else:
            assert is_next == 1 and db != da  # NotNext: a sentence of another document
        labels.append(is_next)
    assert 0.4 < sum(labels) / len(labels) < 0.6


def test_no_single_pairs_leaves_the_long_segment_stream_as_it_was():
    docs = docs_with_unique_sentences(n_sents=12)
    draw = lambda **kw: [data.BertSampler({"c": docs}, {"c": 1.0}, [], 0, SPECIALS, 200, max_len=32,
                                          rng=random.Random(3), **kw).pair() for _ in range(50)]
    assert draw() == draw(single_pairs=0.0)
    mixed = draw(single_pairs=0.5)
    assert mixed != draw()
    lengths = [len(a) for a, _, _ in draw()]
    assert max(lengths) > 3  # long segments: A spans several 3-token sentences


def test_single_vs_long_counts_and_shares_the_long_draw_with_heldout_eval():
    from tokenizers import Tokenizer, models as tm, pre_tokenizers
    vocab = {t: i for i, t in enumerate(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"] + [f"w{i}" for i in range(395)])}
    tok = Tokenizer(tm.WordLevel(vocab, unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    model = Bert(BertConfig(vocab_size=400, d_model=32, n_layers=1, n_heads=2, d_ff=64, max_len=64)).eval()
    docs = docs_with_unique_sentences(n_docs=8, n_sents=6, length=4)
    held = {"wikitext2-valid": docs, "fiction": docs_with_unique_sentences(n_docs=3)}
    r = bert_single_vs_long(model, tok, held, 64, n_batches=2, batch=16, seed=7)
    std = bert_heldout_eval(model, tok, held, [[10, 11, 12]], 64, n_batches=2, batch=16, seed=7)
    assert r["fill_mask_top1"]["long_wiki"] == std["fill_mask_top1_wiki"]
    assert r["nsp"]["long_all"] == std["nsp_acc"]
    assert r["n"]["nsp_pairs"] == {"single_wiki": 32, "long_wiki": 32, "single_all": 32, "long_all": 32}
    assert all(0 <= v <= 1 for v in r["nsp"].values())


def test_continue_bert_smoke_stores_int8_with_before_and_after(tmp_path):
    from models.checkpoint import load
    from models.training import continue_bert, train
    parent = train.main(["bert", "--smoke", "--out", str(tmp_path / "p"), "--device", "cpu", "--max-steps", "2"])
    folder = continue_bert.main([str(parent), "--data-dir", str(train.FIXTURES), "--out", str(tmp_path / "c"),
                                 "--minutes", "0.01", "--eval-batches", "1", "--valid-batches", "1",
                                 "--batch-size", "4", "--device", "cpu"])
    ckpt = load(folder)
    assert json.loads((folder / "config.json").read_text())["weights"].startswith("int8")  # tiny: all rows fp16
    m = ckpt.metrics
    assert m["data"]["single_pairs"] == 0.5 and m["data"]["split_seed"] == 0
    assert m["continued_from"][-1]["command"].startswith("python -m models.training.train bert --smoke")
    assert m["steps"] >= 1 and "single_vs_long" in m["test"]
    both = json.loads((tmp_path / "c" / "before_after.json").read_text())
    assert set(both["headline"]) == {"before", "after"}
    assert both["after"]["single_vs_long"] == m["test"]["single_vs_long"]  # measured on the stored int8 weights
