"""Re-run a recorded trace: the recorded model outputs through ScriptedLLM, then compare.

Model replies come from the trace's `llm_call` steps; tool outputs and proposal verdicts come from
the trace too (`RecordedTools`, `RecordedValidator`) unless real ones are passed in. The new run's
steps are compared with the recorded ones, ignoring timestamps and durations; the first step that
differs is the divergence (a changed loop, prompt version, guard or redaction shows up there).
"""

from __future__ import annotations

import dataclasses
import tempfile
from collections import deque
from dataclasses import dataclass
from typing import Any, cast

from pydantic import BaseModel

from repopilot.agent.limits import Limits
from repopilot.agent.loop import Agent
from repopilot.agent.outcome import Validator
from repopilot.agent.schema import TERMINAL, ToolError
from repopilot.agent.steps import (
    AgentStart,
    ModelReply,
    ModelRequest,
    ProposalVerdict,
    ToolOutput,
    read,
)
from repopilot.agent.tools import Tools
from repopilot.llm.base import ChatResponse, LLMError, LLMErrorKind, ToolsUnsupported
from repopilot.llm.scripted import ScriptedLLM
from repopilot.records import REJECT_REASONS
from repopilot.run_records import AgentStep, Proposal, Rejection, RunTrace
from repopilot.trace import TraceWriter

COMPARED = ("type", "model", "tool_name", "arguments", "result", "error")


@dataclass(frozen=True)
class Divergence:
    """The first differing step: its number in the recorded trace and both versions (or None)."""

    step_number: int
    recorded: AgentStep | None
    replayed: AgentStep | None


def _start(step: AgentStep) -> AgentStart | None:
    return read(AgentStart, step.result) if step.type == "decision" else None


def agent_ran(trace: RunTrace) -> bool:
    """Whether the loop ran in this trace (a pattern-decided run has nothing to replay)."""
    return any(s.type in ("llm_call", "tool_call") for s in trace.steps) or any(
        _start(s) is not None for s in trace.steps
    )


def _agent_steps(trace: RunTrace) -> list[AgentStep]:
    """The loop's steps: from its `agent-start` decision on (earlier ones are the pipeline's)."""
    for i, step in enumerate(trace.steps):
        if _start(step) is not None:
            return trace.steps[i:]
    return [s for s in trace.steps if s.type != "classify"]


def recorded_responses(trace: RunTrace) -> list[ChatResponse | Exception]:
    out: list[ChatResponse | Exception] = []
    for step in _agent_steps(trace):
        if step.type != "llm_call":
            continue
        if step.result is None:
            kind, _, message = (step.error or "llm-error: unknown").partition(": ")
            if kind == "tools-unsupported":
                out.append(ToolsUnsupported(message))
            else:  # replayed as recorded, also a kind this version does not know
                out.append(LLMError(cast(LLMErrorKind, kind), message))
        else:
            reply = read(ModelReply, step.result) or ModelReply()
            out.append(reply.response(step.model or ""))
    return out


class RecordedTools:
    """Answers tool calls with the recorded outputs, in order (a recorded error is raised)."""

    def __init__(self, trace: RunTrace):
        self.queue = deque(s for s in _agent_steps(trace) if s.type == "tool_result")

    def execute(self, name: str, args: BaseModel) -> str:
        if not self.queue:
            raise ToolError("no recorded tool output left")
        step = self.queue.popleft()
        if step.error:
            raise ToolError(step.error)
        return (read(ToolOutput, step.result) or ToolOutput()).text


class RecordedValidator:
    """Answers proposals with the recorded verdicts, in order."""

    def __init__(self, trace: RunTrace):
        steps = _agent_steps(trace)
        self.queue: deque[ProposalVerdict | None] = deque(
            read(ProposalVerdict, s.result)
            for s in steps
            if s.type == "decision" and s.tool_name == TERMINAL
        )

    def __call__(self, diff: str) -> Proposal | Rejection:
        verdict = self.queue.popleft() if self.queue else None
        if verdict is None:
            return Rejection(reason="not-recorded", detail="no recorded verdict for this proposal")
        if verdict.proposal is not None:
            p = verdict.proposal
            return Proposal(id=p.id, diff=diff, sha256=p.sha256, files=p.files)
        r = verdict.rejected
        if r is None or r.reason not in REJECT_REASONS:
            return Rejection(reason="not-recorded", detail="the recorded verdict is not readable")
        return Rejection.model_validate({"reason": r.reason, "detail": r.detail})


def _limits(trace: RunTrace) -> Limits:
    for step in _agent_steps(trace):
        start = _start(step)
        if start is not None and start.limits:
            known = {f.name for f in dataclasses.fields(Limits)}  # traces outlive field names
            values: dict[str, Any] = {k: v for k, v in start.limits.items() if k in known}
            return Limits(**values)
    return Limits()


def replay(
    trace: RunTrace, *, tools: Tools | None = None, validate: Validator | None = None
) -> tuple[RunTrace, Divergence | None]:
    """Re-run `trace`; the new trace (written to a scratch directory) and the first divergence."""
    responses = recorded_responses(trace)
    first = next((r.model for r in responses if isinstance(r, ChatResponse)), "scripted")
    llm = ScriptedLLM(responses, model=first or "scripted")
    with tempfile.TemporaryDirectory(prefix="repopilot-replay-") as scratch:
        writer = TraceWriter(trace.goal, run_id="replay", directory=scratch)
        agent = Agent(
            llm,
            tools or RecordedTools(trace),
            validate=validate or RecordedValidator(trace),
            limits=_limits(trace),
            trace=writer,
            prompt_version=_prompt_version(trace),
        )
        agent.run(trace.goal)
    return writer.trace, diverges(trace, writer.trace)


def _prompt_version(trace: RunTrace) -> str:
    for step in _agent_steps(trace):
        request = read(ModelRequest, step.arguments) if step.type == "llm_call" else None
        if request is not None:
            return request.prompt_version or "v1"
    return "v1"


def diverges(recorded: RunTrace, replayed: RunTrace) -> Divergence | None:
    """The first step whose compared fields differ, or where one run has a step the other lacks."""
    old, new = _agent_steps(recorded), _agent_steps(replayed)
    for i in range(max(len(old), len(new))):
        a = old[i] if i < len(old) else None
        b = new[i] if i < len(new) else None
        if a is None or b is None or _key(a) != _key(b):
            number = a.step_number if a else (old[-1].step_number + 1 if old else 1)
            return Divergence(number, a, b)
    return None


IGNORED = ("redactions", "kinds")
"""Redaction counts differ by construction when recorded (already redacted) outputs are replayed."""


def _key(step: AgentStep) -> tuple[object, ...]:
    data = step.model_dump(mode="json")
    if isinstance(data["result"], dict):
        data["result"] = {k: v for k, v in data["result"].items() if k not in IGNORED}
    return tuple(data[k] for k in COMPARED)
