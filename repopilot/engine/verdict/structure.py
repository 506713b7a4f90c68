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

The log's last word (engine/verdict/closing.py) comes first: a CI system that closed the job with
success (GitLab `Job succeeded`, Jenkins `Finished: SUCCESS`, ...) and nothing failing after it
says no, whatever rule 2 found before (a handled exit, an `after_script` that failed). A tool's
final summary of success with nothing failing after it (`6 passed in 0.8s`, `BUILD SUCCESS`)
says no to failures only stated (rule 5, a failure marker), not to a CI system's report of a
failed command. A closing line that says failure makes a log failed that rules 3 and 5 did not.
GitHub logs have no closing line of success: there, only a closing failure counts.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from typing import Literal

from repopilot.engine.match.scan_result import Hit, ScanResult
from repopilot.engine.verdict.closing import Word, program_died, teardown_lines, without
from repopilot.engine.verdict.passing import is_passing_test
from repopilot.engine.verdict.reports import Ending, first_failure
from repopilot.engine.verdict.steps import (
    StepSpan,
    is_script_step,
    last_work,
    span_at,
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
    "closed",
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


def analyze(
    job: JobLog, res: ScanResult, hits: list[Hit], assume_failed: bool = False
) -> Structure:
    """The job's structure from one scan (module docstring has the failure rule)."""
    quiet: frozenset[int] = frozenset()
    if any(code for _, _, code in res.exit_lines[-8:]):
        quiet = teardown_lines(job, res)
        res, hits = without(quiet, res, hits)
    st = _analyze(job, res, hits, assume_failed)
    if quiet and st.failed and st.focus < min(quiet) <= st.end:
        # the failing region ends where the teardown begins: its kills are no cause
        st = dataclasses.replace(st, end=min(quiet) - 1)
    return st


def _analyze(job: JobLog, res: ScanResult, hits: list[Hit], assume_failed: bool) -> Structure:
    spans = steps_of(res)
    complete = Ending(job, spans)
    chosen, carried = first_failure(job, res, spans, complete)
    done = complete.known
    if chosen is None and carried and assume_failed:
        # The job is known to have failed: the failure we took for tolerated was the one.
        chosen = carried.pop()
    tolerated = [r.line for r in carried]
    word = Word(job, res, hits, assume_failed)
    if chosen is not None:
        if word.passed():
            return _whole(res, False, "closed", tolerated, done, assume_failed)
        reason: Reason = "exit-code" if chosen.kind == "exit" else "annotation"
        return _region(res, spans, chosen.line, True, reason, tolerated, done)
    if res.failure_marker:
        if word.passed():
            return _whole(res, False, "closed", tolerated, done, assume_failed)
        return _region(res, spans, _last_line(res, hits), True, "marker", tolerated, done)
    if tolerated:
        return _whole(res, False, "tolerated", tolerated, done, assume_failed)
    last = res.exit_lines[-1:] if res.exit_lines else []
    if res.success_marker or any(code == 0 for _, _, code in last):
        closed = word.closed_failed()
        if closed is not None:
            return _region(res, spans, closed, True, "closed", tolerated, done)
        return _whole(res, False, "success", tolerated, done, assume_failed)
    if complete():
        return _complete_log(job, res, spans, hits, tolerated, assume_failed)
    return _excerpt(job, res, spans, hits, tolerated, assume_failed, word)


def _complete_log(
    job: JobLog,
    res: ScanResult,
    spans: list[StepSpan],
    hits: list[Hit],
    tolerated: list[int],
    assume_failed: bool,
) -> Structure:
    """A whole log with no failure report: failed only when its last step of work states a
    failure itself (a container action that dies without an exit line). Not a `run:` step's
    output: the runner ends a failed one with its exit line, so a traceback a passing test
    logged is no failure, unless a program died."""
    work = last_work(spans)
    stated = [h.line for h in hits if _decisive(h) and work is not None and h.line >= work.start]
    script = work is not None and is_script_step(work.name)
    if stated and job.fmt == "gha" and (not script or program_died(hits, res)):
        return _region(res, spans, max(stated), True, "stated", tolerated, True)
    return _whole(res, False, "complete", tolerated, True, assume_failed)


def _excerpt(
    job: JobLog,
    res: ScanResult,
    spans: list[StepSpan],
    hits: list[Hit],
    tolerated: list[int],
    assume_failed: bool,
    word: Word,
) -> Structure:
    """Part of a log (a step, `--log-failed`, a paste): failed when it states a failure. A plain
    log (Jenkins, a paste) has no runner structure to say otherwise: any pattern counts. Not
    when its last word is success; failed when its last word is a closing failure."""
    plain = job.fmt not in ("gha", "ghcli")
    stated = [h.line for h in hits if plain or _decisive(h)] + _stated(res)
    if stated:
        if not program_died(hits, res) and word.passed(stated):
            return _whole(res, False, "closed", tolerated, False, assume_failed)
        return _region(res, spans, max(stated), True, "stated", tolerated, False)
    closed = word.closed_failed()
    if closed is not None:
        return _region(res, spans, closed, True, "closed", tolerated, False)
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
