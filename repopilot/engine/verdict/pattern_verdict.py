"""A verdict decided by patterns: which hit group leads (non-wrapper over wrapper, then priority,
specificity and closeness to where the failure was reported; the failing step's command breaks
ties between families), the lines put before its hits (engine/verdict/order.py,
assertions.py, bare_message.py), its captures, and its category read again in the light of the
step's command.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from repopilot.engine.library.layers import learned_from
from repopilot.engine.library.loader import Pattern
from repopilot.engine.match.scan_result import Hit, ScanResult
from repopilot.engine.verdict.assertions import assertion_for, reads_above
from repopilot.engine.verdict.bare_message import owner_of_bare, uninformative
from repopilot.engine.verdict.baseline import Baseline
from repopilot.engine.verdict.candidates import (
    Candidate,
    fallback_candidate,
    first_new,
    singles,
)
from repopilot.engine.verdict.candidates import ranked as ranked_lines
from repopilot.engine.verdict.fallback import LOOKBACK
from repopilot.engine.verdict.line_score import Line, is_aside
from repopilot.engine.verdict.order import (
    NOTE_LOOKBACK,
    error_above,
    is_note,
    is_wrapper,
    specific_before,
)
from repopilot.engine.verdict.quote import (
    MAX_EVIDENCE,
    Scope,
    context,
    fill,
    margin,
    read_lines,
    reader,
    safe,
    step_prior_of,
)
from repopilot.engine.verdict.region import Region
from repopilot.engine.verdict.step_prior import CONFIDENCE, RECAST_CONFIDENCE, recast, tie_break
from repopilot.engine.verdict.structure import Structure
from repopilot.logs.reader import JobLog
from repopilot.records import Evidence, Verdict

Captures = Callable[[Hit], "dict[str, str] | None"]  # the Scanner's: None when `regex` timed out


def _wrapper(p: Pattern, hits: list[Hit]) -> bool:
    if learned_from(p) is not None:  # a maintainer named this line the cause (issue 28)
        return False
    return bool(getattr(p.spec, "wrapper", False)) or is_wrapper(hits[0].text)


def _rank(pattern: Pattern, hits: list[Hit], scope: Scope) -> tuple[bool, int, int, int]:
    last = max(h.line for h in hits)
    # a learned pattern ranks above any other (a priority is at most 100); between learned
    # ones, by their priority, then the first cause printed leads (issue 28)
    if learned_from(pattern) is not None:
        return True, 101, pattern.spec.priority, -min(h.line for h in hits)
    return (
        not _wrapper(pattern, hits),
        pattern.spec.priority,
        pattern.specificity,
        -abs(scope.focus - last),
    )


def pattern_verdict(
    job: JobLog,
    res: ScanResult,
    hits: list[Hit],
    st: Structure,
    common: dict[str, Any],
    captures: Captures,
    base: Baseline | None = None,
) -> Verdict:
    """The verdict from the hits in the failing region (`common`: the fields every verdict of
    this job shares; `base`: the passing base log, whose lines are no cause while a new one is
    left)."""
    scope = Scope(st.start, st.end, st.focus)
    groups: dict[str, list[Hit]] = {}
    for h in hits:
        groups.setdefault(h.pattern.id, []).append(h)
    for g in groups.values():
        g.sort(key=lambda h: h.line)
    ranked = sorted(groups.values(), key=lambda g: _rank(g[0].pattern, g, scope), reverse=True)
    ranked = tie_break(  # equal rank, different families: the failing step's command decides
        ranked,
        lambda g: _rank(g[0].pattern, g, scope)[:2],
        lambda g: g[0].pattern.spec.category,
        lambda: step_prior_of(Region(job, res), st),
    )
    # a tool's warnings and notes never lead its errors (shellcheck's gcc format, a compiler's)
    best = sorted(ranked[0], key=lambda h: is_aside(h.text))
    p = best[0].pattern
    first = best[0]
    region = Region(job, res, margin(p))
    leads, assertion = _lead(region, p, first, best, st, base)
    lines = _evidence(region, st, ranked, best, leads, base)
    # Contract 1's pair holds when the message still leads and the test's line follows it
    pair = [ln.number for ln in lines[:2]]
    assertion = assertion and pair == [leads[0].number, first.line]
    got = captures(first)
    if got is None:  # `regex` timed out reading them (RE2 had decided the line matches)
        got = {}
        common = {**common, "timeouts": tuple(sorted({*common["timeouts"], p.id}))}
    caps = {k: safe(v) for k, v in got.items()}
    values = {**caps, "count": str(len(best)), "step": common.get("step") or ""}
    ctx_line = lines[0].number
    category, confidence, note = p.spec.category, p.spec.confidence, ""
    if category == "other" and _wrapper(p, best):  # a wrapper says only that a command failed
        step_prior = step_prior_of(region, st)
        if step_prior is not None:
            category, confidence = step_prior.category, min(confidence, CONFIDENCE + 0.1)
            note = f" ({step_prior.note()})"
    elif learned_from(p) is not None:
        pass  # a learned pattern's verdict keeps the category it was taught (issue 28)
    elif (again := recast(category, lambda: step_prior_of(region, st))) is not None:
        category, note = again[0], f" ({again[1]})"  # what the step ran changes what it means
        confidence = min(confidence, RECAST_CONFIDENCE)
    return Verdict(
        category=category,
        confidence=confidence,
        decided_by="pattern",
        pattern_id=p.id,
        title=fill(p.spec.title, values) + note,
        hint=fill(p.spec.hint, values),
        evidence=tuple(Evidence(line=ln.number, text=safe(ln.text)) for ln in lines),
        captures=caps,
        kind=p.kind,  # type: ignore[arg-type]
        ambiguous=p.spec.ambiguous,
        context=context(region, ctx_line, p),
        assertion_first=assertion,
        learned_from=learned_from(p),
        **common,
    )


def _line(h: Hit) -> Line:
    return Line(h.line, h.text, False)


def _evidence(
    region: Region,
    st: Structure,
    ranked: list[list[Hit]],
    best: list[Hit],
    leads: tuple[Line, ...],
    base: Baseline | None,
) -> tuple[Line, ...]:
    """Distinct cause candidates (engine/verdict/candidates.py): the verdict's own cause (its
    leads, then its hit), the other patterns' leading lines in rank order, the script's own
    `##[error]` messages, the fallback's best line of the failing step; then, while room is
    left, the leading pattern's further hits."""
    first = _line(best[0])
    led = any(ln.number == first.number for ln in leads)
    head = Candidate(leads if led else (*leads, first), lead=True)
    others = [Candidate((_line(min(g, key=lambda h: is_aside(h.text))),)) for g in ranked[1:]]
    errors = singles(st.script_errors)
    more = [Candidate((_line(h),), more=True) for h in best[1:3]]
    read = reader(region)
    # the hits the engine set aside (survived, passing-test mentions, old with a base log): the
    # fallback's line is never one of them
    kept = {h.line for g in ranked for h in g}
    aside = {h.line for h in region.res.hits} - kept
    return ranked_lines(
        [
            head,
            *others,
            *errors,
            *fallback_candidate(read, st, base, aside),
            *first_new(read, st, base, aside),
            *more,
        ],
        MAX_EVIDENCE,
        base,
    )


