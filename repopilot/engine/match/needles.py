"""The Scanner's needles: which lines of a chunk can concern some pattern, and which needles a
line holds. A needle is a lower-cased literal (a pattern's prefilter, an error-like word, a runner
signal) or a pattern's `prefilter_regex:` (RE2 syntax), matched case-insensitively.

With google-re2 (repopilot.rx): one RE2 alternation finds the candidate lines of a chunk and one
`re2.Set` says which needles a line holds. Without it: the candidate lines are those holding one
of the literals (one alternation of literals, a trie, over the chunk's ASCII-lowered bytes: no
branch can backtrack) or a literal that a `prefilter_regex` requires; which needles a line holds is
then read from its lower-cased text, and each `prefilter_regex` it may hold is searched with
`regex` under a timeout. A `prefilter_regex` that requires no literal makes every line a
candidate. Both say the same of every line, up to RE2's Unicode case folding of ASCII letters
(the Kelvin sign for `k`), which the second path reads as ASCII.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from repopilot import rx
from repopilot.engine.library.prefilter import required_literals

NEEDLE_TIMEOUT = 0.05  # s, per `prefilter_regex` search on the `regex` path
GRAM = 3
MAX_MEM = 1 << 28  # RE2's budget for the chunk alternation and the needle set


@dataclass(frozen=True, slots=True)
class Needle:
    """A lower-cased literal, or (literal None) an RE2 expression."""

    literal: str | None
    expr: str | None = None

    def re2_form(self) -> str:
        return rx.escape(self.literal) if self.literal is not None else str(self.expr)


class NeedleSet(Protocol):
    def present(self, text: str) -> Sequence[int]:
        """The indexes of the needles `text` holds."""
        ...


class ChunkScan(Protocol):
    def finditer(self, data: bytes) -> Iterator[Any]:
        """Matches (`.start()`) inside every line of `data` that some needle may concern."""
        ...

    def search(self, data: bytes, pos: int = ...) -> Any:
        """The first such match from `pos` on, or None."""
        ...


def needle_set(needles: Sequence[Needle]) -> NeedleSet:
    return _RE2Set(needles) if rx.RE2 is not None else _TextSet(needles)


def chunk_scan(needles: Sequence[Needle], every_line: bool = False) -> ChunkScan:
    """Over `needles` (the minimal ones suffice: a literal holding another adds no line);
    `every_line`: a needle-less pattern is tried on every line."""
    if rx.RE2 is not None:
        alternation = "|".join(f"(?:{n.re2_form()})" for n in needles).encode("utf-8")
        got: ChunkScan = rx.compile(
            alternation if not every_line else b"(?m)^",
            ignore_case=True,
            max_mem=MAX_MEM,
            never_nl=True,
        )
        return got
    literals = [n.literal for n in needles if n.literal is not None]
    for n in needles:
        if n.literal is None:
            found = regex_literals(str(n.expr))
            if not found:
                every_line = True
            literals.extend(found)
    return _LiteralScan(literals, every_line)


def regex_literals(expr: str) -> tuple[str, ...]:
    """Lower-cased literals one of which every match of an RE2 `expr` holds (any length), or ()."""
    parsable = re.sub(r"(?<!\\)((?:\\\\)*)\\[pP](?:\{[^}]*\}|\w)", r"\1\\d", rx.python_syntax(expr))
    return required_literals(parsable, accept=bool)


class _RE2Set:
    def __init__(self, needles: Sequence[Needle]) -> None:
        assert rx.RE2 is not None
        # never_nl: a needle must never start on one line and end on the next
        opts = rx.options(ignore_case=True, max_mem=MAX_MEM, never_nl=True)
        self._set = rx.RE2.Set.SearchSet(opts)
        for n in needles:
            self._set.Add(n.re2_form())
        self._set.Compile()

    def present(self, text: str) -> Sequence[int]:
        return self._set.Match(text) or ()


class _TextSet:
    """Needles by the first GRAM characters of their literals: a line is read once for its
    GRAM-grams, and only the literals filed under the grams it holds are looked for."""

    def __init__(self, needles: Sequence[Needle]) -> None:
        self._short: list[tuple[int, str]] = []  # (needle, literal) for literals under GRAM
        self._by_gram: dict[str, list[tuple[int, str]]] = {}
        self._exprs: dict[int, rx.Compiled] = {}
        self._unkeyed: list[int] = []  # expressions requiring no literal: searched on every line
        for i, n in enumerate(needles):
            if n.literal is not None:
                self._file(i, n.literal)
                continue
            self._exprs[i] = rx.searcher(str(n.expr))
            lits = regex_literals(str(n.expr))
            if not lits:
                self._unkeyed.append(i)
            for lit in lits:
                self._file(i, lit)

    def _file(self, i: int, lit: str) -> None:
        if len(lit) < GRAM:
            self._short.append((i, lit))
        else:
            self._by_gram.setdefault(lit[:GRAM], []).append((i, lit))

    def present(self, text: str) -> Sequence[int]:
        low = text.lower()
        held = {i for i, lit in self._short if lit in low}
        grams = {low[j : j + GRAM] for j in range(len(low) - GRAM + 1)}
        for g in grams.intersection(self._by_gram):
            held.update(i for i, lit in self._by_gram[g] if lit in low)
        held.update(self._unkeyed)
        got = [i for i in held if i not in self._exprs]
        got += [
            i for i in held if i in self._exprs and rx.found(self._exprs[i], text, NEEDLE_TIMEOUT)
        ]
        return got


class _LiteralScan:
    """Candidate lines by literal: a trie of them as one `re` alternation over ASCII-lowered bytes."""

    def __init__(self, literals: list[str], every_line: bool) -> None:
        plain = sorted({lit for lit in literals if all(map(_caseless_or_ascii, lit))})
        cased = sorted(set(literals) - set(plain))  # non-ASCII letters: each case spelled out
        parts = [_latin1_trie(plain)] if plain else []
        parts += [b"".join(_either(c) for c in lit) for lit in cased]
        self._every_line = every_line or not parts
        self._re = re.compile(rb"(?m)^" if self._every_line else b"|".join(parts))

    def finditer(self, data: bytes) -> Iterator[re.Match[bytes]]:
        return self._re.finditer(data if self._every_line else data.lower())

    def search(self, data: bytes, pos: int = 0) -> re.Match[bytes] | None:
        return self._re.search(data if self._every_line else data.lower(), pos)


def _caseless_or_ascii(c: str) -> bool:
    """`bytes.lower` folds the data's case of `c` (ASCII), or `c` has no case."""
    return c.isascii() or c.lower() == c.upper()


def _either(c: str) -> bytes:
    spellings = sorted({c, c.lower(), c.upper(), c.title()} if not c.isascii() else {c.lower()})
    if len(spellings) == 1:
        return re.escape(spellings[0].encode("utf-8"))
    return b"(?:" + b"|".join(re.escape(s.encode("utf-8")) for s in spellings) + b")"


def _latin1_trie(literals: list[str]) -> bytes:
    """A trie of the literals' UTF-8 bytes (rx.trie over their latin-1 spelling)."""
    words = [lit.encode("utf-8").decode("latin-1") for lit in literals]
    return rx.trie(words).encode("latin-1")
