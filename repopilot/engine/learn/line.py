"""What a log line may become in a learned pattern (docs/CONTRACTS.md Contract 6): whether it is
learned from at all, its token-like runs scrubbed after redaction, a long line cut, and which
nearby lines are fit to be `no_match` examples.
"""

from __future__ import annotations

import re

from repopilot.engine.learn.wire import MAX_LINE
from repopilot.engine.verdict.passing import is_passing_test
from repopilot.evidence.runners import bare_exit, runner_exit

# A run of 16+ token characters with upper and lower case and a digit: a key or a fragment of
# one that redaction did not recognise (a PEM body line whose BEGIN is out of sight). It never
# reaches a pattern file: it becomes a redaction mark (and so a class in the regex).
_TOKENISH = re.compile(
    r"(?<![\w+/=-])(?=[\w+/=-]*[A-Z])(?=[\w+/=-]*[a-z])(?=[\w+/=-]*\d)[\w+/=-]{16,}"
)
_WORD = re.compile(r"\b[A-Za-z]{2,}\b")
# A test runner's or build tool's success summary: unittest's and PHPUnit's `OK`/`OK (N tests)`/
# `OK, but incomplete, skipped, or risky tests!`, Gradle's `BUILD SUCCESSFUL`, Maven's `BUILD
# SUCCESS`, `SUCCESS`/`PASSED` alone.
_SUCCESS = re.compile(r"^(?:OK(?:$|[\s,(!])|BUILD SUCCESS(?:FUL)?\b|(?:SUCCESS|PASSED)!?$)")


def scrub(line: str) -> str:
    return _TOKENISH.sub("[REDACTED:token]", line)


def cut(line: str) -> str:
    """A line longer than MAX_LINE: its start up to the last space before the limit."""
    if len(line) <= MAX_LINE:
        return line
    head = line[:MAX_LINE]
    return head[: head.rstrip().rfind(" ")] if " " in head.strip() else head


def wordy(line: str) -> bool:
    """A line fit to be a `no_match` example: words a person reads, nothing token-like."""
    return (
        len(_WORD.findall(line)) >= 3
        and "[REDACTED:" not in line
        and _TOKENISH.search(line) is None
        and len(line) <= MAX_LINE
    )


def refusal(text: str) -> str | None:
    """Why `text` (a log line's body) is never learned from, or None."""
    if not text.strip():
        return "the line is empty"
    if bare_exit(text):
        return "the runner's exit line is never evidence"
    if runner_exit(text) is not None:  # it would take every later failure of that command
        return "the runner's exit line says only that the command failed: learn from the line that says why"
    if is_passing_test(text):
        return "the line reports a passing test"
    if _SUCCESS.match(text.strip()):  # it would take every later run that passed that far
        return "the line reports success, not a failure"
    return None
