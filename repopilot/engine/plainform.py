"""The `plain` form of a pattern: for Hyperscan, exact on the matchable text of a plain line.

A plain line's matchable text holds only tabs and printable ASCII (bytes 0x09, 0x20-0x7e); most
lines of a CI log are plain. The set engine joins the matchable texts of a chunk's candidate
lines with `\\n` and runs every pattern's plain form over them in one multiline Hyperscan pass
(engine/hsline.py), instead of trying patterns line by line. On such text Python's Unicode rules
and Hyperscan's byte rules agree: a character class is cut down to its plain members, a part
that needs any other character can never match (`NotPlain`), `^`/`\\A` and `$`/`\\Z` are line
anchors, `\\b` is the ASCII word boundary, and no class may match the `\\n` between two lines.
What Hyperscan lacks (lookarounds, atomic groups, possessive repeats) is dropped, which makes
the form match more lines, never fewer: `exact` then says `regex` must confirm.
"""

from __future__ import annotations

import re._constants as C  # noqa: N812
import re._parser as sre
from dataclasses import dataclass

from repopilot.engine.re2form import RE2_MAX_REPEAT, Untranslatable

# Python's categories on plain text. Outside the plain bytes the classes are as wide as they can
# be: no plain line holds those bytes, and `[\t\x20]` for `\s` made Hyperscan 5.4 miss lines of
# other patterns in the same database (as engine/re2form.py's raw forms saw too).
_CATS = {
    C.CATEGORY_DIGIT: r"\d",
    C.CATEGORY_NOT_DIGIT: r"\x00-\x09\x0b-\x2f\x3a-\xff",
    C.CATEGORY_WORD: r"\w",
    C.CATEGORY_NOT_WORD: r"\x00-\x09\x0b-\x2f\x3a-\x40\x5b-\x5e\x60\x7b-\xff",
    C.CATEGORY_SPACE: r"\x00-\x09\x0b-\x20",
    C.CATEGORY_NOT_SPACE: r"\x21-\xff",
}
# inside a negated class: only members a plain line can hold (its complement stays wide)
_NEGATED_CATS = {
    **_CATS,
    C.CATEGORY_NOT_DIGIT: r"\t\x20-\x2f\x3a-\x7e",
    C.CATEGORY_NOT_WORD: r"\t\x20-\x2f\x3a-\x40\x5b-\x5e\x60\x7b-\x7e",
    C.CATEGORY_SPACE: r"\t\x20",
    C.CATEGORY_NOT_SPACE: r"\x21-\x7e",
}


class NotPlain(Exception):
    """This part needs a character no plain line holds."""


@dataclass(frozen=True, slots=True)
class PlainForm:
    expr: str  # Hyperscan syntax, multiline mode (caseless by the pattern's flag), to the `\n`
    exact: bool
    icase: bool  # an inline `(?i)` for the whole expression (Hyperscan's flag then)


def _plain(c: int) -> bool:
    return c == 0x09 or 0x20 <= c <= 0x7E


def _char(c: int) -> str:
    if not _plain(c):
        raise NotPlain
    return chr(c) if chr(c).isalnum() or c == 0x5F else f"\\x{c:02x}"


