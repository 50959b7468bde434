"""Bring your own BERT: load Hugging Face `BertForPreTraining` weights into the in-repo
`models.bert.Bert`, so fill-mask, next-sentence prediction and the attention views work on
a real pre-trained model (Devlin et al. 2018) with the very code that serves ours.

    ckpt = load_local(folder)          # config.json + safetensors + tokenizer.json or vocab.txt
    ckpt = load_hub("bert-base-uncased")   # the same, fetched from the Hub (sizes checked first)
    register(registry(), ckpt, "bert-custom")
    fill_mask("Paris is the [MASK] of France.", name="bert-custom")

Only safetensors are read. A pickled checkpoint (pytorch_model.bin, *.pt, ...) can run
arbitrary code when it is opened, so it is refused without being opened; `torch.load` is
never called. Both heads of pre-training are required: the MLM head (`cls.predictions.*`)
for fill-mask and the NSP head with its pooler (`cls.seq_relationship.*`,
`bert.pooler.*`) for next-sentence prediction. A bare `BertModel` or a
`BertForMaskedLM` checkpoint is refused with a message saying which head is missing,
rather than run with random heads that would print confident nonsense.

A local folder is chosen only by whoever runs the app, through the environment variable
ATTN_EXPLORER_BERT_DIR (`folder_from_env`, `load_from_env`); nothing here takes a folder
path from a web visitor. `load_hub` takes a Hub repo id and downloads at most `max_bytes`.
"""
from __future__ import annotations

import dataclasses
import contextlib
import json
import os
import re
import shutil
import threading
from concurrent.futures import ThreadPoolExecutor, TimeoutError as FutureTimeout
from pathlib import Path

import torch
from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, processors

from explorer.compute.inference import MAX_CHARS, Registry, UserError
from models.bert import BertConfig, config_from_hf, from_hf
from models import checkpoint
from models.checkpoint import INDEX, MAX_JSON_BYTES, WEIGHTS, Checkpoint, CheckpointError
from models.tokenizers import BERT_SPECIALS, special_ids

ENV_VAR = "ATTN_EXPLORER_BERT_DIR"
PICKLE_SUFFIXES = (".bin", ".pt", ".pth", ".ckpt", ".pkl", ".pickle")
TOKENIZER_FILES = ("tokenizer.json", "vocab.txt", "tokenizer_config.json", "special_tokens_map.json")
# vocab.txt is read whole into a dict: a 110 MB one took +2.0 GB and 26.8 s before any check. bert-base's is 232 KB
# (30,522 lines), multilingual BERT's 0.9 MB (119,547); its lines are checked against the config's vocab_size, and
# each against the longest word WordPiece matches (100 characters, up to 4 bytes each in UTF-8), before parsing.
MAX_VOCAB_BYTES = 8_000_000
MAX_VOCAB_ENTRY_BYTES = 400
# tokenizer.json is parsed whole too (by the tokenizers library): bert-base's is 0.47 MB, multilingual BERT's 2.9 MB.
# Its bytes are checked first, then its vocabulary's and added tokens' entries are counted against vocab_size by a
# scan of the raw bytes (no objects built), and each vocabulary entry against MAX_VOCAB_ENTRY_BYTES.
MAX_TOKENIZER_BYTES = 16_000_000
_REPO_ID = re.compile(r"^[A-Za-z0-9][\w.-]{0,95}(/[A-Za-z0-9][\w.-]{0,95})?$", re.ASCII)
# One request's attention record holds layers x heads x tokens x tokens floats, tokens up to the model's positions
# (the input is cut at MAX_CHARS characters, so never more than that): a config alone decided it (a 1.2 MB model
# with 64 heads and 4,096 positions took +1.5 GB for one fill-mask). bert-base: 12 x 12 x 512 x 512 = 37.7 M.
MAX_ATTENTION_CELLS = 64 * 2**20  # 256 MiB of float32 per request
TOKENIZE_SECONDS = 5.0  # one encode of a brought tokenizer (its regexes are the model author's)


