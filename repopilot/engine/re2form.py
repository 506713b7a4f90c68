"""Translate a pattern's `regex` source into RE2 syntax, for the set engine (engine/setmatch.py).

Two forms of one expression, from Python's own parse tree of it:
- `line`: for one matchable line of ASCII text, in RE2. Exact where RE2 has the feature; a
  lookaround is dropped and an atomic group or possessive repeat loses its atomicity, which makes
  the form match MORE lines than the pattern (never fewer), and the result says it is not exact.
- `raw`: for the raw bytes of an ASCII log line, in the syntax RE2 and Hyperscan share: the line
  still holds its timestamp, its `##[error]` marker or the text before a carriage return, so
  every zero-width assertion is dropped, and no class matches a newline. The matchable text is a
  substring of such a line, so the form matches every raw ASCII line whose matchable text the
  pattern matches. None when the pattern needs a non-ASCII character.
An expression the parser rejects (`regex`-only syntax), or one with a backreference, a
conditional, or a repeat count over RE2's limit, has no RE2 form: `Untranslatable` says why.
"""

from __future__ import annotations

import re
import re._constants as C  # noqa: N812
import re._parser as sre
import warnings
from dataclasses import dataclass

RE2_MAX_REPEAT = 1000
# Python's str `\s` on ASCII: RE2's `\s` lacks \v and the four separator controls.
_SPACE = r"\t\n\x0b\x0c\r \x1c-\x1f"
_RAW_CATS = {
    C.CATEGORY_DIGIT: r"\d",
    C.CATEGORY_NOT_DIGIT: r"\x00-\x09\x0b-\x2f\x3a-\x7f",
    C.CATEGORY_WORD: r"\w",
    C.CATEGORY_NOT_WORD: r"\x00-\x09\x0b-\x2f\x3a-\x40\x5b-\x5e\x60\x7b-\x7f",
    # Wider than Python's `\s`/`\S` (all controls): `[\t\x0b\x0c\r \x1c-\x1f]` made
    # Hyperscan 5.4 miss matches of other patterns in the same database (hsfind._missed).
    C.CATEGORY_SPACE: r"\x00-\x09\x0b-\x20",
    C.CATEGORY_NOT_SPACE: r"\x00-\x09\x0b-\x1f\x21-\x7f",
}
# Inside a negated class the members must be at most Python's (the complement stays wider).
_RAW_NEGATED_CATS = {
    **_RAW_CATS,
    C.CATEGORY_SPACE: r"\t\x0b\x0c\r ",
    C.CATEGORY_NOT_SPACE: r"\x21-\x7f",
}
_ASCII_CATS = {
    C.CATEGORY_DIGIT: r"\d",
    C.CATEGORY_NOT_DIGIT: r"\D",
    C.CATEGORY_WORD: r"\w",
    C.CATEGORY_NOT_WORD: r"\W",
    C.CATEGORY_SPACE: _SPACE,
}


class Untranslatable(Exception):
    """The expression has no RE2 form; the message says why (shown by `patterns lint`)."""


class _NeverAscii(Exception):
    """This part needs a non-ASCII character: it cannot match an ASCII line."""


@dataclass(frozen=True, slots=True)
class RE2Form:
    line: str
    raw: str | None  # None: it matches no ASCII line (only the non-ASCII path can see it)
    exact: bool  # `line` matches exactly the ASCII lines the pattern matches
    ignore_case: bool


def _char(c: int, mode: str = "line") -> str:
    if c < 128 and (chr(c).isalnum() or c == 0x5F):
        return chr(c)
    if mode == "raw":
        if c >= 128:
            raise _NeverAscii
        return f"\\x{c:02x}"
    return f"\\x{{{c:x}}}"


