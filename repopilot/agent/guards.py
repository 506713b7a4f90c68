"""The agent's guards: every limit of one run, checked in one place against one clock.

`Guards` holds the run's `Limits`, the injected clock and a fresh `RunState`, so an Agent can run
again with nothing left over. The loop asks it before each model call (wall clock, token budget,
tool steps), for each tool call (calls per reply, repeats, the output budget), after each unusable
reply (format errors) and after each rejected diff. A limit that ends the run raises
`LimitReached` with its stop reason; a guard that only warns returns the text the model gets
instead of a tool result.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from pydantic import BaseModel

from repopilot.agent.history import clip, compact
from repopilot.agent.limits import Limits
from repopilot.agent.outcome import LimitReached
from repopilot.llm.base import ChatResponse, Message
from repopilot.run_records import Rejection, Usage

Clock = Callable[[], float]
"""Seconds on a monotonic scale: `time.monotonic` in production, a test's own clock in tests."""

NOT_RUN = "not run: too many tool calls in one reply; ask again for what you still need"
_CHARS_PER_TOKEN = 4  # estimate when a provider reports no usage, so the budget still holds


@dataclass
class RunState:
    """What one run has used so far; a new one per run."""

    started: float
    """Clock reading when the run started (the wall-clock limit counts from here)."""
    usage: Usage
    """LLM calls, tool calls and tokens (the trace's usage record, updated in place)."""
    steps: int = 0
    """Model calls with tools so far."""
    format_errors: int = 0
    """Unusable replies in a row (reset by a usable tool call)."""
    calls: Counter[str] = field(default_factory=Counter)
    """How often each distinct tool call (name and arguments) was asked for."""
    rejected: list[Rejection] = field(default_factory=list)
    """Diffs refused so far, in order."""
    output_bytes: int = 0
    """Bytes of tool output so far."""
    redactions: int = 0
    """Secrets redacted from tool outputs so far."""


class Guards:
    """The limits of one run and what the run has used; `clock` times durations too."""

    def __init__(self, limits: Limits, clock: Clock, usage: Usage):
        self.limits, self.clock = limits, clock
        self.state = RunState(started=clock(), usage=usage)

    # ------------------------------------------------------------ before a model call
    def before_model_call(self) -> bool:
        """Raise LimitReached past the wall clock or the token budget; True when the tool steps
        are used up and the next call is the one final request without tools."""
        s, lim = self.state, self.limits
        elapsed = self.clock() - s.started
        if elapsed >= lim.wall_clock_s:
            raise LimitReached("wall-clock", f"{elapsed:.0f} s >= {lim.wall_clock_s:.0f} s")
        used = s.usage.prompt_tokens + s.usage.completion_tokens
        if used >= lim.max_tokens:
            raise LimitReached("token-budget", f"{used} tokens >= {lim.max_tokens}")
        if s.steps >= lim.max_steps:
            return True
        s.steps += 1
        return False

    def context(self, messages: list[Message]) -> list[Message]:
        """The conversation as sent: older observations shrunk (the goal always kept)."""
        return compact(messages, self.limits.keep_exchanges, self.limits.keep_chars)

    def count_model_call(self, response: ChatResponse | None, prompt_chars: int) -> None:
        """Add a call and its tokens to the usage (estimated when the provider reports none)."""
        usage = self.state.usage
        usage.llm_calls += 1
        if response is None:
            return
        prompt, completion = response.usage.prompt_tokens, response.usage.completion_tokens
        if not prompt and not completion:
            prompt = prompt_chars // _CHARS_PER_TOKEN
            completion = len(response.text) // _CHARS_PER_TOKEN
        usage.prompt_tokens += prompt
        usage.completion_tokens += completion

    # ------------------------------------------------------------ replies and tool calls
    def unusable_reply(self, detail: str) -> None:
        """One more unusable reply in a row; LimitReached when there were too many."""
        self.state.format_errors += 1
        if self.state.format_errors >= self.limits.max_format_errors:
            raise LimitReached("format-errors", f"{self.state.format_errors} in a row: {detail}")

    def usable_call(self) -> None:
        self.state.format_errors = 0

    def may_run(self, index: int) -> bool:
        """Whether the `index`-th call of one reply is run (the rest are answered NOT_RUN)."""
        return index < self.limits.max_calls_per_reply

    def repeated(self, name: str, args: BaseModel) -> str | None:
        """A reminder for a call asked for before (not run again), or None for a new call;
        LimitReached when the same call comes max_repeats times."""
        key = name + json.dumps(args.model_dump(), sort_keys=True)
        self.state.calls[key] += 1
        seen = self.state.calls[key]
        if seen >= self.limits.max_repeats:
            raise LimitReached("repeated-call", f"{name} called {seen} times alike")
        if seen > 1:
            return f"You already called {name} with these arguments; the result is above."
        return None

    def output_spent(self) -> str | None:
        """The error a tool call gets once the run's output budget is spent, else None."""
        if self.state.output_bytes < self.limits.run_output_bytes:
            return None
        return f"the per-run output budget ({self.limits.run_output_bytes // 1024} KiB) is spent; answer now"

    def count_output(self, raw: str, redactions: int) -> None:
        self.state.output_bytes += len(raw.encode("utf-8", "replace"))
        self.state.redactions += redactions

    def observation(self, text: str) -> str:
        """A tool output as the model sees it: cut to max_observation_chars with a marker."""
        return clip(text, self.limits.max_observation_chars)

    # ------------------------------------------------------------ proposals
    def rejected(self, rejection: Rejection) -> bool:
        """Record a refused diff; True while the model may propose once more."""
        self.state.rejected.append(rejection)
        return len(self.state.rejected) < self.limits.max_proposals

    def elapsed_ms(self, since: float) -> float:
        """Milliseconds since the clock reading `since` (a step's duration in the trace)."""
        return (self.clock() - since) * 1000
