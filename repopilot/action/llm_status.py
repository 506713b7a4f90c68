"""What the LLM did for one run: asked or not, why not, and its usage read from the job traces.

The Action never lets the LLM cost the deterministic verdict (docs/CONTRACTS.md Contract 3): a provider
that cannot be set up (no key, no SDK) or fails during the run leaves the pattern verdicts
standing, and `skipped` says why in one line, for the comment and for a `::warning::`.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict, Field

from repopilot.errors import TraceError
from repopilot.run_records import TriageResult, Usage
from repopilot.trace import load as load_trace

# Agent stop reasons that mean the model gave no usable answer (agent/loop.py, agent/limits.py).
_WHY = {
    "llm-unavailable": "the LLM provider could not be reached or refused the request",
    "format-errors": "the model's answers were malformed",
    "wall-clock": "the LLM run hit its wall-clock limit",
    "token-budget": "the LLM run hit its token limit",
    "max-steps": "the LLM run hit its step limit without an answer",
    "repeated-call": "the model repeated the same tool call",
}


class LLMStatus(BaseModel):
    """`provider` as configured; `skipped` is one line when the LLM was wanted but not used."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    provider: str = "none"
    model: str | None = None
    asked: int = 0  # jobs escalated to the LLM
    answered: int = 0  # of those, jobs the model diagnosed
    skipped: str | None = None
    usage: Usage = Field(default_factory=Usage)


def _failure(result: TriageResult) -> tuple[str | None, Usage, str | None]:
    """(why it gave no answer or None, usage, model) from the job's trace."""
    if not result.trace:
        return (None if result.diagnosis else "its trace is missing"), Usage(), None
    try:
        trace = load_trace(result.trace)
    except TraceError:
        return (None if result.diagnosis else "its trace is unreadable"), Usage(), None
    model = next((s.model for s in trace.steps if s.type == "llm_call" and s.model), None)
    if result.diagnosis:
        return None, trace.usage, model
    reason = trace.outcome or "error"
    errors = [s.error for s in trace.steps if s.type == "error" and s.error]
    why = _WHY.get(reason, f"the LLM run ended with `{reason}`")
    detail = errors[-1].split("\n", 1)[0][:160] if errors else ""
    return (f"{why} ({detail})" if detail else why), trace.usage, model


def llm_status(
    provider: str, setup_error: str | None, results: Sequence[TriageResult]
) -> LLMStatus:
    """Summarize the LLM's part in a run: `setup_error` is why the provider could not be made."""
    wanted = any(r.escalated for r in results)
    if setup_error:
        return LLMStatus(provider=provider, skipped=f"{provider}: {setup_error}")
    total = Usage()
    asked = answered = 0
    failures: list[str] = []
    model = None
    for r in results:
        if not r.escalated:
            continue
        asked += 1
        why, usage, used = _failure(r)
        model = model or used
        total = Usage(
            llm_calls=total.llm_calls + usage.llm_calls,
            tool_calls=total.tool_calls + usage.tool_calls,
            prompt_tokens=total.prompt_tokens + usage.prompt_tokens,
            completion_tokens=total.completion_tokens + usage.completion_tokens,
        )
        if why is None:
            answered += 1
        else:
            failures.append(why)
    skipped = None
    if wanted and failures:
        some = "" if len(failures) == asked else f" for {len(failures)} of {asked} jobs"
        skipped = f"{failures[0]}{some}"
    return LLMStatus(
        provider=provider,
        model=model,
        asked=asked,
        answered=answered,
        skipped=skipped,
        usage=total,
    )
