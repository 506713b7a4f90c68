"""The last green run's log in the Action (issue 20, Contract 3): the failing job's log is
classified with the base branch's passing log of the same job as its baseline, so lines the green
run also printed (a handled 404 probe, a warning about its own config) are not taken as the cause,
and each result says which run it was compared with.

github/origin.py finds and downloads that log within the origin lookups' request budget; the
engine's comparison is engine/verdict/baseline.py (the CLI's `--base-log`)."""

from __future__ import annotations

from collections.abc import Callable

from repopilot.engine.classify import Classifier
from repopilot.engine.verdict.baseline import Baseline, from_jobs
from repopilot.errors import LogError
from repopilot.github.origin_setup import BaseLog
from repopilot.logs.reader import open_logs
from repopilot.run_records import TriageResult


def green_baseline(base_log: BaseLog | None) -> Baseline | None:
    """The green log as a baseline, or None (none given, or unreadable). The jobs API said that
    job succeeded, so every line of it counts: the engine is not asked whether it passed (a
    handled error it prints would read as a failure, and the comparison would be lost)."""
    if base_log is None:
        return None
    try:
        return from_jobs(base_log.path, open_logs(base_log.path))
    except (LogError, OSError):
        return None  # a help, not a requirement: the failing log is triaged without it


def compared(
    classifier: Classifier, base_log: BaseLog | None, triage: Callable[[], list[TriageResult]]
) -> list[TriageResult]:
    """`triage()` run with `classifier`'s baseline set from `base_log`, and reset after (the
    classifier serves every job of the run); each failed result then names the green run. The
    origin hook runs inside `triage()`: where the origin lookups share this classifier, a failed
    base-branch log of the same job is read against the same green log, so the two failures'
    signatures are compared like with like."""
    base = green_baseline(base_log)
    if base is None or base_log is None:
        return triage()
    before = classifier.baseline
    classifier.baseline = base
    try:
        results = triage()
    finally:
        classifier.baseline = before
    run = base_log.run
    return [r.model_copy(update={"baseline_run": run}) if r.verdict.failed else r for r in results]
