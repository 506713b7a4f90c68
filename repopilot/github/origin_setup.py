"""How the analyze half is told to decide origins (issue 14): the seams it is given and the
request budget (read by repopilot/action/runner.py from `origin-budget` / REPOPILOT_ORIGIN_BUDGET)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from repopilot.origin.decide import OriginHook, Remembered
from repopilot.records import Verdict
from repopilot.run_records import BaselineRun, TriageResult
from repopilot.settings import DEFAULT_LOG_CAP

DEFAULT_BUDGET = 30

Classify = Callable[[str], list[Verdict]]
"""A downloaded log file -> the deterministic verdict of each job in it (no LLM)."""
Signer = Callable[[Verdict], str | None]
"""A verdict -> its failure signature text (origin/signature.py)."""
Triage = Callable[[str], list[TriageResult]]
Recall = Callable[[str | None], Remembered | None]
"""A signature -> the memory's records of it on the default branch (issue 28), or None."""


@dataclass(frozen=True)
class BaseLog:
    """A passing log of the same job on the base branch (issue 20), downloaded to `path`, and the
    run it comes from: its lines are not taken as the cause."""

    path: str
    run: BaselineRun


class OriginTriage(Protocol):
    """The pipeline with an origin hook: the origin is decided before any LLM is asked.
    `base_log`: the last green run's log of the same job, or None."""

    def __call__(
        self, path: str, origin: OriginHook, base_log: BaseLog | None = None
    ) -> list[TriageResult]: ...


class HookedTriage(Protocol):
    """A triage usable both ways: plain (`Triage`) and with an origin hook (`OriginTriage`)."""

    def __call__(
        self, path: str, origin: OriginHook | None = None, base_log: BaseLog | None = None
    ) -> list[TriageResult]: ...


@dataclass(frozen=True)
class OriginSetup:
    """What the analyze half needs to decide origins. `triage` None: origins are decided after
    the plain triage, from its verdicts (a triage passed in by a test or another caller)."""

    classify: Classify
    sign: Signer
    budget: int = DEFAULT_BUDGET
    triage: OriginTriage | None = None
    log_cap: int = DEFAULT_LOG_CAP
    """Bytes of a base-branch job log downloaded (REPOPILOT_MAX_LOG_BYTES)."""
    remembered: Recall | None = None
    """The default branch's failures in RepoPilot's memory (issue 28, action/memory.py)."""
