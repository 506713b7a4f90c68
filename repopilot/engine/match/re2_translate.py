"""Translate a pattern's `regex` source into RE2 syntax, for the set engine (engine/match/set_engine.py).

Two forms of one expression, from Python's own parse tree of it:
- `line`: for one matchable line of ASCII text, in RE2. Exact where RE2 has the feature; a
  lookaround is dropped and an atomic group or possessive repeat loses its atomicity, which makes
  the form match MORE lines than the pattern (never fewer), and the result says it is not exact.
- `raw`: for the raw UTF-8 bytes of a log line, in the syntax RE2 and Hyperscan share (bytes, no
  UTF-8 mode): the line still holds its timestamp, its `##[error]` marker or the text before a
  carriage return, so every zero-width assertion is dropped, and no class matches a newline. The
  matchable text is a substring of such a line, so the form matches every raw line whose
  matchable text the pattern matches. Where the pattern could match a non-ASCII character (`.`,
  a category, a negated class, a non-ASCII member), the form also takes a run of 1-4 bytes of
  \x80-\xff: one character, or one U+FFFD per undecodable byte. On ASCII text that alternative
  never applies, so the form is as narrow there as before. Not covered: the three non-ASCII
  characters that fold to ASCII letters under IGNORECASE (`WEIRD_BYTES`): lines holding them are
  for the per-pattern path.
An expression the parser rejects (`regex`-only syntax), or one with a backreference, a
conditional, or a repeat count over RE2's limit, has no RE2 form: `Untranslatable` says why.
"""

from __future__ import annotations

import re
import re._constants as C  # noqa: N812
import re._parser as sre
import unicodedata
import warnings
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, TypeAlias

# A node of `re._parser`'s tree, which has no stubs: an opcode (an int constant of
# `re._constants`) and its argument, whose shape the opcode decides (`av` below).
_Node: TypeAlias = tuple[int, Any]

RE2_MAX_REPEAT = 1000
RAW_COUNTED = 16  # (raw forms) a counted run of one class up to this stays counted
# `regex`'s `\s` on ASCII (Unicode White_Space): RE2's `\s` lacks \v. (Python's `re` also takes
# the separators \x1c-\x1f; `regex` does not, so neither may the line forms.)
_SPACE = r"\t\n\x0b\x0c\r "
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


# UTF-8 of U+0130, U+017F and U+212A: `regex` matches them with `(?i)i`, `(?i)s` and `(?i)k`.
WEIRD_BYTES = (b"\xc4\xb0", b"\xc5\xbf", b"\xe2\x84\xaa")
_HIGH = r"\x80-\xff"
_CHAR = r"[\x80-\xff]{1,4}"  # one non-ASCII character (or one undecodable byte) as bytes


@dataclass(frozen=True, slots=True)
class RE2Form:
    line: str
    raw: str | None  # None only in caches written before raw forms covered non-ASCII lines
    exact: bool  # `line` matches exactly the ASCII lines the pattern matches
    ignore_case: bool


def _char(c: int, mode: str = "line") -> str:
    if c < 128 and (chr(c).isalnum() or c == 0x5F):
        return chr(c)
    if mode == "raw":
        return f"\\x{c:02x}"  # (c < 128: raw callers spell non-ASCII characters themselves)
    return f"\\x{{{c:x}}}"


def _raw_char(c: int, ignore_case: bool) -> str:
    """One literal character as raw bytes: its UTF-8 (a case-folded or undecodable form of a
    non-ASCII letter may be any other character: then any one)."""
    if c < 128:
        return _char(c, "raw")
    if c == 0xFFFD or (ignore_case and cased(chr(c))):
        return _CHAR
    return "".join(f"\\x{b:02x}" for b in chr(c).encode("utf-8"))


def cased(ch: str) -> bool:
    """Whether IGNORECASE may match `ch` with another character. A symbol or punctuation mark
    without case mappings (`●`, `✖`, `×`) matches only its own bytes; a letter may not (`regex`
    carries a newer Unicode than this Python: U+019B folds with U+A7DC there)."""
    if ch.lower() != ch or ch.upper() != ch or ch.casefold() != ch or ch.title() != ch:
        return True
    return unicodedata.category(ch)[0] not in "SP"


def _wide(ascii_class: str) -> str:
    """A class that can also match one non-ASCII character: the class, or 1-4 high bytes."""
    return f"(?:{ascii_class}|{_CHAR})" if ascii_class else _CHAR


