"""A fine-tuned task loads on a BERT that was read under torch.inference_mode (as explorer.inference reads the
registry's checkpoints), from code that runs outside it (explorer.pipeline's `pipeline(...)`)."""
import torch

from models import task_data
from models.bert import Bert, BertConfig
from models.finetune import FinetuneConfig, LoRALinear, TaskModel, load_task, save_task, shared_encoder

TINY = BertConfig(vocab_size=40, d_model=16, n_layers=2, n_heads=2, d_ff=32, max_len=32, pre_ln=True, qk_norm=True)


def inference_base() -> Bert:
    torch.manual_seed(0)
    plain = Bert(TINY).eval()
    with torch.inference_mode():
        base = Bert(TINY).eval()
        base.load_state_dict(plain.state_dict())  # copied inside inference_mode: inference tensors
    assert base.layers[0].attn.q_proj.weight.is_inference()
    return base


def test_shared_encoder_of_an_inference_mode_base_shares_its_tensors():
    base = inference_base()
    bert = shared_encoder(base)  # outside inference_mode
    assert bert.layers[0].attn.q_proj.weight.data_ptr() == base.layers[0].attn.q_proj.weight.data_ptr()
    assert not any(p.requires_grad for p in bert.parameters())
    x = torch.randint(5, TINY.vocab_size, (2, 7))
    no = torch.zeros(2, 0, dtype=torch.long)
    with torch.inference_mode():
        assert torch.equal(bert(x, mlm_positions=no).hidden, base(x, mlm_positions=no).hidden)


def test_load_task_on_an_inference_mode_base_gives_the_saved_predictions(tmp_path):
    torch.manual_seed(1)
    cfg = FinetuneConfig(task="sentiment", labels=task_data.LABELS["sentiment"], bert=TINY, mode="lora", lora_r=4,
                         lora_alpha=8.0)
    plain = Bert(TINY).eval()
    model = TaskModel(cfg, shared_encoder(plain)).eval()
    with torch.no_grad():
        for m in model.modules():
            if isinstance(m, LoRALinear):
                m.lora_B.normal_(std=0.1)
        for p in model.parameters():
            if p.requires_grad:
                p.copy_(p.half().float())  # the file holds fp16
    save_task(tmp_path / "sentiment", model, {"valid": {"score": 0.5}})
    with torch.inference_mode():
        base = Bert(TINY).eval()
        base.load_state_dict(plain.state_dict())
    loaded, _ = load_task(tmp_path / "sentiment", base)  # outside inference_mode
    x = torch.randint(5, TINY.vocab_size, (3, 9))
    with torch.inference_mode():
        assert torch.equal(loaded(x).logits, model(x).logits)
