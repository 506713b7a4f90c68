"""Secret shapes that one regex over one line cannot see (SECURITY.md §4, §19), for `redact`.

- `::add-mask::VALUE`: the runner hides VALUE in every later line of the log it shows; RepoPilot
  does the same in every text it redacts. A value seen in any text is remembered for the rest of
  the process (a log is read in pieces: the line that registers a value and the line that prints
  it are rarely redacted together); `remember_masks` lets a log reader register values up front.
- A token wrapped across two lines (`ghp_abc...` at a line end, the rest on the next line, maybe
  behind a runner timestamp): both halves are redacted. A GitHub-token head that ends a line is
  redacted even when its tail is not in the same text.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable

MIN_MASK = 4
"""Shorter registered values are not masked: `::add-mask::a` would blank every `a`."""

_ADD_MASK = re.compile(r"::add-mask::[ \t]*(?P<v>[^\r\n]*)", re.IGNORECASE)
_REFERENCE = re.compile(r"\$\{\{.*|\$[A-Za-z_{].*|\*+")  # `$TOKEN`, `${{ secrets.X }}`, `***`

HEAD_MARK = "[REDACTED:github-token]"
# a head already redacted line by line still marks where a wrapped token's tail begins
_START = re.compile(r"gh[pousr]_|github_pat_|" + re.escape(HEAD_MARK))
_RUN = re.compile(r"[A-Za-z0-9_]*")
# A line break and what a display puts before the next line: a quote or context marker, a line
# number gutter (`9| `, ` 9 | `, `      9  `), the runner's timestamp.
_GAP = re.compile(
    r"\r?\n[ \t>]*(?:\d{1,9}(?:[ \t]*\|[ \t]?|[ \t]{2,}))?(?:\d{4}-\d\d-\d\dT[\d:.]+Z )?"
)
_DIGIT = re.compile(r"\d")
_TOKEN_CHARS = 30  # as many as the one-line pattern needs after the prefix


class _Registry:
    """Mask values registered in this process (the runner's semantics: once masked, masked)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._values: frozenset[str] = frozenset()
        self._pattern: re.Pattern[str] | None = None

    def add(self, values: set[str]) -> None:
        with self._lock:
            if values <= self._values:
                return
            self._values |= values
            alternatives = sorted(self._values, key=len, reverse=True)  # longest first
            self._pattern = re.compile("|".join(map(re.escape, alternatives)))

    def clear(self) -> None:
        with self._lock:
            self._values, self._pattern = frozenset(), None

    @property
    def pattern(self) -> re.Pattern[str] | None:
        return self._pattern

    @property
    def values(self) -> frozenset[str]:
        return self._values


_REGISTRY = _Registry()


def mask_values(text: str) -> set[str]:
    """The values `text` registers with `::add-mask::` (references and short values skipped)."""
    if "::" not in text:
        return set()
    out = set()
    for m in _ADD_MASK.finditer(text):
        value = m.group("v").strip()
        if len(value) >= MIN_MASK and not _REFERENCE.fullmatch(value):
            out.add(value)
    return out


def remember_masks(text: str) -> None:
    """Register the `::add-mask::` values of `text` for every later redaction in this process."""
    found = mask_values(text)
    if found:
        _REGISTRY.add(found)


def registered_masks() -> frozenset[str]:
    """Every value registered so far (a forked scan hands its half's values to the parent)."""
    return _REGISTRY.values


def remember_values(values: frozenset[str]) -> None:
    """Register values `registered_masks` returned in another process."""
    if values:
        _REGISTRY.add(set(values))


def forget_masks() -> None:
    """Drop every registered value (a new log in a long-lived process; tests)."""
    _REGISTRY.clear()


def apply_masks(text: str, mark: Callable[[str], str]) -> str:
    """`text` with every registered or self-registered mask value replaced by `mark("add-mask")`."""
    remember_masks(text)
    pattern = _REGISTRY.pattern
    if pattern is None:
        return text
    return pattern.sub(lambda _m: mark("add-mask"), text)


def apply_wrapped(text: str, mark: Callable[[str], str]) -> str:
    """Redact GitHub tokens split over two lines, and token heads that end a line.

    Each run of token characters is scanned once (a later prefix inside a scanned run is
    skipped), so hostile text such as `ghp_ghp_ghp_...` stays linear."""
    out: list[str] = []
    pos = scanned = 0
    for m in _START.finditer(text):
        start = m.start()
        if start < scanned or (start and (text[start - 1].isalnum() or text[start - 1] == "_")):
            continue
        marked = m.group() == HEAD_MARK
        run_end = scanned = _RUN.match(text, m.end()).end()  # type: ignore[union-attr]
        gap = _GAP.match(text, run_end)
        if gap is None and run_end != len(text):
            continue  # a token inside a line: the one-line patterns' business
        head = _TOKEN_CHARS if marked else run_end - m.end()
        if gap is not None and head >= 6:
            tail_end = scanned = _RUN.match(text, gap.end()).end()  # type: ignore[union-attr]
            tail = text[gap.end() : tail_end]
            # a tail is random: a digit in it (a next line "Running tests" is no tail)
            if len(tail) >= 4 and head + len(tail) >= _TOKEN_CHARS and _DIGIT.search(tail):
                if marked:
                    out += [text[pos : gap.end()], mark("github-token")]
                    pos = tail_end
                    continue
                out += [text[pos:start], mark("github-token"), gap.group(), mark("github-token")]
                pos = tail_end
                continue
        if not marked and head >= 12 and _DIGIT.search(text, m.end(), run_end):
            out += [text[pos:start], mark("github-token")]
            pos = run_end
    out.append(text[pos:])
    return "".join(out)