class _Writer:
    def __init__(self) -> None:
        self.exact = True

    def seq(self, items, mode: str) -> str:
        return "".join(self.node(op, av, mode) for op, av in items)

    def node(self, op, av, mode: str) -> str:  # noqa: PLR0911, PLR0912  (one case per opcode)
        if op is C.LITERAL:
            return _char(av, mode)
        if op is C.NOT_LITERAL:
            if mode == "raw":
                return f"[^{_char(av, mode)}\\n]" if av < 128 else "[^\\n]"
            return f"[^{_char(av)}]"
        if op is C.ANY:
            return "."
        if op is C.IN:
            return self.charset(av, mode)
        if op is C.AT:
            if mode != "line":
                # A raw line still holds what comes before its matchable text (a timestamp, a
                # marker, text before a CR): `^` cannot be placed there, so no assertion is kept.
                # (Anchoring `^` to those prefixes made the Hyperscan pass 3x slower.)
                return ""
            return {
                C.AT_BEGINNING: "^",
                C.AT_BEGINNING_STRING: r"\A",
                C.AT_END: "$",
                C.AT_END_STRING: r"\z",
                C.AT_BOUNDARY: r"\b",
                C.AT_NON_BOUNDARY: r"\B",
            }[av]
        if op is C.BRANCH:
            branches = []
            for b in av[1]:
                try:
                    branches.append(self.seq(b, mode))
                except _NeverAscii:
                    continue  # (raw mode) a branch no ASCII line can take
            if not branches:
                raise _NeverAscii
            return "(?:" + "|".join(branches) + ")"
        if op is C.SUBPATTERN:
            _group, add, drop, sub = av
            flags = ("i" if add & C.SRE_FLAG_IGNORECASE else "") + (
                "-i" if drop & C.SRE_FLAG_IGNORECASE else ""
            )
            return f"(?{flags}:" + self.seq(sub, mode) + ")"
        if op is C.ATOMIC_GROUP:
            self.exact = False  # without atomicity the group can match where it could not
            return "(?:" + self.seq(av, mode) + ")"
        if op in (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT):
            if op is C.POSSESSIVE_REPEAT:
                self.exact = False
            return self.repeat(av, mode, lazy=op is C.MIN_REPEAT)
        if op in (C.ASSERT, C.ASSERT_NOT):
            self.exact = False  # dropped: the form matches more, never less
            return ""
        if op in (C.GROUPREF, C.GROUPREF_EXISTS, C.GROUPREF_IGNORE):
            raise Untranslatable("a backreference or conditional group (RE2 has neither)")
        raise Untranslatable(f"the construct {op} (RE2 has no equivalent)")

    def repeat(self, av, mode: str, lazy: bool) -> str:
        lo, hi, sub = av
        if lo > RE2_MAX_REPEAT:
            raise Untranslatable(f"a repeat of at least {lo} (RE2 allows up to 1000)")
        if hi is not C.MAXREPEAT and hi > RE2_MAX_REPEAT:
            self.exact = False
            hi = C.MAXREPEAT  # {m,n} widened to {m,}: more, never less
        try:
            body = self.seq(sub, mode)
        except _NeverAscii:
            if lo == 0:
                return ""  # (raw mode) an optional part no ASCII line can have
            raise
        atom = f"(?:{body})"
        if hi is C.MAXREPEAT:
            q = {0: "*", 1: "+"}.get(lo, f"{{{lo},}}")
        elif lo == 0 and hi == 1:
            q = "?"
        elif lo == hi:
            q = f"{{{lo}}}"
        else:
            q = f"{{{lo},{hi}}}"
        return atom + q + ("?" if lazy else "")

    def charset(self, items, mode: str = "line") -> str:
        negate = bool(items) and items[0][0] is C.NEGATE
        items = items[1:] if negate else items
        if mode == "raw":
            return self.raw_charset(items, negate)
        if any(op is C.CATEGORY and av is C.CATEGORY_NOT_SPACE for op, av in items):
            # RE2's `\S` is wider than Python's: spell it out, a union when it has company
            rest = [it for it in items if it[1] is not C.CATEGORY_NOT_SPACE]
            if negate and rest:
                raise Untranslatable(r"a negated character class holding `\S`")
            if negate:
                return f"[{_SPACE}]"
            return f"(?:[^{_SPACE}]" + (f"|{self.charset(rest)})" if rest else ")")
        parts = []
        for op, av in items:
            if op is C.LITERAL:
                parts.append(_char(av))
            elif op is C.RANGE:
                parts.append(f"{_char(av[0])}-{_char(av[1])}")
            elif op is C.CATEGORY:
                if av not in _ASCII_CATS:
                    raise Untranslatable(f"the class {av} (no RE2 equivalent)")
                parts.append(_ASCII_CATS[av])
            else:
                raise Untranslatable(f"the class item {op} (no RE2 equivalent)")
        return ("[^" if negate else "[") + "".join(parts) + "]"

    def raw_charset(self, items, negate: bool) -> str:
        """A class for raw ASCII bytes that never matches a newline (a match stays on its
        line): non-ASCII members are dropped, they cannot occur in an ASCII line."""
        parts = []
        for op, av in items:
            if op is C.LITERAL and av < 128:
                parts.append(_char(av, "raw"))
            elif op is C.RANGE and av[0] < 128:
                parts.append(f"{_char(av[0], 'raw')}-{_char(min(av[1], 127), 'raw')}")
            elif op is C.CATEGORY:
                parts.append((_RAW_NEGATED_CATS if negate else _RAW_CATS)[av])
            elif op not in (C.LITERAL, C.RANGE):
                raise Untranslatable(f"the class item {op} (no RE2 equivalent)")
        if negate:
            return "[^" + "".join(parts) + "\\n]"
        if not parts:
            raise _NeverAscii
        return "[" + "".join(parts) + "]"


def translate(expr: str, ignore_case: bool) -> RE2Form:
    """The RE2 forms of one `regex` expression (V0 syntax), or raise Untranslatable."""
    try:
        with warnings.catch_warnings():
            # `[[:alpha:]]` is a POSIX class to `regex` but a nested-set warning to `re`
            warnings.simplefilter("error")
            parsed = sre.parse(expr)
    except (re.error, FutureWarning, DeprecationWarning, ValueError, RecursionError) as exc:
        raise Untranslatable(f"syntax Python's `re` does not parse the same way ({exc})") from None
    items = list(parsed)
    prefix = "(?i)" if ignore_case or parsed.state.flags & C.SRE_FLAG_IGNORECASE else ""
    w = _Writer()
    line = prefix + w.seq(items, "line")
    try:
        raw: str | None = w.seq(items, "raw")
    except _NeverAscii:
        raw = None
    return RE2Form(line, raw, w.exact, bool(prefix))
