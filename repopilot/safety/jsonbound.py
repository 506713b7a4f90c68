"""Bounds on model-written JSON, checked BEFORE any parser sees it (docs/THREAT_MODEL.md §17).

Python's `json` recurses once per `[`/`{`: 1,500 brackets raise `RecursionError` (or worse, parse
at 900 and blow up later in pydantic, `json.dumps` or a deep copy), and where exactly it breaks
depends on how deep the caller's stack already is. So every place that parses model output first
asks `json_limit` (one linear scan, strings skipped whole) and treats a refusal like invalid JSON:
a deterministic answer, the same on every run and for every provider. `depth_of` does the same
for values a provider SDK already parsed (Ollama hands over a mapping).
"""

from __future__ import annotations

import json
import re
from typing import Any

MAX_JSON_DEPTH = 32
"""Deepest nesting accepted: a tool's arguments or an answer object need 2-3 levels."""
MAX_JSON_CHARS = 256_000
"""Longest JSON text accepted (a diff argument is capped far below this by the proposal policy)."""

# A double-quoted string (escapes included, possibly unterminated) or one bracket. Strings are
# matched whole so brackets inside them do not count; the alternation cannot backtrack.
_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"?|[\[\]{}]', re.DOTALL)


class JSONBoundError(ValueError):
    """JSON text (or a parsed value) beyond the depth or size bound; the message says which."""


def json_limit(
    text: str, max_depth: int = MAX_JSON_DEPTH, max_chars: int = MAX_JSON_CHARS
) -> str | None:
    """Why `text` must not be parsed (too long, nested too deeply), or None when it may be."""
    if len(text) > max_chars:
        return f"too long ({len(text)} characters, limit {max_chars})"
    depth = 0
    for token in _TOKENS.finditer(text):
        mark = token.group()[0]
        if mark in "[{":
            depth += 1
            if depth > max_depth:
                return f"nested too deeply (more than {max_depth} levels)"
        elif mark in "]}":
            depth = max(0, depth - 1)
    return None


def loads_bounded(
    text: str,
    *,
    strict: bool = True,
    max_depth: int = MAX_JSON_DEPTH,
    max_chars: int = MAX_JSON_CHARS,
) -> Any:
    """`json.loads(text)` after `json_limit`; JSONBoundError (a ValueError) when out of bounds."""
    why = json_limit(text, max_depth, max_chars)
    if why is not None:
        raise JSONBoundError(why)
    return json.loads(text, strict=strict)


def depth_of(value: Any, limit: int = MAX_JSON_DEPTH) -> int:
    """Nesting depth of an already-parsed value, counted without recursion; stops at limit + 1."""
    deepest = 0
    todo: list[tuple[Any, int]] = [(value, 1)]
    while todo:
        item, level = todo.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list | tuple):
            children = item
        else:
            continue
        deepest = max(deepest, level)
        if deepest > limit:
            return deepest
        todo.extend((child, level + 1) for child in children)
    return deepest
