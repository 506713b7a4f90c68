"""Lines that report a passing test (or counters with no failure): never evidence, however
their test names read (`test_failure_message PASSED`)."""

from __future__ import annotations

import re

from repopilot.logs.textnorm import body

# Passing-test lines are never evidence: pytest `PASSED`, bun `(pass)`, TAP/go `ok`, jest/mocha
# `✓`/`✔`, go `--- PASS`, JUnit/surefire counters with no failure.
_PASSING = re.compile(
    r"\bPASSED\b|\(pass\)|^\s*(?:ok|PASS)\b|^\s*[✓✔√]\s|\s[✓✔]\s|^\s*--- PASS:|"
    r"Failures: 0, Errors: 0|\b0 failed\b|\bFailed: 0\b"
)
_FAIL_WORD = re.compile(r"\bFAIL(?:ED|URE)?\b|\bfailing\b|\bfailed\b(?! ?[:=] ?0\b)")


def _may_pass(t: str) -> bool:
    """Whether `t` holds text every match of _PASSING contains: most lines hold none, and `in`
    is far cheaper than trying each alternative of _PASSING at every position."""
    return (
        "PASS" in t
        or "ok" in t
        or "(pass)" in t
        or "✓" in t
        or "✔" in t
        or "√" in t
        or "Failures: 0" in t
        or "0 failed" in t
        or "Failed: 0" in t
    )


def is_passing_test(text: str) -> bool:
    """A line reporting a test that passed (or counters with no failure): never evidence."""
    t = body(text)
    if not _may_pass(t):
        return False
    return bool(_PASSING.search(t)) and not _FAIL_WORD.search(_PASSING.sub("", t))
