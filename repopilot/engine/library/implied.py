"""Is a pattern's prefilter implied by its regex? (`repopilot patterns lint`, issue 22.)

The per-pattern path confirms a line only where the prefilter (`prefilter:` literals, derived
literals, or the `prefilter_regex:` needle) hits; the set engine runs the regexes themselves. When a
line matches the regex but misses the prefilter, the two disagree and a verdict depends on the
log's size (the set engine starts after the first few hundred KB). So every line a regex matches
must hit its pattern's prefilter.

Proving that in general is out of reach (these are `regex` expressions with lookarounds), so the
check looks for a counterexample: lines the regex matches, made from the pattern's own examples
with the changes a log or a near-miss format brings (each whitespace character, a space removed or
added, a character dropped, case swapped) and lines generated from the regex's parse tree at the
edges of each choice (fewest and one more repeats, every branch, a class's odd members such as
TAB, VT, FF, NBSP). Any such line the prefilter misses is reported with the line: a fix widens the
prefilter or narrows the regex. Deterministic: the same library gives the same report.
"""

from __future__ import annotations

import random
import re
import re._constants as C  # noqa: N812
import re._parser as sre
from collections.abc import Callable, Iterator
from typing import Any, TypeAlias

from repopilot.engine.library.loader import Pattern, prefilter_hits
from repopilot.logs.textnorm import body, display

_PROBES = " \t\x0b\x0c\xa0\x1caZz09_-.:;)(/]\\'\"#,é"
_SPACES = ("", " ", "  ", "\t", "\x0b", "\x0c", "\xa0")
_GENERATED = 32  # lines generated per expression
_MAX_LINE = 400
_MAX_REPORTED = 1  # counterexamples shown per pattern


def prefilter_problems(p: Pattern) -> list[str]:
    """One message per pattern whose prefilter misses a line its regex matches ([] when none)."""
    for raw in _candidates(p):
        line = body(display(raw))  # what both paths see of a log line
        if _matches(p, line) and not prefilter_hits(p, line):
            what = f"prefilter_regex {p.needle_re!r}" if p.needle_re else f"prefilter {p.literals}"
            return [
                f"{p.id}: its regex matches {line!r} but its {what} misses it: the set engine and "
                "the per-pattern path would disagree (widen the prefilter or narrow the regex)"
            ][:_MAX_REPORTED]
    return []


def _matches(p: Pattern, text: str) -> bool:
    try:
        return any(r.search(text, timeout=0.05) is not None for r in p.regexes)
    except TimeoutError:
        return False


def _candidates(p: Pattern) -> Iterator[str]:
    seen: set[str] = set()
    examples = [e if isinstance(e, str) else e.line for e in p.spec.examples.match]
    for line in examples:
        for variant in _variants(line):
            if variant not in seen and len(variant) <= _MAX_LINE:
                seen.add(variant)
                yield variant
    for i, expr in enumerate(p.exprs):
        for line in generated(expr, p.flags, seed=f"{p.id}#{i}"):
            if line not in seen:
                seen.add(line)
                yield line


def _variants(line: str) -> Iterator[str]:
    """The example and single edits of it: each whitespace run swapped, a space removed after
    punctuation, a character appended, case swapped."""
    yield line
    yield line.swapcase()
    yield line + "x"
    runs = list(re.finditer(r"\s+", line))
    for m in runs[:12]:
        for space in _SPACES:
            yield line[: m.start()] + space + line[m.end() :]
    for i, ch in enumerate(line):
        if ch == " " and i and not line[i - 1].isalnum():
            yield line[:i] + line[i + 1 :]
            yield line[:i] + "x" + line[i + 1 :]


