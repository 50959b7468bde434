"""explorer/compute/generate.py on a small random GPT with the shipped BERT's tokenizer: the record's numbers
recomputed from the weights, streaming and stopping, seeds, greedy, and every bad input a clear UserError."""
import json
import math

import pytest
import torch
from tokenizers import Tokenizer

from explorer.compute.generate import MAX_NEW_TOKENS, check_settings, generate, generate_stream
from explorer.compute.inference import UserError, load_registry
from models import checkpoint
from models.gpt import GPT, GPTConfig, next_token_distribution
from models.training.lm_data import TOKENIZER


@pytest.fixture(scope="module")
def reg(tmp_path_factory):
    folder = tmp_path_factory.mktemp("assets") / "gpt"
    torch.manual_seed(0)
    model = GPT(GPTConfig(vocab_size=16000, max_len=24, d_model=32, n_layers=2, n_heads=4, d_ff=64, dropout=0.0))
    with torch.no_grad():
        model.tok.weight.mul_(20)  # a peaked next-token distribution, so sampling choices differ by seed
    checkpoint.save(folder, model, Tokenizer.from_file(str(TOKENIZER)), {"arch": "gpt"})
    return load_registry(folder.parent)


def test_record_numbers_come_from_the_weights(reg):
    rec = generate("The students opened their", max_new_tokens=6, temperature=0.7, top_k=50, top_p=0.9, seed=3,
                   reg=reg)
    model, tok = reg.get("gpt").model, reg.get("gpt").tokenizer
    assert rec.tokens[:5] == ["[CLS]", "the", "students", "opened", "their"] and rec.prompt_tokens == 5
    ids = [tok.token_to_id(t) for t in rec.tokens]
    with torch.no_grad():
        logits = model(torch.tensor([ids])).logits[0]
    for step in rec.steps:
        assert rec.tokens[step.position] == step.token
        p = torch.softmax(logits[step.position - 1], -1)
        assert math.isclose(step.probability, float(p[step.token_id]), abs_tol=2e-6)
        drawn = next_token_distribution(logits[step.position - 1], 0.7, 50, 0.9)
        assert math.isclose(step.sampled_probability, float(drawn[step.token_id]), abs_tol=2e-6)
        assert step.sampled_probability > 0  # it was drawn from that distribution
        assert [a.probability for a in step.top] == sorted((a.probability for a in step.top), reverse=True)
        assert math.isclose(step.top[0].probability, float(p.max()), abs_tol=2e-6)
    T = len(rec.tokens)
    att, scores = rec.trace.dec_self, rec.trace.dec_self_scores
    assert att.shape == (2, 4, T, T)
    assert (att[..., torch.ones(T, T).triu(1).bool().numpy()] == 0).all()
    assert ((att.sum(-1) - 1) ** 2).max() < 1e-10
    assert (scores[..., torch.ones(T, T).triu(1).bool().numpy()] == -math.inf).all()
    assert rec.stopped in ("max_new_tokens", "end_of_text")
    assert rec.text.startswith("the students opened their")


def test_same_seed_same_text_and_seeds_differ(reg):
    kw = dict(max_new_tokens=8, temperature=1.0, reg=reg)
    a, b = generate("I am a", seed=1, **kw), generate("I am a", seed=1, **kw)
    assert a.text == b.text and [s.token_id for s in a.steps] == [s.token_id for s in b.steps]
    others = {generate("I am a", seed=s, **kw).text for s in range(2, 7)}
    assert len(others | {a.text}) > 1


def test_greedy_takes_the_argmax_and_ignores_temperature(reg):
    rec = generate("I am a", max_new_tokens=5, greedy=True, temperature=0, top_p=7, reg=reg)
    assert rec.settings["greedy"] and rec.settings["temperature"] is None
    for s in rec.steps:
        assert s.token == s.top[0].token
        assert s.sampled_probability == 1.0


def test_stream_yields_each_step_and_can_stop(reg):
    stream = generate_stream("The students opened their", max_new_tokens=10, greedy=True, reg=reg)
    first = next(stream)
    assert len(first.steps) == 1 and not first.done and first.trace is None
    second = next(stream)
    assert len(second.steps) == 2
    stream.close()  # the visitor left: nothing runs on
    with pytest.raises(StopIteration):
        next(stream)
    records = list(generate_stream("The students opened their", max_new_tokens=10, greedy=True, reg=reg))
    assert records[-1].done and records[-1].trace is not None
    assert [len(r.steps) for r in records] == list(range(1, len(records) + 1))


