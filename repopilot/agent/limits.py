"""Limits of one agent run: configuration with a docstring per field (DESIGN.md defaults).

Every limit ends the run cleanly with a stop reason in the outcome and the trace; none raises.
Override from the environment with `Limits.from_env()` (REPOPILOT_MAX_STEPS, REPOPILOT_MAX_TOKENS,
REPOPILOT_WALL_CLOCK_S) or by passing fields directly.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, fields


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

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> Limits:
        """Defaults overridden by REPOPILOT_MAX_STEPS / _MAX_TOKENS / _WALL_CLOCK_S.

        A value that is not a positive number raises ValueError naming the variable."""
        env = dict(os.environ if env is None else env)
        names = {
            "max_steps": "REPOPILOT_MAX_STEPS",
            "max_tokens": "REPOPILOT_MAX_TOKENS",
            "wall_clock_s": "REPOPILOT_WALL_CLOCK_S",
        }
        types = {f.name: f.type for f in fields(cls)}
        values: dict[str, float | int] = {}
        for field, var in names.items():
            raw = env.get(var, "").strip()
            if not raw:
                continue
            try:
                value = float(raw) if types[field] == "float" else int(raw)
            except ValueError:
                raise ValueError(f"{var}={raw!r}: not a number") from None
            if value <= 0:
                raise ValueError(f"{var}={raw!r}: must be positive")
            values[field] = value
        return cls(**values)  # type: ignore[arg-type]