class _Writer:
    def __init__(self) -> None:
        self.exact = True

    def inexact(self) -> str:
        self.exact = False
        return ""

    def seq(self, items) -> str:
        return "".join(self.node(op, av) for op, av in items)

    def node(self, op, av) -> str:  # noqa: PLR0911, PLR0912  (one case per opcode)
        if op is C.LITERAL:
            return _char(av)
        if op is C.NOT_LITERAL:
            return f"[^{_char(av)}\\n]" if _plain(av) else "[^\\n]"
        if op is C.ANY:
            return "."  # (no dot-all: never the newline between two lines)
        if op is C.IN:
            return self.charset(av)
        if op is C.AT:
            if av in (C.AT_END, C.AT_END_STRING):
                # Hyperscan takes `$` only at the end: a trailing one is the line's `\n`
                # (see plain_form); elsewhere it is dropped, which matches more lines
                return self.inexact()
            return {
                C.AT_BEGINNING: "^",
                C.AT_BEGINNING_STRING: "^",
                C.AT_BOUNDARY: r"\b",
                C.AT_NON_BOUNDARY: r"\B",
            }[av]
        if op is C.BRANCH:
            branches = []
            for b in av[1]:
                try:
                    branches.append(self.seq(b))
                except NotPlain:
                    continue
            if not branches:
                raise NotPlain
            return "(?:" + "|".join(branches) + ")"
        if op is C.SUBPATTERN:
            _group, add, drop, sub = av
            flags = ("i" if add & C.SRE_FLAG_IGNORECASE else "") + (
                "-i" if drop & C.SRE_FLAG_IGNORECASE else ""
            )
            return (f"(?{flags}:" if flags else "(?:") + self.seq(sub) + ")"
        if op is C.ATOMIC_GROUP:
            self.exact = False
            return "(?:" + self.seq(av) + ")"
        if op in (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT):
            if op is C.POSSESSIVE_REPEAT:
                self.exact = False
            return self.repeat(av)
        if op in (C.ASSERT, C.ASSERT_NOT):
            self.exact = False
            return ""
        raise Untranslatable(f"the construct {op} (Hyperscan has no equivalent)")

    def repeat(self, av) -> str:
        lo, hi, sub = av
        if lo > RE2_MAX_REPEAT:
            raise Untranslatable(f"a repeat of at least {lo}")
        if hi is not C.MAXREPEAT and hi > RE2_MAX_REPEAT:
            self.exact = False
            hi = C.MAXREPEAT
        try:
            body = self.seq(sub)
        except NotPlain:
            if lo == 0:
                return ""
            raise
        if hi is C.MAXREPEAT:
            q = {0: "*", 1: "+"}.get(lo, f"{{{lo},}}")
        elif lo == 0 and hi == 1:
            q = "?"
        elif lo == hi:
            q = f"{{{lo}}}"
        else:
            q = f"{{{lo},{hi}}}"
        return f"(?:{body}){q}"

    def charset(self, items) -> str:
        negate = bool(items) and items[0][0] is C.NEGATE
        parts = []
        for op, av in items[1:] if negate else items:
            if op is C.LITERAL:
                if _plain(av):
                    parts.append(_char(av))
            elif op is C.RANGE:
                lo, hi = av
                for a, b in ((0x09, 0x09), (0x20, 0x7E)):  # the plain stretches of the range
                    if max(lo, a) <= min(hi, b):
                        parts.append(f"{_char(max(lo, a))}-{_char(min(hi, b))}")
            elif op is C.CATEGORY:
                parts.append((_NEGATED_CATS if negate else _CATS)[av])
            else:
                raise Untranslatable(f"the class item {op}")
        if negate:
            return "[^" + "".join(parts) + "\\n]"
        if not parts:
            raise NotPlain
        return "[" + "".join(parts) + "]"


def plain_form(expr: str) -> PlainForm | None:
    """The plain form of one expression (already parsed by re2form.translate, so it parses),
    or None when no plain line can match it. The form ends at the line's `\n`, so Hyperscan
    reports a line once, at its newline, however often the pattern matches in it."""
    w = _Writer()
    parsed = sre.parse(expr)
    items = list(parsed)
    ends = bool(items) and items[-1] in ((C.AT, C.AT_END), (C.AT, C.AT_END_STRING))
    try:
        text = w.seq(items[:-1] if ends else items)
    except NotPlain:
        return None
    icase = bool(parsed.state.flags & C.SRE_FLAG_IGNORECASE)
    return PlainForm(text + ("\\n" if ends else r"[^\n]*\n"), w.exact, icase)
