"""The matching engine's verdict: one per job, from one streaming scan (repopilot/engine/match/scan.py).

Order of decisions:
1. Structure (engine/verdict/structure.py): did the job fail, which step, where did it end.
2. Patterns score the hits inside that region first: non-wrapper over wrapper, then priority,
   specificity and closeness to where the failure was reported. The runner's exit line and
   passing-test lines are never evidence.
3. Evidence order (engine/verdict/order.py): the specific error over its wrapper, a failing test's
   assertion message first with the test's line second.
4. No pattern: the fallback (engine/verdict/fallback.py) points at the last block of error-looking lines
   before the failing step ended, with a keyword-family category guess at low confidence.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from repopilot.engine.library.loader import Pattern, load_library
from repopilot.engine.match.scan import Engine, Scanner
from repopilot.engine.match.scan_result import Hit, ScanResult
from repopilot.engine.match.split_file import eligible, split_scan
from repopilot.engine.verdict.assertions import assertion_for, reads_above
from repopilot.engine.verdict.bare_message import owner_of_bare, uninformative
from repopilot.engine.verdict.baseline import Baseline, demote, noted
from repopilot.engine.verdict.fallback import LOOKBACK, guess, last_said
from repopilot.engine.verdict.line_score import Line
from repopilot.engine.verdict.mentions import without_mentions
from repopilot.engine.verdict.order import (
    NOTE_LOOKBACK,
    error_above,
    is_note,
    is_wrapper,
    specific_before,
)
from repopilot.engine.verdict.passing import is_passing_test
from repopilot.engine.verdict.region import Region
from repopilot.engine.verdict.step_prior import (
    CONFIDENCE,
    RECAST_CONFIDENCE,
    SCRIPT_LINES,
    Prior,
    guess_category,
    header_and_script,
    prior,
    recast,
    tie_break,
)
from repopilot.engine.verdict.structure import Structure, analyze
from repopilot.engine.verdict.survived import survived, without_ignored
from repopilot.evidence.runners import bare_exit
from repopilot.logs.reader import JobLog, open_logs
from repopilot.logs.textnorm import annotation
from repopilot.records import INFRA_CATEGORIES, Evidence, Verdict
from repopilot.safety.masks import registered_masks
from repopilot.safety.redact import redact

DEFAULT_CONTEXT = (2, 3)
MAX_EVIDENCE = 5


@dataclass(frozen=True, slots=True)
class Scope:
    start: int
    end: int  # last line of the failing step
    focus: int  # the line the failure was reported at (exit code line), for closeness


class Classifier:
    """Compile a pattern library once, classify many logs. `engine` and `cache_dir`: the
    settings' REPOPILOT_SCAN_ENGINE and cache directory (None: the set engine, the default
    cache place)."""

    def __init__(
        self,
        patterns: list[Pattern] | None = None,
        timeout: float = 0.05,
        engine: Engine | None = None,
        cache_dir: Path | None = None,
    ):
        self.patterns = patterns if patterns is not None else load_library(cache_dir=cache_dir)
        self.scanner = Scanner(self.patterns, timeout, engine, cache_dir=cache_dir)

    # A passing log of the same job (`--base-log`, engine/verdict/baseline.py): lines it also
    # prints are not taken as the cause.
    baseline: Baseline | None = None

    def classify_path(self, path: str | Path, assume_failed: bool = False) -> list[Verdict]:
        return [self.classify(job, assume_failed) for job in open_logs(str(path))]

    def classify(self, job: JobLog, assume_failed: bool = False) -> Verdict:
        """`assume_failed`: the job is known to have failed (the API's conclusion, or the CLI's
        `--assume-failed`), so the verdict is never `no_failure`."""
        res = split_scan(self.scanner, job) if eligible(job) else None
        if res is None:
            res = self.scanner.scan(job)
        timeouts = tuple(sorted(res.timeouts))
        # A job name only when the input names one (a zip folder, gh's job column).
        name = job.name if job.name != job.source else None
        hits = [h for h in res.hits if _evidence_line(h.text)]
        hits, seen = without_mentions(job, res, hits)  # a passing test's output is no failure
        read = _reader(Region(job, res))
        hits, seen = without_ignored(hits, seen, read)  # `ignore_errors` tasks failed nothing
        st = analyze(job, seen, hits, assume_failed)
        if not st.failed:
            return Verdict(
                source=job.source,
                job=name,
                category="no_failure",
                confidence=0.9,
                title="No failure found",
                timeouts=timeouts,
            )
        scope = Scope(st.start, st.end, st.focus)
        common: dict[str, Any] = dict(
            source=job.source,
            job=name,
            step=st.step.name if st.step else None,
            step_lines=(scope.start, scope.end),
            timeouts=timeouts,
        )
        base = self.baseline
        inside, all_old = demote(base, _in_scope(hits, scope), _text, _infra, _line)
        if all_old:  # the green log prints every hit too: the first new error-looking line
            v = _unknown_verdict(job, res, st, common, base)
            if v.evidence and v.evidence[0].line != (st.step.start if st.step else 0):
                return noted(v, base)
        gone = survived(res, inside, st.start, st.focus, read)  # errors the step went on after
        kept = [h for h in inside if h.pattern.id not in gone]
        if kept:
            return noted(_pattern_verdict(job, res, kept, st, common, self.scanner), base)
        after = max((h.line for h in inside), default=0)  # the cause is after what it survived
        return noted(_unknown_verdict(job, res, st, common, base, after), base)


def _evidence_line(text: str) -> bool:
    """Never evidence: a runner's exit line that says nothing but the status (GitHub's), a
    passing test, a `##[warning]`/`##[notice]`."""
    if bare_exit(text) or is_passing_test(text):
        return False
    return annotation(text) not in ("warning", "notice", "debug")


def _in_scope(hits: Iterable[Hit], scope: Scope) -> list[Hit]:
    good = list(hits)
    inside = [h for h in good if scope.start <= h.line <= scope.end]
    if inside:
        return inside
    # A failure reported outside the step that ran it (an action's post step, a plain log).
    return [h for h in good if h.line <= scope.end] or good


def _wrapper(p: Pattern, hits: list[Hit]) -> bool:
    return bool(getattr(p.spec, "wrapper", False)) or is_wrapper(hits[0].text)


def _rank(pattern: Pattern, hits: list[Hit], scope: Scope) -> tuple:
    last = max(h.line for h in hits)
    return (
        not _wrapper(pattern, hits),
        pattern.spec.priority,
        pattern.specificity,
        -abs(scope.focus - last),
    )


def _pattern_verdict(
    job: JobLog, res: ScanResult, hits: list[Hit], st: Structure, common: dict, scanner: Scanner
) -> Verdict:
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
        lambda: _prior(Region(job, res), st),
    )
    best = ranked[0]
    p = best[0].pattern
    first = best[0]
    lines: list[tuple[int, str]] = [(h.line, h.text) for h in best[:3]]
    for g in ranked[1:]:
        if len(lines) >= MAX_EVIDENCE:
            break
        if all(g[0].line != n for n, _ in lines):
            lines.append((g[0].line, g[0].text))
    region = Region(job, res, _margin(p))
    leads, assertion = _lead(region, p, first, best, st)
    if leads:
        led = {ln.number for ln in leads}
        lines = [(ln.number, ln.text) for ln in leads] + [x for x in lines if x[0] not in led]
        lines = lines[:MAX_EVIDENCE]
    got = scanner.captures(first)
    if got is None:  # `regex` timed out reading them (RE2 had decided the line matches)
        got = {}
        common = {**common, "timeouts": tuple(sorted({*common["timeouts"], p.id}))}
    caps = {k: _safe(v) for k, v in got.items()}
    values = {**caps, "count": str(len(best)), "step": common.get("step") or ""}
    ctx_line = leads[0].number if leads else first.line
    category, confidence, note = p.spec.category, p.spec.confidence, ""
    if category == "other" and _wrapper(p, best):  # a wrapper says only that a command failed
        step_prior = _prior(region, st)
        if step_prior is not None:
            category, confidence = step_prior.category, min(confidence, CONFIDENCE + 0.1)
            note = f" ({step_prior.note()})"
    elif (again := recast(category, lambda: _prior(region, st))) is not None:
        category, note = again[0], f" ({again[1]})"  # what the step ran changes what it means
        confidence = min(confidence, RECAST_CONFIDENCE)
    return Verdict(
        category=category,  # type: ignore[arg-type]
        confidence=confidence,
        decided_by="pattern",
        pattern_id=p.id,
        title=fill(p.spec.title, values) + note,
        hint=fill(p.spec.hint, values),
        evidence=tuple(Evidence(line=n, text=_safe(t)) for n, t in lines),
        captures=caps,
        kind=p.kind,  # type: ignore[arg-type]
        ambiguous=p.spec.ambiguous,
        context=_context(region, ctx_line, p),
        assertion_first=assertion,
        **common,
    )


def _lead(
    region: Region, p: Pattern, first: Hit, best: list[Hit], st: Structure
) -> tuple[tuple[Line, ...], bool]:
    """Lines to put before the pattern's hits (engine/verdict/order.py), and whether the first is
    a test's assertion message. A bare message (`E assert False`) follows the test's line; a
    compiler's note follows its diagnostic's error line."""
    if is_note(first.text):
        lo = max(st.start, first.line - NOTE_LOOKBACK)
        error = error_above(_read(region, lo, first.line), first.line)
        return ((error,) if error is not None else ()), False
    if _wrapper(p, best):
        hit_lines = {h.line for h in region.res.hits}
        own = [(n, t) for n, t in st.script_errors if n not in hit_lines]
        if own:  # the script's own `##[error]` message says what the wrapper only reports
            return (Line(own[0][0], own[0][1], False),), False
        lo = max(st.start, first.line - LOOKBACK)
        specific = specific_before(_read(region, lo, first.line), first.line, lo)
        return ((specific,) if specific is not None else ()), False
    if p.spec.category == "test_failure":
        lo = max(st.start, first.line - 600)
        wide = reads_above(first.text)  # a guess from the hit: the line read decides below
        lines = _read(region, lo if wide else first.line, first.line + 40)
        test = next((ln for ln in lines if ln.number == first.line), None)
        if test is not None and not wide and reads_above(test.text):
            lines = _read(region, lo, first.line + 40)
        msg = assertion_for(test, lines) if test is not None else None
        if test is not None and msg is not None and uninformative(test, msg, lines):
            return (test, msg), False
        if msg is not None:
            return (msg,), True
        owner = owner_of_bare(test, lines) if test is not None else None
        if test is not None and owner is not None:  # the hit is a bare message: its test leads
            return (owner, test), False
    return (), False


def _unknown_verdict(
    job: JobLog,
    res: ScanResult,
    st: Structure,
    common: dict,
    base: Baseline | None = None,
    after: int = 0,
) -> Verdict:
    lo = max(st.start, st.focus - LOOKBACK, after + 1)
    region = Region(job, res, DEFAULT_CONTEXT)
    lines = _read(region, lo, st.focus)
    errors = st.script_errors
    if base is not None:  # only what the green log does not print can be the cause
        lines = base.fresh(lines, lambda ln: ln.text)
        errors = tuple(base.fresh(errors, lambda e: e[1]))
    g = guess(lines, st.focus, errors, st.step.name if st.step else None)
    category, confidence, note = guess_category(
        g.category, g.confidence, lambda: _prior(region, st)
    )
    evidence = tuple(Evidence(line=ln.number, text=_safe(ln.text)) for ln in g.lines)
    if not evidence and st.step is not None and st.step.name:
        # Nothing error-like in the failing step: the last thing the command printed before its
        # exit line (where scripts say why in their own words), then the command itself. Only
        # where the runner's exit line follows the output at once (GitHub): Travis repeats a
        # multi-line command in its exit message, and a diff's last line tells nothing.
        header = Evidence(line=st.step.start, text=_safe(st.step.name))
        said = None
        if job.fmt in ("gha", "ghcli"):
            said = last_said(lines, st.step.start, st.focus, st.step.name)
        evidence = (header,) if said is None else (Evidence(said.number, _safe(said.text)), header)
    context = _context(region, evidence[0].line, None) if evidence else ()
    step = common.get("step")
    guessed = category != "unknown"
    looks = f"looks like {category.replace('_', ' ')}" + (f", {note}" if note else "")
    return Verdict(
        category=category,  # type: ignore[arg-type]
        confidence=confidence,
        decided_by="none",
        title=(f"Unrecognized failure in {step}" if step else "Unrecognized failure")
        + (f" ({looks})" if guessed else ""),
        hint="No pattern recognizes this failure; read the evidence lines and the step's end.",
        evidence=evidence,
        context=context,
        ambiguous=guessed,  # a guess: the LLM (when configured) still gets to look
        **common,
    )


def _prior(region: Region, st: Structure) -> Prior | None:
    """The failing step's command as a category prior (engine/verdict/step_prior.py)."""
    if st.step is None:
        return None
    first = [ln.text for ln in _read(region, st.step.start, st.step.start + SCRIPT_LINES)]
    header, script = header_and_script(first)
    return prior(header or st.step.name, script)


