"""Probes: short byte strings a Hyperscan expression must match, for a database's self-check.

The `hyperscan` 0.9.1 wheel bundles Vectorscan 5.4.12 (`Database.info()` says so), built
without its AVX2 code paths. It misses matches in some multi-expression databases: with
`q[0-9]+ab` and `q[0-9]+ab` + a literal of 16 bytes compiled together, `aq4ab` at the end of a
buffer of 35 bytes or more is not reported, nor is `q0ab` + the literal, while `aq45ab`, or
either expression alone, is (tests/engine/match/test_hyperscan_probe.py). Two expressions sharing a prefix (a
literal, then a small class repeated) where one goes on with a long literal, and a match where
the repeat takes its minimum count: a pattern's own examples rarely have that shape (their line
numbers have two digits, `file.py:4:` has one), so hsfind checks these probes too. The newer
Vectorscan of `pyperscan` 0.4.0 (built with its AVX2 paths) reports all of them.

A probe takes every repeat at its minimum count, then at one more (so a `+` gives one and
two characters), every alternative of a branch, and one byte of each class, preferring letters
and digits. Each is confirmed with `re` before it is used: a probe is a match by construction,
and the check does not rest on that.
"""

from __future__ import annotations

import re
import re._constants as C  # noqa: N812
import re._parser as sre
from collections.abc import Iterable
from typing import Any, TypeAlias

# A node of `re._parser`'s tree, which has no stubs: an opcode (an int constant of
# `re._constants`) and its argument, whose shape the opcode decides (`av` below).
_Node: TypeAlias = tuple[int, Any]

PER_EXPR = 8  # probes kept per expression (the first alternatives of its branches)
_DIGIT = set(range(48, 58))
_WORD = _DIGIT | set(range(65, 91)) | set(range(97, 123)) | {95}
_CATS = {
    C.CATEGORY_DIGIT: _DIGIT,
    C.CATEGORY_NOT_DIGIT: set(range(256)) - _DIGIT,
    C.CATEGORY_WORD: _WORD,
    C.CATEGORY_NOT_WORD: set(range(256)) - _WORD,
    C.CATEGORY_SPACE: {9, 10, 11, 12, 13, 32},
    C.CATEGORY_NOT_SPACE: set(range(256)) - {9, 10, 11, 12, 13, 32},
}
# the byte tried first for a class: a lowercase letter, a digit, an uppercase one, punctuation
_PREFERENCE = [*range(97, 123), *range(48, 58), *range(65, 91), *range(33, 127), 32, *range(256)]


def _members(op: int, av: Any) -> set[int] | None:
    """The bytes one character-sized node matches, or None for any other node."""
    if op is C.LITERAL:
        return {av}
    if op is C.NOT_LITERAL:
        return set(range(256)) - {av}
    if op is C.ANY:
        return set(range(256)) - {10}
    if op is not C.IN:
        return None
    negate = bool(av) and av[0][0] is C.NEGATE
    got: set[int] = set()
    for item, arg in av[1:] if negate else av:
        if item is C.LITERAL:
            got.add(arg)
        elif item is C.RANGE:
            got.update(range(arg[0], arg[1] + 1))
        elif item is C.CATEGORY:
            got |= _CATS.get(arg, set())
    return set(range(256)) - got if negate else got


def _one(members: set[int]) -> bytes | None:
    for b in _PREFERENCE:
        if b in members and b != 10:
            return bytes([b])
    return None


def _seq(items: Iterable[_Node], extra: int) -> list[bytes]:
    """Up to PER_EXPR strings the sequence matches; repeats at their minimum count + extra."""
    outs = [b""]
    for op, av in items:
        members = _members(op, av)
        if members is not None:
            one = _one(members)
            alts = [one] if one is not None else []
        elif op is C.SUBPATTERN:
            alts = _seq(av[3], extra)
        elif op is C.BRANCH:
            alts = [s for branch in av[1] for s in _seq(branch, extra)][:PER_EXPR]
        elif op is C.AT:
            alts = [b""]  # an anchor: the probe is placed where it holds (see `probes`)
        elif op in (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT):
            lo, hi, sub = av
            n = lo + extra if hi is C.MAXREPEAT or lo + extra <= hi else lo
            alts = [s * n for s in _seq(sub, extra)[:2]] if n else [b""]
        else:
            return []  # an assertion or anything else raw forms do not hold: no probe
        if not alts:
            return []
        outs = [a + b for a in outs for b in alts][:PER_EXPR]
    return outs


def probes(expr: bytes, caseless: bool) -> list[bytes]:
    """Short strings `expr` (Hyperscan syntax) matches, each confirmed by `re` as a line of its
    own (multi-line mode: a `^` or `$` in it holds at the probe's ends only)."""
    try:
        tree = sre.parse(expr.decode("latin-1"))
        check = re.compile(expr, re.MULTILINE | (re.IGNORECASE if caseless else 0))
    except (re.error, UnicodeDecodeError, ValueError):
        return []
    got = dict.fromkeys(_seq(list(tree), 0) + _seq(list(tree), 1))
    return [s for s in got if b"\n" not in s and check.search(s)][:PER_EXPR]
