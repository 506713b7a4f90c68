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
- A compiler's note or help (`= note:`, `note:`, `help:`, `file:L:C: note:`), and rustc's and
  cargo's ` --> file:L:C` location line, belong to the diagnostic above them: a pattern that
  reads one (rustc's `= note: -D x implied by -D warnings`, a `--> Cargo.toml:L:C` location)
  puts that diagnostic's `error` line first (`error_above`).
"""

from __future__ import annotations

import re

from repopilot.engine.verdict.fallback import WORDED, best_block, blocks_of, without_echo
from repopilot.engine.verdict.line_score import Line, says_wrapper
from repopilot.logs.textnorm import body

NOTE_LOOKBACK = 40  # lines above a note searched for the diagnostic it belongs to
ADJACENT = 3  # quiet lines at most between a wrapper and the output of the command it reports

# A diagnostic's note or help: rustc's `= note:`/`= help:` and `note:`/`help:` lines and its
# ` --> file:L:C` location (rustc-dev-guide, "Errors and lints"), GCC/Clang's `file:L:C: note:`
# (GCC manual, "Diagnostic Message Formatting Options"), javac's `Note:` (JDK javac
# documentation).
_NOTE = re.compile(
    r"^\s*(?:= )?(?:note|help|Note): |^\S+?:\d+(?::\d+)?: note: |^\s*--> \S+:\d+:\d+\s*$"
)
# The diagnostic a note belongs to: `error:`/`error[E0308]:` (rustc), `file:L[:C]: error:`
# (GCC, Clang, javac, Zig), `file(L,C): error` (MSBuild).
_ERROR = re.compile(
    r"^(?:error(?:\[\w+\])?: |\S+?(?::\d+(?::\d+)?:|\(\d+(?:,\d+)?\):) (?:fatal )?error\b)"
)


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
    # The wrapper reports the command whose output ends right above it: that output's own
    # error-worded block, not a stronger one the script printed earlier and went on from.
    last = blocks_of(above, wrapper_line)[-1:]
    if last and last[0] is not block and wrapper_line - last[0][-1][1].number <= ADJACENT + 1:
        if max(sc for sc, _ in last[0]) >= WORDED:
            block = last[0]
    if not block:
        return None
    top = max(sc for sc, _ in block)
    return next(ln for sc, ln in block if sc >= top - 0.5)


def is_note(text: str) -> bool:
    """A compiler's note or help line (module docstring)."""
    return _NOTE.match(body(text)) is not None


def error_above(lines: list[Line], note_line: int) -> Line | None:
    """The nearest diagnostic `error` line above the note at `note_line` (None: none within
    the lines given, or another note's error is not told apart: the nearest one is taken)."""
    for ln in reversed(lines):
        if ln.number < note_line and _ERROR.match(body(ln.text).strip()):
            return ln
    return None
