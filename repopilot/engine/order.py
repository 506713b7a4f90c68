"""Which evidence line goes first: the one that carries the cause.

Two rules over a pattern verdict's lines, both from the tools' documented output shapes:
- A wrapper (Gradle `Execution failed for task`, `npm ERR! Test failed`, `BUILD FAILED`,
  `ELIFECYCLE`, yarn's `error Command failed with exit code 1`, a runner's "script exited with
  code 1", `make: *** ... Error 2`) only says a command failed: the specific line above it in the
  same step goes first.
- A failing test's line names the test; its assertion or error message says why. When the log
  prints it right with the test (pytest's `E ` lines in the test's section, jest's `Expected:`,
  Go's `file_test.go:N: ...`, a JUnit/Gradle/surefire exception line, a doctest's
  `file:N: DocTestFailure`), it goes first and the test's line second.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from repopilot.engine.assertions import more_assertion
from repopilot.engine.fallback import WRAPPER, Line, best_block, without_echo
from repopilot.logs.textnorm import body

AFTER = 40  # lines after a test's line where its message may be printed
BEFORE = 600  # lines before a pytest summary line where its test's section may start


def is_wrapper(text: str) -> bool:
    return bool(WRAPPER.search(body(text).strip()))


@dataclass(frozen=True, slots=True)
class Lead:
    """The line to put first and whether it is a test's assertion (the test line then second)."""

    line: Line
    assertion: bool


def specific_before(lines: list[Line], wrapper_line: int, start: int) -> Line | None:
    """The strongest line of the last error block above a wrapper, within its step."""
    above = [
        ln
        for ln in without_echo(lines)
        if start <= ln.number < wrapper_line and not is_wrapper(ln.text)
    ]
    block = best_block(above, wrapper_line)
    if not block:
        return None
    top = max(sc for sc, _ in block)
    return next(ln for sc, ln in block if sc >= top - 0.5)


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
    more = more_assertion(text, after)
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