# ----------------------------------------------------------------------------- local folders


@contextlib.contextmanager
def _as_user_error():
    """models/checkpoint.py's readers, whose CheckpointError names the file at fault, as the UserError a visitor sees."""
    try:
        yield
    except CheckpointError as e:
        raise UserError(f"{e}.") from None


def _read_json(path: Path, what: str) -> dict:
    with _as_user_error():
        return checkpoint.read_json(path, what)


def _weight_files(folder: Path) -> list[Path]:
    """The safetensors files of folder (one file or HF shards, models/checkpoint.py's rules); pickles refused unopened."""
    if (folder / WEIGHTS).is_file() or (folder / INDEX).is_file():
        with _as_user_error():
            return checkpoint.weight_files(folder)
    pickles = sorted(p.name for p in folder.iterdir() if p.name.endswith(PICKLE_SUFFIXES))
    found = f" It has {', '.join(pickles)}, which are pickles: opening one can run arbitrary code, so they " \
            "are not loaded." if pickles else ""
    raise UserError(f"{folder} has no {WEIGHTS} (or {INDEX}). Only safetensors weights are loaded.{found} "
                    "Convert the checkpoint where you trust it, e.g. with transformers: "
                    "model.save_pretrained(folder, safe_serialization=True).")


def _read_state(files: list[Path]) -> dict[str, torch.Tensor]:
    with _as_user_error():
        state = checkpoint.read_safetensors(files)
    # BertModel saves its keys bare ("embeddings....") and the task models under "bert.";
    # from_hf expects the latter.
    bare = ("embeddings.", "encoder.", "pooler.")
    return {("bert." + k if k.startswith(bare) else k): (v.float() if v.is_floating_point() else v)
            for k, v in state.items()}


def _check_heads(state: dict, folder: Path) -> None:
    has = {"MLM head (cls.predictions.*)": "cls.predictions.transform.dense.weight" in state,
           "NSP head (cls.seq_relationship.*)": "cls.seq_relationship.weight" in state,
           "pooler (bert.pooler.*)": "bert.pooler.dense.weight" in state}
    missing = [name for name, ok in has.items() if not ok]
    if not missing:
        return
    if "bert.embeddings.word_embeddings.weight" not in state:
        raise UserError(f"The weights in {folder} are not a BERT checkpoint (no embeddings.word_embeddings).")
    mlm, nsp = has["MLM head (cls.predictions.*)"], has["NSP head (cls.seq_relationship.*)"]
    looks = ("a bare BertModel (encoder only)" if not mlm and not nsp else
             "a BertForMaskedLM (no next-sentence head)" if mlm and not nsp else
             "a BERT without all of its pre-training heads")
    raise UserError(f"The weights in {folder} look like {looks}: missing the {', '.join(missing)}. "
                    "Fill-mask and next-sentence prediction need BertForPreTraining weights with both heads "
                    "(e.g. bert-base-uncased).")


def check_vocab(vocab_file: Path, vocab_size: int | None = None) -> int:
    """Sizes of a vocab.txt checked before it is parsed, reading at most `MAX_VOCAB_BYTES` a chunk at a time: its
    bytes, its lines (tokens) against the model's `vocab_size` embeddings, and each line against
    `MAX_VOCAB_ENTRY_BYTES`. Returns the line count; a UserError names the file and the limit."""
    vocab_file = Path(vocab_file)
    size = vocab_file.stat().st_size
    if size > MAX_VOCAB_BYTES:
        raise UserError(f"{vocab_file} is {size:,} bytes, over this server's limit of {MAX_VOCAB_BYTES:,} bytes for "
                        "a vocab.txt; refusing to read it.", "vocab_too_big", path=str(vocab_file),
                        size=f"{size:,}", limit=f"{MAX_VOCAB_BYTES:,}")
    lines, open_line = 0, 0  # lines ended so far; bytes of the line not ended yet
    with vocab_file.open("rb") as f:
        while chunk := f.read(1 << 20):
            *ended, rest = chunk.split(b"\n")
            for i, piece in enumerate(ended):
                length = len(piece) + (open_line if i == 0 else 0)
                if length > MAX_VOCAB_ENTRY_BYTES:
                    _long_entry(vocab_file, lines + i + 1, length)
            lines += len(ended)
            open_line = len(rest) + (open_line if not ended else 0)
            if open_line > MAX_VOCAB_ENTRY_BYTES:
                _long_entry(vocab_file, lines + 1, open_line)
            if vocab_size is not None and lines > vocab_size:
                break
    lines += open_line > 0  # a last token without a final newline
    if vocab_size is not None and lines > vocab_size:
        raise UserError(f"{vocab_file} has more than {vocab_size:,} tokens (one a line) but the model only "
                        f"{vocab_size:,} embeddings (config.json's vocab_size); refusing to read it.",
                        "vocab_too_many", path=str(vocab_file), n=f"{vocab_size:,}")
    return lines


