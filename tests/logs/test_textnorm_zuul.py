"""Zuul's job-output.txt prefix (issue 20): zuul_stream writes `{datetime.now()} | {msg}` and, for a
command's output, msg is `{host} | {line}`. `display` drops both, as it drops the GitHub runner's
timestamp, so patterns anchored at the line start match; the physical line numbers stay."""

from __future__ import annotations

import pytest

from repopilot.engine.verdict.passing import is_passing_test
from repopilot.logs.reader import iter_lines, open_logs
from repopilot.logs.textnorm import body, display
from tests.paths import FIXTURES

pytestmark = pytest.mark.unit


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        # a command's output: time and host columns go
        (
            "2026-11-30 10:00:04.123456 | ubuntu-jammy | E       assert False ",
            "E       assert False",
        ),
        ("2026-11-30 10:00:04.123456 | controller | FAILED t.py::test_a", "FAILED t.py::test_a"),
        # str(datetime) has no fraction when the microseconds are zero: the time goes, and the
        # host column stays (without Zuul's six digits it could be any tool's `date | ` column)
        (
            "2026-11-30 10:00:04 | compute-1 | ok: Runtime: 0:00:01",
            "compute-1 | ok: Runtime: 0:00:01",
        ),
        # the executor's own lines have no host column
        (
            "2026-11-30 10:00:01.323456 | TASK [tox : Run tox testenv]",
            "TASK [tox : Run tox testenv]",
        ),
        ("2026-11-30 10:00:06.200000 | PLAY RECAP", "PLAY RECAP"),
        ("2026-11-30 10:00:06.200000 | ", ""),
        # an all-capital TBPL marker is not a host name
        (
            "2026-11-30 10:00:06.200000 | TEST-UNEXPECTED-FAIL | a.html | got 1",
            "TEST-UNEXPECTED-FAIL | a.html | got 1",
        ),
        # a delegated task's column
        ("2026-11-30 10:00:06.200000 | controller -> localhost | ok: Runtime", "ok: Runtime"),
        # the play recap's host column
        (
            "2026-11-30 10:00:06.200000 | web1 | ok: 3 changed: 1 unreachable: 0 failed: 1",
            "ok: 3 changed: 1 unreachable: 0 failed: 1",
        ),
        # only one host column is taken
        ("2026-11-30 10:00:06.200000 | web1 | a | b", "a | b"),
    ],
)
def test_zuul_prefix_is_dropped(raw: str, shown: str) -> None:
    assert display(raw) == shown
    assert display(raw.encode()) == shown


@pytest.mark.parametrize(
    "raw",
    [
        "2026-11-30 10:00:01,123 INFO demo.api: started",  # a logging line, not Zuul's prefix
        "2026-11-30 10:00:01.123 ERROR something | else",  # no ` | ` right after the time
        "2026-11-30 | host | x",  # a date alone
    ],
)
def test_other_dated_lines_are_kept(raw: str) -> None:
    assert display(raw) == raw


@pytest.mark.parametrize("time", ["10:00:00", "10:00:00.5", "10:00:00.123"])
def test_a_first_column_stays_without_zuuls_six_digit_time(time: str) -> None:
    """Another tool's `date time | level | message` keeps its level: only Zuul's own time
    (`.ffffff`) says the next column is a host."""
    assert display(f"2026-11-30 {time} | error | disk quota exceeded") == (
        "error | disk quota exceeded"
    )


def test_github_timestamp_unchanged() -> None:
    assert display("2026-11-30T10:00:00.1234567Z ##[error]boom") == "##[error]boom"
    assert body(display("2026-11-30T10:00:00.1234567Z ##[error]boom")) == "boom"


def test_zuul_log_keeps_physical_line_numbers() -> None:
    (job,) = open_logs(str(FIXTURES / "formats20" / "zuul-pytest.log"))
    lines = list(iter_lines(job))
    by_number = {ln.number: ln.text for ln in lines}
    assert by_number[15] == "E       AssertionError: assert 5 == 10"
    assert by_number[19].startswith("FAILED demo/tests/test_api.py::test_quota")
    assert by_number[3] == "PLAY [all]"


def test_zuul_recap_is_not_a_passing_counter() -> None:
    """`unreachable: 0 failed: 1` holds `0 failed`, the pytest counter of a clean run."""
    assert not is_passing_test(
        display("2026-11-30 10:00:06.200000 | web1 | ok: 3 changed: 1 unreachable: 0 failed: 1")
    )
    assert is_passing_test("==== 12 passed, 0 failed in 1.20s ====")
