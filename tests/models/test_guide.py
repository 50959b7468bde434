"""Guided alignment (models/training/guide.py): the teacher's links, their spans in the student's tokens, the loss."""
import math

import pytest
import torch

from models import checkpoint
from models.tokenizers import train_bpe
from models.training import guide
from models.training.evaluate import ALIGNMENT_CHECKS, alignment_scores, read_alignment_check


@pytest.fixture(scope="module")
def teacher():
    return checkpoint.load("assets/transformer-en-fr")


def test_teacher_links_are_the_checks_argmax(teacher):
    """Batched, padded links give the same hit rate as the hand-aligned check reads one pair at a time."""
    check = read_alignment_check(ALIGNMENT_CHECKS["en-fr"])
    links = guide.teacher_links(teacher.model, teacher.tokenizer, [(s, t) for s, t, _ in check], batch_size=5)
    hits = n = 0
    for (s, t, gold), link in zip(check, links):
        assert len(link) == len(t.split()) and all(0 <= i < len(s.split()) for i in link)
        for j, i in enumerate(link):
            linked = {a for a, b in gold if b == j}
            if linked:
                n, hits = n + 1, hits + (i in linked)
    ref = alignment_scores(teacher.model, teacher.tokenizer, check)
    assert n == ref["scored_words"]
    assert round(hits / n, 4) == ref["hit_rate_without_eos"]


def test_link_spans_cover_the_linked_word():
    pairs = [("I am a student.", "Je suis étudiant."), ("unbelievably good", "incroyablement bon")]
    tok = train_bpe((s for p in pairs * 3 for s in p), 80)
    links = [[0, 1, 3], [0, 1]]
    for (s, t), link, (src, tgt, starts, ends) in zip(pairs, links, guide.link_spans(tok, pairs, links, 64)):
        assert src[-1] == tok.token_to_id("</s>") and len(starts) == len(tgt) + 1 == len(ends)
        assert starts[-1] == ends[-1] == guide.NO_LINK  # the row that predicts </s>
        enc = tok.encode(s, add_special_tokens=False)
        src_words = s.split()
        for a, b in zip(starts[:-1], ends[:-1]):
            pieces = "".join(enc.tokens[a:b]).replace("▁", "")
            assert pieces in src_words  # exactly one whole source word
    # "Je" -> "I", "étudiant." -> "student."
    (_, _, starts, ends), _ = guide.link_spans(tok, pairs, links, 64)
    enc = tok.encode(pairs[0][0], add_special_tokens=False)
    assert "".join(enc.tokens[starts[-2]:ends[-2]]).replace("▁", "") == "student."


def test_alignment_loss_is_minus_log_mass_on_the_span():
    att = torch.tensor([[[0.1, 0.2, 0.3, 0.4], [0.7, 0.1, 0.1, 0.1], [0.25, 0.25, 0.25, 0.25]]])  # (1, 3, 4)
    start, end = torch.tensor([[1, 0, -1]]), torch.tensor([[3, 1, -1]])
    want = (-math.log(0.5) - math.log(0.7)) / 2  # the third row has no link
    assert guide.alignment_loss(att, start, end).item() == pytest.approx(want, rel=1e-6)


def test_guided_loss_adds_to_cross_entropy_and_trains_attention():
    """A step of the guided loss raises the attention mass on the linked span (the gradient reaches it)."""
    from models.seq2seq import Seq2Seq, Seq2SeqConfig
    torch.manual_seed(0)
    m = Seq2Seq(Seq2SeqConfig(20, 20, d_emb=16, d_hidden=16, attention="dot", bidirectional=True, tie_embeddings=True))
    batch = {"src": torch.tensor([[5, 6, 7, 2]]), "tgt_in": torch.tensor([[1, 8, 9]]), "tgt_out": torch.tensor([[8, 9, 2]]),
             "guide_start": torch.tensor([[2, 0, -1]]), "guide_end": torch.tensor([[3, 1, -1]])}
    task = guide.Guided(m, weight=1.0)
    ce = m(batch["src"], batch["tgt_in"], batch["tgt_out"]).loss
    out = task(**batch)
    cross = m(batch["src"], batch["tgt_in"], need_weights=True).trace.cross[:, 0, 0]
    extra = guide.alignment_loss(cross, batch["guide_start"], batch["guide_end"])
    assert out.loss.item() == pytest.approx(ce.item() + extra.item(), rel=1e-5)
    opt = torch.optim.SGD(m.parameters(), lr=0.5)
    for _ in range(20):
        opt.zero_grad()
        task(**batch).loss.backward()
        opt.step()
    cross2 = m(batch["src"], batch["tgt_in"], need_weights=True).trace.cross[:, 0, 0]
    assert cross2[0, 0, 2] > cross[0, 0, 2] and cross2[0, 1, 0] > cross[0, 1, 0]


def test_pairs_longer_than_the_teacher_get_no_links(teacher):
    long = " ".join(["word"] * (teacher.config.max_len + 5))
    links = guide.teacher_links(teacher.model, teacher.tokenizer, [("I am a student.", "Je suis étudiant."), (long, long)])
    assert links[0] == [0, 1, 3] and links[1] == []
    spans = guide.link_spans(teacher.tokenizer, [(long, long)], links[1:], 200)[0]
    assert set(spans[2]) == {guide.NO_LINK}