# a JSON token: a string (escapes included), a bracket or separator, or a bare literal (number, true, null)
_JSON_TOKEN = re.compile(rb'"(?:[^"\\]|\\.)*"|[{}\[\]:,]|[^\s{}\[\]:,"]+')


def check_tokenizer_json(path: Path, vocab_size: int | None = None) -> int:
    """Sizes of a tokenizer.json checked before the tokenizers library parses it whole: its bytes against
    `MAX_TOKENIZER_BYTES`, then, scanning the raw bytes without building the JSON's objects, the entries of its
    model's vocabulary (`model.vocab`: an object for WordPiece and BPE, a list for Unigram) and of its
    `added_tokens` each against the model's `vocab_size` embeddings (stopping at the first entry past it), and
    each vocabulary entry against `MAX_VOCAB_ENTRY_BYTES`. Returns the vocabulary's entry count."""
    path = Path(path)
    size = path.stat().st_size
    if size > MAX_TOKENIZER_BYTES:
        raise UserError(f"{path} is {size:,} bytes, over this server's limit of {MAX_TOKENIZER_BYTES:,} bytes for a "
                        "tokenizer.json; refusing to read it.", "tokenizer_too_big", path=str(path),
                        size=f"{size:,}", limit=f"{MAX_TOKENIZER_BYTES:,}")
    counts = {("model", "vocab"): 0, ("added_tokens",): 0}
    stack: list[tuple[str, tuple]] = []  # open containers: (kind "{" or "[", the key path to it)
    key, after_colon = None, False
    for m in _JSON_TOKEN.finditer(path.read_bytes()):  # bytes, bounded above: no object tree
        tok = m.group()
        where = stack[-1][1] if stack else None
        if tok == b":":
            after_colon = True
            continue
        counted = where in counts and (stack[-1][0] == "[" or after_colon) and tok not in (b"]", b"}", b",")
        if counted:
            counts[where] += 1
            if vocab_size is not None and counts[where] > vocab_size:
                what = "vocabulary (model.vocab)" if where == ("model", "vocab") else "added_tokens"
                raise UserError(f"The {what} of {path} has more than {vocab_size:,} entries but the model only "
                                f"{vocab_size:,} embeddings (config.json's vocab_size); refusing to read it.",
                                "tokenizer_too_many", path=str(path), what=what, n=f"{vocab_size:,}")
        if tok[:1] == b'"' and stack and stack[-1][0] == "{" and not after_colon:
            key = tok
            if where == ("model", "vocab") and len(tok) - 2 > MAX_VOCAB_ENTRY_BYTES:
                length = len(json.loads(tok).encode("utf-8"))
                if length > MAX_VOCAB_ENTRY_BYTES:
                    raise UserError(f"Entry {counts[where] + 1:,} of {path}'s vocabulary is {length:,} bytes long, "
                                    f"over this server's limit of {MAX_VOCAB_ENTRY_BYTES} bytes for one token; "
                                    "refusing to read it.", "tokenizer_long_entry", path=str(path),
                                    n=f"{counts[where] + 1:,}", size=f"{length:,}", limit=MAX_VOCAB_ENTRY_BYTES)
            continue
        if tok in (b"{", b"["):
            parent = stack[-1] if stack else None
            if parent is None:
                inner = ()
            elif parent[0] == "{" and key is not None:
                inner = parent[1] + (json.loads(key),) if len(parent[1]) < 2 else parent[1] + ("...",)
            else:
                inner = parent[1] + ("[]",)
            stack.append((tok.decode(), inner))
            key = None
        elif tok in (b"}", b"]"):
            if stack:
                stack.pop()
        after_colon = False
    return counts[("model", "vocab")]


