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

`Word` is the last word as the failure rule (structure.py) asks for it, read once and only when
asked; `teardown_lines` the tail's teardowns (runners.toml `teardown`), whose non-zero exits
`without` removes from the scan before the rule reads it.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

from repopilot.engine.match.scan_result import Hit, ScanResult
from repopilot.engine.verdict.job_end import tail_raw
from repopilot.engine.verdict.passing import is_passing_test
from repopilot.engine.verdict.survived import ENDS_PROGRAM
from repopilot.evidence.runners import Closing, alternation, closing_lines, teardowns
from repopilot.logs.reader import JobLog
from repopilot.logs.textnorm import body, display

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

_DISK_FULL = re.compile(r"(?i)\bno space left on device\b|\bENOSPC\b|\bdisk quota exceeded\b")

_SGR = re.compile(r"\x1b\[[0-9;]*m")  # colour codes, as compose prints them on a terminal

Level = Literal["job", "runner", "stated"]


def died(text: str) -> bool:
    """Whether a display line says its program died (`_DIED`): no later summary covers it."""
    return _DIED.search(body(text)) is not None


def _ends_program(h: Hit) -> bool:
    """A hit of a crash, kill or timeout pattern (survived.ENDS_PROGRAM), but not a full disk:
    `No space left on device` is a write that failed, which its program reports and may handle
    (a logger's `ERROR ... write failed`), not the program's end."""
    return h.pattern.spec.category in ENDS_PROGRAM and not _DISK_FULL.search(body(h.text))


def program_died(hits: list[Hit], res: ScanResult) -> bool:
    """Whether a program of the log died: a hit of a crash, kill or timeout pattern
    (`_ends_program`), or a hit or error-looking line that `died` reads."""
    if any(_ends_program(h) or died(h.text) for h in hits):
        return True
    return any(died(t) for q in res.generic.values() for _, t, _ in q)


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
    tail = _Tail(tail_raw(job, res.lines, TAIL))
    for i in tail.backwards(tail.size):
        n, t = tail.number(i), tail.text(i)
        found = _closing(t, tail.above(i))
        if found is not None:
            success = found.says == "success"
            # only a tool's summary of success needs where its run began (`covers`)
            since = _previous(tail, i) if success and found.level == "runner" else 0
            return LastWord(success, found.level, n, found.id, since)
        if n in failing or (_STATES_FAILURE.search(t) and not is_passing_test(t)):
            return LastWord(False, "stated", n)
    return None


class _Tail:
    """The tail's raw lines, each made matchable text when first read: the walk back from the
    end usually stops within a few lines."""

    def __init__(self, raw: list[tuple[int, bytes]]):
        self._raw = raw
        self._text: dict[int, str] = {}
        self.size = len(raw)

    def number(self, i: int) -> int:
        return self._raw[i][0]

    def text(self, i: int) -> str:
        t = self._text.get(i)
        if t is None:
            t = self._text[i] = _text(display(self._raw[i][1]))
        return t

    def backwards(self, before: int) -> Iterator[int]:
        """The indexes of the non-blank lines before index `before`, nearest first."""
        for i in range(before - 1, -1, -1):
            if self.text(i):
                yield i

    def above(self, i: int) -> str:
        """The previous non-blank line's text ("" at the top)."""
        return next((self.text(k) for k in self.backwards(i)), "")

    def before_first(self) -> int:
        return self._raw[0][0] - 1 if self._raw else 0


def _previous(tail: _Tail, i: int) -> int:
    """The line of the last closing line of failure before line `i` of the tail, else the line
    before the tail."""
    failure = _any_closing("failure")
    for k in tail.backwards(i):
        t = tail.text(k)
        if failure.match(t) is None:
            continue
        found = _closing(t, tail.above(k))
        if found is not None and found.says == "failure":
            return tail.number(k)
    return tail.before_first()


def teardown_lines(job: JobLog, res: ScanResult) -> frozenset[int]:
    """The lines of the tail's teardowns (runners.toml `teardown`: `docker compose` stopping
    the other containers once the tested one exited): a non-zero exit there is the stop's own
    doing, no failure."""
    raw = tail_raw(job, res.lines, TAIL)
    kinds = teardowns()
    starts = [i for i, (_, b) in enumerate(raw) if any(lit in b for t in kinds for lit in t.needs)]
    out: set[int] = set()
    for i in starts:
        text = _text(display(raw[i][1]))
        kind = next((t for t in kinds if t.start.match(text)), None)
        if kind is None:
            continue
        out.add(raw[i][0])
        for n, b in raw[i + 1 :]:
            text = _text(display(b))
            # a container's output keeps compose's `svc-1  | ` column here (display drops it)
            plain = _SGR.sub("", b.decode("utf-8", "replace")).strip()
            if text and not (kind.continues.match(text) or kind.continues.match(plain)):
                break
            out.add(n)
    return frozenset(out)


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


def without(
    quiet: frozenset[int], res: ScanResult, hits: list[Hit]
) -> tuple[ScanResult, list[Hit]]:
    """The scan and hits without the teardown lines `quiet` (`teardown_lines`): a container
    `docker compose` killed when it stopped them all failed nothing."""
    if not quiet:
        return res, hits
    generic = {
        k: deque((g for g in q if g[0] not in quiet), q.maxlen) for k, q in res.generic.items()
    }
    res = dataclasses.replace(
        res,
        exit_lines=[e for e in res.exit_lines if e[0] not in quiet],
        errors=[e for e in res.errors if e[0] not in quiet],
        generic=generic,
    )
    return res, [h for h in hits if h.line not in quiet]


class Word:
    """The log's last word, read from its tail only when a rule asks, and once. Never asked
    when the job is known to have failed."""

    def __init__(self, job: JobLog, res: ScanResult, hits: list[Hit], assume_failed: bool):
        self._args = (job, res, hits)
        self._off = assume_failed
        self._github = job.fmt in ("gha", "ghcli")
        self._word: LastWord | None = None
        self._read = False

    def _get(self) -> LastWord | None:
        if self._off:
            return None
        if not self._read:
            self._word, self._read = last_word(*self._args), True
        return self._word

    def passed(self, stated: list[int] | None = None) -> bool:
        """The last word is success: a CI system's end of the job, or (`stated`: the lines of
        failures only stated) a tool's summary of the run those lines were printed in."""
        if self._github or self._off:
            return False
        w = self._get()
        if w is None or not w.success:
            return False
        return w.level == "job" or (stated is not None and w.covers(stated))

    def closed_failed(self) -> int | None:
        """The line of a closing line that says failure when that is the last word."""
        w = self._get()
        return w.line if w is not None and not w.success and w.level != "stated" else None
