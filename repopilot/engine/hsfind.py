"""Hyperscan: the lines of a chunk the set engine must look at, in one pass over its bytes.

A DFA over hundreds of whole patterns (RE2's) explodes on real logs, and a literal prefilter
selects one line in seven; Hyperscan runs every pattern's raw form (engine/re2form.py) at
once and selects about one line in forty. Each expression ends in `[^\\n]*\\n`, so it reports a
line once, at its newline, however often it matches there. Reported ids tell three kinds:
attention lines (a pattern's raw form, a runner signal, a slow pattern's prefilter), generic
lines (an error-like word) and non-ASCII or escape-holding lines, which the set engine
treats per pattern. Compiling takes seconds: the database is kept in the cache directory,
sealed (engine/cache.py), and rebuilt when the seal does not verify.
Optional: without the `hyperscan` package, or when it rejects the library, `build` returns
None and the set engine selects lines with RE2 instead (slower on real logs, same results).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import TYPE_CHECKING

from repopilot.engine import cache
from repopilot.engine.library import Pattern

if TYPE_CHECKING:
    from repopilot.engine.setmatch import Route

_TAIL = r"[^\n]*\n"


def _literal(text: str) -> str:
    return "".join(
        chr(b) if chr(b).isalnum() else f"\\x{b:02x}" for b in text.lower().encode("utf-8")
    )


@dataclass(frozen=True, slots=True)
class _Spec:
    exprs: list[bytes]
    flags: list[int]
    owner: list[int]  # id -> index of the pattern it stands for (-1: a signal or a word)
    generic0: int  # ids from here on: generic words
    weird: int  # the id of the non-ASCII / escape line expression


def _spec(hs, patterns: list[Pattern], routes: list[Route], signals, generic) -> _Spec:
    exprs: list[str] = []
    flags: list[int] = []
    owner: list[int] = []
    ml, ci = hs.HS_FLAG_MULTILINE, hs.HS_FLAG_CASELESS
    for s in signals:
        exprs.append(_literal(s))
        flags.append(ml | ci)
        owner.append(-1)
    for i, (p, r) in enumerate(zip(patterns, routes, strict=True)):
        if r.forms is not None:
            for f in r.forms:
                if f.raw is not None:  # None: only a non-ASCII line can match it
                    exprs.append(f.raw)
                    flags.append(ml | (ci if f.ignore_case else 0))
                    owner.append(i)
            continue
        for lit in p.literals:  # the slow path: its prefilter selects its lines
            exprs.append(_literal(lit))
            flags.append(ml | ci)
            owner.append(i)
        if p.needle_re:
            exprs.append(p.needle_re)
            flags.append(ml | ci)
            owner.append(i)
    generic0 = len(exprs)
    for g in generic:
        exprs.append(_literal(g))
        flags.append(ml | ci)
    exprs.append(r"[\x1b\x80-\xff]")
    flags.append(ml)
    encoded = [(e + _TAIL).encode("ascii") for e in exprs]
    return _Spec(encoded, flags, owner, generic0, len(exprs) - 1)


class HSFinder:
    def __init__(self, hs, db, spec: _Spec):
        self._hs, self._db, self._spec = hs, db, spec

    def find(self, data: bytes) -> tuple[dict[int, set[int] | None], list[int]]:
        """{line start: the patterns whose raw form matched there, or None for a non-ASCII
        line (where raw forms prove nothing)} and the sorted starts of generic lines."""
        if not data.endswith(b"\n"):
            data += b"\n"
        att: list[tuple[int, int]] = []
        gen: list[int] = []
        g0 = self._spec.generic0
        weird = self._spec.weird

        def on_match(id_: int, _from: int, to: int, _flags: int, _ctx) -> None:
            if g0 <= id_ < weird:
                gen.append(to)
            else:
                att.append((to, id_))

        self._db.scan(data, match_event_handler=on_match)
        rfind = data.rfind
        owner = self._spec.owner
        lines: dict[int, set[int] | None] = {}
        odd: set[int] = set()
        for to, id_ in att:
            start = rfind(b"\n", 0, to - 1) + 1
            if id_ == weird:
                odd.add(start)
                continue
            got = lines.get(start)
            if got is None:
                got = lines[start] = set()
            if owner[id_] >= 0:
                got.add(owner[id_])
        for start in odd:
            lines[start] = None
        gens = sorted({rfind(b"\n", 0, to - 1) + 1 for to in gen})
        return lines, gens


def build(patterns: list[Pattern], routes: list[Route], signals, generic) -> HSFinder | None:
    try:
        import hyperscan as hs
    except ImportError:
        return None
    spec = _spec(hs, patterns, routes, signals, generic)
    digest = hashlib.sha256(
        repr((getattr(hs, "__version__", ""), spec.exprs, spec.flags)).encode()
    ).hexdigest()[:32]
    name = f"hyperscan-{digest}.db"
    blob = cache.read_sealed(name)
    if blob is not None:
        try:
            db = hs.loadb(blob, hs.HS_MODE_BLOCK)
            db.scratch = hs.Scratch(db)  # a loaded database comes without one
            return HSFinder(hs, db, spec)
        except Exception:  # noqa: BLE001  (a cache is only an optimization: rebuild)
            pass
    db = hs.Database(mode=hs.HS_MODE_BLOCK)
    try:
        db.compile(expressions=spec.exprs, ids=list(range(len(spec.exprs))), flags=spec.flags)
    except Exception:  # noqa: BLE001  (hyperscan.error: a pattern it cannot take; RE2 instead)
        return None
    cache.write_sealed(name, hs.dumpb(db))
    return HSFinder(hs, db, spec)
