"""Issue 20, item 7: a passing test's output is no failure, and an infrastructure line a passing
test printed is not the cause of a job that failed for another reason."""

from __future__ import annotations

import pytest

from repopilot.engine.classify import Classifier
from repopilot.engine.library.loader import load_library
from repopilot.engine.verdict.line_score import Line
from repopilot.engine.verdict.mentions import CLOSE, is_mention, mentions
from tests.paths import FIXTURES, REPO_ROOT

pytestmark = pytest.mark.unit

HERE = FIXTURES / "anyproject"


def _reader(texts: list[str]):
    lines = [Line(i + 1, t, False) for i, t in enumerate(texts)]

    def read(lo: int, hi: int) -> list[Line]:
        return lines[lo - 1 : hi]

    return read


@pytest.fixture(scope="module")
def classifier() -> Classifier:
    return Classifier(load_library(REPO_ROOT / "patterns"))


def test_a_line_closed_by_a_passing_test_is_a_mention():
    read = _reader(["x_test.go:3: permission denied", "--- PASS: TestX (0.00s)"])
    assert is_mention(1, read)


def test_a_failure_before_the_pass_line_ends_the_search():
    read = _reader(["503 Service Unavailable", "--- FAIL: TestX (0.00s)", "--- PASS: TestY (0s)"])
    assert not is_mention(1, read)


def test_a_pass_line_too_far_away_does_not_count():
    texts = ["permission denied"] + ["working"] * (CLOSE + 1) + ["PASSED"]
    assert not is_mention(1, _reader(texts))


def test_only_the_last_lines_are_checked_when_asked():
    read = _reader(["boom", "step failed", "permission denied", "PASSED"])
    assert mentions([1, 3], read, all_of_them=False) == {3}
    read = _reader(["permission denied", "PASSED", "error: boom", "done"])
    assert mentions([1, 3], read, all_of_them=False) == set()


@pytest.mark.parametrize("name", ["pass-plain-mentions.log", "pass-pytest-mentions.log"])
def test_plain_log_of_passing_tests_that_print_errors_passed(classifier, name):
    (v,) = classifier.classify_path(HERE / name)
    assert v.category == "no_failure"


def test_plain_log_that_fails_after_a_mention_still_fails(classifier):
    (v,) = classifier.classify_path(HERE / "plain-fail-after-mention.log")
    assert (v.category, v.pattern_id) == ("test_failure", "go.test.fail")
    assert "schema version" in v.evidence[0].text


def test_failed_job_is_not_blamed_on_a_passing_tests_503(classifier):
    (v,) = classifier.classify_path(HERE / "fail-after-mentions.log")
    assert v.category == "test_failure"
    assert all("503" not in e.text and "permission" not in e.text for e in v.evidence)


def test_an_infra_line_that_ended_the_step_still_decides(classifier):
    (v,) = classifier.classify_path(HERE / "fail-permission-end.log")
    assert (v.category, v.pattern_id) == ("permission_secret", "infra.perm.denied")


def test_an_infra_line_a_passing_test_printed_is_not_the_category(classifier):
    (v,) = classifier.classify_path(HERE / "fail-unknown-after-mention.log")
    assert v.category != "network"


def test_a_line_that_says_failed_is_never_a_mention():
    read = _reader(["FAIL\texample.com/a\t0.1s", "ok  \texample.com/b\t0.2s"])
    assert not is_mention(1, read)


def test_interleaved_parallel_tests_are_not_mentions():
    read = _reader(
        [
            "    x_test.go:9: net/http: TLS handshake timeout",
            "=== RUN   TestOther/case",
            "--- PASS: TestElse (0.10s)",
        ]
    )
    assert not is_mention(1, read)


def test_a_bare_ok_closes_no_tests_output():
    read = _reader(["write x: No space left on device", "ok line", "ok  \texample.com/b\t0.2s"])
    assert not is_mention(1, read)
    read = _reader(["open /x: permission denied", "ok 3 - opens read-only files"])
    assert is_mention(1, read)
