"""Which patterns match a selected line: each candidate pattern's RE2 line form, at C speed.

The set engine's first pass (engine/match/hyperscan_pass.py) selects the lines some pattern's raw form could
match, and says which patterns' forms matched there (usually one to three). For each selected
ASCII line those patterns' RE2 line forms (engine/match/re2_translate.py: exact on ASCII text, or wider
where RE2 lacks a feature) are run through RE2's own matcher, without the Python wrapper's
per-call work (about 1.5 us a form); a pattern whose form is wider than the pattern is then
confirmed by `regex` only on a line that also holds its prefilter needle, as the per-pattern
path does. RE2, not Vectorscan: the `hyperscan` 0.9.1 wheel's Vectorscan 5.4.12 misses matches
in large multi-pattern databases (engine/match/hyperscan_probe.py), and a miss here would lose a failure
silently; one RE2 set over all forms was tried first, and costs ~30 us a line on real logs
(its DFA over ~1,000 forms is rebuilt for every new shape of line).
"""

from __future__ import annotations

import functools
import unicodedata
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeAlias

import re2
import regex

from repopilot.engine.library.loader import Pattern
from repopilot.engine.match.re2_translate import cased

if TYPE_CHECKING:
    from repopilot.engine.match.routes import Route

MAX_TEXT = 8192  # characters (a matchable text is at most MAX_LINE bytes anyway)
# google-re2's compiled matcher beneath its Python wrapper (the package ships no stubs)
_Matcher: TypeAlias = "re2._re2.RE2"


@dataclass(frozen=True, slots=True)
class Decided:
    """One line: the patterns whose line form matched, and whether an error-like word did."""

    patterns: frozenset[int]
    generic: bool


NOTHING = Decided(frozenset(), False)


class LineSet:
    def __init__(
        self,
        patterns: list[Pattern],
        routes: list[Route],
        skip: set[int],
        generic: tuple[str, ...],
    ) -> None:
        """`skip`: patterns left to the needle set and `regex` (no RE2 form, or prefiltered)."""
        self._patterns = patterns
        self._routes = routes
        # pattern -> (its forms, its needles), on demand
        self._compiled: dict[int, tuple[tuple[_Matcher, ...], tuple[_Matcher, ...]]] = {}
        self.covered = {i for i, r in enumerate(routes) if r.forms is not None and i not in skip}
        self.exact = {i for i in self.covered if routes[i].exact}
        self.generic = tuple(g.lower() for g in generic)
        self._anchor = re2._re2.RE2.Anchor.UNANCHORED  # noqa: SLF001  (the matcher itself)

    def _forms(self, i: int) -> tuple[tuple[_Matcher, ...], tuple[_Matcher, ...]]:
        got = self._compiled.get(i)
        if got is None:
            forms = tuple(_low(f.line) for f in self._routes[i].forms or ())
            needles: tuple[_Matcher, ...] = ()
            if i not in self.exact:
                p = self._patterns[i]
                exprs = [re2.escape(lit) for lit in p.literals] or (
                    [p.needle_re] if p.needle_re else []
                )
                needles = tuple(_low("(?i)" + n) for n in exprs)
            got = self._compiled[i] = (forms, needles)
        return got

    def decide(self, text: str, candidates: set[int], worded: bool = True) -> Decided | None:
        """For a `decidable` line's matchable text and the patterns the first pass names there
        (`worded`: the first pass saw an error-like word in the raw line); None when it is too
        long to decide here."""
        if len(text) > MAX_TEXT:
            return None
        generic = False
        if worded:
            low = text.lower()
            for g in self.generic:
                if g in low:
                    generic = True
                    break
        todo = candidates & self.covered
        if not todo:
            return _GENERIC if generic else NOTHING
        data = text.encode("utf-8")  # (ASCII, or `decidable`: RE2 reads UTF-8)
        end = len(data)
        anchor = self._anchor
        found = set()
        for i in todo:
            forms, needles = self._forms(i)
            for f in forms:
                if f.Match(anchor, data, 0, end)[0][0] >= 0:
                    break
            else:
                continue
            if needles:
                for n in needles:
                    if n.Match(anchor, data, 0, end)[0][0] >= 0:
                        break
                else:
                    continue
            found.add(i)
        if not found:
            return _GENERIC if generic else NOTHING
        return Decided(frozenset(found), generic)


_GENERIC = Decided(frozenset(), True)


def decidable(text: str) -> bool:
    """Whether the line forms decide `text` as the pattern would: ASCII text, or text whose
    non-ASCII characters are all symbols or punctuation without case that `regex` counts as
    no word, digit or space character (`‘’` of GCC's messages, `✓ ✗ ● ×`, box drawing, emoji).
    RE2's ASCII `\\w`, `\\d`, `\\s` take no non-ASCII character either, and no case fold joins
    them: both engines treat such characters alike."""
    if text.isascii():
        return True
    return all(c < "\x80" or _inert(c) for c in set(text))


@functools.cache
def _inert(c: str) -> bool:
    # `regex`'s own classes decide (squared letters such as U+1F130 are symbols, yet \w there)
    return unicodedata.category(c)[0] in "SP" and not cased(c) and _WORDISH.match(c) is None


_WORDISH = regex.compile(r"[\w\d\s]", regex.V0)


def _low(expr: str) -> _Matcher:
    """The compiled matcher under google-re2's Python wrapper (its `Match` is ~1.5 us)."""
    opts = re2.Options()
    opts.max_mem = 8 << 20
    opts.never_nl = True
    return re2.compile(expr, opts)._regexp  # noqa: SLF001
