"""What an agent run ends with: the outcome record, and the exceptions that carry it to `run`.

Outcomes travel as exceptions (`Finished`, `LimitReached`) raised anywhere in a step and caught in
one place, `Agent.run`, which turns them into an AgentOutcome.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from pydantic import BaseModel, ConfigDict

from repopilot.agent.answer import Answer
from repopilot.records import AssignedCategory
from repopilot.run_records import Proposal, Rejection, Usage

Validator = Callable[[str], Proposal | Rejection]
"""Checks a diff (docs/THREAT_MODEL.md §5, `git apply --check`); the pipeline binds the checkout."""

Answered = Literal["answer", "proposal", "rejected", "max-steps"]
"""How a run that got an answer ended: a plain answer, a validated proposal, the last allowed
proposal rejected, or the one final request after max_steps."""

Stopped = Literal["wall-clock", "token-budget", "format-errors", "repeated-call", "max-steps"]
"""The guard that ended a run before an answer (max-steps: the final request gave none)."""

StopReason = Answered | Stopped | Literal["llm-unavailable", "error"]
"""Every way a run ends (AgentOutcome.stop_reason, the trace's outcome)."""


class Finished(Exception):
    """The model answered (with or without a validated proposal)."""

    def __init__(self, answer: Answer, reason: Answered, proposal: Proposal | None = None):
        self.answer, self.reason, self.proposal = answer, reason, proposal


class LimitReached(Exception):
    """A limit or guard ended the run; `reason` is the stop reason ('wall-clock', ...)."""

    def __init__(self, reason: Stopped, detail: str = ""):
        super().__init__(detail or reason)
        self.reason: Stopped = reason


class AgentOutcome(BaseModel):
    """What the loop concluded. `diagnosis` is None when it stopped before an answer."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    diagnosis: str | None = None
    category: AssignedCategory | None = None
    confidence: float | None = None
    proposal: Proposal | None = None
    rejected: tuple[Rejection, ...] = ()
    stop_reason: StopReason
    usage: Usage
    trace: str | None = None
