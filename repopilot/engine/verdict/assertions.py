"""A failing test's message (its assertion or error line), from each runner's documented output:
pytest, jest, go, JUnit/Gradle/surefire, bun, TAP, Python unittest, Rust's libtest, PHPUnit, RSpec
and `dotnet test` (xUnit/NUnit/MSTest). `assertion_for` is the entry point.

The runners' shapes (the failing test's line, its message, the lines around it) are data:
runners.toml's `test` table (repopilot/evidence/runners.py), tried in its order. What stays here
is how each runner's output is walked to find the message (`find`): a section that names the
test, a block that ends at a marker, the test's messages printed while it ran."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from repopilot.engine.verdict.line_score import Line
from repopilot.evidence.runners import FailingTestShape, failing_test_shapes
from repopilot.logs.textnorm import body

AFTER = 40  # lines after a test's line where its message may be printed
BEFORE = 600  # lines before a pytest summary line where its test's section may start

Find = Callable[[FailingTestShape, re.Match[str], Line, list[Line], list[Line]], Line | None]
"""(runner, the test line's match, the test's line, the AFTER lines below it, every line read)."""


def assertion_for(test: Line, lines: list[Line]) -> Line | None:
    """The message printed with the failing test on `test`'s line, if the log has one."""
    text = body(test.text)
    for runner, find in _RUNNERS:
        m = runner.test.match(text)
        if m:
            after = [ln for ln in lines if test.number < ln.number <= test.number + AFTER]
            return find(runner, m, test, after, lines)
    return None


def reads_above(test_text: str) -> bool:
    """Whether `assertion_for` looks above the test's line for this test (pytest's section, the
    output `go test -v` printed while the test ran, bun's error): for every other runner only the
    AFTER lines below it matter, and a caller need not read the rest."""
    text = body(test_text)
    return any(r.reads_above and r.test.match(text) for r, _ in _RUNNERS)


def _texts(after: list[Line]) -> Iterator[tuple[Line, str]]:
    return ((ln, body(ln.text)) for ln in after)


def _first_text(lines: list[Line]) -> Line | None:
    return next((ln for ln in lines if body(ln.text).strip()), None)


def _next_line(
    _r: FailingTestShape, _m: re.Match[str], _t: Line, after: list[Line], _l: list[Line]
) -> Line | None:
    """PHPUnit: the message is the next line with text."""
    return next((ln for ln, t in _texts(after) if t.strip()), None)


def _next_if_message(
    r: FailingTestShape, _m: re.Match[str], _t: Line, after: list[Line], _l: list[Line]
) -> Line | None:
    """JUnit/Gradle/surefire: the next line with text, when it is an exception."""
    nxt = _first_text(after)
    return nxt if nxt and r.shape("message").match(body(nxt.text)) else None


def _unittest(
    r: FailingTestShape, _m: re.Match[str], _t: Line, after: list[Line], _l: list[Line]
) -> Line | None:
    """A dashed line, then a traceback whose last line is the exception."""
    seen_tb = False
    for ln, t in _texts(after):
        if t.startswith(("=====", "FAIL: ", "ERROR: ")):
            break
        if t.startswith("Traceback (most recent call last):"):
            seen_tb = True
        elif seen_tb and r.shape("message").match(t):
            return ln
    return None


def _cargo(
    r: FailingTestShape, m: re.Match[str], _t: Line, after: list[Line], _l: list[Line]
) -> Line | None:
    """libtest: later `---- tests::x stdout ----` and the panic, whose message ends the line
    before Rust 1.73 and follows it since."""
    name = m.group(1)
    inside = False
    rows = list(_texts(after))
    for k, (ln, t) in enumerate(rows):
        if t.startswith("---- ") and t.endswith(" stdout ----"):
            inside = t[5:-12] == name
            continue
        p = r.shape("panic").match(t) if inside else None
        if p:
            rest = p.group(2)
            if rest.startswith("'") or not rest.endswith(":"):
                return ln  # before Rust 1.73 the message is on this line
            return next((x for x, tt in rows[k + 1 :] if tt.strip()), ln)
    return None


def _rspec(
    r: FailingTestShape, _m: re.Match[str], _t: Line, after: list[Line], _l: list[Line]
) -> Line | None:
    """RSpec: `Failure/Error: ...` within the example's first lines."""
    for ln, t in list(_texts(after))[:6]:
        if r.shape("message").match(t):
            return ln
    return None


def _dotnet(
    _r: FailingTestShape, _m: re.Match[str], _t: Line, after: list[Line], _l: list[Line]
) -> Line | None:
    """`dotnet test`: `Error Message:`, then the message."""
    rows = list(_texts(after))[:8]
    for k, (_ln, t) in enumerate(rows):
        if t.strip() == "Error Message:":
            return next((x for x, tt in rows[k + 1 :] if tt.strip()), None)
    return None


