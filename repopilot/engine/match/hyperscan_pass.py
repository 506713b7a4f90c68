"""Hyperscan: the lines of a chunk the set engine must look at, in one pass over its bytes.

A DFA over hundreds of whole patterns (RE2's) explodes on real logs, and a literal prefilter
selects one line in seven; Hyperscan runs every pattern's raw form (engine/match/re2_translate.py) at
once and selects about one line in forty. Each expression ends in `[^\\n]*\\n`, so it reports a
line once, at its newline, however often it matches there. Reported ids tell three kinds:
attention lines (a pattern's raw form, a runner signal, a slow pattern's prefilter), generic
lines (an error-like word) and non-ASCII or escape-holding lines, which the set engine
treats per pattern. Compiling takes seconds: the database is kept in the cache directory,
sealed (engine/library/cache.py), and rebuilt when the seal does not verify.
Optional: without the `hyperscan` package, or when it rejects the library, `build` returns
None and the set engine selects lines with RE2 instead (slower on real logs, same results).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from repopilot.engine.library import cache
from repopilot.engine.library.loader import Pattern
from repopilot.engine.match.re2_translate import WEIRD_BYTES

if TYPE_CHECKING:
    from types import ModuleType

    import hyperscan  # (it ships stubs; where it is not installed, its names are Any)

    from repopilot.engine.match.routes import Route

_TAIL = r"[^\n]*\n"
CHECK = 2  # the version of the check below (_missed): a new one invalidates its cached answer


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
    weird: int  # the id of the escape / case-folding line expression


def _spec(
    hs: ModuleType,
    patterns: list[Pattern],
    routes: list[Route],
    signals: tuple[str, ...],
    generic: tuple[str, ...],
    unsafe: set[int],
) -> _Spec:
    exprs: list[str] = []
    flags: list[int] = []
    owner: list[int] = []
    ml, ci = hs.HS_FLAG_MULTILINE, hs.HS_FLAG_CASELESS
    for s in signals:
        exprs.append(_literal(s))
        flags.append(ml | ci)
        owner.append(-1)
    for i, (p, r) in enumerate(zip(patterns, routes, strict=True)):
        if r.forms is not None and i not in unsafe:
            if r.selector is not None:  # cheaper for Hyperscan than forms led by whitespace
                exprs.append(r.selector)
                flags.append(ml | ci)
                owner.append(i)
                continue
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
    # lines whose raw forms prove nothing (engine/match/re2_translate.py): an escape sequence that display
    # removes, or a character that folds to an ASCII letter under IGNORECASE
    weird = ["\\x1b", *("".join(f"\\x{b:02x}" for b in w) for w in WEIRD_BYTES)]
    exprs.append("(?:" + "|".join(weird) + ")")
    flags.append(ml)
    encoded = [(e + _TAIL).encode("ascii") for e in exprs]
    return _Spec(encoded, flags, owner, generic0, len(exprs) - 1)


class HSFinder:
    def __init__(
        self, hs: ModuleType, db: hyperscan.Database, spec: _Spec, unsafe: set[int]
    ) -> None:
        self._hs, self._db, self._spec = hs, db, spec
        self.signalled: set[int] = set()  # (of the last `find`)
        self.unsafe = unsafe  # patterns selected by their prefilter (see _missed)

    def find(self, data: bytes) -> tuple[dict[int, set[int] | None], list[int]]:
        """{line start: the patterns whose raw form matched there, or None for a line whose
        raw forms prove nothing (an escape, a character folding to ASCII)} and the sorted
        starts of generic lines. `self.signalled` is then the starts of the lines where a
        runner signal matched."""
        if not data.endswith(b"\n"):
            data += b"\n"
        att: list[tuple[int, int]] = []
        gen: list[int] = []
        g0 = self._spec.generic0
        weird = self._spec.weird

        def on_match(id_: int, _from: int, to: int, _flags: int, _ctx: object) -> None:
            if g0 <= id_ < weird:
                gen.append(to)
            else:
                att.append((to, id_))

        self._db.scan(data, match_event_handler=on_match)
        rfind = data.rfind
        owner = self._spec.owner
        lines: dict[int, set[int] | None] = {}
        odd: set[int] = set()
        signalled: set[int] = set()
        last_to, start = -1, 0
        for to, id_ in att:
            if to != last_to:  # (every expression on one line reports at its newline)
                start = rfind(b"\n", 0, to - 1) + 1
                last_to = to
            if id_ == weird:
                odd.add(start)
                continue
            got = lines.get(start)
            if got is None:
                got = lines[start] = set()
            if owner[id_] >= 0:
                got.add(owner[id_])
            else:
                signalled.add(start)
        self.signalled = signalled
        for start in odd:
            lines[start] = None
        gens = sorted({rfind(b"\n", 0, to - 1) + 1 for to in set(gen)})
        return lines, gens


def _missed(
    hs: ModuleType,
    db: hyperscan.Database,
    spec: _Spec,
    patterns: list[Pattern],
    probed: dict[bytes, list[bytes]],
) -> set[int]:
    """Patterns the database does not report on their own match examples, or on the probes
    of their expressions (engine/match/hyperscan_probe.py), at 16 offsets each.

    Vectorscan 5.4.12 (the `hyperscan` 0.9.1 wheel) misses matches in some multi-pattern
    databases: with `#\\d+ ERROR` and `#(?: A fatal ...|\\s+SIGSEGV ...)` compiled together, a
    line is reported or not depending on its offset in the buffer; `file.py:4: teh ==> the`
    (codespell) next to `(DocTestFailure|UnexpectedException)` was missed where the examples'
    two-digit line numbers were not. Such patterns are then selected by their prefilter
    literals, as on the per-pattern path. This is a check, not a proof: the set engine stays
    opt-in (engine/match/scan.py)."""
    from repopilot.engine.match.hyperscan_probe import probes
    from repopilot.logs.textnorm import body, display

    texts: list[tuple[int, bytes]] = []
    for i, p in enumerate(patterns):
        for ex in p.spec.examples.match:
            text = body(display(ex if isinstance(ex, str) else ex.line)).encode("utf-8")
            if text.isascii() and b"\x1b" not in text:
                texts.append((i, text))
    for id_, (expr, flags) in enumerate(zip(spec.exprs, spec.flags, strict=True)):
        if id_ >= len(spec.owner) or spec.owner[id_] < 0:
            continue  # a signal, a word or the escape line expression: no pattern to route
        if expr not in probed:
            probed[expr] = probes(expr[: -len(_TAIL)], bool(flags & hs.HS_FLAG_CASELESS))
        texts += [(spec.owner[id_], s) for s in probed[expr]]
    lines = [(i, b"." * k + b" " + text + b"\n") for i, text in texts for k in range(16)]
    if not lines:
        return set()
    buf = b"".join(line for _, line in lines)
    ends, at = {}, 0
    for n, (_, line) in enumerate(lines):
        at += len(line)
        ends[at] = n
    got: set[tuple[int, int]] = set()

    def on_match(id_: int, _from: int, to: int, _flags: int, _ctx: object) -> None:
        if id_ < len(spec.owner) and spec.owner[id_] >= 0 and to in ends:
            got.add((spec.owner[id_], ends[to]))

    db.scan(buf, match_event_handler=on_match)
    return {i for n, (i, _) in enumerate(lines) if (i, n) not in got}


def _compile(hs: ModuleType, spec: _Spec) -> hyperscan.Database:
    db: hyperscan.Database = hs.Database(mode=hs.HS_MODE_BLOCK)
    db.compile(expressions=spec.exprs, ids=list(range(len(spec.exprs))), flags=spec.flags)
    return db


def _database(hs: ModuleType, spec: _Spec, cache_dir: Path | None) -> hyperscan.Database | None:
    """The compiled database for `spec`, from the cache when its seal verifies; None when
    Hyperscan rejects an expression."""
    digest = hashlib.sha256(
        repr((getattr(hs, "__version__", ""), spec.exprs, spec.flags)).encode()
    ).hexdigest()[:32]
    name = f"hyperscan-{digest}.db"
    blob = cache.read_sealed(name, cache_dir)
    if blob is not None:
        try:
            db: hyperscan.Database = hs.loadb(blob, hs.HS_MODE_BLOCK)
            db.scratch = hs.Scratch(db)  # a loaded database comes without one
            return db
        except Exception:  # noqa: BLE001  (a cache is only an optimization: rebuild)
            pass
    try:
        db = _compile(hs, spec)
    except Exception:  # noqa: BLE001  (hyperscan.error: a pattern it cannot take)
        return None
    cache.write_sealed(name, hs.dumpb(db), cache_dir)
    return db


def build(
    patterns: list[Pattern],
    routes: list[Route],
    signals: tuple[str, ...],
    generic: tuple[str, ...],
    cache_dir: Path | None = None,
) -> HSFinder | None:
    """The Hyperscan pass for `patterns`, its database and check kept sealed in `cache_dir`;
    None without Hyperscan or when it cannot take the expressions."""
    try:
        import hyperscan as hs
    except ImportError:
        return None
    # The check's answer (which patterns go to their prefilter) is kept sealed too: it depends
    # only on the expressions, the examples, the Hyperscan version and the check itself, and
    # making the probes costs about a second.
    first = _spec(hs, patterns, routes, signals, generic, set())
    examples = [[str(getattr(ex, "line", ex)) for ex in p.spec.examples.match] for p in patterns]
    key = repr((getattr(hs, "__version__", ""), CHECK, first.exprs, first.flags, examples))
    checked = f"hyperscan-check-{hashlib.sha256(key.encode()).hexdigest()[:32]}.json"
    blob = cache.read_sealed(checked, cache_dir)
    if blob is not None:
        try:
            unsafe = {int(i) for i in json.loads(blob)}
        except (ValueError, TypeError):
            unsafe = None
        if unsafe is not None:
            spec = _spec(hs, patterns, routes, signals, generic, unsafe)
            db = _database(hs, spec, cache_dir)
            return None if db is None else HSFinder(hs, db, spec, unsafe)
    unsafe = set()
    probed: dict[bytes, list[bytes]] = {}
    for _ in range(4):
        spec = _spec(hs, patterns, routes, signals, generic, unsafe)
        db = _database(hs, spec, cache_dir)
        if db is None:
            return None
        missed = _missed(hs, db, spec, patterns, probed) - unsafe
        if not missed:
            cache.write_sealed(checked, json.dumps(sorted(unsafe)).encode(), cache_dir)
            return HSFinder(hs, db, spec, unsafe)
        unsafe |= missed
    return None
