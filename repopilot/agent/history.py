"""Keep the conversation bounded: the goal and evidence stay, old observations shrink to a marker.

The first two messages (system prompt, goal with the evidence window) are never touched. Tool
exchanges older than the latest `keep` assistant turns keep their structure (every tool call still
has its answer, as providers require) but lose their bulk.
"""

from __future__ import annotations

from repopilot.llm.base import Message


def clip(text: str, limit: int) -> str:
    """`text` cut to `limit` characters with a marker saying how much was left out."""
    if len(text) <= limit:
        return text
    return text[:limit] + f"\n[... {len(text) - limit} characters cut; ask for a narrower range]"


def compact(messages: list[Message], keep: int, keep_chars: int) -> list[Message]:
    """A copy of `messages` whose observations before the last `keep` assistant turns are shrunk
    (those of at most `keep_chars` characters stay: the marker would be no shorter)."""
    turns = [i for i, m in enumerate(messages) if m.role == "assistant"]
    if len(turns) <= keep:
        return list(messages)
    cutoff = turns[-keep] if keep > 0 else len(messages)
    out = []
    for i, m in enumerate(messages):
        if 2 <= i < cutoff and m.role in ("tool", "user") and len(m.content) > keep_chars:
            marker = (
                f"[older observation ({len(m.content)} characters) dropped to keep the context "
                "small; its essentials should be in your later reasoning]"
            )
            m = m.model_copy(update={"content": marker})
        out.append(m)
    return out
