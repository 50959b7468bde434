"""Command line over explorer/compute/inference.py: `python -m explorer translate|fill-mask|nsp|embed|export|generate|models`.

Prints JSON Lines: one object per input on stdout, exactly the record's `.to_json()` (the
same numbers the app shows), so a batch file can be piped into `jq` or pandas. Errors a
user can cause become `{"error": message}` for that input, a one-line note on stderr and
exit status 2 at the end; the batch keeps going and no traceback is ever printed.

Masked attention scores are -inf; strict JSON has no infinity, so they are null here
(`Trace.to_json` does it; anything else non-finite is nulled as a last resort).
"""
from __future__ import annotations

import argparse
import json
import math
import os
import sys
from pathlib import Path

import torch

from explorer.serve import bertviz_export
from explorer.compute.choices import next_word_choices
from explorer.compute.elmo import word_vector
from explorer.compute.generate import (DEFAULT_TEMPERATURE, DEFAULT_TOP_K, DEFAULT_TOP_P, MAX_NEW_TOKENS,
                                       generate_stream)
from explorer.compute.inference import (ASSETS, MAX_BEAM, MAX_TOP_K, Registry, UserError, fill_mask,
                                load_registry, nsp, translate)

PROG = "python -m explorer"
EXIT_USER_ERROR = 2  # argparse also uses 2 for usage errors
EXIT_INTERNAL_ERROR = 1

SHAPES = """\
output (one JSON object per input, one per line):
  translate  {"model", "source_tokens", "target_tokens", "decoder_input_tokens", "translation",
              "attention": {"cross": [L][H][tgt][src], "enc_self": [L][H][src][src],
                            "dec_self": [L][H][tgt][tgt], "dec_self_scores": [L][H][tgt][tgt]},
              "hypotheses", "chosen", "length_penalty", "notices"}      (null where the model has none)
  fill-mask  {"tokens", "segments", "masks": [{"index", "predictions": [{"token", "probability"}]}],
              "attention": {"enc_self"}, ...}
  embed      {"model", "word", "sentence", "tokens", "positions", "layer", "n_layers", "vector", "notices"}
  nsp        {"is_next", "not_next", "tokens", "segments", "attention": {"enc_self"}, ...}
  translate --target/--choices  {"model", "forced", "source_tokens", "decoder_input_tokens", "target_tokens",
              "steps": [{"step", "token", "probability", "rank", "top": [{"token", "probability"}]}],
              "logprob", "perplexity", "attention", "notices"}
  export     {"model", "format": "bertviz", "view_kwargs": {"attention", "tokens", "sentence_b_start"} (BERT) or
              {"encoder_attention", "decoder_attention", "cross_attention", "encoder_tokens", "decoder_tokens"}
              with each attention [layer][1][heads][q][k]; "html" with --html}
  generate   {"model", "prompt", "text", "continuation", "tokens", "prompt_tokens", "stopped", "settings",
              "steps": [{"position", "token", "token_id", "probability", "sampled_probability", "entropy",
                         "top": [{"token", "probability", "sampled_probability"}]}],
              "attention": {"dec_self": [L][H][T][T], "dec_self_scores": [L][H][T][T]}, "notices"}
  classify   {"label", "score", "probabilities": {label: p}, "task", "tokens", "notices"}   (--task sentiment|nli)
  tag        {"words", "tags", "scores", "task", "tokens", "notices"}, one tag per word   (--task pos|ner)
  qa         {"answer", "start" (character offset in the context), "end", "score", "start_probabilities",
              "end_probabilities" (over "tokens"), "task", "tokens", "notices"}
             (classify, tag, qa with --attention: "attention": {"finetuned", "pretrained"}, each [L][H][T][T])
  models     one {"name", "arch", "status", ...} per checkpoint folder
  error      {"error": message}   (exit status 2 if any input failed)
masked scores (the causal upper triangle of dec_self_scores) are null in JSON."""


# ----------------------------------------------------------------------------- arguments


