"""The training rows of the calibrated confidence: each labelled failed log classified once, with
the features of its verdict (engine/verdict/calibration_features.py) and whether it was right.

Corpora: the GitHub Actions set (`labels.csv`: right = the category accepted and the key line met
in Contract 1 order) with its passing logs (a failed verdict on one is a wrong row), and LogChunks
(`chunks.csv`: right = evidence[0] inside the labelled chunk; no category is labelled there).

Leave-winning-pattern-out rows (`leave_out=True`): every log a pattern decided is classified
again with that pattern removed from the library, and labelled the same way. On projects the
library was never tuned on the right pattern is often missing; these rows show the model what a
verdict decided by the next, more generic pattern (or the fallback) looks like. They train; the
figures are scored on the real rows only.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from repopilot.engine.classify import Classifier
from repopilot.engine.library.loader import Pattern
from repopilot.engine.measure.evaluate import Outcome, Report, evaluate_gha, evaluate_logchunks
from repopilot.engine.measure.reliability import Scored
from repopilot.engine.measure.shapes import cause_of
from repopilot.engine.verdict.calibration_features import Features, Seen, features_of
from repopilot.engine.verdict.confidence import capped
from repopilot.records import Verdict
from repopilot.settings import ScanEngine


@dataclass(frozen=True, slots=True)
class Row:
    """One failed verdict, its features and its label."""

    features: Features
    outcome: Outcome
    corpus: str  # "gha" or "logchunks"
    path: Path  # the log
    left_out: str | None = None  # the pattern removed from the library for this row

    @property
    def right(self) -> bool:
        return self.outcome.got != "no_failure" and self.outcome.right

    @property
    def decidable(self) -> bool:
        return self.outcome.decided

    @property
    def repository(self) -> str:
        return f"{self.corpus}:{self.outcome.repository}"

    def scored(self, p: float) -> Scored:
        p = capped(p, self.features)  # as the classifier caps it
        return Scored(p, self.right, self.decidable, False, self.outcome.top3)


@dataclass
class Rows:
    rows: list[Row]  # failed verdicts of labelled logs (and of passing logs that got one)
    negatives: list[Outcome]  # the passing logs' outcomes
    reports: list[Report]


class _Recorder:
    """A Judge that keeps each failed verdict's features and changes nothing."""

    def __init__(self) -> None:
        self.seen: dict[int, tuple[Verdict, Features]] = {}

    def judge(self, v: Verdict, seen: Seen) -> Verdict:
        self.seen[id(v)] = (v, features_of(seen, v))
        return v


class _Recording:
    """A classify function for engine/measure/evaluate.py that remembers, per log, the features
    of the verdict evaluate scores (the first failed job's)."""

    def __init__(self, classifier: Classifier) -> None:
        self.classifier = classifier
        self.recorder = _Recorder()
        classifier.calibration = self.recorder
        self.features: dict[str, tuple[Verdict, Features]] = {}

    def __call__(self, path: Path) -> list[Verdict]:
        self.recorder.seen.clear()
        verdicts = self.classifier.classify_path(path)
        chosen = next((v for v in verdicts if v.failed), verdicts[0] if verdicts else None)
        if chosen is not None and id(chosen) in self.recorder.seen:
            self.features[str(path)] = self.recorder.seen[id(chosen)]
        return verdicts


def _gha_path(directory: Path, o: Outcome, negative: bool = False) -> Path:
    return directory / ("negatives" if negative else "logs") / f"{o.id}.log"


def _chunk_path(directory: Path, o: Outcome) -> Path:
    base = directory / "logs" if (directory / "logs").is_dir() else directory
    return base / o.id


def build(
    patterns: list[Pattern],
    gha: tuple[Path, Path] | None,
    chunks: tuple[Path, Path] | None,
    scan: ScanEngine | None = None,
    cache_dir: Path | None = None,
    leave_out: bool = False,
    progress: Callable[[str], None] = lambda s: None,
) -> Rows:
    """The rows of both corpora (either may be None), with leave-out rows when asked."""
    out = Rows([], [], [])
    rec = _Recording(Classifier(patterns, engine=scan, cache_dir=cache_dir))
    todo: list[tuple[Outcome, Path, str]] = []
    if gha is not None:
        report = evaluate_gha(rec, *gha)
        out.reports.append(report)
        out.negatives.extend(report.negatives)
        for o in report.outcomes:
            todo.append((o, _gha_path(gha[0], o), "gha"))
        for o in report.negatives:
            if o.got != "no_failure":  # a failure found in a passing log: a wrong verdict
                todo.append((o, _gha_path(gha[0], o, True), "gha"))
    if chunks is not None:
        report = evaluate_logchunks(rec, *chunks)
        out.reports.append(report)
        todo.extend((o, _chunk_path(chunks[0], o), "logchunks") for o in report.outcomes)
    for o, path, corpus in todo:
        got = rec.features.get(str(path))
        if got is not None and o.got != "no_failure":
            out.rows.append(Row(got[1], o, corpus, path))
    progress(f"{len(out.rows)} rows from {len(todo)} logs")
    if leave_out:
        out.rows.extend(_left_out(patterns, out.rows, cache_dir, progress))
    return out


def relabel(o: Outcome, v: Verdict) -> Outcome:
    """`o` as if `v` had been its verdict (the label kept)."""
    return dataclasses.replace(
        o,
        got=v.category,
        decided_by=v.decided_by,
        pattern_id=v.pattern_id,
        evidence=tuple(e.line for e in v.evidence),
        ambiguous=v.ambiguous,
        assertion_first=v.assertion_first,
        confidence=v.confidence,
        cause=cause_of(v),
    )


def _left_out(
    patterns: list[Pattern],
    rows: list[Row],
    cache_dir: Path | None,
    progress: Callable[[str], None],
) -> list[Row]:
    """Each pattern-decided row again, its winning pattern removed (the reference engine: no
    set engine to compile per library, the same verdicts)."""
    by_pattern: dict[str, list[Row]] = {}
    for r in rows:
        if r.outcome.decided_by == "pattern" and r.outcome.pattern_id and r.left_out is None:
            by_pattern.setdefault(r.outcome.pattern_id, []).append(r)
    extra: list[Row] = []
    for pid, group in sorted(by_pattern.items()):
        lib = [p for p in patterns if p.id != pid]
        rec = _Recording(Classifier(lib, engine="reference", cache_dir=cache_dir))
        for r in group:
            rec(r.path)
            got = rec.features.get(str(r.path))
            if got is None or not got[0].failed:
                continue
            extra.append(Row(got[1], relabel(r.outcome, got[0]), r.corpus, r.path, pid))
    progress(f"{len(extra)} leave-winning-pattern-out rows ({len(by_pattern)} patterns)")
    return extra
