"""Specialising a generalised line step by step (docs/CONTRACTS.md Contract 6): when the pattern
also takes lines it must not (other lines of its own log, a passing log's lines, a library
`no_match` example), the class that tells the most of them apart from the learned line goes back
to the line's literal text, one at a time, until none is taken or nothing tells them apart.

Which class goes first, at equal effect: the names a project chose (quoted values, identifiers,
test ids, paths), which stay the same when the same failure comes back, before what changes from
run to run (numbers, durations, timestamps, hashes, URLs).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from repopilot.engine.learn.tokens import Piece, regex_of

MAX_CONFLICTS = 40  # lines looked at per step (a pattern taking more is far too general anyway)
_VOLATILE = ("num", "hash", "url", None)  # capture names of what changes between runs


def literal(ps: Sequence[Piece], keep: frozenset[int]) -> list[Piece]:
    """`ps` with the classes at the indexes in `keep` back to their literal text."""
    return [_literal(p) if i in keep and p.kind == "class" else p for i, p in enumerate(ps)]


def _literal(p: Piece) -> Piece:
    return Piece("fixed", re.escape(p.text).replace("\\-", "-").replace("\\ ", " "), p.text)


REDACTED = "[REDACTED:"  # safety/redact.py's mark (and line.scrub's)


def volatile(p: Piece) -> bool:
    """A class for what changes from run to run (a number, a hash, a URL, a redaction mark, a
    timestamp's word) rather than a name the project chose."""
    return p.capture in _VOLATILE


def _taken(regex: str, lines: Sequence[str]) -> int:
    rx = re.compile(regex)
    return sum(1 for x in lines if rx.search(x))


def next_keep(
    ps: Sequence[Piece],
    keep: frozenset[int],
    conflicts: Sequence[str],
    indented: bool,
    whole: bool,
) -> frozenset[int] | None:
    """`keep` with one more class made literal: the one leaving the fewest `conflicts` taken;
    None when no class is left or even the literal line takes them all (the same text)."""
    lines = list(conflicts)[:MAX_CONFLICTS]
    # a redaction mark stands for text the pattern must not hold: it never becomes literal
    left = [
        i
        for i, p in enumerate(ps)
        if p.kind == "class" and i not in keep and REDACTED not in p.text
    ]
    if not left or not lines:
        return None
    exact = regex_of(literal(ps, frozenset(range(len(ps)))), indented, whole)
    if _taken(exact, lines) == len(lines):
        return None  # they are the line itself: no literal text tells them apart

    def score(i: int) -> tuple[int, int, int]:
        taken = _taken(regex_of(literal(ps, keep | {i}), indented, whole), lines)
        return taken, int(volatile(ps[i])), i

    return keep | {min(left, key=score)}
