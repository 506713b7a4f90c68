"""Shared bits of the CLI's text output: how a verdict's decision reads, and colour.

Colour only on a terminal and never when `NO_COLOR` is set to anything non-empty (no-color.org's
convention, read into `Settings.no_color`); pipes, files and CI logs get plain text.
"""

from __future__ import annotations

import sys
from typing import TextIO

from repopilot.records import INFRA_CATEGORIES, Verdict

_CODES = {"bold": "1", "red": "31", "green": "32", "yellow": "33", "dim": "2"}


def use_colour(stream: TextIO | None = None, no_color: bool = False) -> bool:
    stream = sys.stdout if stream is None else stream
    if no_color:
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def paint(text: str, style: str, on: bool) -> str:
    return f"\x1b[{_CODES[style]}m{text}\x1b[0m" if on and text else text


def category_style(category: str) -> str:
    if category == "no_failure":
        return "green"
    if category == "unknown" or category in INFRA_CATEGORIES:
        return "yellow"
    return "red"


def decision(v: Verdict) -> str:
    """`(pattern python.pytest.failed-test, confidence 0.93)`, `(diagnosed by the LLM, ...)`,
    `(no failure found in the log)`, `(no pattern matched)`: never "decided by none"."""
    if v.decided_by == "pattern" and v.pattern_id:
        return f"(pattern {v.pattern_id}, confidence {v.confidence:.2f})"
    if v.decided_by == "llm":
        return f"(diagnosed by the LLM, confidence {v.confidence:.2f})"
    if v.category == "no_failure":
        return "(no failure found in the log)"
    if v.pattern_id:  # issue 27: matched, but not sure enough to decide
        return f"(best guess: pattern {v.pattern_id}, confidence {v.confidence:.2f}, not decided)"
    return "(no pattern matched)"


def category_line(v: Verdict, on: bool) -> str:
    """The `category:` value: the category (coloured on a terminal) and how it was decided."""
    return f"{paint(v.category, category_style(v.category), on)} {decision(v)}"


def verdict_lines(v: Verdict, on: bool, source: str, gaps: bool = False) -> list[str]:
    """What `classify` and `triage` both show of a verdict: its source line, category, pattern,
    title, step, the key line and its context block (`gaps`: mark lines left out with ⋮)."""
    lines = [source, f"  category:   {category_line(v, on)}"]
    if v.pattern_id:
        lines.append(f"  pattern:    {v.pattern_id}")
    lines.append(f"  title:      {v.title}")
    if v.step:
        lines.append(f"  step:       {v.step}")
    if not v.evidence:
        return lines
    first = v.evidence[0]
    lines.append(f"  evidence:   line {first.line}: {first.text}")
    shown = v.context or v.evidence
    width = len(str(max(e.line for e in shown)))
    lines.append("  context:")
    prev = None
    for e in shown:
        if gaps and prev is not None and e.line > prev + 1:
            lines.append(f"     {'⋮':>{width}}")  # lines left out, as in the PR comment
        mark = ">" if e.line == first.line else " "
        lines.append(f"   {mark} {e.line:>{width}} | {e.text}")
        prev = e.line
    return lines
