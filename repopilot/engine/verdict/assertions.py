"""A failing test's message (its assertion or error line), from each runner's documented output:
pytest, jest, go, JUnit/Gradle/surefire, bun, TAP, Python unittest, Rust's libtest, PHPUnit, RSpec
and `dotnet test` (xUnit/NUnit/MSTest). `assertion_for` is the entry point."""

from __future__ import annotations

import re
from collections.abc import Callable

from repopilot.engine.verdict.line_score import Line
from repopilot.logs.textnorm import body

AFTER = 40  # lines after a test's line where its message may be printed
BEFORE = 600  # lines before a pytest summary line where its test's section may start

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


def _more_assertion(text: str, after: list[Line]) -> Line | None:
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


# --- assertion messages, per test runner output shape

_GO_FAIL = re.compile(r"^\s*--- FAIL: (\S+)")
_GO_MSG = re.compile(r"^\s+[\w./-]+_test\.go:\d+: \S")
_GO_RUN = re.compile(r"^=== (?:RUN|CONT|PAUSE|NAME)\s+(\S+)")
_PYTEST_FAILED = re.compile(r"^(?:FAILED|ERROR) (\S+?)(?: - |$)")
_PYTEST_SECTION = re.compile(r"^_{3,} (?:ERROR at \w+ of )?(\S.*?) _{3,}$")
_PYTEST_E = re.compile(r"^E\s{2,}\S|^E\s+\w+(?:Error|Exception|Warning)\b")
_DOCTEST = re.compile(r"^\S+:\d+: (?:DocTestFailure|UnexpectedException)")
_JEST_TEST = re.compile(r"^\s*● (?!Console\b)\S.* › |^\s*● (?!Console\b)\S")
_JEST_MSG = re.compile(r"^\s*(?:Expected\b.*:|expect\(|\w*(?:Error|Exception)\b:?)")
_JUNIT_TEST = (
    re.compile(  # Gradle's `Class > method FAILED`; one surefire test (`Error:` in Actions)
        r"^\S.* > \S.* FAILED$|"
        r"^(?:\[ERROR\]|Error:) +(?!Tests run:)\S+.*(?:Time elapsed|<<<).*(?:FAILURE|ERROR)!"
    )
)
_JUNIT_MSG = re.compile(r"^\s*(?:Caused by: )?[\w.$]+(?:Error|Exception|Failure|Throwable)\b")
_TAP_NOT_OK = re.compile(r"^\s*not ok \d+ ")
_TAP_ERROR = re.compile(r"^\s+(?:error|message): (.*)$")
_BUN_RESULT = re.compile(r"^\((?:pass|fail|skip|todo)\) ")
_BUN_MSG = re.compile(r"^(?:Expected\b.*:|error: )")


def assertion_for(test: Line, lines: list[Line]) -> Line | None:
    """The message printed with the failing test on `test`'s line, if the log has one."""
    text = body(test.text)
    after = [ln for ln in lines if test.number < ln.number <= test.number + AFTER]
    m = _GO_FAIL.match(text)
    if m:
        return _go(m.group(1), test, after, lines)
    m = _PYTEST_FAILED.match(text)
    if m:
        return _pytest(m.group(1), test, lines)
    if _JUNIT_TEST.match(text):
        nxt = _first_text(after)
        return nxt if nxt and _JUNIT_MSG.match(body(nxt.text)) else None
    if text.startswith("(fail) "):
        return _bun(test, lines)
    if _TAP_NOT_OK.match(text):
        return _tap(after)
    more = _more_assertion(text, after)
    if more is not None:
        return more
    if _JEST_TEST.match(text):
        for ln in after[:25]:
            t = body(ln.text)
            if _JEST_TEST.match(t):
                break
            if _JEST_MSG.match(t) and not t.strip().startswith("expect("):
                return ln
    return None


def reads_above(test_text: str) -> bool:
    """Whether `assertion_for` looks above the test's line for this test (pytest's section, the
    output `go test -v` printed while the test ran, bun's error): for every other runner only the
    AFTER lines below it matter, and a caller need not read the rest."""
    text = body(test_text)
    return bool(_GO_FAIL.match(text) or _PYTEST_FAILED.match(text)) or text.startswith("(fail) ")


def _first_text(lines: list[Line]) -> Line | None:
    return next((ln for ln in lines if body(ln.text).strip()), None)


def _go(name: str, test: Line, after: list[Line], lines: list[Line]) -> Line | None:
    deepest = name
    for ln in after:  # `go test` prints subtests' results under the parent's, then messages
        t = body(ln.text)
        m = _GO_FAIL.match(t)
        if m:
            deepest = m.group(1)
            continue
        if _GO_MSG.match(t):
            return ln
        if t.strip():
            break
    # `go test -v` prints a test's messages while it runs: after its last `=== RUN/CONT name`.
    current = None
    found = None
    for ln in lines:
        if ln.number >= test.number:
            break
        t = body(ln.text)
        m = _GO_RUN.match(t)
        if m:
            current = m.group(1)
        elif current == deepest and found is None and _GO_MSG.match(t):
            found = ln
    return found


def _pytest(node: str, test: Line, lines: list[Line]) -> Line | None:
    name = node.rsplit("::", 1)[-1]
    inside = False
    for ln in lines:
        if ln.number >= test.number:
            break
        if ln.number < test.number - BEFORE:
            continue
        t = body(ln.text)
        m = _PYTEST_SECTION.match(t)
        if m:
            title = m.group(1).strip()
            inside = title == name or title.endswith("." + name) or title == node
            continue
        if inside and (_PYTEST_E.match(t) or _DOCTEST.match(t)):
            return ln
    return None


def _bun(test: Line, lines: list[Line]) -> Line | None:
    """bun prints a failing test's error above its `(fail)` line: `Expected:` else `error:`."""
    above: list[Line] = []
    for ln in reversed([x for x in lines if x.number < test.number]):
        t = body(ln.text)
        if _BUN_RESULT.match(t) or t.endswith((".test.ts:", ".test.js:", ".spec.ts:")):
            break
        above.append(ln)
    found = [ln for ln in reversed(above) if _BUN_MSG.match(body(ln.text).strip())]
    expected = [ln for ln in found if body(ln.text).strip().startswith("Expected")]
    picked = expected or found
    return picked[0] if picked else None


def _tap(after: list[Line]) -> Line | None:
    """TAP (node:test, tap, tape): the `error:`/`message:` of the test's YAML block, or the
    first line of its `|-` block."""
    for k, ln in enumerate(after):
        t = body(ln.text)
        if t.strip() == "..." and k > 0:  # the end of the test's YAML block
            return None
        m = _TAP_ERROR.match(t)
        if m:
            if m.group(1).strip() not in ("|-", "|", ">-", ">", ""):
                return ln
            return next((x for x in after[k + 1 :] if body(x.text).strip()), None)
    return None
