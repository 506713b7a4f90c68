"""Markdown primitives that keep untrusted text inert in a GitHub comment.

Three shapes, chosen by where the text goes:
- `text()` / `prose()`: every ASCII punctuation character is backslash-escaped (CommonMark allows
  it for all of them), so no link, image, HTML, emphasis, heading, list or table can form; `@name`
  becomes `＠name` (U+FF20, not a mention for GitHub), `#123` becomes `＃123` and `GH-123` becomes
  `GH‑123` (U+2011 non-breaking hyphen; GitHub autolinks `GH-N` like `#N`): no cross-reference or
  backlink in someone else's issue. Zero-width tricks and HTML comments are not usable here:
  other stages strip those, and GitHub drops HTML comments. `prose(code=True)` keeps the
  `single-backtick` spans of hints and diagnoses as code spans, built by `code_span`.
- `code_span()`: one line shown verbatim, delimited by a backtick run longer than any inside it.
- `fence()`: a block shown verbatim, fenced by a backtick run longer than any inside it, so no
  line of the content can close it early. Mentions and references are not processed in code.
"""

from __future__ import annotations

import re
import string

MAX_BODY = 65_536
"""GitHub's limit on a comment body, in characters."""

_ESCAPE = str.maketrans({c: "\\" + c for c in string.punctuation})
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_MENTION = re.compile(r"@(?=[A-Za-z0-9_])")
_REFERENCE = re.compile(r"#(?=[0-9])")
_GH_REFERENCE = re.compile(r"(?<![A-Za-z0-9_])(gh)-(?=[0-9])", re.IGNORECASE)
_BACKTICKS = re.compile(r"`+")
_CODE = re.compile(r"`([^`\n]+)`")


def body_size(text: str) -> int:
    """A size that is never below what GitHub counts: UTF-16 units (astral characters count
    twice), each LF counted as CRLF."""
    return len(text.encode("utf-16-le")) // 2 + text.count("\n")


def clip(text: str, limit: int) -> str:
    """At most `limit` characters; a cut is marked with an ellipsis."""
    return text if len(text) <= limit else text[: max(0, limit - 1)] + "…"


def _inline(line: str) -> str:
    line = _MENTION.sub("\uff20", line)
    line = _REFERENCE.sub("\uff03", line)
    line = _GH_REFERENCE.sub("\\1\u2011", line)
    return line.translate(_ESCAPE)


def text(value: str, limit: int = 300) -> str:
    """One line of untrusted text, inert (see module docstring), whitespace collapsed."""
    flat = " ".join(_CONTROL.sub(" ", value).split())
    return _inline(clip(flat, limit))


def prose(value: str, limit: int = 4000, code: bool = False) -> str:
    """Several lines of untrusted text, inert; paragraphs kept, indentation dropped (so nothing
    becomes an indented code block). With `code`, `single-backtick` spans stay code spans (shown
    verbatim by `code_span`), as pattern hints and model diagnoses use them."""
    lines = _CONTROL.sub(" ", clip(value.replace("\r\n", "\n"), limit).replace("\r", "\n"))
    out: list[str] = []
    for raw in lines.split("\n"):
        line = " ".join(raw.split())
        if line or (out and out[-1]):
            out.append(_rich(line) if code else _inline(line))
    return "\n".join(out).strip("\n")


def _rich(line: str) -> str:
    parts = _CODE.split(line)  # even indexes: text, odd: the inside of a code span
    return "".join(code_span(p, len(p)) if i % 2 else _inline(p) for i, p in enumerate(parts))


def code_span(value: str, limit: int = 300) -> str:
    """One line shown verbatim in a code span (newlines become spaces, as Markdown would)."""
    flat = clip(_CONTROL.sub(" ", value.replace("\r", " ").replace("\n", " ")), limit)
    longest = max((len(m.group(0)) for m in _BACKTICKS.finditer(flat)), default=0)
    ticks = "`" * (longest + 1)
    # Always pad: CommonMark strips exactly one space from each side when both are present.
    return f"{ticks} {flat} {ticks}"


def cell(value: str, limit: int = 120) -> str:
    """One GFM table cell of untrusted text: a code span (verbatim, so nothing links, mentions
    or renders) whose pipes are escaped, since the table splits cells before code spans."""
    if not value.strip():
        return ""
    return code_span(value, limit).replace("|", "\\|")


def fence_ticks(content: str) -> str:
    longest = max((len(m.group(0)) for m in _BACKTICKS.finditer(content)), default=0)
    return "`" * max(3, longest + 1)


def fence(content: str, info: str = "") -> str:
    """A fenced code block holding `content` verbatim (a final newline is added if missing)."""
    ticks = fence_ticks(content)
    if not content.endswith(("\n", "\r")):
        content += "\n"
    return f"{ticks}{info}\n{content}{ticks}\n"


def link(label: str, url: str) -> str:
    """`[label](<url>)` for a URL we built; angle brackets keep spaces or parentheses in it
    from ending the destination early, and `<`/`>` are percent-encoded."""
    safe = url.replace("<", "%3C").replace(">", "%3E").replace("\n", "").replace("\r", "")
    return f"[{label}](<{safe}>)"
