"""The failures a job's runner or scripts reported, in log order, and which of them the job
carried on after (tolerated): the first one it did not carry on after is where it failed
(engine/verdict/structure.py, rule 2).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from repopilot.engine.match.scan_result import ScanResult
from repopilot.engine.verdict.job_end import job_complete
from repopilot.engine.verdict.steps import StepSpan, carried_on, span_at, span_key
from repopilot.logs.reader import JobLog

# What problem matchers annotate: a file location (`a.py:3:`, `File "a.py", line 3`, `a.cs(3,7)`).
_MATCHED = re.compile(r"[\w./\\-]+\.\w{1,6}(?::\d+|\(\d+,\d+\))|File \"[^\"]+\", line \d+")
_CANCELLED = re.compile(r"(?i)the operation was cancel+ed|has been cancel+ed|timed? ?out")


@dataclass(frozen=True, slots=True)
class Report:
    line: int
    kind: Literal["exit", "error"]
    text: str


def _reports(res: ScanResult) -> list[Report]:
    """Every failure the runner or a script reported, in log order."""
    out = [Report(n, "exit", "") for n, _, code in res.exit_lines if code != 0]
    have = {r.line for r in out}
    out += [Report(n, "error", t) for n, _, t in res.errors if n not in have]
    return sorted(out, key=lambda r: r.line)


class Ending:
    """Whether the log reaches the job's end (job_end.py), read from its tail only when the
    answer matters, and once."""

    def __init__(self, job: JobLog, spans: list[StepSpan]) -> None:
        self._job, self._spans = job, spans
        self._answer: bool | None = None

    def __call__(self) -> bool:
        if self._answer is None:
            self._answer = job_complete(self._job, [s.name for s in self._spans])
        return self._answer

    @property
    def known(self) -> bool:
        """Read already, and complete (without reading it now)."""
        return bool(self._answer)


def _tolerated(
    r: Report, job: JobLog, spans: list[StepSpan], exits: set[int], complete: Ending
) -> bool:
    """A problem matcher's annotation (`##[error]file:line: ...`) in a step that printed no exit
    line did not stop that step: when the job went on to run its own steps, it was tolerated.
    A free-text `##[error]` message (`::error::`, `core.setFailed`) is a statement of failure,
    and an exit line is never judged tolerated here: a `continue-on-error` step and a failed
    step followed by `if: always()` steps print the same lines."""
    span = span_at(spans, r.line)
    return (
        r.kind == "error"
        and _MATCHED.search(r.text) is not None
        and job.fmt in ("gha", "ghcli")
        and span_key(span) not in exits
        and not _CANCELLED.search(r.text)
        and carried_on(spans, span)
        and complete()
    )


def first_failure(
    job: JobLog, res: ScanResult, spans: list[StepSpan], complete: Ending
) -> tuple[Report | None, list[Report]]:
    """The first failure report the job did not carry on after, and those it did."""
    reports = _reports(res)
    exits = {span_key(span_at(spans, r.line)) for r in reports if r.kind == "exit"}
    tolerated: list[Report] = []
    for r in reports:
        if not _tolerated(r, job, spans, exits, complete):
            return r, tolerated
        tolerated.append(r)
    return None, tolerated
