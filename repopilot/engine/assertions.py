"""A failing test's message for more runners' documented output (engine/order.py has pytest,
jest, go, JUnit/Gradle/surefire, bun, TAP): Python unittest, Rust's libtest, PHPUnit, RSpec and
`dotnet test` (xUnit/NUnit/MSTest)."""

from __future__ import annotations

import re
from collections.abc import Callable

from repopilot.engine.fallback import Line
from repopilot.logs.textnorm import body

# unittest: `FAIL: test_x (pkg.TestCase.test_x)` then a dashed line and a traceback whose last
# line is the exception.
_UNITTEST = re.compile(r"^(?:FAIL|ERROR): \w+ \(")
_EXC = re.compile(r"^(?:[a-z_]\w*\.)*[A-Z]\w*(?:Error|Exception|Failure|Exit)\b")
# libtest: `test tests::x ... FAILED`, later `---- tests::x stdout ----` and the panic.
_CARGO = re.compile(r"^test (\S+) \.\.\. FAILED$")
_PANIC = re.compile(r"^thread '([^']*)' panicked at (.*)$")
# PHPUnit: `1) Tests\CartTest::testTotal` then the message.
_PHPUNIT = re.compile(r"^\d+\) [\w\\]+::\w+")
# RSpec: `  1) Cart totals` then `Failure/Error: ...`.
_RSPEC = re.compile(r"^\s*\d+\) \S")
_RSPEC_MSG = re.compile(r"^\s*Failure/Error: ")
# dotnet test: `  Failed Ns.CartTests.Total [12 ms]`, `  Error Message:`, then the message.
_DOTNET = re.compile(r"^\s*Failed [\w.+`<>\[\], ]+ \[[\d.]+ ?m?s\]$")


def more_assertion(text: str, after: list[Line]) -> Line | None:
    """The message for the test on a line of one of this module's runners, else None."""
    for rx, find in _RUNNERS:
        m = rx.match(text)
        if m:
            return find(m, after)
    return None


def _texts(after: list[Line]):
    return ((ln, body(ln.text)) for ln in after)


def _unittest(_m: re.Match[str], after: list[Line]) -> Line | None:
    seen_tb = False
    for ln, t in _texts(after):
        if t.startswith(("=====", "FAIL: ", "ERROR: ")):
            break
        if t.startswith("Traceback (most recent call last):"):
            seen_tb = True
        elif seen_tb and _EXC.match(t):
            return ln
    return None


def _cargo(m: re.Match[str], after: list[Line]) -> Line | None:
    name = m.group(1)
    inside = False
    rows = list(_texts(after))
    for k, (ln, t) in enumerate(rows):
        if t.startswith("---- ") and t.endswith(" stdout ----"):
            inside = t[5:-12] == name
            continue
        p = _PANIC.match(t) if inside else None
        if p:
            rest = p.group(2)
            if rest.startswith("'") or not rest.endswith(":"):
                return ln  # before Rust 1.73 the message is on this line
            return next((x for x, tt in rows[k + 1 :] if tt.strip()), ln)
    return None


def _next_text(_m: re.Match[str], after: list[Line]) -> Line | None:
    return next((ln for ln, t in _texts(after) if t.strip()), None)


def _rspec(_m: re.Match[str], after: list[Line]) -> Line | None:
    for ln, t in list(_texts(after))[:6]:
        if _RSPEC_MSG.match(t):
            return ln
    return None


def _dotnet(_m: re.Match[str], after: list[Line]) -> Line | None:
    rows = list(_texts(after))[:8]
    for k, (_ln, t) in enumerate(rows):
        if t.strip() == "Error Message:":
            return next((x for x, tt in rows[k + 1 :] if tt.strip()), None)
    return None


_RUNNERS: tuple[tuple[re.Pattern[str], Callable[[re.Match[str], list[Line]], Line | None]], ...] = (
    (_UNITTEST, _unittest),
    (_CARGO, _cargo),
    (_PHPUNIT, _next_text),
    (_DOTNET, _dotnet),
    (_RSPEC, _rspec),
)