def test_context_caps_new_tokens(reg):
    rec = generate("one two three four five six seven eight nine ten eleven twelve thirteen", max_new_tokens=50,
                   greedy=True, reg=reg)
    assert len(rec.tokens) <= 24 and rec.stopped in ("context", "end_of_text")
    assert any(getattr(n, "key", "") in ("gpt_prompt_cut", "gpt_room") for n in rec.notices)


def test_json_is_strict_and_masked_scores_are_null(reg):
    from explorer.cli import dumps
    rec = generate("hello there", max_new_tokens=3, greedy=True, reg=reg)
    d = json.loads(dumps(rec.to_json()))
    assert d["attention"]["dec_self_scores"][0][0][0][1] is None  # -inf above the diagonal
    assert set(d["steps"][0]) >= {"token", "probability", "top"}


@pytest.mark.parametrize("kwargs, key", [
    (dict(prompt=""), "empty"),
    (dict(prompt="   \u200b "), "empty"),
    (dict(prompt="[SEP] [CLS]"), "empty"),
    (dict(temperature=0), "gpt_temperature"),
    (dict(temperature=-1), "gpt_temperature"),
    (dict(temperature=float("nan")), "gpt_number"),
    (dict(temperature="hot"), "gpt_number"),
    (dict(top_p=0), "gpt_top_p"),
    (dict(top_p=1.5), "gpt_top_p"),
    (dict(top_p=-0.1), "gpt_top_p"),
    (dict(max_new_tokens=10**6), "range"),
    (dict(max_new_tokens=0), "range"),
    (dict(top_k=-1), "range"),
    (dict(seed=-5), "range"),
])
def test_bad_input_is_a_clear_user_error(reg, kwargs, key):
    args = dict(prompt="hello", max_new_tokens=3, reg=reg) | kwargs
    with pytest.raises(UserError) as e:
        generate(**args)
    assert e.value.key == key and "Traceback" not in str(e.value)
    assert str(MAX_NEW_TOKENS) in str(e.value) if kwargs.get("max_new_tokens") == 10**6 else True


def test_long_prompt_is_cut_with_notices(reg):
    rec = generate("word " * 2000, max_new_tokens=2, greedy=True, reg=reg)  # 10,000 characters
    keys = {getattr(n, "key", None) for n in rec.notices}
    assert {"text_cut", "gpt_prompt_cut"} <= keys
    assert rec.prompt_tokens <= 12


def test_check_settings_caps():
    assert check_settings(max_new_tokens=MAX_NEW_TOKENS)["max_new_tokens"] == MAX_NEW_TOKENS
    assert check_settings(temperature="0.7")["temperature"] == 0.7
    with pytest.raises(UserError, match="greedy"):
        check_settings(temperature=0)


def test_cli_generate_json_lines(reg, capsys):
    from explorer.cli import main
    assets = str(reg.models["gpt"].path.parent)
    argv = ["generate", "--assets", assets, "--max-new-tokens", "4", "--temperature", "0.7", "--top-k", "40",
            "--top-p", "0.95", "--seed", "7", "--stream", "--no-attention", "The", "students", "opened", "their"]
    assert main(argv) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    record = lines[-1]
    assert [x["step"] for x in lines[:-1]] == record["steps"][: len(lines) - 1]
    assert record["text"].startswith("the students opened their") and "attention" not in record
    assert all({"token", "probability", "top"} <= set(s) for s in record["steps"])
    assert main(argv) == 0
    assert json.loads(capsys.readouterr().out.splitlines()[-1])["text"] == record["text"]  # same seed, same text
    assert main(["generate", "--assets", assets, "--max-new-tokens", "1000000", "hello"]) == 2
    out = capsys.readouterr()
    assert json.loads(out.out)["error"].startswith("Max new tokens must be between 1 and 100")
    assert "Traceback" not in out.err


@pytest.mark.parametrize("tiny", [{"temperature": 1e-320}, {"top_p": 1e-320}, {"temperature": 5e-324, "top_p": 5e-324}])
def test_a_temperature_or_top_p_just_above_zero_draws_the_argmax(reg, tiny):
    """1e-320 once overflowed logits / T to inf and the softmax to NaN (a torch error reached the caller)."""
    greedy = generate("I am a", max_new_tokens=6, greedy=True, reg=reg)
    for seed in (1, 2):
        drawn = generate("I am a", max_new_tokens=6, seed=seed, reg=reg, **tiny)
        assert [s.token_id for s in drawn.steps] == [s.token_id for s in greedy.steps]
