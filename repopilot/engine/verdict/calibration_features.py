"""The named features of a failed verdict that the calibrated confidence (engine/verdict/
confidence.py) weighs: signals that say how sure a verdict can be whatever pattern won.

None of them names a pattern, a project or a repository: they must carry to logs of projects the
library was never tuned on. They come from what Classifier.classify has at the end (`Seen`): the
job, its scan, its structure, the candidate hits in the failing region, the base log, and the
verdict itself. Every feature is a float in 0..1 (flags are 0/1, counts and distances are
log-scaled and capped), so the weights in calibration.json read on one scale.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import asdict, dataclass, fields

from repopilot.engine.match.scan_result import Hit, ScanResult
from repopilot.engine.verdict.baseline import Baseline
from repopilot.engine.verdict.step_prior import SAYS
from repopilot.engine.verdict.structure import Structure
from repopilot.logs.reader import JobLog
from repopilot.logs.textnorm import body
from repopilot.records import INFRA_CATEGORIES, Verdict

# A test runner's own count of failures, as each tool documents its summary line (pytest's
# "N failed", jest's "Tests: N failed", Maven Surefire's "Tests run: ..., Failures: N", Go's
# "--- FAIL:"/"FAIL pkg", cargo's "test result: FAILED", mocha's "N failing", RSpec's
# "N examples, M failures", Gradle's "N tests completed, M failed").
_SUMMARY = re.compile(
    r"\b\d+ (?:failed|failing|failures?)\b|Tests run: \d+, Failures: \d+|^(?:--- )?FAIL\b"
    r"|test result: FAILED|^FAILED |\btests? completed, \d+ failed",
    re.IGNORECASE,
)
_LOCATED = re.compile(r"[\w./\\-]+\.\w+[:(]\d+")
_TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_.:/-]{3,}")
_COMMON = frozenset(
    "error errors failed failure failures fail failing test tests exception warning fatal "
    "cannot could found process completed exit code with from that this line file none true "
    "false build task make".split()
)


@dataclass(frozen=True, slots=True)
class Seen:
    """What the classifier saw when it built a failed verdict."""

    job: JobLog
    res: ScanResult
    st: Structure
    hits: tuple[Hit, ...]  # the candidates in the failing region the verdict chose among
    base: Baseline | None = None


@dataclass(frozen=True, slots=True)
class Features:
    """One failed verdict's features (module docstring); names are calibration.json's."""

    pattern: float = 0.0  # a pattern decided (1) or the fallback guessed (0)
    unknown: float = 0.0  # the category is `unknown`
    prior_confidence: float = 0.0  # the confidence the pattern or the fallback gave itself
    priority: float = 0.0  # the winning pattern's priority / 100
    specificity: float = 0.0  # its longest regex, log-scaled
    wrapper: float = 0.0  # a wrapper line (a command failed) leads
    recast: float = 0.0  # the category was read from the failing step's command
    lead_not_hit: float = 0.0  # evidence[0] is a line put before the pattern's hit
    assertion_first: float = 0.0  # a test's assertion message leads
    in_step: float = 0.0  # evidence[0] lies in the failing step
    after_focus: float = 0.0  # evidence[0] comes after the line the failure was reported at
    focus_gap: float = 0.0  # lines from evidence[0] to that line, log-scaled
    errors_after: float = 0.0  # error-looking lines between evidence[0] and that line
    script_error: float = 0.0  # the step printed an `##[error]` message of its own
    error_agrees: float = 0.0  # ... and it shares a word with evidence[0] (or is it)
    summary: float = 0.0  # a test runner's failure summary is in the failing region
    summary_agrees: float = 0.0  # ... and it names what the evidence names
    groups: float = 0.0  # distinct patterns with a hit in scope, log-scaled
    categories: float = 0.0  # distinct categories among them beyond the verdict's, capped
    rival_close: float = 0.0  # another category's candidate ranks within 5 priority points
    margin: float = 0.0  # priority over the best other-category candidate (1: none)
    hits_in_group: float = 0.0  # hits of the winning pattern, log-scaled
    later_groups: float = 0.0  # other patterns' first hits after evidence[0], before the end
    earlier_groups: float = 0.0  # ... and before it
    test_failure: float = 0.0  # the category is a failing test's
    infra: float = 0.0  # the category is an infrastructure one
    located: float = 0.0  # evidence[0] names a file and line (`path:N`)
    log_size: float = 0.0  # lines in the log, log-scaled
    repeated: float = 0.0  # evidence[0]'s text recurs among the candidates
    has_base: float = 0.0  # a passing base log was given
    in_base: float = 0.0  # the green log prints evidence[0] too
    complete: float = 0.0  # the log reaches the job's end
    exit_reported: float = 0.0  # the runner's exit line reported the failure
    gh_file: float = 0.0  # one job of a `gh run view --log` file
    plain: float = 0.0  # a plain console log (no GitHub runner structure)
    no_step: float = 0.0  # the failing region is the whole log (no step known)

    @staticmethod
    def names() -> tuple[str, ...]:
        return tuple(f.name for f in fields(Features))

    def vector(self, names: Iterable[str]) -> list[float]:
        values = asdict(self)
        return [float(values[n]) for n in names]


def _log_scale(n: float, top: float) -> float:
    return min(1.0, math.log1p(max(0.0, n)) / math.log1p(top))


def _tokens(text: str) -> set[str]:
    return {t.lower() for t in _TOKEN.findall(body(text))} - _COMMON


def _rank(h: Hit) -> tuple[bool, int, int]:
    spec = h.pattern.spec
    return (not getattr(spec, "wrapper", False), spec.priority, h.pattern.specificity)


def features_of(seen: Seen, v: Verdict) -> Features:
    """The features of the failed verdict `v` (built from `seen`)."""
    st, res = seen.st, seen.res
    ev = v.evidence[0] if v.evidence else None
    n = ev.line if ev else st.focus
    groups: dict[str, list[Hit]] = {}
    for h in seen.hits:
        groups.setdefault(h.pattern.id, []).append(h)
    best = groups.get(v.pattern_id or "", []) if v.decided_by == "pattern" else []
    lead = best[0] if best else None
    rivals = [
        max(g, key=_rank)
        for pid, g in groups.items()
        if g and lead is not None and g[0].pattern.spec.category != lead.pattern.spec.category
    ]
    cats = {g[0].pattern.spec.category for g in groups.values()}
    margin, close = 1.0, 0.0
    if lead is not None and rivals:
        top = max(rivals, key=_rank)
        gap = lead.pattern.spec.priority - top.pattern.spec.priority
        wrap_lead = not _rank(lead)[0]
        if wrap_lead and _rank(top)[0]:
            gap = -100  # a specific line of another category outranks a wrapper
        margin = max(0.0, min(1.0, 0.5 + gap / 40))
        close = 1.0 if abs(gap) <= 5 and _rank(top)[0] == _rank(lead)[0] else 0.0
    step_index = st.step.index if st.step else None
    generic = [
        (ln, text)
        for idx, lines in res.generic.items()
        if step_index is None or idx == step_index
        for ln, text, _ in lines
        if st.start <= ln <= st.end
    ]
    after = sum(1 for ln, _ in generic if n < ln < st.focus)
    summaries = [text for _, text in generic if _SUMMARY.search(body(text).strip())]
    said = _tokens(" ".join(e.text for e in v.evidence[:2]))
    errors = [t for _, t in st.script_errors]
    hit_lines = {h.line for h in best}
    firsts = [min(h.line for h in g) for pid, g in groups.items() if pid != v.pattern_id]
    same = sum(1 for h in seen.hits if ev is not None and h.text == ev.text)
    base = seen.base
    return Features(
        pattern=float(v.decided_by == "pattern"),
        unknown=float(v.category == "unknown"),
        prior_confidence=v.confidence,
        priority=lead.pattern.spec.priority / 100 if lead else 0.0,
        specificity=_log_scale(lead.pattern.specificity, 300) if lead else 0.0,
        wrapper=float(lead is not None and not _rank(lead)[0]),
        recast=float(SAYS in v.title),
        lead_not_hit=float(lead is not None and n not in hit_lines),
        assertion_first=float(v.assertion_first),
        in_step=float(st.start <= n <= st.end),
        after_focus=float(n > st.focus),
        focus_gap=_log_scale(st.focus - n, 2000),
        errors_after=_log_scale(after, 30),
        script_error=float(bool(errors)),
        error_agrees=float(
            any(ln == n for ln, _ in st.script_errors) or any(said & _tokens(t) for t in errors)
        ),
        summary=float(bool(summaries)),
        summary_agrees=float(any(said & _tokens(t) for t in summaries)),
        groups=_log_scale(len(groups), 30),
        categories=min(1.0, max(0, len(cats) - 1) / 4),
        rival_close=close,
        margin=margin if lead is not None else 0.0,
        hits_in_group=_log_scale(len(best), 50),
        later_groups=_log_scale(sum(1 for x in firsts if n < x <= st.focus), 10),
        earlier_groups=_log_scale(sum(1 for x in firsts if x < n), 10),
        test_failure=float(v.category == "test_failure"),
        infra=float(v.category in INFRA_CATEGORIES),
        located=float(ev is not None and bool(_LOCATED.search(ev.text))),
        log_size=_log_scale(res.lines, 100_000),
        repeated=float(same > 1),
        has_base=float(base is not None),
        in_base=float(base is not None and ev is not None and base.has(ev.text)),
        complete=float(st.complete),
        exit_reported=float(st.reason == "exit-code"),
        gh_file=float(seen.job.fmt == "ghcli"),
        plain=float(seen.job.fmt == "plain"),
        no_step=float(st.step is None),
    )
