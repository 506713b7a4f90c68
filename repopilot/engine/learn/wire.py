"""A learned pattern's file data (the library's YAML wire form, docs/CONTRACTS.md Contract 6):
a new pattern from one line, or an existing learned pattern widened by a further example; and the
pattern as the library loads it.
"""

from __future__ import annotations

import hashlib
import re
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from repopilot.engine.learn.tokens import Piece
from repopilot.engine.library.layers import LEARNED
from repopilot.engine.library.loader import MatchExample, Pattern, load_file
from repopilot.errors import PatternError

PRIORITY = 100  # a maintainer said this line is the cause: above every built-in pattern
CONFIDENCE = 0.9
MAX_LINE = 400  # a longer line is a payload, not a tool's message: only its start is learned
MAX_EXAMPLES = 8  # match examples kept on a widened pattern (the first and the newest)
MAX_SOURCES = 6  # `learned from a.log:3, b.log:9, ...` entries kept (the first and the newest)


def new_data(
    *,
    pattern_id: str | None,
    category: str,
    source: str,
    regex: str,
    safe: str,
    ps: list[Piece],
    near: Sequence[str],
    title: str | None,
    hint: str | None,
) -> dict[str, Any]:
    """The file data of a pattern learned from the (redacted) line `safe`."""
    out: dict[str, Any] = {
        "id": pattern_id or _id(category, ps, regex),
        "category": category,
        "source": f"{LEARNED}{source}",
        "regex": regex,
        "priority": PRIORITY,
        "confidence": CONFIDENCE,
        "title": title or _title(ps),
    }
    if hint:
        out["hint"] = hint
    out["examples"] = {"match": [_example(regex, safe)], "no_match": _no_match(regex, near, [])}
    return {"ecosystem": "learned", "patterns": [out]}


def widened_data(
    q: Pattern, regex: str, safe: str, source: str, near: Sequence[str]
) -> dict[str, Any]:
    """`q` (a learned pattern) with `regex` and the line `safe` as one more example: the same
    id, title and hint, its examples re-read by the wider regex, `source:` naming both logs."""
    lines = [m.line if isinstance(m, MatchExample) else m for m in q.spec.examples.match]
    lines = list(dict.fromkeys([*lines, safe]))
    if len(lines) > MAX_EXAMPLES:
        lines = [lines[0], *lines[-(MAX_EXAMPLES - 1) :]]
    old = (q.spec.source or LEARNED)[len(LEARNED) :].split(", ")
    sources = list(dict.fromkeys([*old, source]))
    if len(sources) > MAX_SOURCES:
        sources = [sources[0], *sources[-(MAX_SOURCES - 1) :]]
    out: dict[str, Any] = {
        "id": q.id,
        "category": q.spec.category,
        "source": LEARNED + ", ".join(sources),
        "regex": regex,
        "priority": max(q.spec.priority, PRIORITY),
        "confidence": q.spec.confidence,
        "title": q.spec.title,
    }
    if q.spec.hint:
        out["hint"] = q.spec.hint
    out["examples"] = {
        "match": [_example(regex, x) for x in lines],
        "no_match": _no_match(regex, near, q.spec.examples.no_match),
    }
    return {"ecosystem": "learned", "patterns": [out]}


def _example(regex: str, line: str) -> Any:
    m = re.search(regex, line)
    caps = {k: v for k, v in (m.groupdict() if m else {}).items() if v is not None}
    return {"line": line, "captures": caps} if caps else line


def _no_match(regex: str, near: Sequence[str], old: Sequence[str]) -> list[str]:
    compiled = re.compile(regex)
    short = [x for x in [*old, *near] if len(x) <= MAX_LINE]
    out = [x for x in dict.fromkeys(short) if not compiled.search(x)][:5]
    return out or ["learned pattern: a line it must not take"]


def _id(category: str, ps: list[Piece], regex: str) -> str:
    words = [p.text.lower() for p in ps if p.kind == "fixed" and any(c.isalpha() for c in p.text)]
    slug = re.sub(r"[^a-z0-9]+", "-", "-".join(words[:3])).strip("-")[:40] or "line"
    digest = hashlib.sha256(regex.encode()).hexdigest()[:6]
    return f"learned.{category.replace('_', '-')}.{slug}-{digest}"


def _title(ps: list[Piece]) -> str:
    parts = []
    for p in ps:
        if p.kind == "class":
            named = p.capture and f"(?P<{p.capture}>" in p.regex
            parts.append(f"{{{p.capture}}}" if named else "…")
        else:
            parts.append(" " if p.kind == "space" else p.text)
    title = "".join(parts).strip()
    return title if len(title) <= 100 else title[:99] + "…"


def load(data: dict[str, Any]) -> Pattern:
    """The pattern as the library loads it (schema, compile, prefilter literals). A regex with
    no selective literal gets its own unanchored form as `prefilter_regex` (RE2)."""
    import yaml

    spec = data["patterns"][0]
    with tempfile.TemporaryDirectory(prefix="repopilot-learn-") as tmp:
        path = Path(tmp) / "learned.yaml"
        for attempt in range(2):
            path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), "utf-8")
            try:
                return load_file(path)[0]
            except PatternError as exc:
                if attempt or "no selective literal" not in str(exc):
                    raise
                spec["prefilter_regex"] = _unanchored(spec["regex"])
    raise AssertionError("unreachable")  # pragma: no cover


def _unanchored(regex: str) -> str:
    """The regex as a search needle: no anchors, no leading whitespace class (RE2's `\\s` is
    not Python's: a vertical tab), no named groups."""
    out = regex[1:] if regex.startswith("^") else regex
    out = out[3:] if out.startswith("\\s+") else out
    out = out[:-1] if out.endswith("$") and not out.endswith("\\$") else out
    return _unicode(re.sub(r"\(\?P<\w+>", "(", out))


# RE2's `\s`, `\w`, `\d` are ASCII, Python's are Unicode: the needle says what Python means
# (or wider: it only selects lines for the regex to confirm).
_WIDER = {"s": "^\\pL\\pN", "w": "\\pL\\pN_", "d": "\\pN"}


def _unicode(regex: str) -> str:
    out: list[str] = []
    i, in_class = 0, False
    while i < len(regex):
        c = regex[i]
        if c == "\\" and i + 1 < len(regex):
            k = regex[i + 1]
            if k in _WIDER and not (in_class and k == "s"):
                out.append(_WIDER[k] if in_class else f"[{_WIDER[k]}]")
            else:
                out.append(regex[i : i + 2])
            i += 2
            continue
        in_class = (c == "[") if not in_class else c != "]"
        out.append(c)
        i += 1
    return "".join(out)


def to_yaml(data: dict[str, Any]) -> str:
    import yaml

    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)
