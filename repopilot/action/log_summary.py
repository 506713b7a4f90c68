"""The few lines the Action prints to its own log: verdicts, LLM calls and tokens, the comment.

Job names, step names and titles are attacker text (fork workflows): they are redacted like log
text, kept on one line, and never start a line (each job's line starts with `- `), so none can be
read by the runner as a workflow command (`::add-mask::`, `::stop-commands::` ...).
"""

from __future__ import annotations

from repopilot.action.llm_status import LLMStatus
from repopilot.action.result_file import RunResult
from repopilot.safety.redact import clean_for_model


def _plain(text: str, limit: int = 120) -> str:
    flat = " ".join(clean_for_model(text).text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def plural(n: int, word: str) -> str:
    """`1 call`, `2 calls`, `1,234 tokens`."""
    return f"{n:,} {word}{'' if n == 1 else 's'}"


def llm_line(llm: LLMStatus) -> str:
    """One line: what the LLM did in this run."""
    if llm.skipped:
        return f"LLM: skipped ({_plain(llm.skipped, 240)}); the pattern verdicts stand"
    if llm.provider == "none":
        return "LLM: not configured (llm: none); patterns only"
    if not llm.asked:
        return f"LLM: {llm.provider} configured, not needed (every failure decided by a pattern)"
    u = llm.usage
    model = f" {llm.model}" if llm.model else ""
    return (
        f"LLM: {llm.provider}{model}: {plural(llm.asked, 'job')} asked, {llm.answered} answered, "
        f"{plural(u.llm_calls, 'call')}, {plural(u.prompt_tokens + u.completion_tokens, 'token')} "
        f"({u.prompt_tokens:,} prompt + {u.completion_tokens:,} completion)"
    )


def run_summary(found: RunResult, comment: str) -> str:
    """The summary block; `comment` is the comment URL or why nothing was posted."""
    n = len(found.jobs)
    lines = [f"RepoPilot: run {found.run_id}: {n} failed job{'s' if n != 1 else ''}"]
    for job in found.jobs:
        v = job.result.verdict
        how = f"pattern {v.pattern_id}" if v.decided_by == "pattern" and v.pattern_id else None
        guess = f"best guess, pattern {v.pattern_id}" if v.pattern_id else "not decided"
        how = how or ("the LLM" if v.decided_by == "llm" else guess)
        lines.append(f"  - {_plain(job.name, 80)}: {v.category} ({how}) - {_plain(v.title)}")
    lines.append(f"  {llm_line(found.llm)}")
    lines.append(f"  comment: {comment}")
    return "\n".join(lines)