def _folder(value: str) -> Path:
    path = Path(value)
    if not path.is_dir():
        raise argparse.ArgumentTypeError(f"not a folder: {value}")
    return path


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG, description="Run the Attention Explorer's models and print JSON Lines.",
        epilog=SHAPES, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    assets = argparse.ArgumentParser(add_help=False)
    assets.add_argument("--assets", type=_folder, default=ASSETS, metavar="DIR",
                        help="folder of checkpoint folders (default: the repo's assets/)")
    per_input = argparse.ArgumentParser(add_help=False, parents=[assets])
    per_input.add_argument("--input", metavar="FILE",
                           help="read one input per line from FILE (UTF-8, '-' for stdin); blank lines are skipped")
    per_input.add_argument("--no-attention", action="store_true",
                           help="leave out the 'attention' arrays (handy for reading)")

    def add(name, help_, positional, positional_help):
        p = sub.add_parser(name, parents=[per_input], help=help_, description=help_,
                           epilog=SHAPES, formatter_class=argparse.RawDescriptionHelpFormatter)
        p.add_argument(positional, nargs="*", help=positional_help)
        p.set_defaults(command_parser=p)  # so input errors print this command's usage
        return p

    p = add("translate", "translate a sentence and show every attention map", "text",
            "the sentence (words are joined with spaces, so quotes are optional)")
    p.add_argument("--model", required=True, help="a translation model, see `models`")
    p.add_argument("--beam", type=int, default=1, metavar="N", help=f"beam size, 1 (greedy) to {MAX_BEAM}")
    p.add_argument("--target", metavar="TEXT", help="score this translation instead, teacher-forced: each token's "
                   "probability, the top-k at every step and the attention it gets (prints the choices record)")
    p.add_argument("--choices", type=int, default=None, metavar="K",
                   help=f"print the top-K next words at every step (1 to {MAX_TOP_K}; 5 with --target)")

    p = add("fill-mask", "BERT's top-k guesses for every [MASK] (any letter case)", "text",
            "the sentence with one or more [MASK]")
    p.add_argument("--top-k", type=int, default=5, metavar="K", help=f"guesses per [MASK], 1 to {MAX_TOP_K}")
    p.add_argument("--model", default="bert", help="a BERT model (default: bert)")

    p = add("nsp", "BERT's next-sentence prediction: does B follow A?", "sentences",
            "SENTENCE_A SENTENCE_B; with --input, each line is A<TAB>B")
    p.add_argument("--model", default="bert", help="a BERT model (default: bert)")

    p = add("embed", "a word's contextual vector in each sentence (its pieces averaged; 배 inside 배가)", "text",
            "the sentence that contains --word")
    p.add_argument("--word", required=True, help="the word to read (Korean: the word without its particle, e.g. 배)")
    p.add_argument("--model", default="bert", help="a BERT or translation model (default: bert; bert-ko for Korean)")
    p.add_argument("--layer", type=int, default=None, metavar="N",
                   help="0 = the embeddings, 1..L = a layer's output (default: the last, the model's output)")

    p = add("export", "a model's attention in the shapes another tool takes (bertviz's head_view/model_view)",
            "text", "the sentence (for a translation model, the source)")
    p.add_argument("--format", choices=["bertviz"], default="bertviz", help="the tool (default: bertviz)")
    p.add_argument("--model", required=True, help="any model with attention, see `models`")
    p.add_argument("--target", metavar="TEXT", help="a translation model reads this translation, teacher-forced")
    p.add_argument("--beam", type=int, default=1, metavar="N", help=f"beam size, 1 (greedy) to {MAX_BEAM}")
    p.add_argument("--html", metavar="FILE", help="also write bertviz's own HTML there (needs the bertviz package)")
    p.add_argument("--view", choices=["head", "model"], default="head", help="bertviz view for --html")

    p = add("generate", "continue a prompt with the GPT, token by token (greedy, temperature, top-k, top-p)",
            "text", "the prompt (words are joined with spaces, so quotes are optional)")
    p.add_argument("--model", default="gpt", help="a GPT model (default: gpt)")
    p.add_argument("--max-new-tokens", type=int, default=30, metavar="N", help=f"1 to {MAX_NEW_TOKENS} (default 30)")
    p.add_argument("--temperature", type=float, default=DEFAULT_TEMPERATURE, metavar="T",
                   help=f"above 0, at most 5 (default {DEFAULT_TEMPERATURE:g})")
    p.add_argument("--top-k", type=int, default=DEFAULT_TOP_K, metavar="K",
                   help=f"sample among the K most likely (0 = all; default {DEFAULT_TOP_K})")
    p.add_argument("--top-p", type=float, default=DEFAULT_TOP_P, metavar="P",
                   help=f"nucleus: in (0, 1] (1 = all; default {DEFAULT_TOP_P:g})")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="the same seed gives the same text (default 0)")
    p.add_argument("--greedy", action="store_true", help="the most likely token every step (no sampling)")
    p.add_argument("--alternatives", type=int, default=10, metavar="N",
                   help=f"alternatives listed per step, 1 to {MAX_TOP_K} (default 10)")
    p.add_argument("--stream", action="store_true",
                   help='also print each step as it is generated, {"step": {...}}, before the record')

    p = sub.add_parser("syntax", help="heads vs syntax (Clark et al. 2019): each relation's best head vs the best "
                       "fixed offset, from assets/syntax/ or recomputed from a treebank",
                       description="Heads vs syntax (explorer/compute/syntax.py): one JSON line per relation.")
    p.add_argument("--model", default="bert", help="a model with a table in assets/syntax/ (default: bert)")
    p.add_argument("--relation", help="only this relation, with its layer x head accuracy grids")
    p.add_argument("--data-dir", metavar="DIR", help="recompute from DIR/pos-ud-english-ewt (minutes on CPU)")
    p.add_argument("--limit", type=int, metavar="N", help="with --data-dir: the first N sentences only")
    _add_task_commands(sub, assets)
    sub.add_parser("models", parents=[assets], help="list the checkpoints with their metadata and metrics",
                   description="List every checkpoint folder: metadata and metrics, or why it failed to load.")
    return parser