def generated(expr: str, flags: int = 0, seed: str = "", count: int = _GENERATED) -> list[str]:
    """Up to `count` strings built from `expr`'s parse tree, the first ones at the edges of every
    choice, then random ones; [] when Python's parser does not read it (`regex`-only syntax).
    They are candidates: the caller checks that the regex matches them."""
    try:
        tree = sre.parse(expr, flags)
    except (re.error, ValueError, TypeError, OverflowError, RecursionError):
        return []
    rng = random.Random(seed)
    classes: dict[int, list[str]] = {}  # a class node's probe characters, worked out once
    out: list[str] = []
    for mode in ("low", "high"):
        out.append(_walk(list(tree), rng, mode, {}, classes))
    while len(out) < count:
        out.append(_walk(list(tree), rng, "random", {}, classes))
    return list(dict.fromkeys(s for s in out if len(s) <= _MAX_LINE))


_Classes = dict[int, list[str]]
_Groups = dict[int, str]  # a numbered group -> the text generated for it (for backreferences)
# A node of `re._parser`'s tree, which has no stubs: an opcode (an int constant of
# `re._constants`) and its argument, whose shape the opcode decides (`av` below).
_Node: TypeAlias = tuple[int, Any]


def _walk(
    items: list[_Node], rng: random.Random, mode: str, groups: _Groups, classes: _Classes
) -> str:
    return "".join(_one(op, av, rng, mode, groups, classes) for op, av in items)


def _one(
    op: int, av: Any, rng: random.Random, mode: str, groups: _Groups, classes: _Classes
) -> str:
    if op is C.LITERAL:
        return chr(av)
    if op is C.NOT_LITERAL:
        return _pick([c for c in _PROBES if ord(c) != av], rng, mode)
    if op is C.ANY:
        return _pick(list(_PROBES), rng, mode)
    if op is C.IN:
        if id(av) not in classes:
            classes[id(av)] = [c for c in _PROBES if _in_class(c, av)]
        return _pick(classes[id(av)], rng, mode)
    if op is C.SUBPATTERN:
        text = _walk(list(av[-1]), rng, mode, groups, classes)
        if av[0] is not None:
            groups[av[0]] = text
        return text
    if op is C.ATOMIC_GROUP:
        return _walk(list(av), rng, mode, groups, classes)
    if op is C.BRANCH:
        branches = av[1]
        pick = branches[0] if mode == "low" else branches[-1] if mode == "high" else None
        return _walk(list(pick or rng.choice(branches)), rng, mode, groups, classes)
    if op in (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT):
        lo, hi, sub = av
        hi = min(hi, lo + 3)
        n = lo if mode == "low" else hi if mode == "high" else rng.randint(lo, hi)
        return "".join(_walk(list(sub), rng, mode, groups, classes) for _ in range(n))
    if op is C.GROUPREF:
        return groups.get(av, "")
    return ""  # anchors, lookarounds, conditionals: the regex itself decides afterwards


def _pick(chars: list[str], rng: random.Random, mode: str) -> str:
    if not chars:
        return ""
    return chars[0] if mode == "low" else chars[-1] if mode == "high" else rng.choice(chars)


_CATEGORY: dict[int, Callable[[str], bool]] = {
    C.CATEGORY_DIGIT: lambda c: c.isdigit(),
    C.CATEGORY_NOT_DIGIT: lambda c: not c.isdigit(),
    C.CATEGORY_SPACE: lambda c: c.isspace() or c in "\x1c\x1d\x1e\x1f",
    C.CATEGORY_NOT_SPACE: lambda c: not (c.isspace() or c in "\x1c\x1d\x1e\x1f"),
    C.CATEGORY_WORD: lambda c: c.isalnum() or c == "_",
    C.CATEGORY_NOT_WORD: lambda c: not (c.isalnum() or c == "_"),
}


def _in_class(ch: str, items: list[_Node]) -> bool:
    negate = False
    hit = False
    for op, av in items:
        if op is C.NEGATE:
            negate = True
        elif op is C.LITERAL:
            hit = hit or ord(ch) == av
        elif op is C.RANGE:
            hit = hit or av[0] <= ord(ch) <= av[1]
        elif op is C.CATEGORY:
            test = _CATEGORY.get(av)
            hit = hit or bool(test and test(ch))
    return hit != negate
