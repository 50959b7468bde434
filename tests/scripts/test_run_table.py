"""scripts/run_table.py: every number of a row is one read from that run's metrics.json, and the
shipped docs/runs.md is what the script writes today."""
import json
import sys

from scripts import run_table


def _metrics(arch, out, wall, valid, test=None, **extra):
    hp = {"direction": "en-fr", "attention": "dot", "max_len": 256, "init_from": extra.pop("init_from", None)}
    return {"name": out, "arch": arch, "command": f"python -m models.train {arch} --lr 1e-3 --out runs/{out}",
            "hyperparameters": hp, "parameters": 8_099_600, "steps": 16708, "wall_seconds": wall,
            "device": "NVIDIA H100", "valid": valid, **({"test": test} if test else {}), **extra}


def _write(folder, metrics):
    folder.mkdir(parents=True)
    (folder / "metrics.json").write_text(json.dumps(metrics))


def _rows(text, section):
    """{first cell: cells} of the table under `## section`."""
    part = text.split(f"## {section}", 1)[1].split("\n## ", 1)[0]
    rows = [[c.strip() for c in line.strip("|").split(" | ")] for line in part.splitlines() if line.startswith("| ")]
    return {r[0]: r for r in rows[2:]}  # the header and its rule left out


def test_rows_read_each_runs_metrics(tmp_path):
    runs, assets = tmp_path / "runs", tmp_path / "assets"
    _write(runs / "t1", _metrics("transformer", "t1", 504.5, {"valid_bleu_greedy": 50.6, "valid_chrf_greedy": 66.47,
                                                                 "step": 16708}))
    _write(runs / "b2a", _metrics("bert", "ba", 423.5, {"fill_mask_top1_wiki": 0.4714, "fill_mask_top1_short": 0.5856,
                                                       "nsp_acc": 0.918, "step": 6000}, total_wall_seconds=2801.0))
    _write(runs / "b2b", _metrics("bert", "bb", 60.0, {"nsp_acc": 0.9}, init_from="runs/ba/checkpoint"))
    (runs / "avg").mkdir()
    (runs / "avg" / "evaluate.jsonl").write_text("{}\n")
    _write(assets / "m", _metrics("transformer", "t1", 504.5, {"valid_bleu_greedy": 50.6, "valid_chrf_greedy": 66.47},
                                  test={"bleu": 48.46, "chrf": 65.59, "beam": 8, "alpha": 1.0}))
    (assets / "screenshots").mkdir()  # not a checkpoint: no row
    text = run_table.render(runs, assets)
    shipped, every = _rows(text, "Shipped"), _rows(text, "Every run")
    assert list(shipped) == ["assets/m"] and list(every) == ["b2a (ran as ba)", "b2b (ran as bb)", "t1"]
    assert dict(zip(run_table.COLUMNS, shipped["assets/m"])) == {
        "run": "assets/m", "arch": "transformer", "key settings": "en-fr, 8.1 M params, 16,708 steps",
        "wall time (min)": "8.4", "device": "NVIDIA H100", "validation": "BLEU 50.6, chrF 66.47 (greedy)",
        "test": "BLEU 48.46, chrF 65.59 (beam 8, α 1.0)", "command": "`python -m models.train transformer --lr 1e-3 "
                                                                     "--out runs/t1`"}
    bert = dict(zip(run_table.COLUMNS, every["b2a (ran as ba)"]))
    assert bert["wall time (min)"] == f"{423.5 / 60:.1f} (lineage {2801.0 / 60:.1f})"
    assert bert["validation"] == "wiki 0.4714, short 0.5856, NSP 0.918 at step 6,000" and bert["test"] == ""
    assert "continues b2a (ran as ba)" in every["b2b (ran as bb)"][2]  # the parent named by its folder now
    assert "- `avg/`: evaluate.jsonl" in text  # a folder without metrics.json is listed, not dropped