def _long_entry(vocab_file: Path, line: int, length: int):
    raise UserError(f"Line {line:,} of {vocab_file} is {length:,} bytes long, over this server's limit of "
                    f"{MAX_VOCAB_ENTRY_BYTES} bytes for one token (WordPiece matches words of at most 100 "
                    "characters); refusing to read it.", "vocab_long_entry", path=str(vocab_file), line=f"{line:,}",
                    size=f"{length:,}", limit=MAX_VOCAB_ENTRY_BYTES)


def wordpiece_from_vocab(vocab_file: Path, lowercase: bool = True, strip_accents: bool | None = None,
                         chinese_chars: bool = True, vocab_size: int | None = None) -> Tokenizer:
    """BERT's WordPiece tokenizer from a vocab.txt (one token per line, id = line number), as
    transformers' BertTokenizerFast builds it: BERT normaliser, BERT pre-tokenizer, "##"
    continuation pieces, and [CLS] A [SEP] (B [SEP]) with segment ids 0/1. Its sizes are checked first
    (`check_vocab`, with the model's `vocab_size` when given)."""
    check_vocab(vocab_file, vocab_size)
    try:
        lines = Path(vocab_file).read_text(encoding="utf-8").split("\n")
    except UnicodeDecodeError as e:
        raise UserError(f"{vocab_file} is not UTF-8 text: {e}") from None
    if lines and lines[-1] == "":
        lines.pop()  # the final newline ends the last token; it does not start another
    # A repeated token keeps its last id, as in transformers.
    vocab = {line.rstrip("\r"): i for i, line in enumerate(lines)}
    tok = Tokenizer(models.WordPiece(vocab, unk_token="[UNK]", max_input_chars_per_word=100))
    tok.normalizer = normalizers.BertNormalizer(clean_text=True, handle_chinese_chars=chinese_chars,
                                                strip_accents=strip_accents, lowercase=lowercase)
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tok.decoder = decoders.WordPiece(prefix="##")
    # Specials are "added tokens", matched in the raw text, so "[MASK]" stays one token.
    tok.add_special_tokens([t for t in BERT_SPECIALS if t in vocab])
    _set_template(tok)
    return tok


def _set_template(tok: Tokenizer) -> None:
    cls, sep = tok.token_to_id("[CLS]"), tok.token_to_id("[SEP]")
    if cls is None or sep is None:
        return  # _check_tokenizer reports it
    tok.post_processor = processors.TemplateProcessing(
        single="[CLS]:0 $A:0 [SEP]:0", pair="[CLS]:0 $A:0 [SEP]:0 $B:1 [SEP]:1",
        special_tokens=[("[CLS]", cls), ("[SEP]", sep)])


