"""What an agent run ends with: the outcome record, and the exceptions that carry it to `run`.

Outcomes travel as exceptions (`Finished`, `LimitReached`) raised anywhere in a step and caught in
one place, `Agent.run`, which turns them into an AgentOutcome.
"""

from __future__ import annotations

from collections.abc import Callable

from pydantic import BaseModel, ConfigDict

from repopilot.agent.answer import Answer
from repopilot.records import Proposal, Rejection, Usage

Validator = Callable[[str], Proposal | Rejection]
"""Checks a diff (SECURITY.md §5, `git apply --check`); the pipeline binds the checkout."""


class Finished(Exception):
    """The model answered (with or without a validated proposal)."""

    def __init__(self, answer: Answer, reason: str, proposal: Proposal | None = None):
        self.answer, self.reason, self.proposal = answer, reason, proposal


class LimitReached(Exception):
    """A limit or guard ended the run; `reason` is the stop reason ('wall-clock', ...)."""

    def __init__(self, reason: str, detail: str = ""):
        super().__init__(detail or reason)
        self.reason = reason


class AgentOutcome(BaseModel):
    """What the loop concluded. `diagnosis` is None when it stopped before an answer."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    diagnosis: str | None = None
    category: str | None = None
    confidence: float | None = None
    proposal: Proposal | None = None
    rejected: tuple[Rejection, ...] = ()
    stop_reason: str
    usage: Usage
    trace: str | None = None
