"""BERT: a bidirectional Transformer encoder pre-trained with masked language modelling
and next-sentence prediction (Devlin et al. 2018, "BERT: Pre-training of Deep
Bidirectional Transformers for Language Understanding", arXiv:1810.04805).

Embeddings (section 3, figure 2) -> N encoder layers (Vaswani et al. 2017, post-LN as in
the paper; pre-LN optional, Xiong et al. 2020; QK-LayerNorm optional, Dehghani et al.
2023) -> an MLM head tied to the token
embedding and an NSP head on the pooled [CLS] state (section 3.1, tasks #1 and #2).
Attention comes from models.attention and is returned as a `Trace`, never stored.
`from_hf` loads a Hugging Face `BertForPreTraining` state dict by explicit name mapping.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import torch
import torch.nn as nn
import torch.nn.functional as F

from models.attention import MultiHeadAttention
from models.trace import Trace


@dataclass(frozen=True)
class BertConfig:
    arch: ClassVar[str] = "bert"
    vocab_size: int  # number of WordPiece tokens
    d_model: int  # hidden size H (768 in BERT-base)
    n_layers: int  # encoder layers L (12 in BERT-base)
    n_heads: int  # attention heads A (12 in BERT-base)
    d_ff: int  # feed-forward inner size (4H in the paper)
    max_len: int  # number of learned positions (512 in the paper)
    n_segments: int = 2  # segment (token type) embeddings: sentence A / sentence B
    dropout: float = 0.1  # on embeddings, attention weights and sub-layer outputs
    layer_norm_eps: float = 1e-12  # the epsilon of the original TensorFlow code
    pre_ln: bool = False  # False = post-LN as in the paper/HF; True = pre-LN (trains faster)
    pad_id: int = 0  # token id of [PAD]; the default attention mask hides it
    qk_norm: bool = False  # LayerNorm on each head's queries and keys (Dehghani et al. 2023)


@dataclass(frozen=True)
class BertOutput:
    mlm_logits: torch.Tensor  # (B, T, V) masked-LM scores at every position; (B, P, V) at mlm_positions or labels
    nsp_logits: torch.Tensor  # (B, 2) index 0 = IsNext, 1 = NotNext (HF convention)
    loss: torch.Tensor | None  # MLM + NSP cross entropy over the labels given, else None
    hidden: torch.Tensor  # (B, T, d_model) final (contextual) hidden states
    embeddings: torch.Tensor  # (B, T, d_model) static token embedding lookup only
    trace: Trace | None = None  # enc_self (B, L, H, T, T) when need_weights


class Embeddings(nn.Module):
    """Input = token + segment + position embeddings (section 3.2, figure 2), then LN, dropout."""

    def __init__(self, config: BertConfig):
        super().__init__()
        self.tok = nn.Embedding(config.vocab_size, config.d_model)
        self.pos = nn.Embedding(config.max_len, config.d_model)
        self.seg = nn.Embedding(config.n_segments, config.d_model)
        self.norm = nn.LayerNorm(config.d_model, eps=config.layer_norm_eps)
        self.drop = nn.Dropout(config.dropout)

    def forward(self, input_ids: torch.Tensor, segment_ids: torch.Tensor):
        """Returns (summed input (B, T, d_model), static token embeddings (B, T, d_model))."""
        static = self.tok(input_ids)
        positions = torch.arange(input_ids.size(1), device=input_ids.device)  # (T,)
        x = static + self.pos(positions) + self.seg(segment_ids)
        return self.drop(self.norm(x)), static


class EncoderLayer(nn.Module):
    """Self-attention and a GELU feed-forward, each wrapped in residual + LayerNorm."""

    def __init__(self, config: BertConfig):
        super().__init__()
        self.pre_ln = config.pre_ln
        self.attn = MultiHeadAttention(config.d_model, config.n_heads, config.dropout, config.qk_norm)
        self.attn_norm = nn.LayerNorm(config.d_model, eps=config.layer_norm_eps)
        self.ff_in = nn.Linear(config.d_model, config.d_ff)
        self.ff_out = nn.Linear(config.d_ff, config.d_model)
        self.ff_norm = nn.LayerNorm(config.d_model, eps=config.layer_norm_eps)
        self.drop = nn.Dropout(config.dropout)

    def ff(self, x: torch.Tensor) -> torch.Tensor:
        return self.ff_out(F.gelu(self.ff_in(x)))  # exact erf GELU, HF's "gelu"

    def forward(self, x: torch.Tensor, mask: torch.Tensor, need_weights: bool,
                head_mask: torch.Tensor | None = None):
        """head_mask: (n_heads,) or (B, n_heads), 1 = keep (see MultiHeadAttention.forward)."""
        if self.pre_ln:  # x + f(LN(x)), Xiong et al. 2020
            h = self.attn_norm(x)
            a = self.attn(h, h, mask, need_weights, head_mask)
            x = x + self.drop(a.out)
            x = x + self.drop(self.ff(self.ff_norm(x)))
        else:  # LN(x + f(x)), Vaswani et al. 2017 / Devlin et al. 2018
            a = self.attn(x, x, mask, need_weights, head_mask)
            x = self.attn_norm(x + self.drop(a.out))
            x = self.ff_norm(x + self.drop(self.ff(x)))
        return x, a.probs


class MLMHead(nn.Module):
    """dense -> GELU -> LayerNorm -> decoder tied to the token embedding, own bias."""

    def __init__(self, config: BertConfig, tok_emb: nn.Embedding):
        super().__init__()
        self.dense = nn.Linear(config.d_model, config.d_model)
        self.norm = nn.LayerNorm(config.d_model, eps=config.layer_norm_eps)
        self.decoder = nn.Linear(config.d_model, config.vocab_size)
        self.decoder.weight = tok_emb.weight  # weight tying (Press & Wolf 2017), as in BERT

    def forward(self, h: torch.Tensor) -> torch.Tensor:
        return self.decoder(self.norm(F.gelu(self.dense(h))))  # (B, T, V)


class Bert(nn.Module):
    def __init__(self, config: BertConfig):
        super().__init__()
        self.config = config
        self.embeddings = Embeddings(config)
        self.layers = nn.ModuleList(EncoderLayer(config) for _ in range(config.n_layers))
        # Pre-LN leaves the residual stream un-normalised, so it needs a final LayerNorm.
        self.final_norm = nn.LayerNorm(config.d_model, eps=config.layer_norm_eps) if config.pre_ln else None
        self.pooler = nn.Linear(config.d_model, config.d_model)
        self.mlm = MLMHead(config, self.embeddings.tok)
        self.nsp = nn.Linear(config.d_model, 2)
        self.apply(self._init_weights)

    @staticmethod
    def _init_weights(module: nn.Module) -> None:
        # BERT's initializer: truncated normal in TF, plain normal(0, 0.02) in HF.
        if isinstance(module, (nn.Linear, nn.Embedding)):
            nn.init.normal_(module.weight, mean=0.0, std=0.02)
        if isinstance(module, nn.Linear) and module.bias is not None:
            nn.init.zeros_(module.bias)
        if isinstance(module, nn.LayerNorm):
            nn.init.ones_(module.weight)
            nn.init.zeros_(module.bias)

    def forward(self, input_ids: torch.Tensor, segment_ids: torch.Tensor | None = None,
                attention_mask: torch.Tensor | None = None, mlm_labels: torch.Tensor | None = None,
                nsp_labels: torch.Tensor | None = None, need_weights: bool = False,
                mlm_labelled_only: bool = False, mlm_positions: torch.Tensor | None = None,
                head_mask: torch.Tensor | None = None) -> BertOutput:
        """input_ids, segment_ids, attention_mask, mlm_labels: (B, T); nsp_labels: (B,).

        attention_mask: 1/True = real token (default: input_ids != pad_id).
        mlm_labels: -100 where a position does not count.
        mlm_labelled_only (training): run the MLM head only where mlm_labels are set, about 15% of
        the positions, so mlm_logits is (B, P, V) for the P labelled slots of each row. The head over
        every position is a third of the model's compute at 16k vocabulary.
        mlm_positions (inference): (B, P) positions, e.g. the [MASK]s, that get MLM scores;
        mlm_logits is then (B, P, V), and P = 0 (next-sentence prediction) skips the head.
        head_mask (ablation): (n_layers, n_heads) or (B, n_layers, n_heads), 1 = keep, 0 = the head's
        output is zeroed before W^O (Michel et al. 2019); None = every head, exactly as without it.
        """
        if segment_ids is None:
            segment_ids = torch.zeros_like(input_ids)
        if attention_mask is None:
            attention_mask = input_ids != self.config.pad_id
        key_mask = attention_mask.bool()[:, None, None, :]  # (B, 1, 1, T): every query, every head
        x, static = self.embeddings(input_ids, segment_ids)
        probs = []
        for i, layer in enumerate(self.layers):
            x, p = layer(x, key_mask, need_weights, None if head_mask is None else head_mask[..., i, :])
            probs.append(p)
        if self.final_norm is not None:
            x = self.final_norm(x)

        if mlm_labelled_only and mlm_labels is not None:
            # Labelled positions first, per row, without a host sync (boolean indexing would need
            # one). P covers Binomial(T, 0.15) with 6 sigma to spare; extra slots carry label -100.
            T = mlm_labels.shape[1]
            P = min(T, int(0.3 * T) + 8)
            slots = torch.topk((mlm_labels != -100).float(), P, dim=1, sorted=False).indices  # (B, P)
            mlm_labels, mlm_positions = mlm_labels.gather(1, slots), slots
        if mlm_positions is not None:
            mlm_logits = self.mlm(x.gather(1, mlm_positions[..., None].expand(-1, -1, x.shape[-1])))  # (B, P, V)
        else:
            mlm_logits = self.mlm(x)  # (B, T, V)
        pooled = torch.tanh(self.pooler(x[:, 0]))  # (B, d_model) from [CLS]
        nsp_logits = self.nsp(pooled)  # (B, 2)

        losses = []
        if mlm_labels is not None:
            losses.append(F.cross_entropy(mlm_logits.flatten(0, 1), mlm_labels.flatten(), ignore_index=-100))
        if nsp_labels is not None:
            losses.append(F.cross_entropy(nsp_logits, nsp_labels))
        loss = sum(losses) if losses else None
        trace = Trace(enc_self=torch.stack(probs, dim=1)) if need_weights else None  # (B, L, H, T, T)
        return BertOutput(mlm_logits, nsp_logits, loss, x, static, trace)


# ---------------------------------------------------------------------------------------
# Growing a trained pre-LN Bert deeper, without changing what it computes.


def deepen_state(state: dict[str, torch.Tensor], n_old: int, n_new: int) -> dict[str, torch.Tensor]:
    """The state dict of an n_new-layer pre-LN Bert that computes what the n_old-layer one does.

    Layer j of the new stack is a copy of old layer j * n_old // n_new, so each old layer appears
    in place, repeated (progressive stacking, Gong et al. 2019, copies layers to grow BERT). Every
    copy after the first has its two output projections (attention's out_proj and the FFN's
    ff_out, weights and biases) zeroed: in a pre-LN layer, x + f(LN(x)) with f's last projection
    zero is x, so the copy starts as an identity (Net2DeeperNet, Chen et al. 2016), and its
    queries, keys and FFN input start from trained weights. Post-LN layers are not identities
    this way (LN(x + 0) is not x), so the caller checks pre_ln."""
    if n_new <= n_old:
        raise ValueError(f"deepen_state: {n_new} layers is not deeper than {n_old}")
    out = {k: v for k, v in state.items() if not k.startswith("layers.")}
    for j in range(n_new):
        i = j * n_old // n_new
        first = j == 0 or (j - 1) * n_old // n_new != i
        for k, v in state.items():
            if k.startswith(f"layers.{i}."):
                name = k[len(f"layers.{i}."):]
                zero = not first and name.rsplit(".", 2)[-2] in ("out_proj", "ff_out")
                out[f"layers.{j}.{name}"] = torch.zeros_like(v) if zero else v.clone()
    return out


# ---------------------------------------------------------------------------------------
# Loading Hugging Face `BertForPreTraining` weights (no pickles: pass a safetensors dict).


def config_from_hf(hf_config: dict) -> BertConfig:
    """BertConfig from a Hugging Face config dict (`hf_model.config.to_dict()`)."""
    if hf_config.get("hidden_act", "gelu") != "gelu":
        raise ValueError(f"unsupported hidden_act {hf_config['hidden_act']!r}: only exact 'gelu' is supported")
    if hf_config.get("position_embedding_type", "absolute") != "absolute":
        raise ValueError(f"unsupported position_embedding_type {hf_config['position_embedding_type']!r}: "
                         "only 'absolute' is supported")
    return BertConfig(
        vocab_size=hf_config["vocab_size"], d_model=hf_config["hidden_size"],
        n_layers=hf_config["num_hidden_layers"], n_heads=hf_config["num_attention_heads"],
        d_ff=hf_config["intermediate_size"], max_len=hf_config["max_position_embeddings"],
        n_segments=hf_config.get("type_vocab_size", 2), dropout=hf_config.get("hidden_dropout_prob", 0.1),
        layer_norm_eps=hf_config.get("layer_norm_eps", 1e-12), pre_ln=False,
        pad_id=hf_config.get("pad_token_id") or 0)


def _hf_names(config: BertConfig) -> dict[str, str]:
    """Our parameter name -> HF BertForPreTraining name."""
    names = {
        "embeddings.tok.weight": "bert.embeddings.word_embeddings.weight",
        "embeddings.pos.weight": "bert.embeddings.position_embeddings.weight",
        "embeddings.seg.weight": "bert.embeddings.token_type_embeddings.weight",
        "embeddings.norm.weight": "bert.embeddings.LayerNorm.weight",
        "embeddings.norm.bias": "bert.embeddings.LayerNorm.bias",
        "pooler.weight": "bert.pooler.dense.weight",
        "pooler.bias": "bert.pooler.dense.bias",
        "mlm.dense.weight": "cls.predictions.transform.dense.weight",
        "mlm.dense.bias": "cls.predictions.transform.dense.bias",
        "mlm.norm.weight": "cls.predictions.transform.LayerNorm.weight",
        "mlm.norm.bias": "cls.predictions.transform.LayerNorm.bias",
        "mlm.decoder.bias": "cls.predictions.bias",
        "nsp.weight": "cls.seq_relationship.weight",
        "nsp.bias": "cls.seq_relationship.bias",
    }
    per_layer = {
        "attn.q_proj": "attention.self.query", "attn.k_proj": "attention.self.key",
        "attn.v_proj": "attention.self.value", "attn.out_proj": "attention.output.dense",
        "attn_norm": "attention.output.LayerNorm", "ff_in": "intermediate.dense",
        "ff_out": "output.dense", "ff_norm": "output.LayerNorm",
    }
    for i in range(config.n_layers):
        for ours, theirs in per_layer.items():
            for p in ("weight", "bias"):
                names[f"layers.{i}.{ours}.{p}"] = f"bert.encoder.layer.{i}.{theirs}.{p}"
    return names


def from_hf(hf_state_dict: dict[str, torch.Tensor], hf_config: dict) -> Bert:
    """A post-LN Bert holding the weights of a HF `BertForPreTraining` state dict."""
    config = config_from_hf(hf_config)
    # Old TF-converted checkpoints name LayerNorm parameters gamma/beta.
    sd = {k.replace("LayerNorm.gamma", "LayerNorm.weight").replace("LayerNorm.beta", "LayerNorm.bias"): v
          for k, v in hf_state_dict.items()}
    if "cls.predictions.bias" not in sd and "cls.predictions.decoder.bias" in sd:
        sd["cls.predictions.bias"] = sd["cls.predictions.decoder.bias"]
    names = _hf_names(config)
    missing = sorted(theirs for theirs in names.values() if theirs not in sd)
    if missing:
        raise ValueError(f"HF state dict is missing {len(missing)} key(s): {', '.join(missing)}")
    decoder = sd.get("cls.predictions.decoder.weight")
    if decoder is not None and not torch.equal(decoder, sd["bert.embeddings.word_embeddings.weight"]):
        raise ValueError("cls.predictions.decoder.weight differs from the word embeddings: "
                         "untied MLM decoders are not supported")
    model = Bert(config)
    ours = {k: sd[theirs] for k, theirs in names.items()}
    ours["mlm.decoder.weight"] = ours["embeddings.tok.weight"]  # tied: same tensor
    try:
        model.load_state_dict(ours, strict=True)
    except RuntimeError as e:  # shape mismatch: the config does not describe these weights
        raise ValueError(f"HF weights do not fit the HF config: {e}") from e
    return model.eval()
