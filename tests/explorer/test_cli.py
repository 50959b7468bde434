"""The command line (explorer/cli.py): its JSON contract, parity with the Python API, batch
files, error objects and exit codes. Runs the shipped checkpoints in assets/ on CPU; all
but one test call `main()` in-process so the registry loads once."""
import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch

from explorer.compute import inference
from explorer import cli
from explorer.cli import dumps, main

ROOT = Path(__file__).resolve().parents[2]
NEEDED = ("transformer-en-fr", "seq2seq-none", "seq2seq-additive", "bert")
pytestmark = pytest.mark.skipif(not all((inference.ASSETS / n / "config.json").is_file() for n in NEEDED),
                                reason="shipped checkpoints missing from assets/")
SENTENCE = "The cat sat on the mat."


def strict_loads(line: str):
    """json.loads that refuses NaN/Infinity, which Python's json accepts by default."""
    def refuse(name):
        raise AssertionError(f"non-strict JSON constant {name} in output")
    return json.loads(line, parse_constant=refuse)


def run_cli(capsys, *argv):
    """(exit status, [parsed stdout objects], stderr)."""
    status = main(list(argv))
    out, err = capsys.readouterr()
    assert out.endswith("\n") or out == ""
    return status, [strict_loads(line) for line in out.splitlines()], err


def test_translate_contract_and_transformer_invariants(capsys):
    status, [rec], err = run_cli(capsys, "translate", "--model", "transformer-en-fr", SENTENCE)
    assert status == 0 and err == ""
    assert {"model", "source_tokens", "target_tokens", "translation", "attention"} <= rec.keys()
    assert rec["model"] == "transformer-en-fr" and rec["translation"]
    att = rec["attention"]
    assert set(att) == {"cross", "enc_self", "dec_self", "dec_self_scores"}
    S, T = len(rec["source_tokens"]), len(rec["target_tokens"])
    cross, enc, dec = (np.array(att[k], dtype=float) for k in ("cross", "enc_self", "dec_self"))
    L, H = cross.shape[:2]
    assert cross.shape == (L, H, T, S) and enc.shape == (L, H, S, S) and dec.shape == (L, H, T, T)
    for a in (cross, enc, dec):
        np.testing.assert_allclose(a.sum(-1), 1.0, atol=1e-5)
    upper = np.triu(np.ones((T, T), dtype=bool), k=1)
    assert (dec[..., upper] == 0).all()  # exactly 0 above the diagonal: the causal mask
    scores = att["dec_self_scores"]
    for layer in scores:
        for head in layer:
            assert len(head) == T
            for q, row in enumerate(head):
                assert all(v is None for v in row[q + 1:])  # masked -inf -> null
                assert all(isinstance(v, float) for v in row[: q + 1])


def test_rnn_models_have_only_cross_attention(capsys):
    status, [none], _ = run_cli(capsys, "translate", "--model", "seq2seq-none", SENTENCE)
    assert status == 0 and none["attention"]["cross"] is None and none["translation"]
    status, [add], _ = run_cli(capsys, "translate", "--model", "seq2seq-additive", SENTENCE)
    cross = np.array(add["attention"]["cross"], dtype=float)
    assert cross.shape == (1, 1, len(add["target_tokens"]), len(add["source_tokens"]))
    np.testing.assert_allclose(cross.sum(-1), 1.0, atol=1e-5)
    assert all(add["attention"][k] is None for k in ("enc_self", "dec_self", "dec_self_scores"))


def test_same_numbers_as_the_python_api(capsys):
    """The CLI prints the records' to_json() untouched (one source of truth for every number);
    the API side loads its own copy of the checkpoints, so loading is checked too."""
    reg = inference.load_registry(names={"transformer-en-fr", "bert"})

    def roundtrip(rec):
        return json.loads(json.dumps(rec.to_json()))
    _, [t], _ = run_cli(capsys, "translate", "--model", "transformer-en-fr", "--beam", "3", SENTENCE)
    assert t == roundtrip(inference.translate("transformer-en-fr", SENTENCE, beam=3, reg=reg))
    assert 1 <= len(t["hypotheses"]) <= 3
    _, [f], _ = run_cli(capsys, "fill-mask", "--top-k", "7", "Paris is the [MASK] of France.")
    assert f == roundtrip(inference.fill_mask("Paris is the [MASK] of France.", top_k=7, reg=reg))
    _, [n], _ = run_cli(capsys, "nsp", "I went home.", "Then I slept.")
    assert n == roundtrip(inference.nsp("I went home.", "Then I slept.", reg=reg))


