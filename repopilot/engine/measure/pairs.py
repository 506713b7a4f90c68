"""Failed logs scored twice, without and with a passing log of the same job as the base log
(`repopilot eval gha DIR LABELS --base-logs PAIRS.csv`; issue 20, "the last green log as
evidence").

PAIRS.csv has the columns `failed_id` and `passing_id` (others are ignored): the failed log is
DIR/logs/<failed_id>.log and must be labelled in LABELS.csv, the passing one is
DIR/negatives/<passing_id>.log (else DIR/logs/<passing_id>.log). The base log is read as
`classify --base-log` reads it (engine/verdict/baseline.py): when the engine finds that it failed,
it demotes nothing, and the pair says so (`green` false).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from repopilot.engine.measure.evaluate import Outcome, Report, case_outcome
from repopilot.engine.measure.labels import GhaCase, gha_cases, read_rows
from repopilot.engine.verdict.baseline import base_from_path
from repopilot.errors import EvalError, LogError
from repopilot.records import Verdict

if TYPE_CHECKING:
    from repopilot.engine.classify import Classifier

PAIR_COLUMNS = ("failed_id", "passing_id")

# Classify a log with an optional base log: (its verdicts, whether the base log was read as passing).
BaseClassify = Callable[[Path, Path | None], tuple[list[Verdict], bool]]


@dataclass(frozen=True, slots=True)
class Pair:
    case: GhaCase
    passing: Path


@dataclass(frozen=True, slots=True)
class PairOutcome:
    """One failed log's outcome without and with its passing log as the base log."""

    without: Outcome
    with_base: Outcome
    passing_id: str
    green: bool  # the engine read the base log as passing (else it demoted nothing)

    @property
    def changed(self) -> bool:
        a, b = self.without, self.with_base
        return (a.got, a.evidence[:1]) != (b.got, b.evidence[:1])

    @property
    def change(self) -> str:
        """`better`, `worse`, `same score` (a different line, neither right), or `none`."""
        if not self.changed:
            return "none"
        a, b = _score(self.without), _score(self.with_base)
        return "better" if b > a else "worse" if b < a else "same score"


def _score(o: Outcome) -> tuple[int, int, int]:
    return (int(o.category_ok), int(o.key_ok_contract), int(o.key_ok))


@dataclass
class PairsReport:
    pairs: list[PairOutcome] = field(default_factory=list)

    def side(self, with_base: bool) -> Report:
        """The pairs' failed logs scored one way, as a Report (its rates)."""
        rows = [p.with_base if with_base else p.without for p in self.pairs]
        return Report("gha", outcomes=rows)

    def changed(self) -> list[PairOutcome]:
        return [p for p in self.pairs if p.changed]


def pair_cases(directory: Path, labels: Path, pairs: Path) -> list[Pair]:
    """The pairs of PAIRS.csv with their labelled failed log; EvalError (one line) for a row
    whose failed log is not labelled or whose passing log is not there."""
    by_id = {c.id: c for c in gha_cases(directory, labels)}
    out = []
    for i, row in enumerate(read_rows(pairs, PAIR_COLUMNS), start=2):
        where = f"{pairs}:{i}"
        failed, passing = row["failed_id"].strip(), row["passing_id"].strip()
        case = by_id.get(failed)
        if case is None:
            raise EvalError(f"{where}: failed_id {failed!r} is not labelled in {labels}")
        candidates = [directory / d / f"{passing}.log" for d in ("negatives", "logs")]
        path = next((p for p in candidates if p.is_file()), None)
        if path is None:
            raise EvalError(f"{where}: no passing log {candidates[0]} (nor in logs/)")
        out.append(Pair(case, path))
    return out


def evaluate_pairs(classify: BaseClassify, pairs: list[Pair]) -> PairsReport:
    """Each pair's failed log without, then with, its passing log as the base log."""
    report = PairsReport()
    for p in pairs:
        without = case_outcome(lambda path: classify(path, None)[0], p.case)
        compared = _Compared(classify, p.passing)
        with_base = case_outcome(compared, p.case)
        report.pairs.append(PairOutcome(without, with_base, p.passing.stem, compared.green))
    return report


@dataclass(slots=True)
class _Compared:
    """A Classify with a fixed base log that remembers whether the base log was green."""

    classify: BaseClassify
    base: Path
    green: bool = False

    def __call__(self, path: Path) -> list[Verdict]:
        verdicts, self.green = self.classify(path, self.base)
        return verdicts


def with_base_logs(engine: Classifier) -> BaseClassify:
    """A BaseClassify over `engine` (a Classifier): it sets the base log as `--base-log` does,
    classifies, and leaves the engine without one."""

    def run(path: Path, base: Path | None) -> tuple[list[Verdict], bool]:
        if base is None:
            return engine.classify_path(path), False
        try:
            engine.baseline = base_from_path(engine, str(base))
        except LogError as exc:
            raise EvalError(f"{base}: {exc}") from None
        try:
            return engine.classify_path(path), engine.baseline is not None
        finally:
            engine.baseline = None

    return run
