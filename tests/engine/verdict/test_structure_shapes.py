"""The seven shapes of issue 10 on logs written from the tools' documented output formats
(tests/fixtures/shapes/, none copied from a corpus). Each test names its shape."""

from __future__ import annotations

import pytest

from repopilot.engine.classify import Classifier
from repopilot.engine.library.loader import load_library
from repopilot.records import Verdict
from tests.paths import FIXTURES

pytestmark = pytest.mark.unit

SHAPES = FIXTURES / "shapes"


@pytest.fixture(scope="module")
def engine() -> Classifier:
    return Classifier(load_library())


def verdicts(engine: Classifier, name: str, assume_failed: bool = False) -> list[Verdict]:
    return engine.classify_path(SHAPES / name, assume_failed)


def one(engine: Classifier, name: str, assume_failed: bool = False) -> Verdict:
    (v,) = verdicts(engine, name, assume_failed)
    return v


def lines(v: Verdict) -> list[int]:
    return [e.line for e in v.evidence]


# 1. `gh run view --log` with `UNKNOWN STEP` (and a BOM in the timestamp column)


def test_gh_unknown_step_pytest_is_read_as_gh_output(engine):
    v = one(engine, "ghcli-unknown-step-pytest.log")
    assert v.category == "test_failure" and v.decided_by == "pattern"
    assert v.job == "test (3.12)" and v.step == "Run python -m pytest -v"
    # the assertion first, the FAILED summary line second; never the runner's exit line
    assert v.evidence[0].text.startswith("E       assert 3 == 4") and v.assertion_first
    assert v.evidence[1].text.startswith("FAILED tests/test_cart.py::test_total")
    assert all("Process completed" not in e.text for e in v.evidence)
    # the job and step columns are gone from the evidence text
    assert all("\t" not in e.text and "UNKNOWN STEP" not in e.text for e in v.evidence)


def test_gh_unknown_step_bun_failure_and_its_expected_line(engine):
    v = one(engine, "ghcli-unknown-step-bun.log")
    assert v.category == "test_failure" and v.decided_by == "pattern"
    assert v.evidence[0].text == "Expected: 4" and v.evidence[1].text.startswith("(fail) cart")
    assert all("(pass)" not in e.text for e in v.evidence)


def test_gh_unknown_step_node_test_runner_and_its_tap_error(engine):
    v = one(engine, "ghcli-unknown-step-node-test.log")
    assert v.category == "test_failure" and v.decided_by == "pattern" and v.assertion_first
    assert v.evidence[0].text.strip() == "Expected values to be strictly equal:"
    assert v.evidence[1].text == "not ok 2 - totals"


def test_gh_unknown_step_npm_resolution(engine):
    v = one(engine, "ghcli-unknown-step-npm.log")
    assert v.category == "dependency_resolution" and v.decided_by == "pattern"
    assert v.evidence[0].line == 10 and "ERESOLVE" in v.evidence[0].text


# 2. script-reported errors


def test_script_error_beats_the_generic_exit_line(engine):
    v = one(engine, "script-error-with-exit.log")
    assert v.failed and v.evidence[0].line == 11
    assert v.evidence[0].text.startswith("##[error]No entry in CHANGELOG.md")


def test_script_error_without_exit_line_is_a_failure(engine):
    v = one(engine, "script-error-no-exit.log")
    assert v.failed and v.category != "no_failure"
    assert v.evidence[0].text.startswith("##[error]Size limit exceeded")


# 3. did the job fail at all?


@pytest.mark.parametrize(
    ("name", "line"),
    [("excerpt-traceback.txt", 5), ("excerpt-ninja.txt", 4), ("excerpt-wheel.txt", 4)],
)
def test_an_excerpt_that_states_a_failure_is_a_failure(engine, name, line):
    v = one(engine, name)
    assert v.failed and v.decided_by == "pattern"
    assert v.evidence[0].line == line  # the compiler/import error, not ninja's or pip's wrapper


@pytest.mark.parametrize("name", ["passing-tolerated.log", "passing-ignored-errors.log"])
def test_tolerated_errors_in_a_passing_job_are_no_failure(engine, name):
    v = one(engine, name)
    assert v.category == "no_failure" and v.evidence == ()


@pytest.mark.parametrize("name", ["passing-tolerated.log", "passing-ignored-errors.log"])
def test_assume_failed_never_says_no_failure(engine, name):
    v = one(engine, name, assume_failed=True)
    assert v.failed and v.category != "no_failure"


# 4. evidence from the right job and never from a passing test


def test_multi_job_gh_file_keeps_the_passing_job_out(engine):
    lint, unit = verdicts(engine, "ghcli-multijob.log")
    assert (lint.job, lint.category) == ("lint", "no_failure")
    assert unit.job == "unit" and unit.category == "test_failure" and unit.step == "Run tests"
    assert unit.evidence[0].text.strip().startswith("cart_test.go:21:")
    assert unit.evidence[1].text.startswith("--- FAIL: TestTotal")
    # evidence lies inside the failing job's own lines
    assert all(22 <= n <= 33 for n in lines(unit))


def test_passing_test_lines_are_never_evidence(engine):
    for name in ("ghcli-unknown-step-pytest.log", "ghcli-multijob.log", "jest-assertion.log"):
        for v in verdicts(engine, name):
            for e in v.evidence:
                assert "PASSED" not in e.text and "--- PASS" not in e.text
                assert "✓" not in e.text and not e.text.startswith("ok ")


# 5. the specific error over its wrapper


@pytest.mark.parametrize(
    ("name", "line", "start"),
    [
        ("gradle-wrapper.log", 11, "/home/runner/work/shop/shop/app/src/main/java/shop/Cart.java"),
        ("npm-jest-wrapper.log", 16, "    Cannot find module './money'"),
        ("yarn-wrapper.log", 12, "src/index.ts(3,7): error TS2322"),
    ],
)
def test_the_specific_line_goes_before_its_wrapper(engine, name, line, start):
    v = one(engine, name)
    assert v.decided_by == "pattern"
    assert (v.evidence[0].line, v.evidence[0].text[: len(start)]) == (line, start)


# 6. the failing test's reason first, the test second


@pytest.mark.parametrize(
    ("name", "reason", "test"),
    [
        ("jest-assertion.log", "    Expected: 4", "  ● cart › totals"),
        ("go-assertion.log", "        cart_test.go:33:", "--- FAIL: TestTotal"),
        (
            "gradle-junit-assertion.log",
            "    org.opentest4j.AssertionFailedError",
            "CartTest > totals() FAILED",
        ),
    ],
)
def test_assertion_message_first_test_line_second(engine, name, reason, test):
    v = one(engine, name)
    assert v.category == "test_failure" and v.assertion_first
    assert v.evidence[0].text.startswith(reason)
    assert v.evidence[1].text.startswith(test)


# 7. unknown failures point at the last error block of the failing step


def test_plain_unknown_points_at_the_error_not_the_marker(engine):
    v = one(engine, "unknown-plain.log")
    assert v.decided_by == "none"
    assert v.evidence[0].line == 6  # not `Finished: FAILURE`, not `script returned exit code 4`
