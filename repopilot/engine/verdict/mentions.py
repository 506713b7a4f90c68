"""Passing mentions: an error-looking line printed inside a test that then passed.

A test that checks its own error handling prints what it handled (`permission denied`, an HTTP
503 it retried, a traceback it caught), and the runner then reports the test as passing: Go's
`--- PASS:` after the test's output, pytest's `PASSED` after `-s` output, a `✓` line. Such a line
is not a failure and not a cause (issue 20, item 7):
- in a log with no runner structure (a plain log, an excerpt), where any pattern would otherwise
  say the job failed, it does not count;
- an infrastructure pattern's hit (network, permission, runner, disk) counts only where the step
  went on to fail, not where a passing test printed it.

A line is a passing mention when, within CLOSE lines after it, a passing-test line comes before
any line that says a test (or anything) failed. Lines are read only for the candidates: from the
last one backwards, stopping at the first that is not a mention when only the last one matters.
"""

from __future__ import annotations

import dataclasses
import re
from collections import deque
from collections.abc import Callable, Iterable

from repopilot.engine.match.scan_result import Hit, ScanResult
from repopilot.engine.verdict.line_score import Line
from repopilot.engine.verdict.passing import is_passing_test
from repopilot.engine.verdict.region import Region
from repopilot.logs.reader import JobLog
from repopilot.logs.textnorm import body
from repopilot.records import INFRA_CATEGORIES

CLOSE = 12  # lines after a mention within which its test's passing line comes
MAX_CHECKS = 40  # candidate lines read at most per log: a passing log stays cheap

# A line that says something failed: the mention's test (or a later one) did not pass.
_FAILED = re.compile(
    r"--- FAIL:|\bFAIL(?:ED|URE)?\b|\bnot ok\b|^\s*[✗✘✕×]\s|\bfailed\b|\bERROR\b|"
    r"Process completed with exit code [1-9]|exited with (?:code )?[1-9]"
)

# A test's own passing line: Go's `--- PASS:`, pytest's `PASSED`, unittest's `... ok`, TAP's
# `ok 3 - name`, a check mark, bun's `(pass)`. Narrower than a passing line in general: a bare
# `ok` (Go's package line, any tool's status word) closes no test's output.
_TEST_PASSED = re.compile(
    r"^\s*--- PASS: |\bPASSED\b|\.\.\. ok\s*$|^\s*ok \d+\b|^\s*[✓✔√]\s|\s[✓✔]\s|\(pass\)"
)

# Another test starts (Go's `=== RUN`/`=== CONT`, parallel tests interleave): whose output the
# line was is no longer clear, so it is not taken for a mention.
_NEXT_TEST = re.compile(r"^\s*=== (?:RUN|CONT|PAUSE|NAME)\s")

# A log record in pytest's default format (`%(levelname)-8s %(name)s:%(filename)s:%(lineno)d
# %(message)s`, https://docs.pytest.org/en/stable/how-to/logging.html): its level word (`ERROR`)
# is what the code under test logged, not a test's status, so only its message is read.
_LOG_RECORD = re.compile(r"^(?:DEBUG|INFO|WARNING|ERROR|CRITICAL) +[\w.-]+:[\w.-]+:\d+ ")


def _said(text: str) -> str:
    return _LOG_RECORD.sub("", body(text), count=1)


Reader = Callable[[int, int], list[Line]]


def is_mention(line: int, read: Reader) -> bool:
    """Whether a passing-test line closes the output that holds `line` (a line that itself says
    something failed, Go's `FAIL pkg` before the next package's `ok`, never is one)."""
    for ln in read(line, line + CLOSE):
        if ln.number == line:
            if _FAILED.search(_said(ln.text)):
                return False
            continue
        if is_passing_test(ln.text) and _TEST_PASSED.search(body(ln.text)):
            return True
        t = _said(ln.text)
        if _FAILED.search(t) or _NEXT_TEST.match(t):
            return False
    return False


def mentions(lines: Iterable[int], read: Reader, all_of_them: bool = True) -> set[int]:
    """The passing mentions among `lines`, checked from the last one backwards. With
    `all_of_them=False` the check stops at the first line that is not one (only whether the
    last lines are mentions matters, as for "did this log fail")."""
    out: set[int] = set()
    for checked, n in enumerate(sorted(set(lines), reverse=True)):
        if checked >= MAX_CHECKS:
            break
        if is_mention(n, read):
            out.add(n)
        elif not all_of_them:
            break
    return out


def without_mentions(job: JobLog, res: ScanResult, hits: list[Hit]) -> tuple[list[Hit], ScanResult]:
    """`hits` without passing mentions, and the scan as the failure rule should see it.

    Infrastructure hits are checked in every log; in a log with no runner structure every hit and
    error-like line is a candidate, as any of them would say the job failed."""
    region = Region(job, res, (0, CLOSE))

    def read(lo: int, hi: int) -> list[Line]:
        return region.lines(lo, hi, region.anchor_for(lo))

    infra = [h.line for h in hits if h.pattern.spec.category in INFRA_CATEGORIES]
    gone = mentions(infra, read) if infra else set()
    plain = job.fmt not in ("gha", "ghcli")
    if plain:
        generic = [n for q in res.generic.values() for n, _, _ in q]
        candidates = [h.line for h in hits if h.line not in gone] + generic
        gone |= mentions(candidates, read, all_of_them=False)
    if not gone:
        return hits, res
    kept = {k: deque((g for g in q if g[0] not in gone), q.maxlen) for k, q in res.generic.items()}
    seen = dataclasses.replace(res, generic=kept) if plain else res
    return [h for h in hits if h.line not in gone], seen