def _load_tokenizer(folder: Path, hf_config: dict, vocab_size: int | None = None) -> tuple[Tokenizer, str]:
    settings = _read_json(folder / "tokenizer_config.json", "") if (folder / "tokenizer_config.json").is_file() else {}
    if (folder / "tokenizer.json").is_file():
        check_tokenizer_json(folder / "tokenizer.json", vocab_size)
        try:
            tok = Tokenizer.from_file(str(folder / "tokenizer.json"))
        except Exception as e:  # the tokenizers library raises plain Exception on bad JSON
            raise UserError(f"{folder / 'tokenizer.json'} is not a valid tokenizer: {e}") from None
        if tok.post_processor is None:
            _set_template(tok)
        how = "tokenizer.json"
    elif (folder / "vocab.txt").is_file():
        lowercase = settings.get("do_lower_case", hf_config.get("do_lower_case", True))
        tok = wordpiece_from_vocab(folder / "vocab.txt", bool(lowercase), settings.get("strip_accents"),
                                   bool(settings.get("tokenize_chinese_chars", True)), vocab_size)
        how = f"vocab.txt (lowercase={bool(lowercase)})"
    else:
        raise UserError(f"{folder} has no tokenizer: it needs tokenizer.json or vocab.txt.")
    tok.no_padding()  # the explorer crops to BERT's length itself and never pads one sentence
    tok.no_truncation()
    return tok, how


def _check_tokenizer(tok: Tokenizer, vocab_size: int, folder: Path) -> None:
    missing = [t for t in BERT_SPECIALS if tok.token_to_id(t) is None]
    tok.encode(PROBE)  # a GuardedTokenizer: a UserError if it panics or runs past its time
    if missing:
        raise UserError(f"The tokenizer in {folder} lacks BERT's special token(s) {', '.join(missing)}.")
    if tok.get_vocab_size() > vocab_size:
        raise UserError(f"The tokenizer in {folder} has {tok.get_vocab_size()} tokens but the model only "
                        f"{vocab_size} embeddings.")
    sp = special_ids(tok)
    if tok.encode("[MASK]", add_special_tokens=False).ids != [sp["mask"]]:
        raise UserError(f"The tokenizer in {folder} splits '[MASK]' instead of keeping it as one token.")
    ids = tok.encode("a", "b").ids
    if ids[0] != sp["cls"] or ids[-1] != sp["sep"] or ids.count(sp["sep"]) != 2:
        raise UserError(f"The tokenizer in {folder} does not frame text as [CLS] A [SEP] B [SEP].")


def attention_cells(config: BertConfig) -> int:
    """The attention floats of one request at the longest input the app reads: layers x heads x T x T."""
    tokens = min(int(config.max_len), MAX_CHARS + 3)  # [CLS] A [SEP] B [SEP]: at most one token per character
    return int(config.n_layers) * int(config.n_heads) * tokens * tokens


def _bert_config(hf_config: dict, where) -> BertConfig:
    model_type = hf_config.get("model_type", "bert")
    if model_type != "bert":
        raise UserError(f"{where} holds a '{model_type}' model; only BERT (model_type 'bert') is supported.",
                        "not_bert", where=str(where), model_type=model_type)
    try:
        config = config_from_hf(hf_config)
        sizes = (config.n_layers, config.n_heads, config.max_len, config.d_model, config.vocab_size)
        if not all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in sizes):
            raise ValueError("layers, heads, positions, hidden size and vocabulary must be positive whole numbers")
        if config.d_model % config.n_heads:
            raise ValueError(f"hidden_size {config.d_model} is not divisible by num_attention_heads {config.n_heads}")
    except (KeyError, TypeError, ValueError) as e:
        raise UserError(f"The config.json of {where} is not a usable BERT config: {e}") from None
    cells = attention_cells(config)
    if cells > MAX_ATTENTION_CELLS:  # checked before any weight is downloaded
        raise UserError(f"{where} would keep {cells / 1e6:,.0f} M attention weights per request ({config.n_layers} "
                        f"layers x {config.n_heads} heads x {min(config.max_len, MAX_CHARS + 3)}² tokens), over this "
                        f"server's limit of {MAX_ATTENTION_CELLS / 1e6:.0f} M.", "hub_attention_too_big",
                        where=str(where), cells=f"{cells / 1e6:,.0f}", layers=config.n_layers, heads=config.n_heads,
                        tokens=min(config.max_len, MAX_CHARS + 3), limit=f"{MAX_ATTENTION_CELLS / 1e6:.0f}")
    return config


# ----------------------------------------------------------------------------- brought tokenizers

