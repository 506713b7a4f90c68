"""Lines that report a passing test (or counters with no failure): never evidence, however
their test names read (`test_failure_message PASSED`)."""

from __future__ import annotations

import re

from repopilot.evidence.runners import alternation, needs
from repopilot.logs.textnorm import body

# Passing-test lines (runners.toml `passing`): pytest `PASSED`, bun `(pass)`, TAP/go `ok`,
# jest/mocha `✓`/`✔`, go `--- PASS`, JUnit/surefire counters with no failure.
_PASSING = re.compile(alternation("passing"))
# Literals every match of _PASSING holds one of: most lines hold none, and `in` is far cheaper
# than trying each alternative of _PASSING at every position.
_MAY_PASS = needs("passing")
_FAIL_WORD = re.compile(r"\bFAIL(?:ED|URE)?\b|\bfailing\b|\bfailed\b(?! ?[:=] ?0\b)")


def _may_pass(t: str) -> bool:
    for literal in _MAY_PASS:
        if literal in t:
            return True
    return False


def is_passing_test(text: str) -> bool:
    """A line reporting a test that passed (or counters with no failure): never evidence."""
    t = body(text)
    if not _may_pass(t):
        return False
    return bool(_PASSING.search(t)) and not _FAIL_WORD.search(_PASSING.sub("", t))