def _inputs(args) -> list[tuple[str | None, object]]:
    """[(where, input)]: `where` labels stderr notes ('line 3' in a batch); an nsp input is a
    pair, or a UserError for a line that is not `A<TAB>B` so that only that line fails."""
    parser = args.command_parser
    positional = args.sentences if args.command == "nsp" else args.text
    if args.input is not None and positional:
        parser.error("give the input as arguments or with --input, not both")
    if args.input is None:
        if args.command == "nsp":
            if len(positional) != 2:
                parser.error("nsp needs two sentences: SENTENCE_A SENTENCE_B (quote each one)")
            return [(None, tuple(positional))]
        if not positional:
            parser.error("give the text to process, or --input FILE")
        return [(None, " ".join(positional))]

    try:
        raw = sys.stdin.buffer.read() if args.input == "-" else Path(args.input).read_bytes()
    except OSError as e:
        parser.error(f"cannot read --input {args.input}: {e.strerror or e}")
    # utf-8-sig drops a BOM; split on \n only, since str.splitlines() would also split on
    # characters like U+2028 that may sit inside a sentence.
    lines = raw.decode("utf-8-sig", errors="replace").split("\n")
    out = []
    for n, line in enumerate(lines, 1):
        line = line.rstrip("\r")
        if not line.strip():
            continue
        if args.command == "nsp":
            a, tab, b = line.partition("\t")
            out.append((f"line {n}", (a, b) if tab else
                        UserError("Expected two sentences separated by a tab: SENTENCE_A<TAB>SENTENCE_B.")))
        else:
            out.append((f"line {n}", line))
    return out


# ----------------------------------------------------------------------------- fine-tuned tasks

TASK_COMMANDS = ("classify", "tag", "qa")


def _add_task_commands(sub, assets) -> None:
    """classify / tag / qa: the fine-tuned BERT tasks of explorer.compute.pipeline, with the
    records `pipeline(...)` returns."""
    common = argparse.ArgumentParser(add_help=False, parents=[assets])
    common.add_argument("--input", metavar="FILE",
                        help="read one input per line from FILE (UTF-8, '-' for stdin); blank lines are skipped")
    common.add_argument("--attention", action="store_true",
                        help="add the fine-tuned and the pre-trained model's attention on the same tokens")
    specs = [("classify", "a fine-tuned BERT's label: --task sentiment TEXT, or --task nli PREMISE HYPOTHESIS "
                          "(with --input, nli lines are PREMISE<TAB>HYPOTHESIS)"),
             ("tag", "a tag per word: --task pos (UPOS) or --task ner (IOB2: B-PER, I-LOC, O, ...); words are the "
                     "text split on spaces, as given"),
             ("qa", "the answer span in a paragraph: --question Q --context C (with --input, lines are JSON "
                    'objects {"question": ..., "context": ...})')]
    for name, help_ in specs:
        p = sub.add_parser(name, parents=[common], help=help_, description=help_, epilog=SHAPES,
                           formatter_class=argparse.RawDescriptionHelpFormatter)
        if name == "qa":
            p.add_argument("--question", help="the question")
            p.add_argument("--context", help="the paragraph that holds the answer")
        else:
            p.add_argument("--task", required=True, help="sentiment, sentiment-ko (Korean, on bert-ko) or nli" if name == "classify" else "pos or ner")
            p.add_argument("text", nargs="*", help="the text (nli: two quoted sentences)")
        p.set_defaults(command_parser=p, model="bert")  # only the base BERT is loaded from --assets


