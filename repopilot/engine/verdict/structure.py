"""The job's shape, read before any pattern: did it fail, in which step, and where did that end.

Project-agnostic: it uses only what every CI runner writes. The runner's exit lines (GitHub's
`Process completed with exit code N`, Travis's `The command "..." exited with N.`, a generic
"exited with code N"), workflow-command annotations (`##[error]`), explicit end markers
(Jenkins `Finished: SUCCESS`, Travis `Done. Your build exited with 0.`), the step boundaries, and
whether the log reaches the job's end (GitHub's `Cleaning up orphan processes`).

The rule for "did it fail" (README, "The CLI"):
1. `assume_failed` (the Action knows the job's conclusion; the CLI's `--assume-failed`): yes.
2. A non-zero exit or an `##[error]` annotation that was not tolerated: yes. It was tolerated when
   the job carried on with further script steps afterwards (`continue-on-error`, a problem matcher
   annotating a step that passed) and the log reaches the job's end.
3. An explicit success marker, or a final exit line with code 0: no.
4. A complete GitHub log with none of the above: no, whatever words its lines contain (passing
   tests named after failures, errors a script ignored, an optional dependency reported missing).
5. Otherwise the input is an excerpt (a failing step, `--log-failed`, a pasted fragment): yes when
   it states a failure (a traceback, `FAILED ...`, `ninja: build stopped`, `Failed building
   wheel`, an `error:` line, a decisive pattern), no otherwise.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from repopilot.engine.match.scan_result import Hit, ScanResult
from repopilot.engine.verdict.job_end import job_complete
from repopilot.engine.verdict.passing import is_passing_test
from repopilot.engine.verdict.steps import (
    StepSpan,
    carried_on,
    last_work,
    span_at,
    span_key,
    steps_of,
)
from repopilot.evidence.runners import alternation, runner_exit
from repopilot.logs.reader import JobLog
from repopilot.logs.textnorm import body

# Lines that state a failure by themselves: enough to call an excerpt failed (`states_failure`).
_STATES_FAILURE = re.compile(alternation("states_failure"))

Reason = Literal[
    "assumed",
    "exit-code",
    "annotation",
    "marker",
    "tolerated",
    "success",
    "complete",
    "stated",
    "nothing",
]


@dataclass(frozen=True, slots=True)
class Structure:
    """Where a job failed. `start..end` is the failing region (the failing step, or the whole
    log); `focus` the line the failure was reported at (its exit line, else its last line)."""

    failed: bool
    reason: Reason
    step: StepSpan | None
    start: int
    end: int
    focus: int
    script_errors: tuple[tuple[int, str], ...] = ()  # `##[error]` lines of the failing step
    tolerated: tuple[int, ...] = ()  # report lines of failures the job carried on after
    complete: bool = False  # the log reaches the job's end


# What problem matchers annotate: a file location (`a.py:3:`, `File "a.py", line 3`, `a.cs(3,7)`).
_MATCHED = re.compile(r"[\w./\\-]+\.\w{1,6}(?::\d+|\(\d+,\d+\))|File \"[^\"]+\", line \d+")
_CANCELLED = re.compile(r"(?i)the operation was cancel+ed|has been cancel+ed|timed? ?out")


@dataclass(frozen=True, slots=True)
class _Report:
    line: int
    kind: Literal["exit", "error"]
    text: str


def _reports(res: ScanResult) -> list[_Report]:
    """Every failure the runner or a script reported, in log order."""
    out = [_Report(n, "exit", "") for n, _, code in res.exit_lines if code != 0]
    have = {r.line for r in out}
    out += [_Report(n, "error", t) for n, _, t in res.errors if n not in have]
    return sorted(out, key=lambda r: r.line)


class _Ending:
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
    r: _Report, job: JobLog, spans: list[StepSpan], exits: set[int], complete: _Ending
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


def _first_failure(
    job: JobLog, res: ScanResult, spans: list[StepSpan], complete: _Ending
) -> tuple[_Report | None, list[_Report]]:
    """The first failure report the job did not carry on after, and those it did."""
    reports = _reports(res)
    exits = {span_key(span_at(spans, r.line)) for r in reports if r.kind == "exit"}
    tolerated: list[_Report] = []
    for r in reports:
        if not _tolerated(r, job, spans, exits, complete):
            return r, tolerated
        tolerated.append(r)
    return None, tolerated


def analyze(
    job: JobLog, res: ScanResult, hits: list[Hit], assume_failed: bool = False
) -> Structure:
    """The job's structure from one scan (module docstring has the failure rule)."""
    spans = steps_of(res)
    complete = _Ending(job, spans)
    chosen, carried = _first_failure(job, res, spans, complete)
    done = complete.known
    if chosen is None and carried and assume_failed:
        # The job is known to have failed: the failure we took for tolerated was the one.
        chosen = carried.pop()
    tolerated = [r.line for r in carried]
    if chosen is not None:
        reason: Reason = "exit-code" if chosen.kind == "exit" else "annotation"
        return _region(res, spans, chosen.line, True, reason, tolerated, done)
    if res.failure_marker:
        return _region(res, spans, _last_line(res, hits), True, "marker", tolerated, done)
    if tolerated:
        return _whole(res, False, "tolerated", tolerated, done, assume_failed)
    last = res.exit_lines[-1:] if res.exit_lines else []
    if res.success_marker or any(code == 0 for _, _, code in last):
        return _whole(res, False, "success", tolerated, done, assume_failed)
    if complete():
        return _complete_log(job, res, spans, hits, tolerated, assume_failed)
    return _excerpt(job, res, spans, hits, tolerated, assume_failed)


