"""The matching engine's verdict: one per job, from one streaming scan (repopilot/engine/scan.py).

Arbitration: find the failing step (the first non-zero exit code, else the last `##[error]`),
take the pattern hits inside it, and pick by priority, then specificity, then closeness to the
step's end. Boilerplate (`Process completed with exit code N.`) is never evidence. A failure that
no pattern decides is `unknown`, with best-guess error-like lines near the failing step's end.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from repopilot.engine.library import Pattern, load_library
from repopilot.engine.scan import Hit, Scanner, ScanResult
from repopilot.engine.scansplit import eligible, split_scan
from repopilot.logs.reader import JobLog, iter_lines, open_logs
from repopilot.records import Evidence, Verdict
from repopilot.safety.redact import redact

BOILERPLATE = re.compile(
    r"^(?:##\[error\])?(?:Error: )?Process completed with exit code \d+\.?\s*$", re.I
)
_STRONG = re.compile(r"(?i)\b(?:error|fatal|exception|failed|failure|panic)\b|\berr!")
DEFAULT_CONTEXT = (2, 3)
MAX_EVIDENCE = 5
NEAR_FOCUS = 60  # lines before the failure report that count as 'near' for a best guess


@dataclass(frozen=True, slots=True)
class Scope:
    step: int  # index into ScanResult.steps, -1 when the log has no steps
    start: int
    end: int  # last line of the failing step
    focus: int  # the line the failure was reported at (exit code line), for closeness


class Classifier:
    """Compile a pattern library once, classify many logs."""

    def __init__(self, patterns: list[Pattern] | None = None, timeout: float = 0.05):
        self.patterns = patterns if patterns is not None else load_library()
        self.scanner = Scanner(self.patterns, timeout)

    def classify_path(self, path: str | Path) -> list[Verdict]:
        return [self.classify(job) for job in open_logs(str(path))]

    def classify(self, job: JobLog) -> Verdict:
        res = split_scan(self.scanner, job) if eligible(job) else None
        if res is None:
            res = self.scanner.scan(job)
        timeouts = tuple(sorted(res.timeouts))
        if not _failed(job, res):
            return Verdict(
                source=job.source,
                job=job.name,
                category="no_failure",
                confidence=0.9,
                title="No failure found",
                timeouts=timeouts,
            )
        scope = _scope(res)
        step_name = res.steps[scope.step][1] if scope.step >= 0 else None
        common = dict(
            source=job.source,
            job=job.name,
            step=step_name,
            step_lines=(scope.start, scope.end),
            timeouts=timeouts,
        )
        hits = _in_scope(res.hits, scope)
        if hits:
            return _pattern_verdict(job, hits, scope, common)
        return _unknown_verdict(job, res, scope, common)


SURE_FAILURE = 85  # a hit this specific signals a failure even when the log shows no exit code


def _failed(job: JobLog, res: ScanResult) -> bool:
    if any(code != 0 for _, _, code in res.exit_lines) or res.errors or res.failure_marker:
        return True
    if res.success_marker or any(code == 0 for _, _, code in res.exit_lines[-1:]):
        return False
    if job.fmt in ("gha", "ghcli"):
        # Truncated logs and container actions that die without an exit-code line.
        return any(h.pattern.spec.priority >= SURE_FAILURE for h in res.hits)
    return bool(res.hits)


def _scope(res: ScanResult) -> Scope:
    marks = [(line, step) for line, step, code in res.exit_lines if code != 0]
    marks = marks[:1] or [(line, step) for line, step, _ in res.errors[-1:]]
    if not marks or not res.steps:
        focus = marks[0][0] if marks else res.lines
        return Scope(-1, 1, max(res.lines, focus), focus)
    focus, step = marks[0]
    start = res.steps[step][0] if step >= 0 else 1
    nxt = res.steps[step + 1][0] - 1 if step + 1 < len(res.steps) else res.lines
    return Scope(step, start, max(nxt, focus), focus)


def _in_scope(hits: Iterable[Hit], scope: Scope) -> list[Hit]:
    good = [h for h in hits if not BOILERPLATE.match(h.text)]
    inside = [h for h in good if scope.start <= h.line <= scope.end]
    if inside:
        return inside
    # A failure reported outside the step that ran it (an action's post step, a plain log).
    return [h for h in good if h.line <= scope.end] or good


def _rank(pattern: Pattern, hits: list[Hit], scope: Scope) -> tuple:
    last = max(h.line for h in hits)
    return (pattern.spec.priority, pattern.specificity, -abs(scope.focus - last))


def _pattern_verdict(job: JobLog, hits: list[Hit], scope: Scope, common: dict) -> Verdict:
    groups: dict[str, list[Hit]] = {}
    for h in hits:
        groups.setdefault(h.pattern.id, []).append(h)
    ranked = sorted(groups.values(), key=lambda g: _rank(g[0].pattern, g, scope), reverse=True)
    best = ranked[0]
    p = best[0].pattern
    first = min(best, key=lambda h: h.line)
    evidence = [first] + [h for h in sorted(best, key=lambda h: h.line) if h.line != first.line][:2]
    for g in ranked[1:]:
        if len(evidence) >= MAX_EVIDENCE:
            break
        h = min(g, key=lambda h: h.line)
        if all(h.line != e.line for e in evidence):
            evidence.append(h)
    caps = {k: _safe(v) for k, v in first.captures.items()}
    values = {**caps, "count": str(len(best)), "step": common.get("step") or ""}
    return Verdict(
        category=p.spec.category,
        confidence=p.spec.confidence,
        decided_by="pattern",
        pattern_id=p.id,
        title=fill(p.spec.title, values),
        hint=fill(p.spec.hint, values),
        evidence=tuple(Evidence(line=h.line, text=_safe(h.text)) for h in evidence),
        captures=caps,
        kind=p.kind,  # type: ignore[arg-type]
        ambiguous=p.spec.ambiguous,
        context=_context(job, first.line, first.anchor, p),
        **common,
    )


def _unknown_verdict(job: JobLog, res: ScanResult, scope: Scope, common: dict) -> Verdict:
    pool = [g for g in res.generic.get(scope.step, ()) if g[0] <= scope.end]
    if not pool and scope.step >= 0:
        # Nothing error-like in the failing step: the command that failed is the best pointer.
        line, name = res.steps[scope.step]
        pool = [(line, f"##[group]{name}" if job.fmt == "gha" else name, None)]
    if not pool:
        pool = [g for lines in res.generic.values() for g in lines if g[0] <= scope.focus]
    pool = [g for g in pool if not BOILERPLATE.match(g[1])]
    # Near the point of failure first, then the error-like wording, then the latest.
    near = scope.focus - NEAR_FOCUS

    def rank(g):
        return (near <= g[0] <= scope.focus, bool(_STRONG.search(g[1])), g[0])

    ranked = sorted(pool, key=rank, reverse=True)
    chosen = ranked[:3]
    context: tuple[Evidence, ...] = ()
    if chosen and chosen[0][2] is not None:
        context = _context(job, chosen[0][0], chosen[0][2], None)
    step = common.get("step")
    return Verdict(
        category="unknown",
        confidence=0.2,
        decided_by="none",
        title=f"Unrecognized failure in {step}" if step else "Unrecognized failure",
        hint="No pattern recognizes this failure; read the evidence lines and the step's end.",
        evidence=tuple(Evidence(line=n, text=_safe(t)) for n, t, _ in chosen),
        context=context,
        **common,
    )


def _context(job: JobLog, line: int, anchor, p: Pattern | None) -> tuple[Evidence, ...]:
    spec = p.spec.context if p else None
    before, after = (spec.before, spec.after) if spec else DEFAULT_CONTEXT
    until = p.until_re if p else None
    if until is not None and after == 0:
        after = 50
    out = []
    for ll in iter_lines(job, max(1, line - before), line + after, anchor=anchor):
        out.append(Evidence(line=ll.number, text=_safe(ll.text)))
        if until is not None and ll.number > line and _ends(until, ll.text):
            break
    return tuple(out)


def _ends(until, text: str) -> bool:
    try:
        return until.search(text, timeout=0.05) is not None
    except TimeoutError:  # a slow `until` regex ends the context window instead of the run
        return True


def _safe(text: str) -> str:
    """Log text leaves the engine with secrets redacted: verdicts are printed, posted, traced."""
    return redact(text).text


_FIELD = re.compile(r"\{(\w+)\}")


def fill(template: str, values: dict[str, str]) -> str:
    """Fill `{name}` from captures; unknown names become `?` (templates are data, not code)."""
    return _FIELD.sub(lambda m: values.get(m.group(1), "?"), template)