def _task_inputs(args) -> list[tuple[str | None, object]]:
    """[(where, input)] for classify / tag / qa; an unknown task or a bad line is a UserError item, so it
    prints {"error": ...} and the exit status is 2."""
    from explorer.compute.pipeline import task_name
    parser = args.command_parser
    if args.command == "qa":
        given = args.question is not None or args.context is not None
        if args.input is not None and given:
            parser.error("give --question and --context, or --input, not both")
        if args.input is None:
            if args.question is None:
                parser.error("qa needs --question Q --context C (or --input FILE)")
            return [(None, (args.question, args.context))]
    else:
        try:
            task = task_name(args.task)
        except UserError as e:
            return [(None, e)]
        if args.input is not None and args.text:
            parser.error("give the input as arguments or with --input, not both")
        if args.input is None:
            if task == "nli":
                if len(args.text) != 2:
                    parser.error("classify --task nli needs two sentences: PREMISE HYPOTHESIS (quote each one)")
                return [(None, tuple(args.text))]
            if not args.text:
                parser.error("give the text to process, or --input FILE")
            return [(None, " ".join(args.text))]
    try:
        raw = sys.stdin.buffer.read() if args.input == "-" else Path(args.input).read_bytes()
    except OSError as e:
        parser.error(f"cannot read --input {args.input}: {e.strerror or e}")
    out = []
    for n, line in enumerate(raw.decode("utf-8-sig", errors="replace").split("\n"), 1):
        line = line.rstrip("\r")
        if not line.strip():
            continue
        if args.command == "qa":
            try:
                obj = json.loads(line)
                item = (obj["question"], obj["context"]) if isinstance(obj, dict) else None
            except (ValueError, KeyError):
                item = None
            out.append((f"line {n}", item or UserError(
                'Expected a JSON object with "question" and "context" on each line.', "qa_line")))
        elif args.command == "classify" and task_name(args.task) == "nli":
            a, tab, b = line.partition("\t")
            out.append((f"line {n}", (a, b) if tab else
                        UserError("Expected two sentences separated by a tab: PREMISE<TAB>HYPOTHESIS.", "nli_line")))
        else:
            out.append((f"line {n}", line))
    return out


def _task_record(args, item) -> dict:
    from explorer.compute import pipeline as ft
    folder = Path(args.assets) / "finetune"
    task = "qa" if args.command == "qa" else args.task
    try:  # the task's own base: bert, or bert-ko for sentiment-ko
        base = ft.base_name(folder / ft.task_name(task))
    except UserError:
        base = "bert"  # an unknown task: its own call below says so, listing the known ones
    reg = _load(args.assets, base)
    if args.command == "qa":
        rec = ft.answer(item[0], item[1], reg=reg, with_base=args.attention, folder=folder)
    elif args.command == "tag":
        rec = ft.tag(args.task, item, reg=reg, with_base=args.attention, folder=folder)
    elif isinstance(item, tuple):
        rec = ft.classify(args.task, item[0], item[1], reg=reg, with_base=args.attention, folder=folder)
    else:
        rec = ft.classify(args.task, item, reg=reg, with_base=args.attention, folder=folder)
    return rec.to_json(attention=args.attention)


# ----------------------------------------------------------------------------- running


def _record(args, reg: Registry, item) -> dict:
    if isinstance(item, UserError):
        raise item
    if args.command in TASK_COMMANDS:
        return _task_record(args, item)
    if args.command == "translate" and (args.target is not None or args.choices is not None):
        rec = next_word_choices(args.model, item, target=args.target, top_k=5 if args.choices is None else args.choices,
                                beam=args.beam, reg=reg)
    elif args.command == "translate":
        rec = translate(args.model, item, beam=args.beam, reg=reg)
    elif args.command == "export":
        return _export(args, reg, item)
    elif args.command == "generate":
        rec = None
        for rec in generate_stream(item, args.max_new_tokens, args.temperature, args.top_k, args.top_p, args.seed,
                                   args.greedy, args.alternatives, name=args.model, reg=reg):
            if args.stream:
                _emit({"step": rec.to_json(attention=False)["steps"][-1]})
    elif args.command == "embed":
        return word_vector(args.word, item, name=args.model, layer=args.layer, reg=reg).to_json()
    elif args.command == "fill-mask":
        rec = fill_mask(item, top_k=args.top_k, name=args.model, reg=reg)
    else:
        rec = nsp(item[0], item[1], name=args.model, reg=reg)
    out = rec.to_json()
    if args.no_attention:
        out.pop("attention", None)
    return out


