"""Derive, from a regex, literals of which at least one must occur in any line it matches.

The engine scans raw log bytes for these literals with one linear-time RE2 alternation, so the
per-pattern `regex` confirm (with its timeout) only runs on the few candidate lines.
Returns an empty tuple when no literal of at least MIN_LEN characters is required: such a
pattern is confirmed on every line and `repopilot patterns lint` flags it as slow.
"""

from __future__ import annotations

import re
import re._constants as C  # noqa: N812
import re._parser as sre
from collections.abc import Callable
from typing import Any, TypeAlias

# A node of `re._parser`'s tree, which has no stubs: an opcode (an int constant of
# `re._constants`) and its argument, whose shape the opcode decides (`av` below).
_Node: TypeAlias = tuple[int, Any]

MIN_LEN = 4
MIN_ALNUM = 3  # ' - ' or '.py' would make nearly every line a candidate


# Words so common in CI output that a literal made of them selects a large share of all lines.
WEAK = frozenset(
    "info http https note need with from line code file test tests warn true false none null "
    "npm  build main.".split(" ")
)


def usable(lit: str) -> bool:
    """A literal selective enough to keep most lines away from the confirming regexes."""
    low = lit.lower()
    if low in WEAK or low.strip() in WEAK:
        return False
    return len(lit) >= MIN_LEN and sum(c.isalnum() for c in lit) >= MIN_ALNUM


def _seq(items: list[_Node], accept: Callable[[str], bool]) -> tuple[str, ...] | None:
    """Best required literal set for a sequence: consecutive literals, or a child's set (each
    literal of it `accept`ed)."""
    best: tuple[str, ...] | None = None
    run: list[str] = []

    def consider(cands: tuple[str, ...] | None) -> None:
        nonlocal best
        if cands and all(accept(c) for c in cands):
            if best is None or min(map(len, cands)) > min(map(len, best)):
                best = cands

    for op, av in items:
        if op is C.LITERAL:
            run.append(chr(av))
            continue
        consider(("".join(run),) if run else None)
        run = []
        consider(_node(op, av, accept))
    consider(("".join(run),) if run else None)
    return best


def _node(op: int, av: Any, accept: Callable[[str], bool]) -> tuple[str, ...] | None:
    if op is C.SUBPATTERN:
        return _seq(list(av[-1]), accept)
    if op is C.ATOMIC_GROUP:
        return _seq(list(av), accept)
    if op is C.BRANCH:
        alts: list[str] = []
        for branch in av[1]:
            got = _seq(list(branch), accept)
            if not got:
                return None
            alts.extend(got)
        return tuple(dict.fromkeys(alts))
    if op in (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT):
        lo, _hi, sub = av
        return _seq(list(sub), accept) if lo >= 1 else None
    if op is C.IN:
        # a single-character class like [Ee] contributes nothing; the run is broken
        return None
    return None


def required_literals(expr: str, accept: Callable[[str], bool] = usable) -> tuple[str, ...]:
    """Lower-cased literals, one of which must occur in every match of `expr` (or ()); each is
    `usable` (or what `accept` takes)."""
    try:
        parsed = sre.parse(expr)
    except (
        re.error,
        ValueError,
        TypeError,
        OverflowError,
        RecursionError,
    ):  # `regex`-only syntax: no derivation, caller may set prefilter
        return ()
    got = _seq(list(parsed), accept)
    return tuple(s.lower() for s in got) if got else ()