def test_no_attention_drops_only_the_arrays(capsys):
    _, [full], _ = run_cli(capsys, "translate", "--model", "transformer-en-fr", SENTENCE)
    _, [short], _ = run_cli(capsys, "translate", "--model", "transformer-en-fr", "--no-attention", SENTENCE)
    assert "attention" not in short and short == {k: v for k, v in full.items() if k != "attention"}
    _, [f], _ = run_cli(capsys, "fill-mask", "--no-attention", "I am a [MASK].")
    assert "attention" not in f and len(f["masks"]) == 1


def test_fill_mask_two_masks_any_case(capsys):
    status, [rec], _ = run_cli(capsys, "fill-mask", "--top-k", "3", "I [mask] you, you [MASK] me.")
    assert status == 0 and len(rec["masks"]) == 2
    for m in rec["masks"]:
        assert rec["tokens"][m["index"]] == "[MASK]"
        probs = [p["probability"] for p in m["predictions"]]
        assert len(probs) == 3 and probs == sorted(probs, reverse=True) and 0 < sum(probs) <= 1 + 1e-6
    enc = np.array(rec["attention"]["enc_self"], dtype=float)
    assert enc.shape[2:] == (len(rec["tokens"]),) * 2
    np.testing.assert_allclose(enc.sum(-1), 1.0, atol=1e-5)


def test_nsp_probabilities_sum_to_one(capsys):
    threads = torch.get_num_threads()
    status, [rec], _ = run_cli(capsys, "nsp", "--no-attention", "She opened the door.", "The room was dark.")
    assert status == 0 and torch.get_num_threads() == threads  # main() leaves process settings alone
    assert 0 <= rec["is_next"] <= 1 and abs(rec["is_next"] + rec["not_next"] - 1) < 1e-5
    assert 1 in rec["segments"]


@pytest.mark.parametrize("k", ["0", "-1", "1000000"])
def test_top_k_out_of_range_is_an_error_object(capsys, k):
    status, [rec], err = run_cli(capsys, "fill-mask", "--top-k", k, "I am a [MASK].")
    assert status == 2 and set(rec) == {"error"} and "top-k" in rec["error"]
    assert err.count("\n") == 1 and "Traceback" not in err


def test_unknown_model_lists_the_available_ones(capsys):
    status, [rec], err = run_cli(capsys, "translate", "--model", "no-such-model", "Hello.")
    assert status == 2 and "no-such-model" in rec["error"]
    for name in ("transformer-en-fr", "seq2seq-none"):
        assert name in rec["error"]
    assert "Traceback" not in err


def test_input_file_keeps_going_past_a_bad_line(capsys, tmp_path):
    path = tmp_path / "in.txt"
    # line 2 has no [MASK]; line 3 is blank (skipped); line 4 has invalid UTF-8 (replaced); CRLF endings
    path.write_bytes(b"Paris is the [MASK] of France.\r\nno mask here\r\n\r\ncaf\xe9 is a [mask].\r\n")
    status, recs, err = run_cli(capsys, "fill-mask", "--input", str(path), "--no-attention")
    assert status == 2 and len(recs) == 3
    assert len(recs[0]["masks"]) == 1 and set(recs[1]) == {"error"} and len(recs[2]["masks"]) == 1
    assert "line 2" in err and "Traceback" not in err


