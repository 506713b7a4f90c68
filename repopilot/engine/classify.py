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

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from repopilot.engine.library.layers import learned_from
from repopilot.engine.library.loader import Pattern, load_library
from repopilot.engine.match.scan import Engine, Scanner
from repopilot.engine.match.scan_result import Hit
from repopilot.engine.match.split_file import eligible, split_scan
from repopilot.engine.verdict.baseline import Baseline, demote, noted
from repopilot.engine.verdict.calibration_features import Seen
from repopilot.engine.verdict.confidence import Judge, bundled
from repopilot.engine.verdict.mentions import without_mentions
from repopilot.engine.verdict.passing import is_passing_test
from repopilot.engine.verdict.pattern_verdict import pattern_verdict
from repopilot.engine.verdict.quote import Scope, reader
from repopilot.engine.verdict.quote import fill as fill  # a template's `{name}` (patterns tests)
from repopilot.engine.verdict.region import Region
from repopilot.engine.verdict.structure import analyze
from repopilot.engine.verdict.survived import survived, without_ignored
from repopilot.engine.verdict.unknown import unknown_verdict
from repopilot.evidence.runners import bare_exit
from repopilot.logs.reader import JobLog, open_logs
from repopilot.logs.textnorm import annotation
from repopilot.records import INFRA_CATEGORIES, Verdict


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
    # Every failed verdict's calibrated confidence, and whether it is decided (engine/verdict/
    # confidence.py); None: the bundled model. `repopilot calibrate` sets a recorder here.
    calibration: Judge | None = None

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
        read = reader(Region(job, res))
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
        scoped = _in_scope(hits, scope)
        # a learned cause is one wherever the step structure puts it (issue 28)
        have = {id(h) for h in scoped}
        scoped += [h for h in hits if learned_from(h.pattern) and id(h) not in have]
        inside, all_old = demote(base, scoped, _text, _infra, _line)
        if all_old:  # the green log prints every hit too: the first new error-looking line
            v = unknown_verdict(job, res, st, common, base)
            if v.evidence and v.evidence[0].line != (st.step.start if st.step else 0):
                return self._judged(noted(v, base), Seen(job, res, st, tuple(inside), base))
        gone = survived(res, inside, st.start, st.focus, read)  # errors the step went on after
        # a learned pattern's line is the cause a maintainer named: never one the step survived
        kept = [h for h in inside if h.pattern.id not in gone or learned_from(h.pattern)]
        if kept:
            v = pattern_verdict(job, res, kept, st, common, self.scanner.captures, base)
            return self._judged(noted(v, base), Seen(job, res, st, tuple(kept), base))
        after = max((h.line for h in inside), default=0)  # the cause is after what it survived
        v = noted(unknown_verdict(job, res, st, common, base, after), base)
        return self._judged(v, Seen(job, res, st, tuple(inside), base))

    def _judged(self, v: Verdict, seen: Seen) -> Verdict:
        """`v` with its calibrated confidence; decided only when sure (Contract 3)."""
        return (self.calibration or bundled()).judge(v, seen)


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


def _infra(h: Hit) -> bool:
    return h.pattern.spec.category in INFRA_CATEGORIES


def _text(h: Hit) -> str:
    return h.text


def _line(h: Hit) -> int:
    return h.line
