"""runners.toml's [[closing]] regexes run on the log's own last lines with Python's `re`: a fork's
log chooses those lines, so no regex may take time growing with the square of a line's length
(docs/THREAT_MODEL.md §9). A line of one repeated character is the usual way to find one."""

from __future__ import annotations

import time

import pytest

from repopilot.evidence.runners import closing_lines, teardowns

pytestmark = pytest.mark.unit

FILLS = (".", " ", "\t", "a", "1", "=", "-", "a.", ". ")
LENGTH = 8000  # a quadratic regex takes seconds here, a linear one well under a millisecond


@pytest.mark.parametrize("fill", FILLS, ids=repr)
def test_no_closing_regex_is_quadratic_in_a_line(fill):
    line = fill * (LENGTH // len(fill)) + "!"
    slow = []
    for c in closing_lines():
        t = time.perf_counter()
        c.regex.match(line)
        spent = time.perf_counter() - t
        if spent > 0.2:
            slow.append(f"{c.id}: {spent:.2f} s")
    assert not slow


@pytest.mark.parametrize("fill", FILLS, ids=repr)
def test_no_teardown_regex_is_quadratic_in_a_line(fill):
    # a teardown's lines follow its start line, which a log can print too
    line = fill * (LENGTH // len(fill)) + "x Container"
    slow = []
    for n, t in enumerate(teardowns()):
        for rx in (t.start, t.continues):
            began = time.perf_counter()
            rx.match(line)
            spent = time.perf_counter() - began
            if spent > 0.2:
                slow.append(f"teardown {n}: {rx.pattern[:40]}: {spent:.2f} s")
    assert not slow


@pytest.mark.parametrize(
    ("line", "says"),
    [
        ("ruff.....................................................................Passed", True),
        ("check yaml...........................................(no files to check)Skipped", True),
        ("mypy.....................................................................Failed", True),
        ("trim trailing whitespace.................................................Passed", True),
        ("..........Passed", False),
        ("ruff..Passed", False),
    ],
)
def test_pre_commit_hook_lines_still_read(line, says):
    ids = {c.id for c in closing_lines() if c.regex.match(line)}
    assert bool(ids & {"pre-commit-hooks", "pre-commit-failed"}) is says, ids
