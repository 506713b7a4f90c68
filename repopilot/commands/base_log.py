"""`--base-log PATH` and `--base-log-passed` for classify, context and triage: a log of the same
job from another run. When it passed, lines it also prints are not taken as the cause
(engine/verdict/baseline.py); when it failed, nothing is demoted.

Whether it passed is read from the log itself: no failure in it by the failure rule, or (a GitHub
Actions log that reaches the job's end) a job that carried on past every failure it reported,
as a `continue-on-error: true` step or a command run with `|| true` leaves it, and ended on a
tool's summary of success (engine/verdict/base_green.py). A failure in the job's last step reads
as the job's failure: `--base-log-passed` says the log passed whatever it holds (the jobs API
or the run's page said so)."""

from __future__ import annotations

import argparse

from repopilot.engine.classify import Classifier
from repopilot.engine.verdict.baseline import base_from_path
from repopilot.errors import LogError, UsageError

HELP = (
    "a log of the same job from another run (the base branch's, or the last green one): when it "
    "passed, lines it also prints are not taken as the cause. Passed means: no failure in it, or "
    "a GitHub Actions log that reaches the job's end, went on past each failure it reports "
    "(continue-on-error, `|| true`) and ends in a success summary"
)
PASSED_HELP = (
    "the --base-log passed (as its run's page says): use every line of it, even when it holds "
    "errors its job tolerated"
)


def add_argument(p: argparse.ArgumentParser, help: str = HELP) -> None:
    """`--base-log PATH` (with `help`) and `--base-log-passed`."""
    p.add_argument("--base-log", metavar="PATH", help=help)
    p.add_argument("--base-log-passed", action="store_true", help=PASSED_HELP)


def use_base_log(classifier: Classifier, path: str | None, passed: bool = False) -> None:
    """Set `classifier`'s baseline from the log at `path` (None: no base log); `passed`: the
    user says that log passed."""
    if not path:
        if passed:
            raise UsageError("--base-log-passed: give the log with --base-log PATH")
        return
    try:
        classifier.baseline = base_from_path(classifier, path, passed)
    except LogError as exc:
        raise UsageError(f"--base-log: {exc}") from None
