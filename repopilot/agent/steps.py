"""The payloads the agent writes into its trace steps, and reads back in `trace replay`.

A trace step's `arguments` and `result` are JSON (Contract 5): each model below is one of their
shapes. The loop writes `payload.record()`; replay reads a step back with `read(Model, value)`,
which answers None for a value of another shape (an older or hand-edited trace) instead of
raising. Unknown keys are ignored when reading: traces outlive field names.
"""

from __future__ import annotations

from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from repopilot.agent.outcome import AgentOutcome, StopReason
from repopilot.llm.base import ChatResponse, TokenUsage, ToolCall
from repopilot.records import AssignedCategory
from repopilot.run_records import Proposal, Rejection


class Payload(BaseModel):
    model_config = ConfigDict(frozen=True, extra="ignore")

    def record(self) -> dict[str, Any]:
        """The JSON object stored in the step."""
        return self.model_dump(mode="json")


P = TypeVar("P", bound=Payload)


def read(model: type[P], value: Any) -> P | None:
    """`value` (a step's arguments or result) as `model`, or None if it has another shape."""
    if not isinstance(value, dict):
        return None
    try:
        return model.model_validate(value)
    except ValidationError:
        return None


class AgentStart(Payload):
    """The `decision` step that opens a run: the prompt version and every limit in force."""

    event: Literal["agent-start"] = "agent-start"
    prompt_version: str
    limits: dict[str, int | float] = Field(default_factory=dict)


class ModelRequest(Payload):
    """An `llm_call` step's arguments: what was sent, without the messages themselves."""

    prompt_version: str = "v1"
    protocol: str = "tools"
    messages: int = 0
    final: bool = False


class ModelReply(Payload):
    """An `llm_call` step's result: enough of the reply to rebuild it for a replay."""

    text: str = ""
    tool_calls: tuple[ToolCall, ...] = ()
    usage: TokenUsage = TokenUsage()
    finish_reason: str | None = None

    @classmethod
    def of(cls, response: ChatResponse) -> ModelReply:
        return cls(
            text=response.text,
            tool_calls=response.tool_calls,
            usage=response.usage,
            finish_reason=response.finish_reason,
        )

    def response(self, model: str) -> ChatResponse:
        return ChatResponse(
            text=self.text,
            tool_calls=self.tool_calls,
            usage=self.usage,
            model=model,
            finish_reason=self.finish_reason,
        )


class ToolOutput(Payload):
    """A `tool_result` step's result: the redacted output and what was redacted (kinds only)."""

    text: str = ""
    redactions: int = 0
    kinds: tuple[str, ...] = ()


class ProposalRef(Payload):
    id: str
    sha256: str
    files: tuple[str, ...] = ()


class RejectionRef(Payload):
    reason: str
    detail: str = ""


class ProposalVerdict(Payload):
    """The `decision` step after a `propose_fix`: the validated proposal or why it was refused."""

    proposal: ProposalRef | None = None
    rejected: RejectionRef | None = None

    @classmethod
    def of(cls, verdict: Proposal | Rejection) -> ProposalVerdict:
        if isinstance(verdict, Proposal):
            p = verdict
            return cls(proposal=ProposalRef(id=p.id, sha256=p.sha256, files=p.files))
        return cls(rejected=RejectionRef(reason=verdict.reason, detail=verdict.detail))

    def record(self) -> dict[str, Any]:
        return self.model_dump(mode="json", exclude_none=True)  # one key: proposal or rejected


class AgentEnd(Payload):
    """The `decision` step that closes a run: how it ended and what it concluded."""

    stop_reason: StopReason
    diagnosis: str | None = None
    category: AssignedCategory | None = None
    confidence: float | None = None
    proposal: str | None = None
    rejected: tuple[str, ...] = ()
    redactions: int = 0

    @classmethod
    def of(cls, outcome: AgentOutcome, redactions: int) -> AgentEnd:
        return cls(
            stop_reason=outcome.stop_reason,
            diagnosis=outcome.diagnosis,
            category=outcome.category,
            confidence=outcome.confidence,
            proposal=outcome.proposal.id if outcome.proposal else None,
            rejected=tuple(r.reason for r in outcome.rejected),
            redactions=redactions,
        )