def _export(args, reg: Registry, item) -> dict:
    """bertviz's keyword arguments as JSON ({"model", "format", "view_kwargs"}), and its HTML with --html."""
    kwargs = bertviz_export.bertviz_inputs(args.model, item, target=args.target, beam=args.beam, reg=reg)
    out = {"model": args.model, "format": args.format}
    if args.html:
        path = Path(args.html)
        n = getattr(args, "_export_n", 0) + 1  # a batch writes FILE, FILE.2.html, FILE.3.html ...
        args._export_n = n
        if n > 1:
            path = path.with_name(f"{path.stem}.{n}{path.suffix or '.html'}")
        try:
            path.write_text(bertviz_export.html(kwargs, args.view), encoding="utf-8")
        except OSError as e:
            raise UserError(f"Cannot write --html {path}: {e.strerror or e}") from None
        out["html"] = str(path)
    if not args.no_attention:
        out["view_kwargs"] = bertviz_export.to_json(kwargs)
    return out


def _finite(x):
    """Non-finite floats -> None, recursively (strict JSON has no NaN or Infinity)."""
    if isinstance(x, float):
        return x if math.isfinite(x) else None
    if isinstance(x, dict):
        return {k: _finite(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_finite(v) for v in x]
    return x


def dumps(obj) -> str:
    """Strict, one-line JSON; the slow non-finite scrub only runs when it is needed."""
    try:
        return json.dumps(obj, allow_nan=False, ensure_ascii=False)
    except ValueError:
        return json.dumps(_finite(obj), allow_nan=False, ensure_ascii=False)


def _emit(obj) -> None:
    sys.stdout.write(dumps(obj) + "\n")
    sys.stdout.flush()  # stream a long batch line by line


_SHIPPED: dict[str | None, Registry] = {}  # assets/ is read-only: reuse across main() calls (tests)


def _load(assets: Path, name: str | None = None) -> Registry:
    """The registry for `name` alone (a CLI run needs one model, and loading all of them
    costs seconds), or all of assets/ when no name is given or it is not a folder there,
    so that the 'Unknown model' error can list the alternatives."""
    shipped = assets.resolve() == ASSETS.resolve()
    if shipped and name in _SHIPPED:
        return _SHIPPED[name]
    reg = load_registry(assets, names=None if name is None else {name})
    if name is not None and name not in reg.models and name not in reg.errors:
        return _load(assets, None)
    if shipped:
        _SHIPPED[name] = reg
    return reg


def run(args) -> int:
    if args.command == "syntax":  # a table, not one record per input (explorer/compute/syntax.py)
        from explorer.compute.syntax import cli
        return cli(args, _emit)
    items = [] if args.command == "models" else _task_inputs(args) if args.command in TASK_COMMANDS else _inputs(args)
    reg = _load(args.assets, getattr(args, "model", None))
    if args.command == "models":
        for entry in reg.describe():
            _emit(entry)
        if not reg.models and not reg.errors:
            print(f"{PROG}: no checkpoint folders in {args.assets}", file=sys.stderr)
            return EXIT_USER_ERROR
        return 0

    status = 0
    for where, item in items:
        label = f"{PROG} {args.command}: " + (f"{where}: " if where else "")
        try:
            _emit(_record(args, reg, item))
        except UserError as e:
            _emit({"error": str(e)})
            print(f"{label}{e}", file=sys.stderr)
            status = status or EXIT_USER_ERROR
        except BrokenPipeError:
            raise
        except Exception as e:  # a bug, not the user's fault: report it and keep going
            _emit({"error": f"Internal error ({type(e).__name__}): {e}"})
            print(f"{label}internal error ({type(e).__name__}): {e}", file=sys.stderr)
            status = EXIT_INTERNAL_ERROR
    return status


def main(argv: list[str] | None = None) -> int:
    """Run one command; returns the exit status (argparse usage errors raise SystemExit(2)).
    Leaves process-wide settings alone, so tests and notebooks can call it; see `entry`."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return run(args)
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # e.g. `... | head -1`: the reader left, nothing more to say
        try:  # point stdout at devnull so the interpreter's final flush stays quiet (Python docs' recipe)
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        return 0
    except Exception as e:  # e.g. a checkpoint that breaks the loader in an unforeseen way
        print(f"{PROG}: internal error ({type(e).__name__}): {e}", file=sys.stderr)
        return EXIT_INTERNAL_ERROR


def entry() -> None:
    """`python -m explorer`: the process is ours, so pick torch's thread count here. A few
    threads speed up these small models; more only contend (and CPU quotas may be small)."""
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    torch.set_num_threads(min(4, cpus or 1))
    if (sys.stdout.encoding or "").lower().replace("-", "") != "utf8":
        sys.stdout.reconfigure(encoding="utf-8")  # ensure_ascii=False output is UTF-8 on any locale
    sys.exit(main())
