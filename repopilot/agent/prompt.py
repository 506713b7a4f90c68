"""Prompts are versioned data files under repopilot/agent/prompts/ (`system.v2.md`, `goal.v2.md`).

A change in wording gets a new version file, so the trace (which records the version of every call)
says which prompt produced which answer, and `repopilot trace replay` can check the change.
"""

from __future__ import annotations

from importlib import resources

from repopilot.records import CATEGORIES, Verdict
from repopilot.safety.hygiene import fence
from repopilot.safety.redact import clean_for_model

PROMPT_VERSION = "v3"  # v2: the goal lists ranked candidate lines (issue 27); v3: says whether
# the tools have a checkout (a fork PR's code is never checked out in the privileged job)
NO_CHECKOUT = (
    "none (a fork's code is never checked out here): the file and git tools find nothing, so "
    "diagnose from the log and propose no diff"
)
MAX_CANDIDATES = 3  # the candidates the goal lists (the comment's guess shows as many)


def load(name: str, version: str = PROMPT_VERSION) -> str:
    """The text of prompts/<name>.<version>.md, or of the latest earlier version of that prompt
    when this version did not change it (up to PROMPT_VERSION; `system` is the same in v2 and v3);
    FileNotFoundError names a missing version."""
    folder = resources.files("repopilot.agent").joinpath("prompts")
    n = _number(version)
    for k in range(n, 0, -1) if 0 < n <= _number(PROMPT_VERSION) else (n,):
        ref = folder.joinpath(f"{name}.v{k}.md")
        if ref.is_file():
            return ref.read_text(encoding="utf-8")
    raise FileNotFoundError(f"prompt {name} version {version} not found")


def _number(version: str) -> int:
    return int(version[1:]) if version[:1] == "v" and version[1:].isdigit() else -1


def system_prompt(version: str = PROMPT_VERSION) -> str:
    return load("system", version).format(categories=", ".join(CATEGORIES))


def render_goal(
    verdict: Verdict,
    window: str,
    *,
    base_known: bool,
    checkout: bool = True,
    version: str = PROMPT_VERSION,
) -> str:
    """The first user message: the verdict, the failing step, the verdict's ranked candidate
    lines, whether the tools have a checkout to read (v3) and the redacted, fenced log window
    (a v1 goal has no candidates)."""
    why = verdict.pattern_id or "no pattern decided"
    if verdict.ambiguous:
        why += ", marked ambiguous"
    fields = {
        "candidates": fence(clean_for_model(candidates(verdict)).text, "candidate lines"),
        "source": clean_for_model(verdict.source).text,
        "job": clean_for_model(verdict.job or "unknown").text,
        "step": clean_for_model(verdict.step or "unknown").text,
        "category": verdict.category,
        "why": why,
        "base": "yes" if base_known else "no",
        "checkout": "yes" if checkout else NO_CHECKOUT,
        "window": fence(clean_for_model(window).text, "log excerpt"),
    }
    return load("goal", version).format(**fields)


def candidates(verdict: Verdict) -> str:
    """`1. line N: text` for the first MAX_CANDIDATES evidence lines, or `(none)`."""
    rows = [
        f"{i}. line {e.line}: {e.text}" for i, e in enumerate(verdict.evidence[:MAX_CANDIDATES], 1)
    ]
    return "\n".join(rows) if rows else "(none)"
