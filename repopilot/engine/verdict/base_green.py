"""Did a base log pass? (Contract 1 `--base-log`: a green log's lines are not taken as the cause.)

The failure rule (structure.py) reads a log as failed when it finds a failure the job did not
carry on after; for the log under triage that errs toward a verdict. A base log is the other way
round: it is only useful when it passed, and a green GitHub job can hold failures it tolerated:
a `continue-on-error: true` step's `##[error]` lines and its `Process completed with exit code
N`, or a test runner's `FAILED` lines from a command run with `|| true` (in the last `run:`
step, with no exit line after them, the failure rule itself reads those as no failure:
structure._complete_log). So a base log also
counts as green when its own end says the job went on to success:

- it is a GitHub Actions log (raw or `gh run view --log`) that reaches the job's end (the
  runner's `Cleaning up orphan processes`, an action's `Post job cleanup.`, gh's `Complete job`);
- every failure the runner or a script reported in it (a non-zero exit line, an `##[error]`
  line) lies in a step after which the job ran a further script step of its own (steps.py
  `carried_on`: not an upload, report or cleanup step), none is a cancellation or a timeout,
  and the log's last word (closing.py) is a tool's or CI system's summary of success printed
  after the last of them: the steps `if: always()` runs after a real failure (collecting logs,
  tearing down) print no such summary (a test step run with `if: always()` after a failed lint
  does, and reads as green here: `repopilot triage`'s origin therefore still compares the PR's
  failure with the base log's failures as printed, commands/triage.py);
- or it reports no failure at all and its last step of work is a `run:` step: the runner ends
  every failing `run:` step with its exit line, so a `FAILED` line without one was tolerated by
  the script itself (`|| true`). An action's step may die without that line (a container
  action), so its silence proves nothing.

A failure in the job's last step of work is its final state: such a log is read as failed (a
`continue-on-error` last step prints the same lines as a failing one, and nothing in the log
tells them apart). The user can say it passed instead (`--base-log-passed`).
"""

from __future__ import annotations

import re

from repopilot.engine.match.scan_result import ScanResult
from repopilot.engine.verdict.closing import last_word
from repopilot.engine.verdict.job_end import job_complete
from repopilot.engine.verdict.steps import carried_on, is_script_step, last_work, span_at, steps_of
from repopilot.logs.reader import JobLog
from repopilot.logs.textnorm import body

# The runner's lines for a job it stopped: cancelled, or over its time limit (GitHub docs,
# "jobs.<job_id>.timeout-minutes"; the runner's "The operation was canceled.").
_STOPPED = re.compile(
    r"(?i)the operation was cancel+ed|has been cancel+ed|timed? ?out|maximum execution time"
)


def ended_green(job: JobLog, res: ScanResult) -> bool:
    """Whether the GitHub Actions job of `job` (scanned into `res`) says at its end that it
    carried on past every failure it reported (module docstring)."""
    if job.fmt not in ("gha", "ghcli"):
        return False  # other CI systems say how the job ended: the failure rule reads that
    spans = steps_of(res)
    if not job_complete(job, [s.name for s in spans]):
        return False
    reports = [(n, "") for n, _, code in res.exit_lines if code != 0]
    reports += [(n, t) for n, _, t in res.errors]
    if not reports:
        # the runner ends every failing `run:` step with its exit line; an action's step may
        # die without one (a container action), so only a script step's silence says success
        work = last_work(spans)
        return work is not None and is_script_step(work.name)
    for line, text in reports:
        if _STOPPED.search(body(text)) or not carried_on(spans, span_at(spans, line)):
            return False
    # steps an `if: always()` runs after a failure print no tool's summary of success
    word = last_word(job, res, list(res.hits))
    return word is not None and word.success and word.line > max(n for n, _ in reports)
