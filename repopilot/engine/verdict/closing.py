"""The log's last word: the latest closing line in its tail with no failure after it.

A CI system says at a job's end how it went (GitLab `Job succeeded`, Jenkins `Finished:
SUCCESS`, Travis `Done. Your build exited with 0.`, AppVeyor `Build success`, Cloud Build
`DONE`), and a tool's final summary says how its run went (pytest `6 passed in 0.8s`, jest
`Tests: 11 passed, 11 total`, Maven `BUILD SUCCESS`, ctest `100% tests passed`, mypy `Success:
no issues found`). Error words on earlier lines (a handled error, a retried download, a test
that expects an exception, a `set +e` probe) do not undo what the job's end says. Read
backwards from the end, the first line that says anything decides: a closing line
(runners.toml `closing`), or a failure stated after any closing line (a pattern's hit, a
runner's failure report or annotation, a line that states a failure by itself). A pasted
fragment with a traceback and no end has no last word; a log that reports success and then
fails has a failure for its last word.

A tool's summary speaks for its own run only: the failures it covers are those printed after
the last closing line of failure before it (another run's failed summary), within the lines read
(`LastWord.covers`); the caller never lets it cover a crash, an out-of-memory kill or a timeout
(a program that died printed no summary: the one after it is another run's, as when the last
of many suites passes, `OK (231 tests)`, after an earlier one crashed).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Literal

from repopilot.engine.match.scan_result import Hit, ScanResult
from repopilot.engine.verdict.job_end import tail_lines
from repopilot.engine.verdict.passing import is_passing_test
from repopilot.evidence.runners import Closing, alternation, closing_lines
from repopilot.logs.reader import JobLog
from repopilot.logs.textnorm import body

TAIL = 1000  # lines read back from the end (at most the last 64 KiB of a plain file)
_STATES_FAILURE = re.compile(alternation("states_failure"))
# Columns some CI systems put before a command's output, documented with their log formats:
# TeamCity's build log `[12:00:01]W:\t [Step 1/2] ` (time, status letter, step), Cloud Build's
# `Step #1 - "build": ` (https://cloud.google.com/build/docs/view-build-results).
_COLUMNS = re.compile(
    r'^\[\d\d:\d\d:\d\d\][A-Za-z]?:\s+(?:\[Step \d+/\d+\]\s?)?|^Step #\d+(?: - "[^"]*")?: '
)

# A line that says its program died (it printed no summary of its own): PHP's `PHP Fatal error:`
# (https://www.php.net/manual/en/errorfunc.constants.php, E_ERROR ends the script), a Go panic
# (https://go.dev/ref/spec#Run_time_panics), a signal's death as the shell reports it (bash
# manual, "Exit Status"; `Segmentation fault (core dumped)`, `Killed`).
_DIED = re.compile(
    r"\bFatal error: |^panic: |\bSegmentation fault\b|\(core dumped\)|^Killed\b|\bKilled\s+\S"
)

Level = Literal["job", "runner", "stated"]


def died(text: str) -> bool:
    """Whether a display line says its program died (`_DIED`): no later summary covers it."""
    return _DIED.search(body(text)) is not None


@dataclass(frozen=True, slots=True)
class LastWord:
    """What the log's end says. `level`: a CI system's end of the job, a tool's final summary,
    or a failure stated without a closing line (a hit, an exit report, an error line)."""

    success: bool
    level: Level
    line: int
    id: str = ""
    since: int = 0  # the closing failure before this one, else the line before the lines read

    def covers(self, lines: list[int]) -> bool:
        """Whether the failures stated on `lines` are this run's own (after `since`)."""
        return all(self.since < n <= self.line for n in lines)


def last_word(job: JobLog, res: ScanResult, hits: list[Hit]) -> LastWord | None:
    """The log's last word (module docstring), or None when its tail says nothing."""
    failing = {h.line for h in hits}
    failing.update(n for n, _, _ in res.errors)
    failing.update(n for n, _, code in res.exit_lines if code)
    lines = [(n, _text(t)) for n, t in tail_lines(job, res.lines, TAIL)]
    kept = [(n, t) for n, t in lines if t]
    for i in range(len(kept) - 1, -1, -1):
        n, t = kept[i]
        found = _closing_at(kept, i)
        if found is not None:
            success = found.says == "success"
            # only a tool's summary of success needs where its run began (`covers`)
            since = (
                _previous(kept, i, lines[0][0] - 1) if success and found.level == "runner" else 0
            )
            return LastWord(success, found.level, n, found.id, since)
        if n in failing or (_STATES_FAILURE.search(t) and not is_passing_test(t)):
            return LastWord(False, "stated", n)
    return None


def _previous(kept: list[tuple[int, str]], i: int, before: int) -> int:
    """The line of the last closing line of failure before `kept[i]`, else `before`."""
    failure = _any_closing("failure")
    for k in range(i - 1, -1, -1):
        if failure.match(kept[k][1]) is None:
            continue
        found = _closing_at(kept, k)
        if found is not None and found.says == "failure":
            return kept[k][0]
    return before


def _closing_at(kept: list[tuple[int, str]], i: int) -> Closing | None:
    return _closing(kept[i][1], kept[i - 1][1] if i else "")


def _text(display: str) -> str:
    t = body(display)
    if t[:1] in ("[", "S"):
        t = _COLUMNS.sub("", t, count=1)
    return t.strip()


@functools.cache
def _any_closing(says: str = "") -> re.Pattern[str]:
    """The closing regexes (those that say `says`, else all) as one alternation, tried at the
    line's start: most lines are none."""
    found = [c.regex.pattern for c in closing_lines() if c.says == says or not says]
    return re.compile("|".join(f"(?:{p})" for p in found))


def _closing(text: str, above: str) -> Closing | None:
    if _any_closing().match(text) is None:
        return None
    for c in closing_lines():
        if c.regex.match(text) and (c.above is None or c.above.search(above)):
            return c
    return None