def _infra(h: Hit) -> bool:
    return h.pattern.spec.category in INFRA_CATEGORIES


def _text(h: Hit) -> str:
    return h.text


def _line(h: Hit) -> int:
    return h.line


def _margin(p: Pattern | None) -> tuple[int, int]:
    """Lines of context kept before and after the evidence line."""
    spec = p.spec.context if p else None
    before, after = (spec.before, spec.after) if spec else DEFAULT_CONTEXT
    if p is not None and p.until_re is not None and after == 0:
        after = 50
    return before, after


def _reader(region: Region) -> Callable[[int, int], list[Line]]:
    return lambda lo, hi: _read(region, lo, hi)


def _read(region: Region, lo: int, hi: int) -> list[Line]:
    """Lines `lo..hi`, read from the closest chunk anchor the scan recorded before `lo`."""
    lo = max(1, lo)
    return region.lines(lo, hi, region.anchor_for(lo))


def _context(region: Region, line: int, p: Pattern | None) -> tuple[Evidence, ...]:
    before, after = _margin(p)
    until = p.until_re if p else None
    start = max(1, line - before)
    anchor = region.anchor_for(line)
    if anchor is not None and anchor[1] > start:
        anchor = None  # the lines before the evidence start in an earlier chunk
    out = []
    for ln in region.lines(start, line + after, anchor):
        out.append(Evidence(line=ln.number, text=_safe(ln.text)))
        if until is not None and ln.number > line and _ends(until, ln.text):
            break
    return tuple(out)


def _ends(until, text: str) -> bool:
    try:
        return until.search(text, timeout=0.05) is not None
    except TimeoutError:  # a slow `until` regex ends the context window instead of the run
        return True


def _safe(text: str) -> str:
    """Log text leaves the engine with secrets redacted: verdicts are printed, posted, traced."""
    # Evidence lines are context lines too, and logs repeat lines: each short text is redacted
    # once per set of registered mask values (a value registered later changes the answer).
    if len(text) > MEMO_CHARS:
        return redact(text).text
    return _redacted(text, registered_masks())


MEMO_CHARS = 512  # the memo holds at most 2048 texts this long: a few MB at worst


@functools.lru_cache(maxsize=2048)
def _redacted(text: str, masks: frozenset[str]) -> str:
    return redact(text).text


_FIELD = re.compile(r"\{(\w+)\}")


def fill(template: str, values: dict[str, str]) -> str:
    """Fill `{name}` from captures; unknown names become `?` (templates are data, not code)."""
    return _FIELD.sub(lambda m: values.get(m.group(1), "?"), template)
