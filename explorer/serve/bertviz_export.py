"""Any model's attention in the shapes bertviz takes (Vig 2019, "A Multiscale Visualization of Attention in the
Transformer Model"; github.com/jessevig/bertviz), for notebook users.

bertviz's `head_view` and `model_view` take attention as a sequence with one tensor per layer, each
(batch = 1, heads, queries, keys), and the tokens of each axis:
* a self-attention model (BERT): attention=..., tokens=..., sentence_b_start=... (where sentence B starts);
* an encoder-decoder: encoder_attention=, decoder_attention=, cross_attention=, encoder_tokens=, decoder_tokens=.
The Transformer gives all three; an RNN encoder-decoder has cross attention alone (1 layer, 1 head), which
head_view draws too. The weights are the Trace's: post-softmax, pre-dropout, from the same pass the app draws.

    from bertviz import head_view
    from explorer.serve.bertviz_export import bertviz_inputs
    head_view(**bertviz_inputs("transformer-en-fr", "I am a student."))

`python -m explorer export --format bertviz --model NAME TEXT` prints the same as JSON (nested lists), or writes
bertviz's HTML with --html FILE (bertviz is in requirements-dev.txt, not needed to run the app).
"""
from __future__ import annotations

import numpy as np
import torch

from explorer.compute.inference import Registry, UserError, encode_bert, registry, translate

VIEWS = ("head", "model")


def _layers(att) -> tuple[torch.Tensor, ...]:
    """[L, H, q, k] numpy -> L tensors (1, H, q, k), as bertviz's format_attention reads them."""
    a = torch.as_tensor(np.asarray(att, dtype=np.float32))
    return tuple(a[layer][None] for layer in range(a.shape[0]))


def from_translation(r) -> dict:
    """head_view/model_view keyword arguments from an inference.TranslationResult (or a choices.ChoicesResult):
    decoder axes are the decoder's input tokens <s> y1 .., the query axis of its self and cross attention."""
    out = {"encoder_tokens": list(r.source_tokens), "decoder_tokens": list(r.decoder_input_tokens)}
    t = r.trace
    if t.enc_self is not None:
        out["encoder_attention"] = _layers(t.enc_self)
    if t.dec_self is not None:
        out["decoder_attention"] = _layers(t.dec_self)
    if t.cross is not None:
        out["cross_attention"] = _layers(t.cross)
    return out


def from_bert(r) -> dict:
    """head_view/model_view keyword arguments from an inference.BertResult."""
    b = next((i for i, s in enumerate(r.segments) if s == 1), None)
    return {"attention": _layers(r.trace.enc_self), "tokens": list(r.tokens), "sentence_b_start": b}


def bertviz_inputs(name: str, text: str, text_b: str | None = None, target: str | None = None, beam: int = 1,
                   reg: Registry | None = None) -> dict:
    """Model `name`'s attention on `text` as bertviz's keyword arguments. A translation model translates (beam
    size `beam`), or reads the typed `target` teacher-forced; BERT reads `text` (and sentence `text_b`)."""
    reg = reg or registry()
    ckpt = reg.get(name, ("bert", "transformer", "seq2seq"))
    if ckpt.config.arch == "bert":
        return from_bert(encode_bert(text, text_b, name=name, reg=reg))
    if ckpt.config.arch == "seq2seq" and ckpt.config.attention == "none":
        raise UserError(f"{name} has no attention to export.", "no_attention_export", name=name)
    if target is not None and str(target).strip():
        from explorer.compute.choices import next_word_choices
        return from_translation(next_word_choices(name, text, target=target, top_k=1, reg=reg))
    return from_translation(translate(name, text, beam=beam, reg=reg))


def to_json(kwargs: dict) -> dict:
    """The keyword arguments with tensors as nested lists [layer][0][head][q][k] (6 decimals)."""
    return {k: ([np.round(a.numpy().astype(np.float64), 6).tolist() for a in v] if isinstance(v, tuple) else v)
            for k, v in kwargs.items()}


def from_json(obj: dict) -> dict:
    """to_json's output back to bertviz's keyword arguments (tensors per layer)."""
    return {k: (tuple(torch.tensor(a, dtype=torch.float32) for a in v) if k.endswith("attention") else v)
            for k, v in obj.items()}


def html(kwargs: dict, view: str = "head") -> str:
    """bertviz's own HTML for the attention (needs the bertviz package)."""
    try:
        import bertviz
    except ImportError:
        raise UserError("Writing HTML needs the bertviz package: pip install bertviz", "needs_bertviz") from None
    if view not in VIEWS:
        raise UserError(f"View must be one of {', '.join(VIEWS)} (got {view!r}).", "bad_view", view=str(view))
    draw = bertviz.head_view if view == "head" else bertviz.model_view
    return draw(**kwargs, html_action="return").data
