"""Which expression selects a pattern's lines in Hyperscan's pass (engine/match/hyperscan_pass.py).

Normally a pattern's own raw forms (engine/match/re2_translate.py). A raw form is unanchored (the raw line
still holds its timestamp and markers), so a form that starts with a whitespace class
(`^\\s+\\S+:\\d+:\\d+:`, `^[ \\t]+at `) starts an automaton at every indented line of a log.
For a pattern that has a prefilter regex (its `needle`, which every line the pattern matches
must hold: the per-pattern path only tries the pattern where the needle is), the needle's raw
form selects instead, when it does not itself start with whitespace. The line set
(engine/match/re2_lines.py) still decides the pattern on every line so selected, so the hits are the
same; only the lines selected for it change. (A form led by literal spaces, `^ {5,6}Error`, is
cheap once re2form has cut the run to one space, and its own form selects fewer lines than a
needle such as `Error:` would.)
"""

from __future__ import annotations

import re
import re._constants as C  # noqa: N812
import re._parser as sre
import warnings
from collections.abc import Iterable
from typing import Any, TypeAlias

from repopilot.engine.library.loader import Pattern
from repopilot.engine.match.re2_translate import Untranslatable, translate

# A node of `re._parser`'s tree, which has no stubs: an opcode (an int constant of
# `re._constants`) and its argument, whose shape the opcode decides (`av` below).
_Node: TypeAlias = tuple[int, Any]
_SPACE_CATEGORIES = (C.CATEGORY_SPACE, C.CATEGORY_NOT_DIGIT, C.CATEGORY_NOT_WORD)


def needle_selector(p: Pattern) -> str | None:
    """The raw form of `p`'s needle, when it should select `p`'s lines; else None."""
    if p.literals or not p.needle_re or not any(_leads_with_space(e) for e in p.exprs):
        return None
    if _leads_with_space(p.needle_re):
        return None  # no better: it would start at every indented line too
    if _negates_space(p.needle_re):
        return None  # `[^\\s]`: RE2's takes \v, the raw form (Python's reading) would not
    try:
        return translate(p.needle_re, True).raw  # (the needle is case-insensitive)
    except Untranslatable:
        return None


def _parsed(expr: str) -> list[_Node] | None:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # (`[[:alpha:]]`: a nested-set warning to `re`)
            return list(sre.parse(expr))
    except (re.error, ValueError, RecursionError, FutureWarning, DeprecationWarning):
        return None  # (such an expression has no raw form either)


def _leads_with_space(expr: str) -> bool:
    """Whether a match of `expr` can start with a space or a tab matched by a class (`\\s`,
    `[ \\t]`, `[^:]`, `.`); a literal space or tab is not counted (see the module docstring)."""
    items = _parsed(expr)
    return items is not None and _seq(items)


def _negates_space(expr: str) -> bool:
    """Whether `expr` (a needle: RE2 syntax, read by Python's parser) holds a negated class
    with `\\s` in it, where the two engines' `\\s` differ in what the class leaves."""
    items = _parsed(expr)
    return items is None or _walk_negated_space(items)


def _walk_negated_space(items: Iterable[_Node]) -> bool:
    for op, av in items:
        if op is C.IN:
            spaced = any(o is C.CATEGORY and a in _NEGATED for o, a in av)
            if spaced and av and av[0][0] is C.NEGATE:
                return True
        elif any(_walk_negated_space(sub) for sub in _subs(op, av)):
            return True
    return False


_NEGATED = (C.CATEGORY_SPACE, C.CATEGORY_NOT_SPACE)


def _subs(op: int, av: Any) -> list[list[_Node]]:
    """The sequences a node holds: a repeat's, a group's, a lookaround's, each alternative."""
    if op in (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT):
        return [list(av[2])]
    if op is C.SUBPATTERN:
        return [list(av[3])]
    if op is C.ATOMIC_GROUP:
        return [list(av)]
    if op in (C.ASSERT, C.ASSERT_NOT):
        return [list(av[1])]
    if op is C.BRANCH:
        return [list(b) for b in av[1]]
    return []


def _seq(items: list[_Node]) -> bool:
    for op, av in items:
        if op is C.AT:
            continue  # `^`, `\b`: zero-width, the next item is the first character
        return _item(op, av)
    return False


def _item(op: int, av: Any) -> bool:
    if op is C.LITERAL or op in (C.ASSERT, C.ASSERT_NOT):
        return False  # (a lookaround consumes nothing: the line starts after it)
    if op is C.NOT_LITERAL or op is C.ANY:
        return True
    if op is C.IN:
        return _class_has_space(av)
    return any(_seq(sub) for sub in _subs(op, av))


def _class_has_space(items: list[_Node]) -> bool:
    negate = bool(items) and items[0][0] is C.NEGATE
    has = False
    for op, av in items:
        if op is C.LITERAL and av in (0x20, 0x09):
            has = True
        elif op is C.RANGE and (av[0] <= 0x20 <= av[1] or av[0] <= 0x09 <= av[1]):
            has = True
        elif op is C.CATEGORY and av in _SPACE_CATEGORIES:
            has = True
    return has != negate
