"""Subword tokenizers, built with the Hugging Face `tokenizers` library (never by hand).

* Translation models: one BPE vocabulary shared by source and target (Sennrich et al. 2016),
  with SentencePiece-style Metaspace pre-tokenization, so that tokens read as "▁je", "▁suis"
  and Korean stays readable (byte-level BPE would show Hangul as mojibake).
  Specials: <pad>=0 <unk>=1 <s>=2 </s>=3.
* BERT: WordPiece (Devlin et al. 2018 / Wu et al. 2016) with BERT's normaliser (lower-case,
  accents stripped) and "##" continuation pieces.
  Specials: [PAD]=0 [UNK]=1 [CLS]=2 [SEP]=3 [MASK]=4.
"""
from __future__ import annotations

import json
from typing import Iterable

from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, processors, trainers

TRANSLATION_SPECIALS = ["<pad>", "<unk>", "<s>", "</s>"]
BERT_SPECIALS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]


def train_bpe(texts: Iterable[str], vocab_size: int, min_frequency: int = 2,
              split_punct: bool = False, elision: bool = False, byte_fallback: bool = False,
              extra_specials: tuple[str, ...] = ()) -> Tokenizer:
    """split_punct: punctuation becomes its own token ("▁student", "." rather than "▁student."),
    so that the vocabulary is not spent on word+punctuation variants; decoding is unchanged
    (a piece without "▁" joins the previous one: "L", "'", "animal" -> "L'animal").

    elision: the word after an apostrophe starts a word of its own, as Moses tokenizes French
    elision ("l'animal" -> "▁L", "'", "▁animal" rather than "▁L", "'", "an", "im", "al"), so "est"
    in "c'est" is the same piece as in "il est". The normaliser writes one space after every
    apostrophe and the decoder takes exactly that space out again, so text round-trips as before
    ("the students' books" keeps its own space)."""
    tok = Tokenizer(models.BPE(unk_token="<unk>"))
    tok.normalizer = normalizers.NFKC()
    tok.pre_tokenizer = pre_tokenizers.Metaspace()
    if split_punct:
        tok.pre_tokenizer = pre_tokenizers.Sequence([pre_tokenizers.Metaspace(),
                                                     pre_tokenizers.Punctuation("isolated")])
    tok.decoder = decoders.Metaspace()
    if elision:
        tok.normalizer = normalizers.Sequence([normalizers.NFKC(), normalizers.Replace("'", "' ")])
        tok.decoder = decoders.Sequence([decoders.Replace("▁", " "), decoders.Fuse(),
                                         decoders.Replace("' ", "'"), decoders.Strip(" ", 1, 0)])
    trainer = trainers.BpeTrainer(vocab_size=vocab_size, min_frequency=min_frequency,
                                  special_tokens=TRANSLATION_SPECIALS, show_progress=False)
    tok.train_from_iterator(texts, trainer)
    if byte_fallback:
        tok = add_byte_fallback(tok)
    if extra_specials:  # e.g. the back-translation tag <bt>: one token, never split, never in an output
        tok.add_special_tokens(list(extra_specials))
    return tok


def add_byte_fallback(tok: Tokenizer) -> Tokenizer:
    """The BPE tokenizer with byte fallback (as SentencePiece and Llama's tokenizer have it): a character
    the training text never had is written as its UTF-8 bytes, <0xEC> <0x84> <0xAC>, instead of <unk>,
    so no Korean syllable is lost ("섬" read by a model that never saw it is still "섬" in its input and can
    be copied to its output). The 256 byte pieces are ordinary vocabulary entries (not specials, so
    decoding keeps them) and the decoder turns a run of them back into the character."""
    spec = json.loads(tok.to_str())
    vocab = spec["model"]["vocab"]
    nxt = max(vocab.values()) + 1
    for b in range(256):
        if f"<0x{b:02X}>" not in vocab:
            vocab[f"<0x{b:02X}>"], nxt = nxt, nxt + 1
    spec["model"]["byte_fallback"] = True
    spec["decoder"] = {"type": "Sequence", "decoders": [{"type": "ByteFallback"}, spec["decoder"]]}
    return Tokenizer.from_str(json.dumps(spec))


def train_wordpiece(texts: Iterable[str], vocab_size: int, min_frequency: int = 2) -> Tokenizer:
    tok = Tokenizer(models.WordPiece(unk_token="[UNK]", max_input_chars_per_word=100))
    tok.normalizer = normalizers.BertNormalizer(lowercase=True, strip_accents=True, clean_text=True)
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tok.decoder = decoders.WordPiece(prefix="##")
    trainer = trainers.WordPieceTrainer(vocab_size=vocab_size, min_frequency=min_frequency,
                                        special_tokens=BERT_SPECIALS, continuing_subword_prefix="##",
                                        show_progress=False)
    tok.train_from_iterator(texts, trainer)
    cls, sep = tok.token_to_id("[CLS]"), tok.token_to_id("[SEP]")
    tok.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", pair="[CLS] $A [SEP] $B:1 [SEP]:1",
        special_tokens=[("[CLS]", cls), ("[SEP]", sep)])
    return tok


def special_ids(tok: Tokenizer) -> dict[str, int]:
    """{'pad': 0, 'unk': 1, ...} for whichever specials the tokenizer has."""
    names = {"<pad>": "pad", "<unk>": "unk", "<s>": "bos", "</s>": "eos", "[PAD]": "pad", "[UNK]": "unk",
             "[CLS]": "cls", "[SEP]": "sep", "[MASK]": "mask"}
    return {short: tok.token_to_id(t) for t, short in names.items() if tok.token_to_id(t) is not None}
