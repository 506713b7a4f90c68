"""`repopilot triage --format text`: everything `classify` shows (pattern, step, the evidence
with its context block), then what triage added: the origin, whether the LLM was asked and, when
it was not, why (so "escalated: no" is never a dead end), the diagnosis, the proposal."""

from __future__ import annotations

from repopilot.commands.textout import paint, verdict_lines
from repopilot.records import INFRA_CATEGORIES, EscalateMode
from repopilot.run_records import TriageResult

_ELSEWHERE = {"base_branch", "flaky", "infra"}


def not_escalated(r: TriageResult, mode: EscalateMode, llm_configured: bool) -> str:
    """Why the LLM was not asked about this result, in one clause."""
    v = r.verdict
    if not v.failed:
        return "no failure found"
    if v.category in INFRA_CATEGORIES or v.kind == "infra":
        return "infrastructure failures never go to the LLM (advice only: re-run)"
    if r.origin is not None and r.origin.origin in _ELSEWHERE and mode == "auto":
        return f"its origin is {r.origin.origin}, not this change"
    wanted = v.category == "unknown" or v.ambiguous or (mode == "fixable" and v.kind == "code")
    if wanted and not llm_configured:
        return (
            "no LLM configured (REPOPILOT_LLM=none); set REPOPILOT_LLM=openai or ollama to ask one"
        )
    if v.decided_by == "pattern":
        more = "" if mode == "fixable" else "; --escalate fixable also asks for a fix"
        return f"a pattern decided it{more}"
    return "nothing for the LLM to add"


def render_text(
    r: TriageResult,
    colour: bool = False,
    mode: EscalateMode = "auto",
    llm_configured: bool = False,
) -> str:
    v = r.verdict
    lines = verdict_lines(v, colour, paint(v.source, "bold", colour), gaps=True)
    if r.origin:
        lines.append(f"  origin:     {r.origin.origin} ({r.origin.reason})")
    if r.escalated:
        lines.append("  escalated:  yes")
    else:
        lines.append(f"  escalated:  no ({not_escalated(r, mode, llm_configured)})")
    if r.diagnosis:
        lines.append(f"  diagnosis:  {r.diagnosis}")
    if r.proposal:
        files = ", ".join(r.proposal.files)
        lines.append(
            f"  proposal:   {r.proposal.id} ({files}); approve with /repopilot apply {r.proposal.id}"
        )
    for rej in r.rejected:
        lines.append(f"  rejected:   {rej.reason}: {rej.detail}")
    if v.hint and not r.diagnosis:
        lines.append(f"  hint:       {v.hint}")
    if r.trace:
        lines.append(f"  trace:      {r.trace}")
    return "\n".join(lines) + "\n"