class _Writer:
    def __init__(self, ignore_case: bool) -> None:
        self.exact = True
        self.icase = ignore_case  # (raw mode) whether the current part ignores case

    def seq(self, items: Iterable[_Node], mode: str) -> str:
        return "".join(self.node(op, av, mode) for op, av in items)

    def node(self, op: int, av: Any, mode: str) -> str:  # noqa: PLR0911, PLR0912  (one case per opcode)
        if mode == "raw" and op in (C.NOT_LITERAL, C.ANY, C.IN, C.LITERAL):
            return self.raw_atom(op, av)
        if op is C.LITERAL:
            return _char(av, mode)
        if op is C.NOT_LITERAL:
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
            return "(?:" + "|".join(self.seq(b, mode) for b in av[1]) + ")"
        if op is C.SUBPATTERN:
            _group, add, drop, sub = av
            flags = ("i" if add & C.SRE_FLAG_IGNORECASE else "") + (
                "-i" if drop & C.SRE_FLAG_IGNORECASE else ""
            )
            outer = self.icase
            self.icase = bool(add & C.SRE_FLAG_IGNORECASE) or (
                outer and not drop & C.SRE_FLAG_IGNORECASE
            )
            try:
                return f"(?{flags}:" + self.seq(sub, mode) + ")"
            finally:
                self.icase = outer
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

    def repeat(self, av: Any, mode: str, lazy: bool) -> str:
        lo, hi, sub = av
        if lo > RE2_MAX_REPEAT:
            raise Untranslatable(f"a repeat of at least {lo} (RE2 allows up to 1000)")
        if hi is not C.MAXREPEAT and hi > RE2_MAX_REPEAT:
            self.exact = False
            hi = C.MAXREPEAT  # {m,n} widened to {m,}: more, never less
        if hi is C.MAXREPEAT:
            q = {0: "*", 1: "+"}.get(lo, f"{{{lo},}}")
        elif lo == 0 and hi == 1:
            q = "?"
        elif lo == hi:
            q = f"{{{lo}}}"
        else:
            q = f"{{{lo},{hi}}}"
        q += "?" if lazy else ""
        if mode == "raw" and (hi is C.MAXREPEAT or hi > RAW_COUNTED) and len(sub) == 1:
            op, arg = sub[0]
            if op in (C.NOT_LITERAL, C.ANY, C.IN):
                # a run of one class: its bytes, high bytes included (a run of characters is a
                # run of bytes), so ASCII text meets the same plain class. A long counted run
                # is made unbounded (more, never less): 800 counted characters of 1-4 bytes
                # each are too large for Hyperscan.
                q = {0: "*", 1: "+"}.get(lo, f"{{{lo},}}")
                negate, members, high = self.raw_class(op, arg)
                if negate:
                    return f"[^{members}\\n]" + q
                if members or high:
                    return f"[{members}{_HIGH}]" + q  # (high bytes always: see raw_atom)
        return f"(?:{self.seq(sub, mode)})" + q

    def raw_atom(self, op: int, av: Any) -> str:
        """One character of the pattern, as raw bytes (see the module docstring)."""
        if op is C.LITERAL:
            return _raw_char(av, self.icase)
        negate, members, high = self.raw_class(op, av)
        if negate:
            return _wide(f"[^{members}\\n{_HIGH}]")
        if not high:
            # wider by the high bytes (no ASCII line holds one): a small class such as `[0-9]`
            # repeated is the shape Vectorscan 5.4.12 misses matches of (engine/match/hyperscan_probe.py)
            return f"[{members}{_HIGH}]"
        return _wide(f"[{members}]" if members else "")

    def raw_class(self, op: int, av: Any) -> tuple[bool, str, bool]:
        """A class as (negated; its ASCII members as bracket text; whether it can match a
        non-ASCII character). A negated class never matches `\n` and always the non-ASCII."""
        if op is C.ANY:
            return True, "", True
        if op is C.NOT_LITERAL:
            return True, (_char(av, "raw") if av < 128 else ""), True
        negate = bool(av) and av[0][0] is C.NEGATE
        items = av[1:] if negate else av
        parts = []
        high = negate
        for item, arg in items:
            if item is C.LITERAL:
                if arg < 128:
                    parts.append(_char(arg, "raw"))
                else:
                    high = True
            elif item is C.RANGE:
                if arg[0] < 128:
                    parts.append(f"{_char(arg[0], 'raw')}-{_char(min(arg[1], 127), 'raw')}")
                high = high or arg[1] >= 128
            elif item is C.CATEGORY:
                parts.append((_RAW_NEGATED_CATS if negate else _RAW_CATS)[arg])
                high = True  # every category holds non-ASCII characters (Unicode `str` rules)
            else:
                raise Untranslatable(f"the class item {item} (no RE2 equivalent)")
        return negate, "".join(parts), high

    def charset(self, items: list[_Node], mode: str = "line") -> str:
        negate = bool(items) and items[0][0] is C.NEGATE
        items = items[1:] if negate else items
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
    icase = ignore_case or bool(parsed.state.flags & C.SRE_FLAG_IGNORECASE)
    prefix = "(?i)" if icase else ""
    w = _Writer(icase)
    line = prefix + w.seq(items, "line")
    raw = w.seq(_one_leading_space(items), "raw")
    return RE2Form(line, raw, w.exact, icase)


def _one_leading_space(items: list[_Node]) -> list[_Node]:
    """A raw form is unanchored: a run of spaces it starts with (`^  \\d+\\) `, `^ {5,6}`) makes
    Hyperscan start at every indented line of a log (one such form cost a third of the pass on
    real logs). One space of the run selects a few more lines at a fraction of the cost."""
    k = 0
    while k < len(items) and items[k][0] is C.AT:
        k += 1
    start, least = k, 0
    while k < len(items):
        op, av = items[k]
        if op is C.LITERAL and av == 0x20:
            least += 1
        elif (
            op in (C.MAX_REPEAT, C.MIN_REPEAT) and av[0] >= 1 and list(av[2]) == [(C.LITERAL, 0x20)]
        ):
            least += av[0]
        else:
            break
        k += 1
    if least < 2:
        return items
    return [*items[:start], (C.LITERAL, 0x20), *items[k:]]