def test_a_pipe_in_a_command_stays_in_its_cell(tmp_path):
    m = _metrics("transformer", "t1", 60.0, {"valid_bleu_greedy": 1.0, "valid_chrf_greedy": 2.0})
    m["command"] += " | tee log"
    _write(tmp_path / "runs" / "t1", m)
    (tmp_path / "assets").mkdir()
    row = _rows(run_table.render(tmp_path / "runs", tmp_path / "assets"), "Every run")["t1"]
    assert len(row) == len(run_table.COLUMNS) and row[-1].endswith("\\| tee log`")


def test_check_fails_when_the_table_is_stale(tmp_path, capsys):
    runs, assets, out = tmp_path / "runs", tmp_path / "assets", tmp_path / "runs.md"
    _write(runs / "t1", _metrics("transformer", "t1", 60.0, {"valid_bleu_greedy": 1.0, "valid_chrf_greedy": 2.0}))
    assets.mkdir()
    args = ["--runs", str(runs), "--assets", str(assets), "--out", str(out)]
    assert run_table.main(args) == 0 and run_table.main(args + ["--check"]) == 0
    _write(runs / "t2", _metrics("transformer", "t2", 60.0, {"valid_bleu_greedy": 3.0, "valid_chrf_greedy": 4.0}))
    assert run_table.main(args + ["--check"]) == 1 and "out of date" in capsys.readouterr().err


def test_shipped_run_table_is_current():
    """docs/runs.md is generated: after a run folder or a metrics.json changes, run `python -m scripts.run_table`."""
    assert run_table.main(["--check"]) == 0


def test_run_table_needs_no_gradio_or_torch():
    import subprocess
    code = ("import sys; sys.modules['gradio'] = sys.modules['torch'] = None\n"
            "from scripts import run_table; run_table.render()")
    r = subprocess.run([sys.executable, "-c", code], cwd=run_table.ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def test_a_gpt_row_reads_perplexities_not_a_direction():
    m = {"arch": "gpt", "parameters": 8_867_840, "steps": 4755, "hyperparameters": {"direction": "en-fr", "max_len": 128},
         "valid": {"valid_ppl_token": 63.17, "valid_ppl_word": 81.662, "step": 4755},
         "test": {"ppl_token": 61.194, "ppl_word": 80.144, "trigram_ppl_token": 161.53, "trigram_ppl_word": 225.453}}
    settings = run_table.key_settings(m, {})
    assert "en-fr" not in settings and settings.startswith("English LM, 128-token context")
    assert run_table.scores(m["valid"], "gpt", "valid") == "ppl 63.17/token (81.662/word) at step 4,755"
    assert run_table.scores(m["test"], "gpt", "test") == "ppl 61.194/token (80.144/word), KN trigram 161.53 (225.453)"


def test_a_run_continuing_a_shipped_checkpoint_names_it_and_shows_single_sentence_figures(tmp_path):
    """models.continue_bert writes --out runs/bert from assets/bert: the row must not name itself as its parent,
    and its single-sentence figures (flat in valid, nested in test) are what the row shows beside the long ones."""
    runs, assets = tmp_path / "runs", tmp_path / "assets"
    assets.mkdir()
    valid = {"nsp_single_wiki": 0.8711, "fill_mask_single_wiki": 0.4466, "fill_mask_long_wiki": 0.4693,
             "fill_mask_short": 0.6012, "nsp_long_all": 0.9453, "step": 4834}
    test = {"fill_mask_top1_wiki": 0.4816, "fill_mask_top1_short": 0.5806, "nsp_acc": 0.9258,
            "single_vs_long": {"nsp": {"single_wiki": 0.8727}, "fill_mask_top1": {"single_wiki": 0.4506}}}
    _write(runs / "bc1", _metrics("bert", "bert", 380.8, valid, test=test, init_from="/work/main/assets/bert"))
    r = _rows(run_table.render(runs, assets), "Every run")["bc1 (ran as bert)"]
    assert "continues assets/bert" in r[2] and "bc1" not in r[2]
    assert r[5] == "wiki 0.4693, short 0.6012, NSP 0.9453; single sentences: NSP 0.8711, fill-mask 0.4466 at step 4,834"
    assert r[6] == "wiki 0.4816, short 0.5806, NSP 0.9258; single sentences: NSP 0.8727, fill-mask 0.4506"