def _lead(
    region: Region,
    p: Pattern,
    first: Hit,
    best: list[Hit],
    st: Structure,
    base: Baseline | None = None,
) -> tuple[tuple[Line, ...], bool]:
    """Lines to put before the pattern's hits (engine/verdict/order.py), and whether the first is
    a test's assertion message. A bare message (`E assert False`) follows the test's line; a
    compiler's note follows its diagnostic's error line. With a base log, a wrapper's script
    error or specific line is one the green log does not print. A learned pattern's own line
    leads (a maintainer named it the cause)."""
    if learned_from(p) is not None:
        return (), False
    if is_note(first.text):
        lo = max(st.start, first.line - NOTE_LOOKBACK)
        error = error_above(read_lines(region, lo, first.line), first.line)
        return ((error,) if error is not None else ()), False
    if _wrapper(p, best):
        hit_lines = {h.line for h in region.res.hits}
        own = [(n, t) for n, t in st.script_errors if n not in hit_lines]
        if base is not None:
            own = base.fresh(own, lambda e: e[1])
        if own:  # the script's own `##[error]` message says what the wrapper only reports
            return (Line(own[0][0], own[0][1], False),), False
        lo = max(st.start, first.line - LOOKBACK)
        above = read_lines(region, lo, first.line)
        if base is not None:
            above = base.fresh(above, lambda ln: ln.text)
        specific = specific_before(above, first.line, lo)
        return ((specific,) if specific is not None else ()), False
    if p.spec.category == "test_failure":
        lo = max(st.start, first.line - 600)
        wide = reads_above(first.text)  # a guess from the hit: the line read decides below
        lines = read_lines(region, lo if wide else first.line, first.line + 40)
        test = next((ln for ln in lines if ln.number == first.line), None)
        if test is not None and not wide and reads_above(test.text):
            lines = read_lines(region, lo, first.line + 40)
        msg = assertion_for(test, lines) if test is not None else None
        if test is not None and msg is not None and uninformative(test, msg, lines):
            return (test, msg), False
        if msg is not None:
            return (msg,), True
        owner = owner_of_bare(test, lines) if test is not None else None
        if test is not None and owner is not None:  # the hit is a bare message: its test leads
            return (owner, test), False
    return (), False