def _complete_log(
    job: JobLog,
    res: ScanResult,
    spans: list[StepSpan],
    hits: list[Hit],
    tolerated: list[int],
    assume_failed: bool,
) -> Structure:
    """A whole log with no failure report: failed only when its last step of work states a
    failure itself (a container action that dies without an exit line)."""
    work = last_work(spans)
    stated = [h.line for h in hits if _decisive(h) and work is not None and h.line >= work.start]
    if stated and job.fmt == "gha":
        return _region(res, spans, max(stated), True, "stated", tolerated, True)
    return _whole(res, False, "complete", tolerated, True, assume_failed)


def _excerpt(
    job: JobLog,
    res: ScanResult,
    spans: list[StepSpan],
    hits: list[Hit],
    tolerated: list[int],
    assume_failed: bool,
) -> Structure:
    """Part of a log (a step, `--log-failed`, a paste): failed when it states a failure. A plain
    log (Jenkins, a paste) has no runner structure to say otherwise: any pattern counts."""
    plain = job.fmt not in ("gha", "ghcli")
    stated = [h.line for h in hits if plain or _decisive(h)] + _stated(res)
    if stated:
        return _region(res, spans, max(stated), True, "stated", tolerated, False)
    return _whole(res, False, "nothing", tolerated, False, assume_failed)


SURE_FAILURE = 85  # a hit this specific states a failure even in an excerpt of a GitHub log


def _decisive(h: Hit) -> bool:
    if is_passing_test(h.text):
        return False
    return h.pattern.spec.priority >= SURE_FAILURE or bool(_STATES_FAILURE.search(body(h.text)))


def _stated(res: ScanResult) -> list[int]:
    out = []
    for lines in res.generic.values():
        for n, text, _ in lines:
            t = body(text).strip()
            if _STATES_FAILURE.search(t) and not is_passing_test(text):
                out.append(n)
    return out


def _last_line(res: ScanResult, hits: list[Hit]) -> int:
    return max([h.line for h in hits] or [res.lines])


def _region(
    res: ScanResult,
    spans: list[StepSpan],
    focus: int,
    failed: bool,
    reason: Reason,
    tolerated: list[int],
    complete: bool,
) -> Structure:
    span = span_at(spans, focus)
    if span is None:
        return Structure(failed, reason, None, 1, max(res.lines, focus), focus, (), (), complete)
    errors = tuple(
        (n, t) for n, _, t in res.errors if span.start <= n <= span.end and runner_exit(t) is None
    )
    return Structure(
        failed,
        reason,
        span,
        span.start,
        max(span.end, focus),
        focus,
        errors,
        tuple(tolerated),
        complete,
    )


def _whole(
    res: ScanResult,
    failed: bool,
    reason: Reason,
    tolerated: list[int],
    complete: bool,
    assume_failed: bool,
) -> Structure:
    if assume_failed:
        failed, reason = True, "assumed"
    end = max(res.lines, 1)
    return Structure(failed, reason, None, 1, end, end, (), tuple(tolerated), complete)
