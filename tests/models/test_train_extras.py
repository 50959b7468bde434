"""models.train's --extra-pairs (Korean-English corpora beside Tatoeba) and --guide-from, end to end in smoke mode."""
import json

import pytest

from models.training import data, train

FIX = train.FIXTURES


def test_extra_pairs_read_by_header_and_filtered_by_length():
    pairs = data.read_extra_pairs(FIX, "ntrex")
    assert pairs[0] == ("I am a student.", "나는 학생이다.")
    assert len(data.read_extra_pairs(FIX, "ntrex", max_words=25)) == len(pairs) - 1  # the 28-word one goes
    assert data.read_extra_pairs(FIX, "pud") == [("The cat sleeps.", "고양이가 잔다.")]


def test_extra_pairs_train_only_and_recorded(tmp_path):
    train.main(["transformer", "--direction", "ko-en", "--smoke", "--extra-pairs", "ntrex", "pud",
                "--extra-repeat", "2", "--out", str(tmp_path)])
    meta = json.loads((tmp_path / "checkpoint" / "metrics.json").read_text())["data"]
    assert meta["extra"]["n_pairs"] == {"ntrex": 2, "pud": 1}
    # trained on: the three extra pairs twice each beside the (smoke-cut) Tatoeba training pairs
    tatoeba = min(200, len(data.translation_split(data.read_pairs(FIX, "en-ko"), "ko-en", 0, data.VALID_FRAC,
                                                  data.TEST_FRAC)[0]["train"]))
    assert meta["n_train"] == tatoeba + 2 * 3
    assert set(meta["files"]) >= {*data.EXTRA_KO_EN["ntrex"], *data.EXTRA_KO_EN["pud"]}


def test_extra_pairs_refused_for_french(tmp_path):
    with pytest.raises(SystemExit, match="Korean-English"):
        train.main(["seq2seq", "--smoke", "--extra-pairs", "pud", "--out", str(tmp_path)])


def test_guide_from_records_the_teacher(tmp_path):
    train.main(["seq2seq", "--attention", "dot", "--smoke", "--guide-from", "assets/transformer-en-fr",
                "--guide-weight", "0.5", "--out", str(tmp_path)])
    meta = json.loads((tmp_path / "checkpoint" / "metrics.json").read_text())["data"]
    g = meta["guide"]
    assert g["weight"] == 0.5 and 0 < g["linked_target_tokens"] <= g["target_tokens"]
    assert any(f.startswith("assets/transformer-en-fr/") for f in meta["files"])


@pytest.mark.parametrize("argv", [["--attention", "none"], ["--attention", "dot", "--bpe-dropout", "0.1"]])
def test_guide_from_refusals(tmp_path, argv):
    with pytest.raises(SystemExit):
        train.main(["seq2seq", "--smoke", "--guide-from", "assets/transformer-en-fr", *argv, "--out", str(tmp_path)])


def test_guide_from_a_folder_that_is_no_checkpoint_is_a_message(tmp_path):
    with pytest.raises(SystemExit, match="--guide-from .*not a folder"):
        train.main(["seq2seq", "--attention", "dot", "--smoke", "--guide-from", str(tmp_path / "none"),
                    "--out", str(tmp_path / "out")])
