"""Prompts are versioned data files under repopilot/agent/prompts/ (`system.v1.md`, `goal.v1.md`).

A change in wording gets a new version file, so the trace (which records the version of every call)
says which prompt produced which answer, and `repopilot trace replay` can check the change.
"""

from __future__ import annotations

from importlib import resources

from repopilot.records import CATEGORIES, Verdict
from repopilot.safety.hygiene import fence
from repopilot.safety.redact import clean_for_model

PROMPT_VERSION = "v1"


def load(name: str, version: str = PROMPT_VERSION) -> str:
    """The text of prompts/<name>.<version>.md; FileNotFoundError names a missing version."""
    ref = resources.files("repopilot.agent").joinpath("prompts", f"{name}.{version}.md")
    if not ref.is_file():
        raise FileNotFoundError(f"prompt {name} version {version} not found")
    return ref.read_text(encoding="utf-8")


def system_prompt(version: str = PROMPT_VERSION) -> str:
    return load("system", version).format(categories=", ".join(CATEGORIES))


def render_goal(
    verdict: Verdict, window: str, *, base_known: bool, version: str = PROMPT_VERSION
) -> str:
    """The first user message: the verdict, the failing step and the redacted, fenced log window."""
    why = verdict.pattern_id or "no pattern decided"
    if verdict.ambiguous:
        why += ", marked ambiguous"
    fields = {
        "source": clean_for_model(verdict.source).text,
        "job": clean_for_model(verdict.job or "unknown").text,
        "step": clean_for_model(verdict.step or "unknown").text,
        "category": verdict.category,
        "why": why,
        "base": "yes" if base_known else "no",
        "window": fence(clean_for_model(window).text, "log excerpt"),
    }
    return load("goal", version).format(**fields)
