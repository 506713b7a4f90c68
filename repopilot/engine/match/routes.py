"""Each pattern's route through the set engine: its RE2 forms (engine/match/re2_translate.py),
whether they are exact, whether it has captures, and the needle that selects its lines in the
Hyperscan pass (engine/match/hyperscan_select.py). Translating the library costs about a second,
so the routes are kept sealed in the cache (engine/library/cache.py)."""

from __future__ import annotations

import hashlib
import json
import re._parser as sre
import sys
import unicodedata
from dataclasses import dataclass
from pathlib import Path

import regex

from repopilot import rx
from repopilot.engine.library import cache
from repopilot.engine.library.loader import Pattern
from repopilot.engine.match.hyperscan_select import needle_selector
from repopilot.engine.match.re2_translate import RE2Form, Untranslatable, translate


@dataclass(frozen=True, slots=True)
class Route:
    """How the set engine treats one pattern (what `repopilot patterns lint` reports)."""

    forms: tuple[RE2Form, ...] | None  # None: no RE2 form, the slow path
    exact: bool  # every form is exact: RE2 decides a decidable line (`regex` reads captures)
    captures: bool  # named groups: the `regex` engine fills them
    reason: str  # why the pattern is slow or inexact ("" when neither)
    # the raw form of its needle, when that selects its lines in pass 1 (engine/match/hyperscan_select.py)
    selector: str | None = None


def route(p: Pattern) -> Route:
    forms: list[RE2Form] = []
    captures = False
    for expr in p.exprs:
        try:
            form = translate(expr, bool(p.flags))
            if rx.available():  # (without RE2 there is no set engine to run the form)
                rx.compile(form.line, max_mem=64 << 20, never_nl=True)
        except Untranslatable as exc:
            return Route(None, False, False, str(exc))
        except rx.error as exc:
            return Route(None, False, False, f"RE2 rejects its translation ({exc})")
        captures = captures or bool(sre.parse(expr).state.groupdict)
        forms.append(form)
    exact = all(f.exact for f in forms)
    why = "" if exact else "lookaround, atomic group or possessive repeat: `regex` confirms"
    return Route(tuple(forms), exact, captures, why, needle_selector(p))


def routes(patterns: list[Pattern], cache_dir: Path | None = None) -> list[Route]:
    """Every pattern's route; kept (sealed) in the cache at `cache_dir`, as translating costs
    ~1 s."""
    here = Path(__file__)
    code = b"".join(Path(m).read_bytes() for m in (here, here.with_name("re2_translate.py"),
                                                   here.with_name("hyperscan_select.py")))  # fmt: skip
    what = [(p.exprs, p.flags, p.literals, p.needle_re) for p in patterns]
    # (routes also depend on this Python's parser and Unicode tables, and on `regex`'s)
    # (and on whether RE2 checked the forms)
    where = (sys.version, unicodedata.unidata_version, getattr(regex, "__version__", ""),
             rx.available())  # fmt: skip
    digest = hashlib.sha256(code + repr((where, what)).encode())
    name = f"routes-{digest.hexdigest()[:32]}.json"
    blob = cache.read_sealed(name, cache_dir)
    if blob is not None:
        try:
            return [_decode(r) for r in json.loads(blob)]
        except (ValueError, TypeError, KeyError):
            pass
    got = [route(p) for p in patterns]
    cache.write_sealed(name, json.dumps([_encode(r) for r in got]).encode(), cache_dir)
    return got


def _encode(r: Route) -> cache.Entry:
    forms = None if r.forms is None else [[f.line, f.raw, f.exact, f.ignore_case]
                                          for f in r.forms]  # fmt: skip
    return {"forms": forms, "exact": r.exact, "captures": r.captures, "reason": r.reason,
            "selector": r.selector}  # fmt: skip


def _decode(d: cache.Entry) -> Route:
    forms = None if d["forms"] is None else tuple(RE2Form(*f) for f in d["forms"])
    selector = d["selector"]
    return Route(forms, bool(d["exact"]), bool(d["captures"]), str(d["reason"]),
                 None if selector is None else str(selector))  # fmt: skip
