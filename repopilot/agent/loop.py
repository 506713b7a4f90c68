"""The ReAct loop: system prompt + goal -> model -> tools -> observations -> ... -> an answer.

Shape after mini-swe-agent: `run -> step -> query -> execute`; outcomes travel as exceptions
(`Finished`, `LimitReached`, `FormatError`) caught in one place; the trace is saved in a `finally`
after every step. Model mistakes become observations; our own bugs raise.
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Callable

from pydantic import BaseModel

from repopilot.agent import answer as answers
from repopilot.agent.answer import Answer, FormatError, parse_final
from repopilot.agent.history import clip, compact
from repopilot.agent.limits import Limits
from repopilot.agent.outcome import AgentOutcome, Finished, LimitReached, Validator
from repopilot.agent.prompt import PROMPT_VERSION, system_prompt
from repopilot.agent.protocol import NativeTools, Protocol, TextActions
from repopilot.agent.schema import ARGUMENTS, TERMINAL, ProposeFix, ToolError, parse_arguments
from repopilot.agent.tools import Tools
from repopilot.llm.base import LLM, ChatResponse, LLMError, Message, ToolCall, ToolsUnsupported
from repopilot.records import Proposal, Rejection
from repopilot.safety.hygiene import fence
from repopilot.safety.redact import clean_for_model
from repopilot.trace import TraceWriter

_NOT_RUN = "not run: too many tool calls in one reply; ask again for what you still need"
_CHARS_PER_TOKEN = 4  # estimate when a provider reports no usage, so the budget still holds


class Agent:
    """One run over one failure. `tools` executes read-only tools; `validate` checks a diff."""

    def __init__(
        self,
        llm: LLM,
        tools: Tools,
        *,
        validate: Validator | None = None,
        limits: Limits | None = None,
        trace: TraceWriter | None = None,
        clock: Callable[[], float] = time.monotonic,
        prompt_version: str = PROMPT_VERSION,
    ):
        self.llm, self.tools, self.validate = llm, tools, validate
        self.limits = limits or Limits()
        self.trace = trace or TraceWriter()
        self.clock, self.prompt_version = clock, prompt_version
        self.protocol: Protocol = NativeTools()
        self.rejected: list[Rejection] = []
        self.seen: dict[str, int] = {}
        self.format_errors = 0
        self.steps = 0
        self.redactions = 0

    # ---------------------------------------------------------------- run
    def run(self, goal: str) -> AgentOutcome:
        """Run until an answer or a limit; never raises for model or provider faults."""
        goal = clean_for_model(goal).text  # callers redact already; this is the last gate
        self.trace.trace.goal = self.trace.trace.goal or goal
        self.messages = [Message(role="system", content=system_prompt(self.prompt_version))]
        self.messages.append(Message(role="user", content=goal))
        self.started = self.clock()
        start = {"event": "agent-start", "prompt_version": self.prompt_version}
        self.trace.add("decision", result={**start, "limits": dataclasses.asdict(self.limits)})
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
            self.trace.add("decision", result=self._decision(outcome))
            self.trace.finish(outcome.stop_reason)
        written = None if self.trace.save_error else str(self.trace.path)
        return outcome.model_copy(update={"trace": written})

    def step(self) -> None:
        self._check_limits()
        if self.steps >= self.limits.max_steps:
            self._final_request()
        self.steps += 1
        response = self.query(final=False)
        try:
            calls = self.protocol.tool_calls(response, self.steps)
            if calls is None:  # a reply without tool calls is the answer
                raise Finished(parse_final(self.protocol.final_text(response)), "answer")
        except FormatError as exc:
            self._format_error(exc)
            self.messages.append(Message(role="assistant", content=response.text))
            self.messages.append(Message(role="user", content=f"Format error: {exc}"))
            return
        self.messages.append(self.protocol.assistant(response, calls))
        for i, call in enumerate(calls):
            text = self.execute(call) if i < self.limits.max_calls_per_reply else _NOT_RUN
            self.messages.append(self.protocol.observation(call, text))

    def _check_limits(self) -> None:
        elapsed = self.clock() - self.started
        if elapsed >= self.limits.wall_clock_s:
            raise LimitReached("wall-clock", f"{elapsed:.0f} s >= {self.limits.wall_clock_s:.0f} s")
        used = self.trace.trace.usage.prompt_tokens + self.trace.trace.usage.completion_tokens
        if used >= self.limits.max_tokens:
            raise LimitReached("token-budget", f"{used} tokens >= {self.limits.max_tokens}")

    def _final_request(self) -> None:
        """At max_steps: one request without tools for the answer, then stop either way."""
        note = "You have used all tool steps. Reply now without tools, with the JSON answer."
        self.messages.append(Message(role="user", content=note))
        response = self.query(final=True)
        try:
            answer = parse_final(self.protocol.final_text(response))
        except FormatError as exc:
            raise LimitReached("max-steps", f"no usable final answer: {exc}") from None
        raise Finished(answer, "max-steps")

    # ---------------------------------------------------------------- model
    def query(self, *, final: bool) -> ChatResponse:
        messages = compact(self.messages, self.limits.keep_exchanges)
        start = time.monotonic()
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

    def _record_llm(self, response: ChatResponse | None, start: float, final: bool, error=None):
        usage = self.trace.trace.usage
        usage.llm_calls += 1
        result = None
        if response is not None:
            prompt, completion = response.usage.prompt_tokens, response.usage.completion_tokens
            if not prompt and not completion:
                prompt = sum(len(m.content) for m in self.messages) // _CHARS_PER_TOKEN
                completion = len(response.text) // _CHARS_PER_TOKEN
            usage.prompt_tokens += prompt
            usage.completion_tokens += completion
            result = answers.response_record(response)
        self.trace.add(
            "llm_call",
            model=(response.model if response else "") or self.llm.model,
            arguments={
                "prompt_version": self.prompt_version,
                "protocol": self.protocol.name,
                "messages": len(self.messages),
                "final": final,
            },
            result=result,
            error=error,
            duration_ms=(time.monotonic() - start) * 1000,
        )

    # ---------------------------------------------------------------- tools
    def execute(self, call: ToolCall) -> str:
        """The observation for one tool call; guards turn mistakes into observations or stops."""
        self.trace.add("tool_call", tool_name=call.name, arguments=call.arguments)
        self.trace.trace.usage.tool_calls += 1
        try:
            args = self._validated(call)
        except FormatError as exc:
            self._format_error(exc)
            return f"error: {exc}"
        self.format_errors = 0
        if isinstance(args, ProposeFix):  # bounded by max_proposals, not by the repeat guard
            return self._propose(args)
        key = call.name + json.dumps(args.model_dump(), sort_keys=True)
        self.seen[key] = self.seen.get(key, 0) + 1
        if self.seen[key] >= self.limits.max_repeats:
            raise LimitReached("repeated-call", f"{call.name} called {self.seen[key]} times alike")
        if self.seen[key] > 1:
            note = f"You already called {call.name} with these arguments; the result is above."
            self.trace.add("error", tool_name=call.name, error=f"repeated-call: {note}")
            return note + " Try something else or answer."
        start = time.monotonic()
        try:
            raw, error = self.tools.execute(call.name, args), None
        except ToolError as exc:
            raw, error = f"error: {exc}", str(exc)
        red = clean_for_model(raw)
        self.redactions += red.count
        self.trace.add(
            "tool_result",
            tool_name=call.name,
            result={"text": red.text, "redactions": red.count, "kinds": sorted(red.kinds)},
            error=error,
            duration_ms=(time.monotonic() - start) * 1000,
        )
        text = clip(red.text, self.limits.max_observation_chars)
        return text if error else fence(text, f"{call.name} output")

    def _validated(self, call: ToolCall) -> BaseModel:
        if call.arguments_error:
            raise FormatError(
                f"arguments of {call.name} are not valid JSON: {call.arguments_error}"
            )
        if call.name not in ARGUMENTS:
            known = ", ".join(ARGUMENTS)
            raise FormatError(f"unknown tool {call.name!r}; the tools are: {known}")
        try:
            return parse_arguments(call.name, call.arguments)
        except ToolError as exc:
            raise FormatError(str(exc)) from None

    def _format_error(self, exc: FormatError) -> None:
        self.format_errors += 1
        self.trace.add("error", error=f"format-error: {exc}")
        if self.format_errors >= self.limits.max_format_errors:
            raise LimitReached("format-errors", f"{self.format_errors} in a row: {exc}")

    def _propose(self, args: ProposeFix) -> str:
        answer = answers.from_propose(args)
        if not (args.diff or "").strip():
            raise Finished(answer, "answer")
        verdict = (
            self.validate(args.diff)
            if self.validate
            else Rejection(reason="not-validated", detail="no validator configured for this run")
        )
        if isinstance(verdict, Proposal):
            proposal = verdict.model_copy(
                update={"diagnosis": answer.diagnosis, "confidence": answer.confidence or 0.0}
            )
            self.trace.add("decision", tool_name=TERMINAL, result=answers.proposal_record(proposal))
            raise Finished(answer, "proposal", proposal)
        self.rejected.append(verdict)
        self.trace.add("decision", tool_name=TERMINAL, result=answers.rejection_record(verdict))
        if len(self.rejected) >= self.limits.max_proposals:
            raise Finished(answer, "rejected")
        return (
            f"Your diff was rejected ({verdict.reason}): {verdict.detail}. Call propose_fix once "
            "more with a corrected diff, or without a diff if no safe change fixes it."
        )

    # ---------------------------------------------------------------- outcome
    def _outcome(self, reason: str, answer: Answer | None = None, proposal=None) -> AgentOutcome:
        return AgentOutcome(
            diagnosis=answer.diagnosis if answer else None,
            category=answer.category if answer else None,
            confidence=answer.confidence if answer else None,
            proposal=proposal,
            rejected=tuple(self.rejected),
            stop_reason=reason,
            usage=self.trace.trace.usage.model_copy(),
        )

    def _decision(self, outcome: AgentOutcome) -> dict:
        return {
            "stop_reason": outcome.stop_reason,
            "diagnosis": outcome.diagnosis,
            "category": outcome.category,
            "confidence": outcome.confidence,
            "proposal": outcome.proposal.id if outcome.proposal else None,
            "rejected": [r.reason for r in outcome.rejected],
            "redactions": self.redactions,
        }