_POOL = ThreadPoolExecutor(max_workers=4, thread_name_prefix="byo-tokenizer")  # tokenizers releases the GIL


def _call(fn, args, kwargs):
    try:
        return True, fn(*args, **kwargs)
    except BaseException as e:  # noqa: BLE001 -- a Rust panic (pyo3 PanicException) is a BaseException
        return False, e


class GuardedTokenizer:
    """A brought tokenizer whose encode and decode run with a time bound, a Rust panic (an Oniguruma regex over its
    retry limit, ...) becoming a UserError. A tokenizer that ran out of time once is refused from then on (its
    thread may still be running). Everything else is the wrapped `tokenizers.Tokenizer`'s."""

    def __init__(self, tok: Tokenizer, seconds: float = TOKENIZE_SECONDS):
        self._tok, self._seconds, self._stuck = tok, seconds, False

    def __getattr__(self, name):
        return getattr(self._tok, name)

    def encode(self, *args, **kwargs):
        return self._guarded(self._tok.encode, args, kwargs)

    def encode_batch(self, *args, **kwargs):
        return self._guarded(self._tok.encode_batch, args, kwargs)

    def decode(self, *args, **kwargs):
        return self._guarded(self._tok.decode, args, kwargs)

    def _guarded(self, fn, args, kwargs):
        if self._stuck:
            raise UserError("This model's tokenizer stopped answering earlier; choose another model.",
                            "tokenizer_stuck")
        try:
            ok, value = _POOL.submit(_call, fn, args, kwargs).result(timeout=self._seconds)
        except FutureTimeout:
            self._stuck = True
            raise UserError(f"This model's tokenizer took over {self._seconds:g} s on this text (its rules are too "
                            "slow); choose another model.", "tokenizer_slow", s=f"{self._seconds:g}") from None
        if ok:
            return value
        error = f"{type(value).__name__}: {str(value).splitlines()[0] if str(value) else ''}"[:200]
        raise UserError(f"This model's tokenizer failed on this text ({error}); try another text or model.",
                        "tokenizer_failed", error=error)


# A text that exercises a tokenizer's rules at the length the app reads (letters, digits, spaces, punctuation,
# Hangul, emoji): a hostile regex is caught when the model loads, not by the first visitor.
PROBE = ("a" * 400 + " " + "ab" * 200 + " 1234567890" * 30 + " " + "!?.,;:'\"-" * 20 + " 나는 학생 입니다 " * 10
         + "🙂" * 20 + " [MASK] " + "z" * 300)[:MAX_CHARS]


def load_local(folder: str | Path) -> Checkpoint:
    """A Hugging Face BERT folder (config.json, safetensors, tokenizer) as an in-repo Checkpoint."""
    folder = Path(folder).expanduser()
    if not folder.is_dir():
        raise UserError(f"{folder} is not a folder.")
    hf_config = _read_json(folder / "config.json", "the model's configuration")
    config = _bert_config(hf_config, folder)
    tok, how = _load_tokenizer(folder, hf_config, config.vocab_size)
    tok = GuardedTokenizer(tok)
    _check_tokenizer(tok, config.vocab_size, folder)
    state = _read_state(_weight_files(folder))
    _check_heads(state, folder)
    try:
        model = from_hf(state, hf_config)
    except ValueError as e:  # missing keys, untied decoder, shapes that do not fit the config
        raise UserError(f"The weights in {folder} do not load into BERT: {e}") from None
    metrics = {"source": str(folder), "parameters": sum(p.numel() for p in model.parameters()),
               "tokenizer": how, "hf_architectures": hf_config.get("architectures")}
    return Checkpoint(model.eval(), tok, config, metrics, folder)


# ----------------------------------------------------------------------------- the Hub


def _check_repo_id(repo_id) -> str:
    if not isinstance(repo_id, str) or not _REPO_ID.match(repo_id.strip()) or ".." in repo_id:
        raise UserError("A Hugging Face model id looks like 'bert-base-uncased' or 'owner/name'.", "hub_bad_id")
    return repo_id.strip()


