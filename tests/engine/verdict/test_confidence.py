"""The calibrated confidence (engine/verdict/confidence.py): the data file, its errors, and
"decided means sure": a pattern's verdict below the threshold is a guess, above it decided."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from repopilot.cli import main
from repopilot.engine.classify import Classifier
from repopilot.engine.verdict.calibration_features import Features
from repopilot.engine.verdict.confidence import DATA, CalibrationError, Model, bundled, load
from repopilot.pipeline import should_escalate
from tests.paths import REPO_ROOT

pytestmark = pytest.mark.unit

EXAMPLE = REPO_ROOT / "examples" / "pytest-failure.log"


def _long_compile_log(path: Path, lines: int) -> Path:
    """A plain log whose one compiler error comes after `lines` lines of output."""
    body = [f"step {i}: compiling module_{i}.c" for i in range(lines)]
    body += ["src/foo.c:3:5: error: expected ';' before '}' token", "make: *** [all] Error 1"]
    path.write_text("\n".join(body) + "\n")
    return path


def test_the_bundled_data_file_loads():
    m = bundled()
    assert 0.0 < m.threshold < 1.0
    assert m.features and set(m.features) <= set(Features.names())
    assert len(m.weights) == len(m.features)
    assert load(DATA) == m


@pytest.mark.parametrize(
    ("content", "says"),
    [
        ("{not json", "not JSON"),
        ("[1, 2]", "expected an object"),
        ('{"threshold": 0.5, "intercept": 0, "weights": {"pattern_id": 1}}', "unknown feature"),
        ('{"threshold": 0.5, "intercept": 0, "weights": {"pattern": "x"}}', "not a number"),
        ('{"threshold": 2, "intercept": 0, "weights": {"pattern": 1}}', "within 0..1"),
        ('{"intercept": 0, "weights": {"pattern": 1}}', "'threshold' must be a number"),
        ('{"threshold": 0.5, "intercept": 0, "weights": {}}', "'weights' must be"),
    ],
)
def test_a_malformed_data_file_is_one_clear_line(tmp_path, content, says):
    bad = tmp_path / "calibration.json"
    bad.write_text(content)
    with pytest.raises(CalibrationError) as err:
        load(bad)
    msg = str(err.value)
    assert says in msg and str(bad) in msg and "\n" not in msg


def test_a_missing_data_file_is_one_clear_line(tmp_path):
    with pytest.raises(CalibrationError, match="cannot read"):
        load(tmp_path / "absent.json")


def test_a_round_trip_through_json(tmp_path):
    m = Model(("pattern", "log_size"), (1.5, -2.0), 0.25, 0.8)
    path = tmp_path / "c.json"
    path.write_text(m.to_json({"note": "test"}))
    assert load(path) == m
    assert json.loads(path.read_text())["about"] == {"note": "test"}


def _classify(model: Model | None, path: Path = EXAMPLE):
    c = Classifier()
    c.calibration = model
    (v,) = c.classify_path(path)
    return v


def test_below_the_threshold_a_pattern_verdict_is_a_guess():
    # P = sigmoid(0) = 0.5 whatever the features, below a threshold of 0.9
    v = _classify(Model(("pattern",), (0.0,), 0.0, 0.9))
    assert v.decided_by == "none" and v.ambiguous
    assert v.confidence == pytest.approx(0.5)
    # the best guess is kept: category, title, evidence, pattern id
    sure = _classify(Model(("pattern",), (0.0,), 0.0, 0.1))
    assert sure.decided_by == "pattern" and not sure.ambiguous
    assert (v.category, v.pattern_id, v.title, v.evidence) == (
        sure.category,
        sure.pattern_id,
        sure.title,
        sure.evidence,
    )
    assert should_escalate(v) and not should_escalate(sure)


def test_the_confidence_is_the_models_probability():
    v = _classify(Model(("pattern", "in_step"), (1.0, 1.0), -1.0, 0.5))
    assert v.confidence == pytest.approx(0.7310585786)  # sigmoid(1): a pattern, in the step


def test_the_bundled_model_decides_a_short_log_and_guesses_on_a_long_one(tmp_path, capsys):
    short = _classify(None, _long_compile_log(tmp_path / "short.log", 10))
    assert short.decided_by == "pattern" and short.confidence >= bundled().threshold
    assert (
        main(["classify", str(_long_compile_log(tmp_path / "long.log", 5000)), "--format", "json"])
        == 0
    )
    (r,) = json.loads(capsys.readouterr().out)["results"]
    assert r["decided_by"] == "none" and r["confidence"] < bundled().threshold
    assert r["category"] == short.category and r["pattern_id"] == short.pattern_id


def test_no_failure_keeps_its_own_confidence(tmp_path):
    log = tmp_path / "ok.log"
    log.write_text("all good\nDone. Your build exited with 0.\n")
    v = _classify(Model(("pattern",), (0.0,), -5.0, 0.9), log)
    assert v.category == "no_failure" and v.confidence == 0.9


def test_the_cli_text_says_a_guess_is_not_decided(tmp_path, capsys):
    assert main(["classify", str(_long_compile_log(tmp_path / "long.log", 5000))]) == 0
    out = capsys.readouterr().out
    assert "(best guess: pattern cpp.compiler.error, confidence 0." in out
    assert "not decided)" in out
