"""Evidence ranks distinct cause candidates (issue 27, engine/verdict/candidates.py): more lines of
the cause already named are not the next candidates; another tool's error is. Every log is written
for the test from the tools' documented output (pytest's terminal summary and pytest-cov's
`--cov-fail-under` message, GNU make's `-k` and `*** [...] Error N` lines, mypy's `file:N: error:`
format, ESLint's stylish formatter), none copied from a corpus."""

from __future__ import annotations

from pathlib import Path

import pytest

from repopilot.engine.classify import Classifier
from repopilot.engine.library.loader import load_library
from repopilot.engine.verdict.baseline import Baseline, normalise
from repopilot.engine.verdict.candidates import Candidate, ranked
from repopilot.engine.verdict.line_score import Line
from repopilot.records import Verdict

pytestmark = pytest.mark.unit

TS = "2025-06-01T10:00:00.0000000Z "


@pytest.fixture(scope="module")
def engine() -> Classifier:
    return Classifier(load_library())


def gha(tmp_path: Path, command: str, *body: str) -> Path:
    lines = [
        "Current runner version: '2.325.0'",
        f"##[group]Run {command}",
        command,
        "shell: /usr/bin/bash -e {0}",
        "##[endgroup]",
        *body,
        "##[error]Process completed with exit code 1.",
        "Post job cleanup.",
        "Cleaning up orphan processes",
    ]
    path = tmp_path / "job.log"
    path.write_text("".join(TS + ln + "\n" for ln in lines), encoding="utf-8")
    return path


def one(engine: Classifier, path: Path) -> Verdict:
    (v,) = engine.classify_path(path)
    return v


def texts(v: Verdict) -> list[str]:
    return [e.text for e in v.evidence]


def _lines(*pairs: tuple[int, str]) -> list[Line]:
    return [Line(n, t, False) for n, t in pairs]


SUMMARY = _lines(
    (10, "FAILED tests/test_cart.py::test_total - assert 3 == 4"),
    (11, "FAILED tests/test_cart.py::test_empty - assert 0 == 1"),
    (12, "FAILED tests/test_cart.py::test_tax - assert 1 == 2"),
    (20, "src/shop/cart.py:12: error: Missing return statement  [return]"),
)


def test_the_next_lines_of_one_report_are_one_candidate():
    a, b, c, other = SUMMARY
    got = ranked([Candidate((a,), lead=True), *(Candidate((x,)) for x in (b, c, other))], 3)
    assert [ln.number for ln in got] == [10, 20]


def test_the_same_text_again_is_the_same_candidate():
    lines = _lines(
        (5, "Error: connect ECONNREFUSED 127.0.0.1:5432"),
        (90, "Error: connect ECONNREFUSED 127.0.0.1:5433"),
        (95, "boom: disk quota exceeded"),
    )
    got = ranked([Candidate((x,)) for x in lines], 5)
    assert [ln.number for ln in got] == [5, 95]


def test_the_lead_keeps_its_pair_and_more_of_it_comes_last():
    msg, test = _lines((7, "E       assert 3 == 4"), (8, "FAILED tests/test_cart.py::test_total"))
    more = Line(9, "FAILED tests/test_cart.py::test_empty", False)
    other = Line(30, "make: *** [Makefile:4: test] Error 1", False)
    got = ranked(
        [Candidate((msg, test), lead=True), Candidate((more,), more=True), Candidate((other,))],
        5,
    )
    assert [ln.number for ln in got] == [7, 8, 30, 9]


def test_three_failed_lines_of_one_pytest_run_are_not_three_candidates(engine, tmp_path):
    # pytest -q --tb=no with pytest-cov's --cov-fail-under: two tools say why the step failed
    log = gha(
        tmp_path,
        "pytest -q --tb=no --cov=shop --cov-fail-under=90",
        "..F.F.F                                                                  [100%]",
        "",
        "---------- coverage: platform linux, python 3.12.4-final-0 -----------",
        "Name               Stmts   Miss  Cover",
        "src/shop/cart.py      40     11    72%",
        "TOTAL                 40     11    72%",
        "",
        "FAIL Required test coverage of 90% not reached. Total coverage: 72.50%",
        "=========================== short test summary info ============================",
        "FAILED tests/test_cart.py::test_total - assert 3 == 4",
        "FAILED tests/test_cart.py::test_empty - assert 0 == 1",
        "FAILED tests/test_cart.py::test_tax - assert 1 == 2",
        "3 failed, 2 passed in 0.12s",
    )
    v = one(engine, log)
    first = texts(v)[:2]
    assert first[0] == "FAILED tests/test_cart.py::test_total - assert 3 == 4"  # unchanged
    assert first[1].startswith("FAIL Required test coverage of 90% not reached")
    # the other FAILED lines are still evidence, after the other tool's line
    assert "FAILED tests/test_cart.py::test_empty - assert 0 == 1" in texts(v)[2:]


def test_two_tools_errors_are_two_candidates(engine, tmp_path):
    # GNU make -k goes on after a failed target: the type checker's and the tests' errors
    log = gha(
        tmp_path,
        "make -k check",
        "mypy src",
        'src/shop/cart.py:12: error: Incompatible return value type (got "str", expected "int")'
        "  [return-value]",
        "Found 1 error in 1 file (checked 4 source files)",
        "make: *** [Makefile:4: typecheck] Error 1",
        "npx eslint src",
        "",
        "/home/runner/work/shop/shop/src/cart.js",
        "  14:7  error  'total' is assigned a value but never used  no-unused-vars",
        "",
        "\u2716 1 problem (1 error, 0 warnings)",
        "make: *** [Makefile:7: lint] Error 1",
        "make: Target 'check' not remade because of errors.",
    )
    v = one(engine, log)
    top = texts(v)[:3]
    assert any("error: Incompatible return value type" in t for t in top), top
    assert any("no-unused-vars" in t for t in top), top


def _ln(n: int, text: str) -> Line:
    return Line(n, text, False)


def test_ranked_puts_a_candidate_the_green_log_prints_after_the_new_ones():
    old = _ln(5, "Error response from daemon: No such container: ci-db")
    new = _ln(9, "check schema-v2 did not pass")
    base = Baseline("green", frozenset({normalise(old.text)}))
    got = ranked([Candidate((old,), lead=True), Candidate((new,))], 5, base)
    assert [ln.number for ln in got] == [9, 5]
    assert [ln.number for ln in ranked([Candidate((old,), lead=True), Candidate((new,))], 5)] == [
        5,
        9,
    ]


def test_a_leads_old_message_gives_way_to_its_new_line():
    # Contract 1's pair (message, test line) whose message the green log also prints
    msg, test = (
        _ln(7, "E       assert flaky_probe() is None"),
        _ln(9, "FAILED tests/test_x.py::test_y"),
    )
    base = Baseline("green", frozenset({normalise(msg.text)}))
    got = ranked([Candidate((msg, test), lead=True)], 5, base)
    assert [ln.number for ln in got] == [9, 7]