def _hub(call, repo_id: str):
    """Run a huggingface_hub call; every failure becomes a UserError naming the repo."""
    from huggingface_hub import errors

    try:
        return call()
    except errors.GatedRepoError:
        raise UserError(f"'{repo_id}' is gated on the Hugging Face Hub: it needs an accepted licence "
                        "and a token.", "hub_gated", repo=repo_id) from None
    except errors.RepositoryNotFoundError:
        raise UserError(f"No model '{repo_id}' on the Hugging Face Hub (or it is private).", "hub_not_found",
                        repo=repo_id) from None
    except errors.RevisionNotFoundError:
        raise UserError(f"'{repo_id}' has no such revision on the Hugging Face Hub.", "hub_no_revision",
                        repo=repo_id) from None
    except Exception as e:  # the HTTP stack (requests, httpx, ...) differs between versions; whatever
        # it raises here (no network, DNS, timeout, 5xx, offline mode) means the Hub was not reachable.
        raise UserError(f"Could not reach the Hugging Face Hub for '{repo_id}' (no internet?): "
                        f"{type(e).__name__}: {e}", "hub_unreachable", repo=repo_id,
                        error=f"{type(e).__name__}: {e}") from None


def hub_files(sizes: dict[str, int | None]) -> list[str]:
    """The files of a Hub repo (name -> size) worth downloading: config, tokenizer, safetensors."""
    top = {n: s for n, s in sizes.items() if "/" not in n}
    if "config.json" not in top:
        raise UserError("The repository has no config.json.", "hub_no_config")
    if WEIGHTS in top:
        weights = [WEIGHTS]
    else:
        weights = sorted(n for n in top if n.endswith(".safetensors")) + ([INDEX] if INDEX in top else [])
    if not any(n.endswith(".safetensors") for n in weights):
        pickles = sorted(n for n in top if n.endswith(PICKLE_SUFFIXES))
        found = f" (it has {', '.join(pickles)}: pickles, which are never loaded)" if pickles else ""
        raise UserError(f"The repository has no safetensors weights{found}; only safetensors are loaded.",
                        "hub_pickles_only" if pickles else "hub_no_safetensors", files=", ".join(pickles))
    return ["config.json"] + [n for n in TOKENIZER_FILES if n in top] + weights


def load_hub(repo_id: str, max_bytes: int = 500_000_000, revision: str | None = None,
             cache_dir: str | Path | None = None) -> Checkpoint:
    """Download a BERT from the Hugging Face Hub (only config, tokenizer and safetensors, at
    most max_bytes in total, checked from the file listing before anything is fetched)."""
    repo_id = _check_repo_id(repo_id)
    try:
        import huggingface_hub
    except ImportError:
        raise UserError("Loading from the Hub needs the huggingface_hub package "
                        "(pip install huggingface_hub).") from None
    info = _hub(lambda: huggingface_hub.HfApi().model_info(repo_id, revision=revision, files_metadata=True), repo_id)
    sizes = {s.rfilename: s.size for s in (info.siblings or [])}
    files = hub_files(sizes)
    unknown = [f for f in files if sizes.get(f) is None]
    if unknown:
        raise UserError(f"The Hub did not report the size of {', '.join(unknown)} in '{repo_id}'; not downloading.",
                        "hub_unknown_size", files=", ".join(unknown), repo=repo_id)
    for name in files:  # a file parsed whole is refused from the listing, before it is downloaded
        limit = {"vocab.txt": MAX_VOCAB_BYTES, "tokenizer.json": MAX_TOKENIZER_BYTES}.get(
            name, MAX_JSON_BYTES if name.endswith(".json") else None)
        if limit is not None and sizes[name] > limit:
            raise UserError(f"The {name} of '{repo_id}' is {sizes[name]:,} bytes, over this server's limit of "
                            f"{limit:,} bytes for it; not downloading.", "hub_file_too_big", repo=repo_id,
                            file=name, size=f"{sizes[name]:,}", limit=f"{limit:,}")
    total = sum(sizes[f] for f in files)
    if total > max_bytes:
        raise UserError(f"'{repo_id}' needs {total / 1e6:.0f} MB ({', '.join(files)}), over the limit of "
                        f"{max_bytes / 1e6:.0f} MB.", "hub_too_big", repo=repo_id, mb=f"{total / 1e6:.0f}",
                        files=", ".join(files), limit=f"{max_bytes / 1e6:.0f}")

    def fetch(name: str) -> Path:
        return Path(_hub(lambda: huggingface_hub.hf_hub_download(repo_id, name, revision=info.sha,
                                                                 cache_dir=cache_dir), repo_id))

    cache = _repo_cache(cache_dir, repo_id)
    existed = cache.exists()
    try:
        config_path = fetch("config.json")  # first: a model that is not BERT is refused before its weights come
        _bert_config(_read_json(config_path, "the model's configuration"), repo_id)
        for name in files[1:]:
            fetch(name)
        ckpt = load_local(config_path.parent)  # every file of one revision lands in one snapshot folder
    except BaseException:
        _forget_download(cache, existed)  # a refused or broken download must not stay on disk, uncounted
        raise
    source = f"https://huggingface.co/{repo_id}" + (f" @ {info.sha}" if info.sha else "")
    return dataclasses.replace(ckpt, metrics={**ckpt.metrics, "source": source, "download_bytes": total})


