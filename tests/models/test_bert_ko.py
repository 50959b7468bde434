"""bert-ko's syllable WordPiece, whole-word masking and its smoke training (models/training/bert_ko.py)."""
import random
import unicodedata

import torch

from models import checkpoint
from models.training import bert_ko

TEXTS = ["배가 아파서 병원에 갔어요.", "배를 타고 섬에 갔어요.", "배를 먹었어요.", "저는 학생이에요."]


def test_every_hangul_syllable_is_its_own_piece():
    tok = bert_ko.syllable_tokenizer(TEXTS, min_count=1)
    assert tok.encode("배가 아파서").tokens == ["[CLS]", "배", "##가", "아", "##파", "##서", "[SEP]"]
    # the word 배 is one piece whatever particle follows: the particle can no longer decide the vector
    assert tok.encode("배를").tokens[1:3] == ["배", "##를"]
    assert tok.decode(tok.encode("배를 타고 섬에 갔어요.").ids) == "배를 타고 섬에 갔어요."


def test_hangul_is_not_decomposed_into_jamo():
    # BERT's accent stripping runs NFD, which would turn 배 into ㅂ + ㅐ; typed jamo sequences compose back (NFC)
    tok = bert_ko.syllable_tokenizer(TEXTS, min_count=1)
    decomposed = unicodedata.normalize("NFD", "배가")
    assert tok.encode(decomposed).tokens[1:3] == ["배", "##가"]


def test_typed_mask_stays_one_token_and_unseen_syllables_are_unk():
    from explorer.compute.inference import glued_ids
    tok = bert_ko.syllable_tokenizer(TEXTS, min_count=1)
    text = "[MASK]가 아파서"
    enc = tok.encode(text)
    assert enc.tokens[1] == "[MASK]"
    # what the app reads: the particle typed after [MASK] continues the masked word, as in pre-training
    assert [tok.id_to_token(i) for i in glued_ids(tok, enc, text)][1:3] == ["[MASK]", "##가"]
    spaced = "[MASK] 아파서"  # a space: a new word, as typed
    assert glued_ids(tok, tok.encode(spaced), spaced) == tok.encode(spaced).ids
    assert tok.encode("뷁").tokens[1] == "[UNK]"
    assert [tok.token_to_id(t) for t in bert_ko.SPECIALS] == [0, 1, 2, 3, 4]


def test_whole_word_masking_masks_every_piece_of_a_chosen_word():
    tok = bert_ko.syllable_tokenizer(TEXTS, min_count=1)
    enc = bert_ko.encode(tok, TEXTS)
    s = bert_ko.Sampler([enc], enc, tok.get_vocab_size(), 64, random.Random(0))
    for _ in range(50):
        ids, words = enc[1]
        inputs, labels = s.mask(ids, words, prob=0.5)
        for w in set(words):
            chosen = {labels[j] != -100 for j, x in enumerate(words) if x == w}
            assert len(chosen) == 1  # all of a word's pieces, or none
        assert all(lab in (-100, i) for lab, i in zip(labels, ids))  # a label is the original piece


def test_batches_pair_sentences_half_next_and_leave_singles_unlabelled():
    tok = bert_ko.syllable_tokenizer(TEXTS, min_count=1)
    enc = bert_ko.encode(tok, TEXTS)
    b = bert_ko.Sampler([enc, enc[::-1]], enc, tok.get_vocab_size(), 32, random.Random(0)).batch(400)
    labels = b["nsp_labels"].tolist()
    assert set(labels) == {-100, 0, 1}
    paired = [y for y in labels if y != -100]
    assert 0.35 < sum(paired) / len(paired) < 0.65
    assert (b["input_ids"][:, 0] == 2).all() and b["input_ids"].shape[1] <= 32
    singles = b["nsp_labels"] == -100
    assert (b["segment_ids"][singles] == 0).all()  # one sentence: segment A only


def test_smoke_training_writes_a_checkpoint_the_app_loads(tmp_path):
    folder = bert_ko.main(["--smoke", "--out", str(tmp_path / "bert-ko")])
    ckpt = checkpoint.load(folder)
    assert ckpt.config.arch == "bert" and ckpt.metrics["command"].startswith("python -m models.training.bert_ko")
    assert ckpt.metrics["heldout"]["mlm_pieces"] > 0
    ids = torch.tensor([ckpt.tokenizer.encode("배가 아파요.").ids])
    out = ckpt.model(ids)
    assert out.mlm_logits.shape == (1, ids.shape[1], ckpt.config.vocab_size)
