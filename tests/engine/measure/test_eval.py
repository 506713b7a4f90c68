"""`repopilot eval` on a hand-written labelled fixture set: the printed numbers are exact.

tests/fixtures/eval/gha holds five labelled logs (one category miss, one ambiguous row whose
secondary category is what the classifier says) and two passing logs (one of which looks failed);
tests/fixtures/eval/logchunks holds two logs (first evidence inside / only a later evidence line
inside the chunk) and one row without a span.
"""

from __future__ import annotations

import json

import pytest

from repopilot.cli import main
from repopilot.engine.measure.evaluate import Outcome, Rate, Report, family, gha_cases
from tests.paths import FIXTURES

pytestmark = pytest.mark.unit

FIX = FIXTURES / "eval"
GHA = FIX / "gha"
CHUNKS = FIX / "logchunks"


def run_json(capsys, *argv: str) -> dict:
    assert main(["eval", *argv, "--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_gha_numbers(capsys):
    data = run_json(capsys, "gha", str(GHA), str(GHA / "labels.csv"))
    assert data["logs"] == 5 and data["passing_logs"] == 2
    assert data["accuracy"] == 0.8  # mislabelled.log is lint_format, labelled type_check
    # Contract 1 (issue 10): py-pytest's assertion `E   assert 3 == 4` comes first, its labelled
    # FAILED line second: a strict miss, a hit in Contract 1 order.
    assert data["key_line"] == 0.8 and data["key_line_contract"] == 1.0
    assert data["decided"] == 1.0
    assert data["false_positives"] == 0.5  # pass-noisy.log has a missing-secret error
    assert data["per_ecosystem"]["python"] == {
        "logs": 2,
        "accuracy": 0.5,
        "key_line": 0.5,
        "key_line_contract": 1.0,
        "decided": 1.0,
    }
    assert data["per_ecosystem"]["go"]["accuracy"] == 1.0  # ambiguous row: secondary accepted
    assert [m["id"] for m in data["misses"]] == ["py-pytest", "mislabelled"]
    miss = data["misses"][1]
    assert (miss["expected"], miss["got"], miss["evidence_line"], miss["key_line"]) == (
        "type_check",
        "lint_format",
        4,
        4,
    )
    assert miss["pattern"] == "python.lint.flake8-ruff"
    assert [f["id"] for f in data["false_positive_logs"]] == ["pass-noisy"]
    assert data["confusion"] == {"type_check -> lint_format": 1}
    met = {t["metric"]: t["met"] for t in data["targets"]}
    assert met == {
        "accuracy": False,
        "key_line_contract": True,
        "decided": True,
        "decided_precision": False,  # issue 27: 4 of the 5 decided are right
        "false_positives": False,
    }
    assert data["per_repository"]["?"]["passing_logs"] == 2  # no repo column, no workspace path


def test_gha_text_report(capsys):
    assert main(["eval", "gha", str(GHA), str(GHA / "labels.csv")]) == 0
    out = capsys.readouterr().out
    assert "category accuracy           4/5  80.0%" in out
    assert "key-line hit                4/5  80.0%" in out
    assert "key line, Contract 1 order  5/5 100.0%" in out
    assert "false positives (passing)   1/2  50.0%" in out
    assert "target accuracy >= 95%: MISSED" in out
    assert "mislabelled  type_check" in out and "line 4 vs key 4" in out
    assert "category confusion (expected -> got):\n  type_check -> lint_format: 1" in out
    assert "pass-noisy  got permission_secret  infra.perm.input-required  line 4" in out


def test_check_flag_exits_one_when_a_target_is_missed(capsys):
    assert main(["eval", "gha", str(GHA), str(GHA / "labels.csv"), "--check"]) == 1


def test_logchunks_numbers(capsys):
    data = run_json(capsys, "logchunks", str(CHUNKS), str(CHUNKS / "chunks.csv"))
    assert data["logs"] == 2
    assert data["precision_at_1"] == 0.5
    assert data["any_inside"] == 1.0
    assert len(data["skipped"]) == 1 and "303.log" in data["skipped"][0]
    assert data["per_ecosystem"]["Python"]["precision_at_1"] == 1.0
    assert data["per_ecosystem"]["JavaScript"] == {
        "logs": 1,
        "precision_at_1": 0.0,
        "any_inside": 1.0,
    }
    (miss,) = data["misses"]
    assert miss["chunk"] == [18, 20] and miss["evidence_line"] == 16  # first error of the list


def test_ambiguous_rows_accept_their_secondary_only_when_marked():
    cases = {c.id: c for c in gha_cases(GHA, GHA / "labels.csv")}
    assert cases["net-ambiguous"].accepted == frozenset({"test_failure", "network"})
    assert cases["py-pytest"].accepted == frozenset({"test_failure"})
    assert cases["py-pytest"].key_line == 16


def test_rates_and_families():
    hit = Outcome(
        "a", "go", "network", frozenset({"network"}), "network", "pattern", "p", (5, 9), key_line=5
    )
    late = Outcome(
        "b",
        "go",
        "network",
        frozenset({"network"}),
        "network",
        "pattern",
        "p",
        (7,),
        key_line=5,
        span=(1, 6),
    )
    escalated = Outcome(
        "c", "python", "other", frozenset({"other"}), "other", "pattern", "p", (3,), ambiguous=True
    )
    report = Report("gha", [hit, late, escalated])
    assert str(report.rate("key_ok")) == "1/3  33.3%"
    assert str(report.decided()) == "2/3  66.7%"  # an ambiguous pattern is not decided alone
    assert Rate(0, 0).value == 0.0
    assert not late.first_inside and not late.any_inside
    assert family("java-maven(kotlin)") == "java" and family("ts-jest") == "node"


@pytest.mark.parametrize(
    "argv, message",
    [
        (["gha", str(GHA), str(GHA / "nope.csv")], "nope.csv: cannot read"),
        (["gha", str(GHA / "missing-dir"), str(GHA / "labels.csv")], "not a directory"),
        (["gha", str(GHA), str(GHA / "negatives.csv")], "missing column(s) ecosystem"),
    ],
)
def test_bad_input_is_one_line(capsys, argv, message):
    assert main(["eval", *argv]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and "\n" not in err and "Traceback" not in err


def test_a_missing_log_is_a_miss_not_a_crash(tmp_path, capsys):
    (tmp_path / "logs").mkdir()
    (tmp_path / "labels.csv").write_text(
        "id,ecosystem,category,key_line_no\nghost,python,test_failure,3\n"
    )
    data = run_json(capsys, "gha", str(tmp_path), str(tmp_path / "labels.csv"))
    assert data["accuracy"] == 0.0 and data["passing_logs"] == 0
    assert data["misses"][0]["got"] == "error" and "no such log" in data["misses"][0]["error"]
