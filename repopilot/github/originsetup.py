"""How the analyze half is told to decide origins (issue 14): the seams it is given and the
request budget (`origin-budget` input, REPOPILOT_ORIGIN_BUDGET, default 30)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Protocol

from repopilot.engine.origin import OriginHook
from repopilot.github.runner import get_input
from repopilot.records import Verdict
from repopilot.runrecords import TriageResult

DEFAULT_BUDGET = 30
BUDGET_ENV = "REPOPILOT_ORIGIN_BUDGET"

Classify = Callable[[str], list[Verdict]]
"""A downloaded log file -> the deterministic verdict of each job in it (no LLM)."""
Signer = Callable[[Verdict], str | None]
"""A verdict -> its failure signature text (engine/signature.py)."""
Triage = Callable[[str], list[TriageResult]]
OriginTriage = Callable[[str, OriginHook], list[TriageResult]]
"""The pipeline with an origin hook: the origin is decided before any LLM is asked."""


class HookedTriage(Protocol):
    """A triage usable both ways: plain (`Triage`) and with an origin hook (`OriginTriage`)."""

    def __call__(self, path: str, origin: OriginHook | None = None) -> list[TriageResult]: ...


@dataclass(frozen=True)
class OriginSetup:
    """What the analyze half needs to decide origins. `triage` None: origins are decided after
    the plain triage, from its verdicts (a triage passed in by a test or another caller)."""

    classify: Classify
    sign: Signer
    budget: int = DEFAULT_BUDGET
    triage: OriginTriage | None = None


def budget_from(env: Mapping[str, str]) -> int:
    """The request budget: input `origin-budget`, else REPOPILOT_ORIGIN_BUDGET, else 30.
    Raises ValueError with one line for anything but a whole number from 0 (off) to 1000."""
    raw = get_input(env, "origin-budget") or env.get(BUDGET_ENV, "").strip()
    if not raw:
        return DEFAULT_BUDGET
    if not raw.isdigit() or int(raw) > 1000:
        raise ValueError(f"origin-budget / {BUDGET_ENV}: expected 0 to 1000, got {raw!r}")
    return int(raw)
