"""Export a fine-tuned task to a folder the `transformers` library loads (safetensors, its own config and
tokenizer files), so that a real client runs it:

    python -m models.training.export_hf assets/finetune/sentiment runs/hf-sentiment
    >>> import models.training.export_hf, transformers
    >>> transformers.pipeline("sentiment-analysis", model="runs/hf-sentiment")(["I love this product!"])

Why not plain `BertForSequenceClassification`: the shipped BERT is pre-LN (x + f(LN(x)), Xiong et al. 2020,
with a final LayerNorm) and normalises every head's queries and keys (QK-LayerNorm, Dehghani et al.
2023). Hugging Face's BERT is post-LN and has no QK norm; QK-LayerNorm divides each head's query and key by
their own standard deviation, a per-token non-linearity that no re-parameterisation of BERT's linear
weights reproduces, and moving the LayerNorms changes what every layer computes. A BertForSequenceClassification
holding these weights would compute a different function, so this module does not pretend to.

The faithful route chosen instead: the folder's config has its own model_type, "attention-explorer-bert",
and this module registers its classes with transformers' Auto classes (`AutoConfig.register`,
`AutoModelFor*.register`): transformers' own loader, tokenizer, pipelines and safetensors reading, running
this repository's models/bert.py. No `trust_remote_code` (nothing is downloaded or executed from the
folder); the price is that a client imports `models.training.export_hf` (this repository) before loading. The
adapters are merged into the attention projections (W + (alpha/r) B A), so the folder holds one plain
fp32 encoder and head; tests/models/test_export_hf.py checks transformers' pipeline against
explorer.compute.pipeline at 1e-5.
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import shutil
from pathlib import Path

import torch
from safetensors.torch import save_file
from transformers import (AutoConfig, AutoModelForQuestionAnswering, AutoModelForSequenceClassification,
                          AutoModelForTokenClassification, PretrainedConfig, PreTrainedModel)
from transformers.modeling_outputs import (QuestionAnsweringModelOutput, SequenceClassifierOutput,
                                           TokenClassifierOutput)

from models import checkpoint
from models.bert import BertConfig
from models.lora import FinetuneConfig, TaskModel, load_task, merged_bert_state

MODEL_TYPE = "attention-explorer-bert"
ROOT = Path(__file__).resolve().parents[2]


class ExplorerBertConfig(PretrainedConfig):
    """transformers' config for a task model of this repo: `bert` is models.bert.BertConfig's fields,
    `task` and `pooling` those of models.lora.FinetuneConfig."""
    model_type = MODEL_TYPE

    def __init__(self, bert: dict | None = None, task: str = "sentiment", pooling: str = "mean",
                 max_len: int = 256, stride: int = 128, **kwargs):
        self.bert, self.task, self.pooling, self.max_len, self.stride = bert or {}, task, pooling, max_len, stride
        super().__init__(**kwargs)

    def finetune_config(self) -> FinetuneConfig:
        labels = tuple(self.id2label[i] for i in range(len(self.id2label)))
        return FinetuneConfig(task=self.task, labels=labels, bert=BertConfig(**self.bert), mode="full", lora_r=0,
                              pooling=self.pooling, head_dropout=0.0, max_len=self.max_len, stride=self.stride)


class _ExplorerBert(PreTrainedModel):
    config_class = ExplorerBertConfig
    base_model_prefix = "task"

    def __init__(self, config: ExplorerBertConfig):
        super().__init__(config)
        self.task = TaskModel(config.finetune_config())
        self.post_init()

    def _init_weights(self, module):  # models.bert initialises; every weight is then read from the file
        pass

    def _run(self, input_ids, attention_mask, token_type_ids):
        return self.task(input_ids, token_type_ids, attention_mask)


class ExplorerBertForSequenceClassification(_ExplorerBert):
    def forward(self, input_ids=None, attention_mask=None, token_type_ids=None, labels=None, **kwargs):
        out = self.task(input_ids, token_type_ids, attention_mask, labels=labels)
        return SequenceClassifierOutput(loss=out.loss, logits=out.logits)


class ExplorerBertForTokenClassification(_ExplorerBert):
    def forward(self, input_ids=None, attention_mask=None, token_type_ids=None, labels=None, **kwargs):
        out = self.task(input_ids, token_type_ids, attention_mask, labels=labels)
        return TokenClassifierOutput(loss=out.loss, logits=out.logits)


class ExplorerBertForQuestionAnswering(_ExplorerBert):
    def forward(self, input_ids=None, attention_mask=None, token_type_ids=None, start_positions=None,
                end_positions=None, **kwargs):
        out = self.task(input_ids, token_type_ids, attention_mask, start_positions=start_positions,
                        end_positions=end_positions)
        return QuestionAnsweringModelOutput(loss=out.loss, start_logits=out.logits[..., 0],
                                            end_logits=out.logits[..., 1])


CLASSES = {"sequence": ExplorerBertForSequenceClassification, "token": ExplorerBertForTokenClassification,
           "span": ExplorerBertForQuestionAnswering}
AutoConfig.register(MODEL_TYPE, ExplorerBertConfig, exist_ok=True)
AutoModelForSequenceClassification.register(ExplorerBertConfig, ExplorerBertForSequenceClassification, exist_ok=True)
AutoModelForTokenClassification.register(ExplorerBertConfig, ExplorerBertForTokenClassification, exist_ok=True)
AutoModelForQuestionAnswering.register(ExplorerBertConfig, ExplorerBertForQuestionAnswering, exist_ok=True)


def export(task_folder: Path, out: Path, base_folder: Path | None = None) -> Path:
    """Write OUT/config.json, model.safetensors (fp32, adapters merged), tokenizer.json, tokenizer_config.json."""
    task_folder, out = Path(task_folder), Path(out)
    meta = json.loads((task_folder / "config.json").read_text())
    base = checkpoint.load(base_folder or ROOT / "assets" / meta.get("base", "bert"))
    model, _ = load_task(task_folder, base.model)
    cfg = model.config
    plain = TaskModel(FinetuneConfig(task=cfg.task, labels=cfg.labels, bert=cfg.bert, mode="full", lora_r=0,
                                     pooling=cfg.pooling, head_dropout=0.0, max_len=cfg.max_len, stride=cfg.stride))
    state = {f"bert.{k}": v for k, v in merged_bert_state(model).items()}
    state.update({k: v for k, v in model.state_dict().items() if k.startswith("head.")})
    plain.load_state_dict(state, strict=True)
    out.mkdir(parents=True, exist_ok=True)
    hf = ExplorerBertConfig(bert=dataclasses.asdict(cfg.bert), task=cfg.task, pooling=cfg.pooling, max_len=base.config.max_len, stride=cfg.stride,
                            id2label=dict(enumerate(cfg.labels)), label2id={k: i for i, k in enumerate(cfg.labels)},
                            architectures=[CLASSES[cfg.kind].__name__], pad_token_id=cfg.bert.pad_id)
    hf.save_pretrained(out)
    # every tensor its own copy (safetensors stores no aliases; the tied MLM decoder is loaded into the same tensor)
    tensors = {f"task.{k}": v.detach().clone().contiguous().float() for k, v in plain.state_dict().items()}
    save_file(tensors, str(out / "model.safetensors"), metadata={"format": "pt"})
    shutil.copy(base.path / "tokenizer.json", out / "tokenizer.json")
    (out / "tokenizer_config.json").write_text(json.dumps({
        "tokenizer_class": "PreTrainedTokenizerFast", "model_max_length": base.config.max_len,
        "cls_token": "[CLS]", "sep_token": "[SEP]", "pad_token": "[PAD]", "unk_token": "[UNK]",
        "mask_token": "[MASK]", "model_input_names": ["input_ids", "token_type_ids", "attention_mask"]}, indent=2))
    return out


def main(argv=None) -> Path:
    ap = argparse.ArgumentParser(prog="python -m models.training.export_hf", description=__doc__.split("\n\n")[0])
    ap.add_argument("checkpoint", type=Path, help="a task folder, e.g. assets/finetune/sentiment")
    ap.add_argument("out", type=Path, help="folder to write")
    ap.add_argument("--base", type=Path, default=None, help="the base BERT folder (default assets/<config's base>)")
    args = ap.parse_args(argv)
    try:
        out = export(args.checkpoint, args.out, args.base)
    except (checkpoint.CheckpointError, FileNotFoundError, KeyError) as e:
        ap.error(str(e))
    print(f"wrote {out} ({sum(f.stat().st_size for f in out.iterdir()):,} bytes); load it with "
          "`import models.training.export_hf` then transformers' Auto classes or pipeline()")
    return out


if __name__ == "__main__":
    main()
