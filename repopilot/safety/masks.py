"""Secret shapes that one regex over one line cannot see (docs/THREAT_MODEL.md §4, §19), for `redact`.

- `::add-mask::VALUE`: the runner hides VALUE in every later line of the log it shows; RepoPilot
  does the same in every text it redacts. A value seen in any text is remembered for the rest of
  the process (a log is read in pieces: the line that registers a value and the line that prints
  it are rarely redacted together); `remember_masks` lets a log reader register values up front.
  As in the runner, the command counts only at the start of a line (after blanks, a runner
  timestamp or a display gutter): `echo x ::add-mask::y` prints text, it registers nothing.
  Values are matched by automata (RE2's where google-re2 is installed: repopilot.rx) built in
  batches that merge as they grow (a binary counter), so each value is compiled O(log n) times
  and a text is scanned by O(log n) linear automata: thousands of masks stay linear. Past
  `MAX_MASKS` values or `MAX_MASK_CHARS` characters, later values are not registered and one
  line on stderr says so.
- A token wrapped across two lines (`ghp_abc...` at a line end, the rest on the next line, maybe
  behind a runner timestamp): both halves are redacted. A GitHub-token head that ends a line is
  redacted even when its tail is not in the same text.
"""

from __future__ import annotations

import re
import sys
import threading
from collections.abc import Callable
from typing import Any

from repopilot import rx

MIN_MASK = 4
"""Shorter registered values are not masked: `::add-mask::a` would blank every `a`."""
MAX_MASKS = 10_000
MAX_MASK_CHARS = 1_000_000
"""Caps on registered values (count, total characters): an RE2 automaton of them stays small."""
_BATCH = 64  # values compiled together at first; batches of equal size merge

# At a line start, behind what a display puts there: `gh run view --log`'s job and step columns,
# a quote marker, a line-number gutter (`9| `, `   9  `), the runner's timestamp. Mid-line the
# runner ignores the command. A lone CR ends a line for the runner too.
_ADD_MASK = re.compile(
    r"(?:^|(?<=\r))\ufeff?(?:[^\t\r\n]*\t[^\t\r\n]*\t)?[ \t>]*(?:\d{1,9}(?:[ \t]*\|[ \t]?|[ \t]{2,}))?"
    r"(?:\d{4}-\d\d-\d\dT[\d:.]+Z )?"
    r"[ \t]*::add-mask::[ \t]*(?P<v>[^\r\n]*)",
    re.IGNORECASE | re.MULTILINE,
)
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


def _automaton(values: list[str]) -> Any:
    return rx.any_of(values, max_mem=128 << 20)


class _Registry:
    """Mask values registered in this process (the runner's semantics: once masked, masked).

    `_levels` are automata over disjoint batches of values, sizes decreasing; a new full batch
    merges with the last level while that is not larger, so the sizes stay powers of two times
    `_BATCH`. Values not yet in a batch are `_pending`, compiled on their own when used."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._values: frozenset[str] = frozenset()
        self._chars = 0
        self._levels: list[tuple[list[str], Any]] = []
        self._pending: list[str] = []
        self._pending_automaton: Any = None
        self.refused = 0

    def add(self, values: set[str]) -> None:
        with self._lock:
            new = sorted(values - self._values)
            for value in new:
                if len(self._values) >= MAX_MASKS or self._chars + len(value) > MAX_MASK_CHARS:
                    self._refuse(len(new) - new.index(value))
                    break
                self._values |= {value}
                self._chars += len(value)
                self._pending.append(value)
                self._pending_automaton = None
                if len(self._pending) >= _BATCH:
                    self._push(self._pending)
                    self._pending = []

    def _push(self, batch: list[str]) -> None:
        while self._levels and len(self._levels[-1][0]) <= len(batch):
            batch = self._levels.pop()[0] + batch
        self._levels.append((batch, _automaton(batch)))

    def _refuse(self, count: int) -> None:
        if not self.refused:
            print(
                f"RepoPilot: more than {MAX_MASKS} ::add-mask:: values or {MAX_MASK_CHARS} "
                "characters of them in this process; later values are not masked.",
                file=sys.stderr,
            )
        self.refused += count

    def clear(self) -> None:
        with self._lock:
            self._values, self._chars, self._levels, self._pending = frozenset(), 0, [], []
            self._pending_automaton, self.refused = None, 0

    def automata(self) -> list[Any]:
        with self._lock:
            if self._pending and self._pending_automaton is None:
                self._pending_automaton = _automaton(self._pending)
            found = [automaton for _values, automaton in self._levels]
            return found + ([self._pending_automaton] if self._pending else [])

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
    automata = _REGISTRY.automata()
    if not automata:
        return text
    spans = _spans(text, automata)
    out: list[str] = []
    pos = 0
    for start, neg_end in spans:  # leftmost, then longest; a span overlapping one taken joins it
        end = -neg_end
        if start < pos:
            if end > pos and out:
                pos = end
            continue
        out += [text[pos:start], mark("add-mask")]
        pos = end
    out.append(text[pos:])
    return "".join(out)


def _spans(text: str, automata: list[Any]) -> list[tuple[int, int]]:
    """(start, -end) of every match, sorted. RE2 reads UTF-8 only: a text with a lone surrogate
    (json.loads lets them through) is searched value by value instead."""
    try:
        return sorted((m.start(), -m.end()) for a in automata for m in a.finditer(text))
    except UnicodeEncodeError:
        found = []
        for value in _REGISTRY.values:
            at = text.find(value)
            while at >= 0:
                found.append((at, -(at + len(value))))
                at = text.find(value, at + 1)
        return sorted(found)


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
