"""The ReAct loop: system prompt + goal -> model -> tools -> observations -> ... -> an answer.

Each step reads top to bottom: check the guards, call the model, run the tools it asked for,
record the step. Every limit lives in `repopilot.agent.guards` (one `Limits`, one clock, a fresh
`RunState` per run, so an Agent can run again). Outcomes travel as exceptions (`Finished`,
`LimitReached`, `FormatError`) caught in one place; the trace is saved in a `finally` after every
step. Model mistakes become observations; our own bugs raise.
"""

from __future__ import annotations

import dataclasses
import time
from typing import Any

from pydantic import BaseModel

from repopilot.agent import answer as answers
from repopilot.agent.answer import Answer, FormatError
from repopilot.agent.guards import NOT_RUN, Clock, Guards
from repopilot.agent.limits import Limits
from repopilot.agent.outcome import AgentOutcome, Finished, LimitReached, StopReason, Validator
from repopilot.agent.prompt import PROMPT_VERSION, system_prompt
from repopilot.agent.protocol import NativeTools, Protocol, TextActions
from repopilot.agent.schema import TERMINAL, ProposeFix, ToolError, call_arguments
from repopilot.agent.steps import (
    AgentEnd,
    AgentStart,
    ModelReply,
    ModelRequest,
    ProposalVerdict,
    ToolOutput,
)
from repopilot.agent.tools import Tools
from repopilot.llm.base import LLM, ChatResponse, LLMError, Message, ToolCall, ToolsUnsupported
from repopilot.run_records import Proposal, Rejection
from repopilot.safety.hygiene import fence
from repopilot.safety.redact import clean_for_model
from repopilot.trace import TraceWriter


