"""What `repopilot patterns lint` says about the set engine: how many patterns RE2 decides, how
many `regex` confirms, which have no RE2 form and why, and which the Hyperscan self-check left
to their prefilter."""

from __future__ import annotations

from dataclasses import dataclass

from repopilot.engine.library.loader import Pattern
from repopilot.engine.match.routes import routes
from repopilot.engine.match.scan import Scanner


@dataclass(frozen=True, slots=True)
class RouteSummary:
    """What `repopilot patterns lint` says about the set engine."""

    exact: int  # the line set decides them on ASCII lines (`regex` only fills captures)
    confirmed: int  # an RE2 form wider than the pattern: `regex` confirms what it selects
    checked_out: int | None  # left to the prefilter by the Hyperscan self-check (None: absent)
    slow: list[tuple[Pattern, str]]  # no RE2 form: per-pattern `regex` on prefilter lines, why
    by_needle: int = (
        0  # selected in the Hyperscan pass by their needle (engine/match/hyperscan_select.py)
    )


def summarize(patterns: list[Pattern]) -> RouteSummary:
    got = routes(patterns)
    slow = [(p, r.reason) for p, r in zip(patterns, got, strict=True) if r.forms is None]
    out: set[int] = set()
    checked_out = None
    try:
        scanner = Scanner(patterns, engine="set")
        scanner.prepare()
        if scanner.sets is not None and scanner.sets.finder is not None:
            out = scanner.sets.finder.unsafe
            checked_out = len(out)
    except Exception:  # noqa: BLE001  (the counts without the build)
        checked_out = None
    exact = sum(1 for i, r in enumerate(got) if r.forms is not None and r.exact and i not in out)
    rest = len(patterns) - exact - len(slow) - len(out)
    needled = sum(1 for i, r in enumerate(got) if r.selector is not None and i not in out)
    return RouteSummary(exact, rest, checked_out, slow, needled)
