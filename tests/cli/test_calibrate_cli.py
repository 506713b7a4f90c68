"""`repopilot calibrate` on the hand-written eval fixtures: it prints the per-fold table, the
reliability table and the per-shape figures, and `--write` writes a data file that loads."""

from __future__ import annotations

import json

import pytest

from repopilot.cli import main
from repopilot.engine.verdict.confidence import load
from tests.paths import FIXTURES

pytestmark = pytest.mark.unit

GHA = FIXTURES / "eval" / "gha"
CHUNKS = FIXTURES / "eval" / "logchunks"
ARGS = [str(GHA), str(GHA / "labels.csv"), str(CHUNKS), str(CHUNKS / "chunks.csv")]


def test_calibrate_prints_the_folds_and_writes_a_model(tmp_path, capsys):
    out_file = tmp_path / "calibration.json"
    assert main(["calibrate", *ARGS, "--folds", "2", "--write", str(out_file)]) == 0
    out = capsys.readouterr().out
    assert "figures per repository-disjoint fold" in out
    assert "  fold          logs  precision     share    top3    ECE  floor cost  passing/FP" in out
    assert "floor: the median ECE of a perfectly calibrated model" in out
    for line in ("  pooled ", "  uncalibrated ", "  left out ", "reliability (pooled", "per shape"):
        assert line in out
    assert f"written: {out_file}" in out
    m = load(out_file)
    assert 0.0 <= m.threshold <= 1.0 and m.features


def test_calibrate_json_and_bad_arguments(tmp_path, capsys):
    assert main(["calibrate", *ARGS, "--folds", "2", "--no-leave-out", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [f["fold"] for f in data["folds"]] == [1, 2]
    assert data["pooled"]["logs"] == sum(f["logs"] for f in data["folds"])
    assert data["pooled_left_out"]["logs"] == 0
    assert main(["calibrate", *ARGS, "--features", "pattern_id"]) == 2
    assert "--features: unknown pattern_id" in capsys.readouterr().err
    assert main(["calibrate", str(tmp_path / "nope"), *ARGS[1:]]) == 2


def test_calibrate_prints_the_spread_of_further_partitions(capsys):
    assert main(["calibrate", *ARGS, "--folds", "2", "--partitions", "3"]) == 0
    out = capsys.readouterr().out
    assert "  3 further partitions (repositories dealt in a seeded random order), pooled:" in out
    assert "    per partition: precision " in out
    assert main(["calibrate", *ARGS, "--folds", "2", "--partitions", "2", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert len(data["partitions"]) == 2
    assert all(p["logs"] == data["pooled"]["logs"] for p in data["partitions"])
    assert main(["calibrate", *ARGS, "--folds", "2", "--partitions", "0"]) == 0
    assert "further partitions" not in capsys.readouterr().out
    assert main(["calibrate", *ARGS, "--partitions", "-1"]) == 2
    assert capsys.readouterr().err.strip() == "repopilot: --partitions -1: a count, 0 or more"
