"""`repopilot eval gha ... --base-logs PAIRS.csv` (engine/measure/pairs.py): the paired failed logs
scored without and with their passing log as the base log.

tests/fixtures/eval_shapes/gha/pairs.csv pairs gha-probe.log (a release script's handled pip
lookup, then its own error) with a green run printing the same lookup, and gha-pytest.log with a
"passing" log that failed (nothing is demoted). A scripted BaseClassify makes the figures exact;
the real engine shows the demotion.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from repopilot.commands.eval_tables import pairs_summary, render_pairs
from repopilot.engine.measure.pairs import (
    Pair,
    evaluate_pairs,
    pair_cases,
    with_base_logs,
)
from repopilot.errors import EvalError
from repopilot.records import BASELINE_NOTE, Evidence, Verdict
from tests.paths import FIXTURES

pytestmark = pytest.mark.unit

GHA = FIXTURES / "eval_shapes" / "gha"
LABELS = GHA / "labels.csv"


def test_pair_cases_resolve_the_passing_log():
    pairs = pair_cases(GHA, LABELS, GHA / "pairs.csv")
    assert [(p.case.id, p.passing) for p in pairs] == [
        ("gha-probe", GHA / "negatives" / "gha-probe-pass.log"),
        ("gha-pytest", GHA / "logs" / "gha-odd.log"),  # not in negatives/: logs/
    ]
    assert pairs[0].case.key_line == 13 and pairs[0].case.category == "other"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "failed_id,passing_id\nnope,gha-probe-pass\n",
            "pairs.csv:2: failed_id 'nope' is not labelled",
        ),
        ("failed_id,passing_id\ngha-probe,gone\n", "pairs.csv:2: no passing log"),
        ("failed,passing\ngha-probe,gha-probe-pass\n", "pairs.csv: missing column(s) failed_id"),
    ],
)
def test_bad_pairs_are_one_line(tmp_path: Path, text: str, message: str):
    bad = tmp_path / "pairs.csv"
    bad.write_text(text)
    with pytest.raises(EvalError) as err:
        pair_cases(GHA, LABELS, bad)
    assert message in str(err.value) and "\n" not in str(err.value)


def _v(category: str, *lines: int, base: bool = False, by: str = "pattern") -> Verdict:
    return Verdict(
        source="x",
        category=category,  # type: ignore[arg-type]
        decided_by=by,  # type: ignore[arg-type]
        evidence=tuple(Evidence(n, "t") for n in lines),
        hint=BASELINE_NOTE if base else "",
    )


def _scripted(path: Path, base: Path | None) -> tuple[list[Verdict], bool]:
    """gha-probe: the probe without a base log, the script's line with it (green base);
    gha-pytest: the same verdict either way, its base log read as failed."""
    if path.stem == "gha-probe":
        if base is None:
            return [_v("dependency_resolution", 10)], False
        return [_v("unknown", 13, 5, base=True, by="none")], True
    return [_v("test_failure", 15, 20, base=base is not None)], False


def test_both_sides_and_the_changed_logs_are_exact():
    report = evaluate_pairs(_scripted, pair_cases(GHA, LABELS, GHA / "pairs.csv"))
    data = pairs_summary(report)
    assert data["pairs"] == 2 and data["green_base_logs"] == 1
    assert data["without"] == {
        "accuracy": 0.5,
        "key_line": 0.0,
        "key_line_contract": 0.0,
        "decided": 1.0,
    }
    assert data["with"] == {
        "accuracy": 0.5,
        "key_line": 0.5,
        "key_line_contract": 0.5,
        "decided": 0.5,
    }
    assert data["changed"] == [
        {
            "id": "gha-probe",
            "base_log": "gha-probe-pass",
            "expected": "other",
            "key_line": 13,
            "without": {"category": "dependency_resolution", "line": 10, "cause": "pattern"},
            "with": {"category": "unknown", "line": 13, "cause": "fallback+base-log"},
            "change": "better",
        }
    ]
    assert data["not_green"] == ["gha-odd"] and data["errors"] == []
    text = "\n".join(render_pairs(report, data))
    assert "with and without a base log (2 pairs, 1 base logs read as passing):" in text
    assert "  key-line hit                    0/2   0.0%     1/2  50.0%" in text
    assert "  gha-probe  better: dependency_resolution line 10 (pattern) -> unknown line 13" in text
    assert "base logs read as failed (nothing demoted): gha-odd" in text


def test_change_kinds():
    (probe,) = pair_cases(GHA, LABELS, GHA / "pairs.csv")[:1]

    def worse(path: Path, base: Path | None) -> tuple[list[Verdict], bool]:
        return ([_v("other", 13)] if base is None else [_v("other", 9)]), True

    def sideways(path: Path, base: Path | None) -> tuple[list[Verdict], bool]:
        return ([_v("network", 8)] if base is None else [_v("network", 9)]), True

    (a,) = evaluate_pairs(worse, [probe]).pairs
    (b,) = evaluate_pairs(sideways, [probe]).pairs
    (c,) = evaluate_pairs(lambda p, base: ([_v("other", 13)], True), [probe]).pairs
    assert (a.change, b.change, c.change) == ("worse", "same score", "none")


def test_real_engine_demotes_what_the_green_log_prints(classifier):
    pairs = pair_cases(GHA, LABELS, GHA / "pairs.csv")
    report = evaluate_pairs(with_base_logs(classifier), pairs)
    assert classifier.baseline is None  # the engine is left as it was found
    probe, pytest_pair = report.pairs
    assert probe.green and not pytest_pair.green
    # without: pip's lookup error (also in the green log); with: the script's own line
    assert probe.without.evidence[:1] == (10,) and probe.without.got == "dependency_resolution"
    assert probe.with_base.evidence[:1] == (13,) and probe.change == "better"
    assert probe.with_base.cause.endswith("+base-log")
    assert not pytest_pair.changed  # a failed base log demotes nothing
    assert [p.without.id for p in report.changed()] == ["gha-probe"]


def test_an_unreadable_base_log_is_an_error_of_that_pair(classifier, tmp_path: Path):
    (case,) = [p.case for p in pair_cases(GHA, LABELS, GHA / "pairs.csv")][:1]
    empty = tmp_path / "empty.log"
    empty.write_bytes(b"")
    (got,) = evaluate_pairs(with_base_logs(classifier), [Pair(case, empty)]).pairs
    assert got.with_base.got == "error" and "empty log" in (got.with_base.error or "")
    assert got.without.error is None and classifier.baseline is None
