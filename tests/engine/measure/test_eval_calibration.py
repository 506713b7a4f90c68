"""`repopilot eval` prints the calibration section (issue 27): decided precision and share,
top-3 recall, ECE, the cost line and the reliability table, in text and JSON."""

from __future__ import annotations

import json

import pytest

from repopilot.cli import main
from repopilot.engine.measure.evaluate import Outcome
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
    assert 0.0 <= cal["ece"] <= 1.0 and cal["top3_recall"] == cal["top3"] / 2
    assert 0.0 <= cal["ece_floor"] <= 1.0
    assert sum(b["logs"] for b in cal["reliability"]) == 2
    assert data["decided_precision"] == cal["decided_precision"]
    assert {t["metric"] for t in data["targets"]} >= {"decided", "decided_precision"}


def _outcome(**kw) -> Outcome:
    base = dict(
        id="x",
        family="x",
        expected="test_failure",
        accepted=frozenset({"test_failure"}),
        got="test_failure",
        decided_by="pattern",
        pattern_id="p",
        evidence=(7, 9, 11, 12),
    )
    return Outcome(**{**base, **kw})  # type: ignore[arg-type]


def test_right_and_top3_of_an_outcome():
    assert _outcome(key_line=7).right and _outcome(key_line=7).top3
    assert not _outcome(key_line=11).right and _outcome(key_line=11).top3
    assert not _outcome(key_line=12).top3  # the fourth line is not in the top three
    assert not _outcome(key_line=7, got="other").right  # the category must be right too
    chunk = _outcome(span=(10, 11), accepted=frozenset(), expected="")
    assert not chunk.right and chunk.top3  # evidence[0] outside, evidence[2] inside
    assert _outcome(span=(6, 8)).right
    assert _outcome(decided_by="none").decided is False