class Agent:
    """Runs over one failure at a time. `tools` executes read-only tools; `validate` checks a diff.

    `trace` is the writer of the first run (later runs get a new one in the same directory, or
    the one passed to `run`); `clock` times the limits and every duration."""

    def __init__(
        self,
        llm: LLM,
        tools: Tools,
        *,
        validate: Validator | None = None,
        limits: Limits | None = None,
        trace: TraceWriter | None = None,
        clock: Clock = time.monotonic,
        prompt_version: str = PROMPT_VERSION,
    ):
        self.llm, self.tools, self.validate = llm, tools, validate
        self.limits = limits or Limits()
        self.clock, self.prompt_version = clock, prompt_version
        self.trace = trace or TraceWriter()
        self._fresh = True  # self.trace has not been used by a run yet

    # ---------------------------------------------------------------- run
    def run(self, goal: str, *, trace: TraceWriter | None = None) -> AgentOutcome:
        """Run until an answer or a limit; never raises for model or provider faults."""
        self._start(goal, trace)
        outcome = AgentOutcome(stop_reason="error", usage=self.trace.trace.usage)
        try:
            while True:
                try:
                    self.step()
                finally:
                    self.trace.save()
        except Finished as done:
            outcome = self._outcome(done.reason, done.answer, done.proposal)
        except LimitReached as stop:
            self.trace.add("error", error=f"{stop.reason}: {stop}")
            outcome = self._outcome(stop.reason)
        except LLMError as exc:
            self.trace.add("error", error=f"llm-unavailable: {exc}")
            outcome = self._outcome("llm-unavailable")
        finally:
            end = AgentEnd.of(outcome, self.guards.state.redactions)
            self.trace.add("decision", result=end.record())
            self.trace.finish(outcome.stop_reason)
        written = None if self.trace.save_error else str(self.trace.path)
        return outcome.model_copy(update={"trace": written})

    def _start(self, goal: str, trace: TraceWriter | None) -> None:
        """Per-run state: the trace writer, the guards, the protocol and the conversation."""
        if trace is not None:
            self.trace = trace
        elif not self._fresh:
            self.trace = TraceWriter(directory=self.trace.directory)
        self._fresh = False
        goal = clean_for_model(goal).text  # callers redact already; this is the last gate
        self.trace.trace.goal = self.trace.trace.goal or goal
        self.guards = Guards(self.limits, self.clock, self.trace.trace.usage)
        self.protocol: Protocol = NativeTools()
        self.messages = [Message(role="system", content=system_prompt(self.prompt_version))]
        self.messages.append(Message(role="user", content=goal))
        start = AgentStart(
            prompt_version=self.prompt_version, limits=dataclasses.asdict(self.limits)
        )
        self.trace.add("decision", result=start.record())

    def step(self) -> None:
        final = self.guards.before_model_call()
        if final:
            note = "You have used all tool steps. Reply now without tools, with the JSON answer."
            self.messages.append(Message(role="user", content=note))
        response = self.query(final=final)
        if final:
            raise Finished(self._final_answer(response), "max-steps")
        try:
            calls = self.protocol.tool_calls(response, self.guards.state.steps)
            if calls is None:  # a reply without tool calls is the answer
                raise Finished(self._parse(self.protocol.final_text(response)), "answer")
        except FormatError as exc:
            self._format_error(exc)
            self.messages.append(Message(role="assistant", content=response.text))
            self.messages.append(Message(role="user", content=f"Format error: {exc}"))
            return
        self.messages.append(self.protocol.assistant(response, calls))
        for i, call in enumerate(calls):
            text = self.execute(call) if self.guards.may_run(i) else NOT_RUN
            self.messages.append(self.protocol.observation(call, text))

    def _final_answer(self, response: ChatResponse) -> Answer:
        """The answer of the one request without tools at max_steps; the run stops either way."""
        try:
            return self._parse(self.protocol.final_text(response))
        except FormatError as exc:
            raise LimitReached("max-steps", f"no usable final answer: {exc}") from None

    def _parse(self, text: str) -> Answer:
        return answers.parse_final(text, self.limits.max_diagnosis_chars)

    # ---------------------------------------------------------------- model
    def query(self, *, final: bool) -> ChatResponse:
        messages = self.guards.context(self.messages)
        start = self.clock()
        try:
            response = self.protocol.send(self.llm, messages, final=final)
        except ToolsUnsupported as exc:
            self._record_llm(None, start, final, error=str(exc))
            if isinstance(self.protocol, TextActions):  # plain chat refused too: give up
                raise LLMError("tools-unsupported", "the model refused plain chat too") from None
            self.protocol = TextActions()  # for the rest of the run
            return self.query(final=final)
        except LLMError as exc:
            self._record_llm(None, start, final, error=str(exc))
            raise
        self._record_llm(response, start, final)
        return response

    def _record_llm(
        self, response: ChatResponse | None, start: float, final: bool, error: str | None = None
    ) -> None:
        self.guards.count_model_call(response, sum(len(m.content) for m in self.messages))
        request = ModelRequest(
            prompt_version=self.prompt_version,
            protocol=self.protocol.name,
            messages=len(self.messages),
            final=final,
        )
        self.trace.add(
            "llm_call",
            model=(response.model if response else "") or self.llm.model,
            arguments=request.record(),
            result=None if response is None else ModelReply.of(response).record(),
            error=error,
            duration_ms=self.guards.elapsed_ms(start),
        )

    # ---------------------------------------------------------------- tools
    def execute(self, call: ToolCall) -> str:
        """The observation for one tool call; guards turn mistakes into observations or stops."""
        self.trace.add("tool_call", tool_name=call.name, arguments=call.arguments)
        self.guards.state.usage.tool_calls += 1
        try:
            args = call_arguments(call)
        except ToolError as exc:  # the model's mistake: it sees why, and it counts as one
            self._format_error(FormatError(str(exc)))
            return f"error: {exc}"
        self.guards.usable_call()
        if isinstance(args, ProposeFix):  # bounded by max_proposals, not by the repeat guard
            return self._propose(args)
        note = self.guards.repeated(call.name, args)
        if note is not None:
            self.trace.add("error", tool_name=call.name, error=f"repeated-call: {note}")
            return note + " Try something else or answer."
        start = self.clock()
        raw, error = self._run_tool(call.name, args)
        red = clean_for_model(raw)
        self.guards.count_output(raw if error is None else "", red.count)
        self.trace.add(
            "tool_result",
            tool_name=call.name,
            result=ToolOutput(
                text=red.text, redactions=red.count, kinds=tuple(sorted(red.kinds))
            ).record(),
            error=error,
            duration_ms=self.guards.elapsed_ms(start),
        )
        text = self.guards.observation(red.text)
        return text if error else fence(text, f"{call.name} output")

    def _run_tool(self, name: str, args: BaseModel) -> tuple[str, str | None]:
        """(output, None), or (error observation, error) for a tool error or a spent budget."""
        spent = self.guards.output_spent()
        if spent is not None:
            return f"error: {spent}", spent
        try:
            return self.tools.execute(name, args), None
        except ToolError as exc:
            return f"error: {exc}", str(exc)

    def _format_error(self, exc: FormatError) -> None:
        self.trace.add("error", error=f"format-error: {exc}")
        self.guards.unusable_reply(str(exc))

    def _propose(self, args: ProposeFix) -> str:
        answer = answers.from_propose(args, self.limits.max_diagnosis_chars)
        diff = args.diff or ""
        if not diff.strip():
            raise Finished(answer, "answer")
        verdict = (
            self.validate(diff)
            if self.validate
            else Rejection(reason="not-validated", detail="no validator configured for this run")
        )
        if isinstance(verdict, Proposal):
            proposal = verdict.model_copy(
                update={"diagnosis": answer.diagnosis, "confidence": answer.confidence or 0.0}
            )
            self.trace.add("decision", tool_name=TERMINAL, result=_verdict(proposal))
            raise Finished(answer, "proposal", proposal)
        self.trace.add("decision", tool_name=TERMINAL, result=_verdict(verdict))
        if not self.guards.rejected(verdict):
            raise Finished(answer, "rejected")
        return (
            f"Your diff was rejected ({verdict.reason}): {verdict.detail}. Call propose_fix once "
            "more with a corrected diff, or without a diff if no safe change fixes it."
        )

    # ---------------------------------------------------------------- outcome
    def _outcome(
        self, reason: StopReason, answer: Answer | None = None, proposal: Proposal | None = None
    ) -> AgentOutcome:
        return AgentOutcome(
            diagnosis=answer.diagnosis if answer else None,
            category=answer.category if answer else None,
            confidence=answer.confidence if answer else None,
            proposal=proposal,
            rejected=tuple(self.guards.state.rejected),
            stop_reason=reason,
            usage=self.guards.state.usage.model_copy(),
        )


def _verdict(verdict: Proposal | Rejection) -> dict[str, Any]:
    return ProposalVerdict.of(verdict).record()