def test_input_file_translate_and_nsp_tabs(capsys, tmp_path):
    path = tmp_path / "in.txt"
    path.write_text("Hello.\n\x00\nGood morning.\n", encoding="utf-8")  # line 2 is empty once cleaned
    status, recs, _ = run_cli(capsys, "translate", "--model", "seq2seq-additive", "--input", str(path))
    assert status == 2 and [("error" in r) for r in recs] == [False, True, False]
    path.write_text("I went home.\tThen I slept.\nno tab here\nA dog barked.\tIt was loud.\n", encoding="utf-8")
    status, recs, _ = run_cli(capsys, "nsp", "--input", str(path), "--no-attention")
    assert status == 2 and "error" in recs[1]
    for r in (recs[0], recs[2]):
        assert abs(r["is_next"] + r["not_next"] - 1) < 1e-5


def test_models_lists_every_checkpoint_with_metrics(capsys):
    status, recs, _ = run_cli(capsys, "models")
    assert status == 0
    by_name = {r["name"]: r for r in recs}
    for name in NEEDED:
        assert by_name[name]["status"] == "ok" and by_name[name]["parameters"] > 0 and "valid" in by_name[name]


def test_assets_folder_with_a_broken_checkpoint(capsys, tmp_path):
    shutil.copytree(inference.ASSETS / "seq2seq-none", tmp_path / "tiny")
    (tmp_path / "broken").mkdir()
    (tmp_path / "broken" / "config.json").write_text("{not json")
    status, recs, _ = run_cli(capsys, "models", "--assets", str(tmp_path))
    assert status == 0 and {r["name"]: r["status"] for r in recs} == {"tiny": "ok", "broken": "error"}
    assert "config.json" in [r for r in recs if r["name"] == "broken"][0]["error"]
    status, [rec], _ = run_cli(capsys, "translate", "--assets", str(tmp_path), "--model", "tiny", SENTENCE)
    assert status == 0 and rec["model"] == "tiny" and rec["translation"]
    status, [rec], _ = run_cli(capsys, "translate", "--assets", str(tmp_path), "--model", "broken", SENTENCE)
    assert status == 2 and "could not be loaded" in rec["error"]


def test_usage_errors_stay_argparse_errors(capsys):
    for argv in ([], ["translate", "Hello."], ["nsp", "only one sentence"], ["fill-mask", "--top-k", "x", "a [MASK]"],
                 ["models", "--assets", "/no/such/folder"]):
        with pytest.raises(SystemExit) as e:
            main(argv)
        assert e.value.code == 2
        assert "usage:" in capsys.readouterr().err


def test_dumps_is_strict_json():
    assert dumps({"a": float("nan"), "b": [float("-inf"), 1.5], "c": "é"}) == '{"a": null, "b": [null, 1.5], "c": "é"}'


def test_module_entry_point():
    """`python -m explorer` works as a real process: strict JSON on stdout, nothing on stderr."""
    proc = subprocess.run([sys.executable, "-m", "explorer", "translate", "--model", "transformer-en-fr", SENTENCE],
                          cwd=ROOT, capture_output=True, text=True, encoding="utf-8", timeout=120)
    assert proc.returncode == 0, proc.stderr
    [line] = proc.stdout.splitlines()
    rec = strict_loads(line)
    assert rec["translation"] and rec["attention"]["dec_self_scores"][0][0][0][1] is None
    assert proc.stderr == ""


def test_embed_reads_the_words_vector_at_a_layer(capsys, tmp_path):
    from explorer.compute.elmo import word_vector
    f = tmp_path / "in.txt"
    f.write_text("I sat on the bank of the river.\nNo such word here.\n", encoding="utf-8")
    assert cli.main(["embed", "--word", "bank", "--layer", "2", "--input", str(f)]) == cli.EXIT_USER_ERROR
    out = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert out[0]["layer"] == 2 and out[0]["tokens"][out[0]["positions"][0]] == "bank"
    same = word_vector("bank", "I sat on the bank of the river.", "bert", 2)
    assert np.allclose(out[0]["vector"], same.vector, atol=1e-5)
    assert "does not occur" in out[1]["error"]  # the second line fails alone, with its message
    assert cli.main(["embed", "--word", "bank", "--layer", "99", "the bank"]) == cli.EXIT_USER_ERROR
    assert "layer must be" in json.loads(capsys.readouterr().out)["error"]