def _jest(
    r: FailingTestShape, _m: re.Match[str], _t: Line, after: list[Line], _l: list[Line]
) -> Line | None:
    """jest: the first `Expected`/error line of the test's block, else its `expect(...)` header:
    a deep-equality failure (`toEqual`) prints the header and a `- Expected / + Received` diff,
    no `Expected:` line."""
    header: Line | None = None
    for ln in after[:25]:
        t = body(ln.text)
        if r.test.match(t):
            break
        if r.shape("message").match(t):
            if not t.strip().startswith("expect("):
                return ln
            header = header or ln
    return header


def _go(
    r: FailingTestShape, m: re.Match[str], test: Line, after: list[Line], lines: list[Line]
) -> Line | None:
    """`go test`: the messages under the deepest failed subtest, else (with -v) the messages the
    test printed while it ran, after its last `=== RUN/CONT name`."""
    deepest = m.group(1)
    message = r.shape("message")
    for ln in after:  # `go test` prints subtests' results under the parent's, then messages
        t = body(ln.text)
        sub = r.test.match(t)
        if sub:
            deepest = sub.group(1)
            continue
        if message.match(t):
            return ln
        if t.strip():
            break
    current: str | None = None
    found: Line | None = None
    for ln in lines:
        if ln.number >= test.number:
            break
        t = body(ln.text)
        run = r.shape("run").match(t)
        if run:
            current = run.group(1)
        elif current == deepest and found is None and message.match(t):
            found = ln
    return found


def _pytest(
    r: FailingTestShape, m: re.Match[str], test: Line, _a: list[Line], lines: list[Line]
) -> Line | None:
    """pytest: the `E` line (or a doctest's failure) in the section named after the test."""
    node = m.group(1)
    name = node.rsplit("::", 1)[-1]
    section, message, doctest = r.shape("section"), r.shape("message"), r.shape("doctest")
    inside = False
    for ln in lines:
        if ln.number >= test.number:
            break
        if ln.number < test.number - BEFORE:
            continue
        t = body(ln.text)
        s = section.match(t)
        if s:
            title = s.group(1).strip()
            inside = title == name or title.endswith("." + name) or title == node
            continue
        if inside and (message.match(t) or doctest.match(t)):
            return ln
    return None


def _bun(
    r: FailingTestShape, _m: re.Match[str], test: Line, _a: list[Line], lines: list[Line]
) -> Line | None:
    """bun prints a failing test's error above its `(fail)` line: `Expected:` else `error:`."""
    above: list[Line] = []
    for ln in reversed([x for x in lines if x.number < test.number]):
        t = body(ln.text)
        if r.shape("result").match(t) or t.endswith((".test.ts:", ".test.js:", ".spec.ts:")):
            break
        above.append(ln)
    found = [ln for ln in reversed(above) if r.shape("message").match(body(ln.text).strip())]
    expected = [ln for ln in found if body(ln.text).strip().startswith("Expected")]
    picked = expected or found
    return picked[0] if picked else None


def _tap(
    r: FailingTestShape, _m: re.Match[str], _t: Line, after: list[Line], _l: list[Line]
) -> Line | None:
    """TAP (node:test, tap, tape): the `error:`/`message:` of the test's YAML block, or the
    first line of its `|-` block."""
    for k, ln in enumerate(after):
        t = body(ln.text)
        if t.strip() == "..." and k > 0:  # the end of the test's YAML block
            return None
        m = r.shape("error").match(t)
        if m:
            if m.group(1).strip() not in ("|-", "|", ">-", ">", ""):
                return ln
            return next((x for x in after[k + 1 :] if body(x.text).strip()), None)
    return None


FINDERS: dict[str, Find] = {
    "go": _go,
    "pytest": _pytest,
    "next_if_message": _next_if_message,
    "bun": _bun,
    "tap": _tap,
    "unittest": _unittest,
    "cargo": _cargo,
    "next_line": _next_line,
    "dotnet": _dotnet,
    "rspec": _rspec,
    "jest": _jest,
}
"""How each runner's message is found; runners.toml's `find` names one of these."""


def _bind() -> tuple[tuple[FailingTestShape, Find], ...]:
    out = []
    for runner in failing_test_shapes():
        find = FINDERS.get(runner.find)
        if find is None:  # a defect of the data file: say which entry
            known = ", ".join(sorted(FINDERS))
            raise ValueError(f"runners.toml: [[test]] {runner.id}: find {runner.find!r} ({known})")
        out.append((runner, find))
    return tuple(out)


_RUNNERS = _bind()
