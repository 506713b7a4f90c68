"""Which patterns match which plain candidate lines of a chunk: one Hyperscan pass for all.

The matchable texts of a chunk's plain candidate lines (engine/plainform.py) are joined with
`\\n`; every pattern's plain form, followed by `[^\\n]*\\n`, reports each line it matches once,
at that line's newline. Error-like words are in the same database, so one pass also says which
lines are generic ones. Built when the set engine is (a few seconds at most), then kept sealed in
the cache directory like engine/hsfind.py's database.

Checked at build time: every pattern's own examples, at several offsets, must be reported as the
pattern says (its `match` lines found, its `no_match` lines not, for an exact form); a pattern
that fails is left to `regex` on the lines the first pass selects (`unchecked`).
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from repopilot.engine import cache, plainform
from repopilot.engine.library import Pattern
from repopilot.engine.plainform import PlainForm, plain_form
from repopilot.engine.re2form import Untranslatable

if TYPE_CHECKING:
    from repopilot.engine.setmatch import Route

_TAIL = r"[^\n]*\n"
OFFSETS = 8


@dataclass(frozen=True, slots=True)
class Decided:
    """One plain line: the patterns whose plain form matched, and whether a word did."""

    patterns: frozenset[int]
    generic: bool


def _forms(patterns: list[Pattern]) -> list[list[PlainForm] | None]:
    """Per pattern its plain forms ([] when no plain line can match it; None: no form)."""
    out: list[list[PlainForm] | None] = []
    for p in patterns:
        forms: list[PlainForm] | None = []
        for expr in p.exprs:
            try:
                f = plain_form(expr)
            except (Untranslatable, re.error, ValueError, RecursionError):
                forms = None
                break
            if f is not None and forms is not None:
                forms.append(f)
        out.append(forms)
    return out


def _word(text: str) -> str:
    return "".join(c if c.isalnum() else f"\\x{ord(c):02x}" for c in text.lower())


class LineFinder:
    """Ids in the database: the plain forms (`owner`: their pattern), then from `generic0` the
    error-like words, then from `needle0` the needles of inexact patterns (`needle_owner`):
    an inexact pattern in `filtered` is decided only on a line where a needle of its own is
    too, as the per-pattern path tries a pattern only where its needle is."""

    def __init__(self, db, owner: list[int], generic0: int, needle0: int, needle_owner: list[int],
                 covered: set[int], exact: set[int]):  # fmt: skip
        self._db = db
        self._owner = owner
        self._generic0 = generic0
        self._needle0 = needle0
        self._needle_owner = needle_owner
        self.filtered = set(self._needle_owner)
        self.covered = covered  # patterns this pass decides (exactly, or as a necessary test)
        self.exact = exact  # of those, the ones it decides exactly

    def find(self, texts: list[str]) -> list[Decided]:
        """For each text (a plain line's matchable text, no newline), what matched there."""
        buf = ("\n".join(texts) + "\n").encode("ascii")
        ends: dict[int, int] = {}
        at = 0
        for n, t in enumerate(texts):
            at += len(t) + 1
            ends[at] = n
        got: dict[int, list[int]] = {}

        def on_match(id_: int, _from: int, to: int, _flags: int, _ctx) -> None:
            got.setdefault(ends[to], []).append(id_)

        self._db.scan(buf, match_event_handler=on_match)
        out = [NOTHING] * len(texts)
        owner, g0, n0 = self._owner, self._generic0, self._needle0
        needle_owner, filtered = self._needle_owner, self.filtered
        for n, ids in got.items():
            forms = {owner[i] for i in ids if i < g0}
            if filtered and forms & filtered:
                forms -= filtered - {needle_owner[i - n0] for i in ids if i >= n0}
            out[n] = Decided(frozenset(forms), any(g0 <= i < n0 for i in ids))
        return out


NOTHING = Decided(frozenset(), False)


def build(patterns: list[Pattern], routes: list[Route], only: list[int], generic: tuple[str, ...]):
    """The finder, or None without Hyperscan or when it rejects the library. Only the
    patterns `only` (those with RE2 forms) are in it; the rest are not `covered`. What the
    build decides (forms, database, the examples' verdict) is kept sealed in the cache, keyed
    by everything it depends on, so a start-up with a warm cache only loads it."""
    try:
        import hyperscan as hs
    except ImportError:
        return None
    flags = [bool(r.forms and r.forms[0].ignore_case) or bool(p.flags)
             for p, r in zip(patterns, routes, strict=True)]  # fmt: skip
    code = b"".join(Path(m).read_bytes() for m in (__file__, plainform.__file__))
    key = repr((getattr(hs, "__version__", ""), [(p.exprs, p.spec.examples) for p in patterns],
                flags, only, generic))  # fmt: skip
    name = "hsline-" + hashlib.sha256(code + key.encode()).hexdigest()[:32]
    meta, blob = cache.read_sealed(name + ".json"), cache.read_sealed(name + ".db")
    if meta is not None and blob is not None:
        try:
            m = json.loads(meta)
            db = hs.loadb(blob, hs.HS_MODE_BLOCK)
            db.scratch = hs.Scratch(db)
            return LineFinder(db, m["owner"], m["generic0"], m["needle0"], m["needles"],
                              set(m["covered"]), set(m["exact"]))  # fmt: skip
        except Exception:  # noqa: BLE001  (a cache is only an optimization: rebuild)
            pass
    finder = _build(hs, patterns, flags, set(only), generic)
    if finder is not None:
        cache.write_sealed(name + ".db", hs.dumpb(finder._db))
        cache.write_sealed(name + ".json", json.dumps({
            "owner": finder._owner, "generic0": finder._generic0,
            "needle0": finder._needle0, "needles": finder._needle_owner,
            "covered": sorted(finder.covered), "exact": sorted(finder.exact),
        }).encode())  # fmt: skip
    return finder


def _build(hs, patterns: list[Pattern], flags: list[bool], keep: set[int], generic):
    forms = [f if i in keep else None for i, f in enumerate(_forms(patterns))]
    exprs: list[bytes] = []
    hsflags: list[int] = []
    owner: list[int] = []
    for i, fs in enumerate(forms):
        for f in fs or ():
            exprs.append(f.expr.encode("ascii"))
            caseless = hs.HS_FLAG_CASELESS if flags[i] or f.icase else 0
            hsflags.append(hs.HS_FLAG_MULTILINE | caseless)
            owner.append(i)
    generic0 = len(exprs)
    for g in generic:
        exprs.append((_word(g) + _TAIL).encode("ascii"))
        hsflags.append(hs.HS_FLAG_MULTILINE | hs.HS_FLAG_CASELESS)
    covered = {i for i, fs in enumerate(forms) if fs is not None}
    exact = {i for i, fs in enumerate(forms) if fs is not None and all(f.exact for f in fs)}
    needle0 = len(exprs)
    needle_owner: list[int] = []
    for i in sorted(covered - exact):
        needles = _needles(patterns[i])
        if needles:
            exprs += needles
            hsflags += [hs.HS_FLAG_MULTILINE | hs.HS_FLAG_CASELESS] * len(needles)
            needle_owner += [i] * len(needles)
    db = hs.Database(mode=hs.HS_MODE_BLOCK)
    try:
        db.compile(expressions=exprs, ids=list(range(len(exprs))), flags=hsflags)
    except Exception:  # noqa: BLE001  (hyperscan.error: a form it cannot take)
        return None
    finder = LineFinder(db, owner, generic0, needle0, needle_owner, covered, exact)
    bad = _unchecked(finder, patterns)
    finder.covered -= bad
    finder.exact -= bad
    return finder


def _needles(p: Pattern) -> list[bytes]:
    """The pattern's prefilter (its literals, or its `prefilter_regex`) as plain expressions
    (caseless, as the per-pattern path matches them); [] when one has no plain form."""
    if p.literals:
        return [(_word(lit) + _TAIL).encode("ascii") for lit in p.literals if lit.isascii()]
    if not p.needle_re:
        return []
    try:
        form = plain_form(p.needle_re)
    except (Untranslatable, re.error, ValueError, RecursionError):
        return []
    return [] if form is None else [form.expr.encode("ascii")]


def _unchecked(finder: LineFinder, patterns: list[Pattern]) -> set[int]:
    """Patterns whose own examples the pass gets wrong (see the module docstring); each
    example follows a filler line of 0..OFFSETS-1 characters, so it sits at several offsets."""
    from repopilot.logs.textnorm import body, display

    texts: list[str] = []
    want: dict[int, tuple[int, bool]] = {}
    for i, p in enumerate(patterns):
        if i not in finder.covered:
            continue
        ex = p.spec.examples
        cases = [(x if isinstance(x, str) else x.line, True) for x in ex.match]
        if i in finder.exact:
            cases += [(x if isinstance(x, str) else x.line, False) for x in ex.no_match]
        for line, hit in cases:
            text = body(display(line))
            if not is_plain(text):
                continue
            for k in range(OFFSETS):
                texts.append("." * k)
                want[len(texts)] = (i, hit)
                texts.append(text)
    bad: set[int] = set()
    for n, got in enumerate(finder.find(texts)):
        if n in want:
            i, hit = want[n]
            if (i in got.patterns) != hit:
                bad.add(i)
    return bad


def is_plain(text: str) -> bool:
    """Only tabs and printable ASCII: what plain forms are exact on."""
    return text.isascii() and (text.isprintable() or text.replace("\t", " ").isprintable())