_FAILED = {"count": 0, "bytes": 0}  # downloads deleted after a failure, since the process started
_FAILED_LOCK = threading.Lock()


def failed_downloads() -> dict:
    """{"count": Hub downloads that failed or were refused after they began, "bytes": what they had written
    and was deleted}."""
    with _FAILED_LOCK:
        return dict(_FAILED)


def _repo_cache(cache_dir, repo_id: str) -> Path:
    """huggingface_hub's cache folder of a model repo (models--owner--name)."""
    from huggingface_hub import constants

    return Path(cache_dir or constants.HF_HUB_CACHE) / ("models--" + repo_id.replace("/", "--"))


def _forget_download(cache: Path, existed: bool) -> None:
    """Delete what a failed download wrote: the whole repo folder when this download created it, else only its
    unfinished blobs (another load's files stay)."""
    if not cache.exists():
        return
    files = [f for f in cache.rglob("*") if f.is_file() and not f.is_symlink()]
    if existed:
        files = [f for f in files if f.name.endswith(".incomplete")]
    size = sum(f.stat().st_size for f in files)
    if existed:
        for f in files:
            f.unlink(missing_ok=True)
    else:
        shutil.rmtree(cache, ignore_errors=True)
    with _FAILED_LOCK:
        _FAILED["count"] += 1
        _FAILED["bytes"] += size


# ----------------------------------------------------------------------------- the app's operator


def folder_from_env() -> Path | None:
    """The folder named by ATTN_EXPLORER_BERT_DIR, or None when it is unset or empty."""
    value = os.environ.get(ENV_VAR, "").strip()
    return Path(value).expanduser() if value else None


def register(reg: Registry, ckpt: Checkpoint, name: str = "bert-custom") -> None:
    """Add ckpt to reg under name (never replacing a shipped model), for fill_mask/nsp/encode_bert."""
    if name in reg.models and reg.models[name] is not ckpt:
        raise ValueError(f"a model named '{name}' is already registered")
    reg.models[name] = ckpt
    reg.errors.pop(name, None)


def load_from_env(reg: Registry, name: str = "bert-custom") -> str | None:
    """At start-up: load the folder of ATTN_EXPLORER_BERT_DIR into reg as `name`. A folder that
    fails to load is recorded in reg.errors, like a broken shipped checkpoint. Returns the
    name registered (or recorded as broken), None when the variable is unset."""
    folder = folder_from_env()
    if folder is None:
        return None
    try:
        register(reg, load_local(folder), name)
    except UserError as e:
        reg.errors[name] = str(e)
    return name
