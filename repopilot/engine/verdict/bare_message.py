"""A failing test's message that says nothing (issue 20, item 5): a bare `assert False` or
`AssertionError` with no text after it. The test's own line then leads the evidence and the bare
message follows it. The shapes are runners.toml's `test` table data (`uninformative`, `continued`,
`where`)."""

from __future__ import annotations

from repopilot.engine.verdict.assertions import AFTER
from repopilot.engine.verdict.line_score import Line
from repopilot.evidence.runners import FailingTestShape, failing_test_shapes
from repopilot.logs.textnorm import body


def uninformative(test: Line, message: Line, lines: list[Line]) -> bool:
    """Whether `message` (found by `assertion_for` for `test`) says nothing the test's line does
    not: a bare `assert False` or `AssertionError` (the runner's `uninformative` shape) that no further
    line goes on with (`continued`). The test's line then leads and the message follows it."""
    text = body(test.text)
    for runner in failing_test_shapes():
        if runner.test.match(text):
            return _bare(runner, message, lines)
    return False


def owner_of_bare(message: Line, lines: list[Line]) -> Line | None:
    """For a bare message that is itself the line a pattern found (`E       assert False` with no
    summary line), the test's own line printed below it (pytest's `tests/x.py:12:
    AssertionError`), within AFTER lines."""
    for runner in failing_test_shapes():
        where = dict(runner.shapes).get("where")
        if where is None or not _bare(runner, message, lines):
            continue
        below = (ln for ln in lines if message.number < ln.number <= message.number + AFTER)
        return next((ln for ln in below if where.match(body(ln.text))), None)
    return None


def _bare(runner: FailingTestShape, message: Line, lines: list[Line]) -> bool:
    shapes = dict(runner.shapes)
    bare, continued = shapes.get("uninformative"), shapes.get("continued")
    if bare is None or not bare.match(body(message.text)):
        return False
    nxt = next((ln for ln in lines if ln.number == message.number + 1), None)
    return nxt is None or continued is None or not continued.match(body(nxt.text))
