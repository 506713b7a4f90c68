"""Limits of one agent run: every number the loop, its guards and its tools obey, one docstring
per field (docs/CONTRACTS.md defaults). `repopilot.agent.guards` checks them against one clock.

A run limit ends the run cleanly with a stop reason in the outcome and the trace; none raises.
Per-call limits (bytes, lines, seconds of one tool call) cut the output with a marker instead.
The entry points override the defaults with `Limits.configured(settings.agent)` (REPOPILOT_MAX_STEPS,
REPOPILOT_MAX_TOKENS, REPOPILOT_WALL_CLOCK_S, read and checked in repopilot/settings.py); tests and
library callers pass fields directly.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from repopilot.settings import AgentSettings


@dataclass(frozen=True)
class Limits:
    max_steps: int = 12
    """LLM calls with tools before the loop asks once, without tools, for a final answer."""

    max_tokens: int = 60_000
    """Prompt + completion tokens over the whole run; reaching it stops the run ('token-budget')."""

    wall_clock_s: float = 300.0
    """Seconds since the run started; checked before every LLM call ('wall-clock')."""

    max_format_errors: int = 3
    """Consecutive replies the loop could not use (unknown tool, bad JSON, invalid arguments,
    unparsable text); the next one stops the run ('format-errors')."""

    max_repeats: int = 3
    """The same tool call (name and arguments) this many times stops the run ('repeated-call');
    the one before is answered with a reminder instead of being executed again."""

    max_calls_per_reply: int = 5
    """Tool calls run from one reply; the rest are answered 'not run' (each call gets an answer)."""

    max_proposals: int = 2
    """Diffs validated per run: a rejected one goes back to the model once with the reason."""

    max_observation_chars: int = 12_000
    """An observation longer than this is cut with a marker before the model sees it."""

    keep_exchanges: int = 4
    """The latest assistant turns whose observations stay whole; older ones shrink to a marker
    so the context stays bounded (the goal and the evidence are always kept)."""

    keep_chars: int = 300
    """An older observation (see keep_exchanges) at most this long stays whole: a short answer
    costs less than the marker that would replace it."""

    run_output_bytes: int = 1024 * 1024
    """Bytes of tool output per run; after that every tool call is answered that the budget is
    spent (the model should answer with what it has)."""

    read_bytes: int = 64 * 1024
    """Bytes of one tool output (a file read, a diff, a search); more is cut with a marker that
    says how to read on."""

    search_deadline_s: float = 10.0
    """Seconds one `search_code` call may walk the checkout before it returns what it found."""

    search_file_timeout_s: float = 0.5
    """Seconds the model's regex may spend on one file in `search_code` (a slow pattern is an
    error the model sees, not a hung run)."""

    search_matches: int = 50
    """Matching lines one `search_code` call returns."""

    log_lines: int = 400
    """Lines of the job log one `get_log` call returns (without a range: the last ones)."""

    max_diagnosis_chars: int = 4000
    """Characters of the model's diagnosis kept; it is printed and posted, so it is bounded."""

    @classmethod
    def configured(cls, agent: AgentSettings) -> Limits:
        """The defaults, with what the settings override (a None there keeps the default)."""
        limits = cls()
        if agent.max_steps is not None:
            limits = replace(limits, max_steps=agent.max_steps)
        if agent.max_tokens is not None:
            limits = replace(limits, max_tokens=agent.max_tokens)
        if agent.wall_clock_s is not None:
            limits = replace(limits, wall_clock_s=agent.wall_clock_s)
        return limits
