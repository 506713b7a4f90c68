"""Which evidence line goes first: the one that carries the cause.

Two rules over a pattern verdict's lines, both from the tools' documented output shapes:
- A wrapper (Gradle `Execution failed for task`, `npm ERR! Test failed`, `BUILD FAILED`,
  `ELIFECYCLE`, yarn's `error Command failed with exit code 1`, a runner's "script exited with
  code 1", `make: *** ... Error 2`) only says a command failed: the specific line above it in the
  same step goes first.
- A failing test's line names the test; its assertion or error message says why. When the log
  prints it right with the test (pytest's `E ` lines in the test's section, jest's `Expected:`,
  Go's `file_test.go:N: ...`, a JUnit/Gradle/surefire exception line, a doctest's
  `file:N: DocTestFailure`), it goes first and the test's line second; engine/verdict/assertions.py
  finds that message for each runner.
"""

from __future__ import annotations

from repopilot.engine.verdict.fallback import best_block, without_echo
from repopilot.engine.verdict.line_score import Line, says_wrapper
from repopilot.logs.textnorm import body


def is_wrapper(text: str) -> bool:
    return says_wrapper(body(text).strip())


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
