"""`repopilot eval` prints the calibration section (issue 27): decided precision and share,
top-3 recall, ECE, the cost line and the reliability table, in text and JSON."""

from __future__ import annotations

import json

import pytest

from repopilot.cli import main
from tests.paths import FIXTURES

pytestmark = pytest.mark.unit

GHA = FIXTURES / "eval" / "gha"
CHUNKS = FIXTURES / "eval" / "logchunks"


def test_gha_text_has_the_calibration_lines(capsys):
    assert main(["eval", "gha", str(GHA), str(GHA / "labels.csv")]) == 0
    out = capsys.readouterr().out
    assert (
        "calibrated confidence (right = category accepted and key line in Contract 1 order)" in out
    )
    for line in ("decided precision", "decided share", "top-3 recall", "ECE (10 bins)"):
        assert f"  {line}" in out
    assert "cost per failed log" in out and "wrong decided = 3, guess = 1" in out
    assert "reliability (confidence vs share right):" in out
    assert "confidence   logs  predicted  observed" in out


def test_json_has_the_calibration_figures(capsys):
    assert (
        main(["eval", "logchunks", str(CHUNKS), str(CHUNKS / "chunks.csv"), "--format", "json"])
        == 0
    )
    data = json.loads(capsys.readouterr().out)
    cal = data["calibration"]
    assert cal["logs"] == data["logs"] == 2
    assert cal["right_means"] == "evidence[0] inside the labelled chunk"
    assert 0.0 <= cal["ece"] <= 1.0 and cal["top3_recall"] == 1.0
    assert sum(b["logs"] for b in cal["reliability"]) == 2
    assert data["decided_precision"] == cal["decided_precision"]
    assert {t["metric"] for t in data["targets"]} >= {"decided", "decided_precision"}
