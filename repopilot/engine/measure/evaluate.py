"""Measure the deterministic classifier on labelled logs (`repopilot eval`).

Two corpora: GitHub Actions job logs with a category and key line per log plus passing logs
(`gha`), and LogChunks (`logchunks`), Travis logs with the hand-labelled chunk that explains the
failure. Outcomes are typed records; the command module renders them as text or JSON.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict, Unpack

from repopilot.engine.measure.corpus_repo import project_of
from repopilot.engine.measure.labels import GhaCase, gha_cases, line_number, read_rows
from repopilot.engine.measure.shapes import cause_of, log_format
from repopilot.errors import EvalError
from repopilot.records import DecidedBy, Verdict
from repopilot.settings import ScanEngine

if TYPE_CHECKING:
    from repopilot.engine.classify import Classifier

Classify = Callable[[Path], list[Verdict]]

CHUNK_COLUMNS = ("log", "chunk_start_line", "chunk_end_line")
# ecosystem labels look like `java-maven(kotlin)`, `python-pytest (nox)`, `ts-jest`: group by family
_FAMILY = {"ts": "node", "js": "node", "javascript": "node", "typescript": "node"}


@dataclass(frozen=True, slots=True)
class Outcome:
    """One classified log and how it compares with its label."""

    id: str
    family: str
    expected: str
    accepted: frozenset[str]
    got: str  # a category, or "error" when the log could not be classified
    decided_by: DecidedBy
    pattern_id: str | None
    evidence: tuple[int, ...]
    ambiguous: bool = False  # the deciding pattern asks for the LLM anyway
    key_line: int | None = None  # gha: the labelled line
    span: tuple[int, int] | None = None  # logchunks: the labelled chunk
    error: str | None = None
    repository: str = "?"  # the project that ran the job (engine/measure/corpus_repo.py)
    assertion_first: bool = False  # evidence[0] is a test's message, evidence[1] the test's line
    log_format: str = "?"  # the shape (engine/measure/shapes.py): how the reader reads the log
    cause: str = "?"  # and which kind of line the verdict gives as the cause
    confidence: float = 0.0  # the verdict's (calibrated: engine/verdict/confidence.py)

    @property
    def category_ok(self) -> bool:
        return self.got in self.accepted

    @property
    def key_ok(self) -> bool:
        return bool(self.evidence) and self.evidence[0] == self.key_line

    @property
    def key_ok_contract(self) -> bool:
        """Contract 1 puts a failing test's assertion message first and the test's line second:
        a label on the test's line is then met at evidence[1]."""
        if self.key_ok:
            return True
        return self.assertion_first and len(self.evidence) > 1 and self.evidence[1] == self.key_line

    @property
    def right(self) -> bool:
        """What the calibrated confidence estimates: gha, the category and the key line in
        Contract 1 order; LogChunks (no category labelled), evidence[0] inside the chunk."""
        if self.span is not None:
            return self.first_inside
        return self.category_ok and self.key_ok_contract

    @property
    def top3(self) -> bool:
        """The cause among the first three evidence lines: gha, the key line; LogChunks, any
        line inside the chunk."""
        if self.span is not None:
            return any(_inside(n, self.span) for n in self.evidence[:3])
        return self.key_line is not None and self.key_line in self.evidence[:3]

    @property
    def decided(self) -> bool:
        """Decided by patterns alone: a pattern verdict not marked ambiguous."""
        return self.decided_by == "pattern" and not self.ambiguous

    @property
    def first_inside(self) -> bool:
        return (
            self.span is not None and bool(self.evidence) and _inside(self.evidence[0], self.span)
        )

    @property
    def any_inside(self) -> bool:
        span = self.span
        return span is not None and any(_inside(n, span) for n in self.evidence)


@dataclass(frozen=True, slots=True)
class Rate:
    hits: int
    total: int

    @property
    def value(self) -> float:
        return self.hits / self.total if self.total else 0.0

    def __str__(self) -> str:
        return f"{self.hits}/{self.total} {100 * self.value:5.1f}%"


@dataclass
class Report:
    """Outcomes of one corpus run; the rates are computed from them."""

    corpus: str
    outcomes: list[Outcome] = field(default_factory=list)
    negatives: list[Outcome] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # rows that cannot be scored, and why
    seconds: float = 0.0

    def rate(self, attr: str, rows: Iterable[Outcome] | None = None) -> Rate:
        rows = list(self.outcomes if rows is None else rows)
        return Rate(sum(1 for o in rows if getattr(o, attr)), len(rows))

    def decided(self, rows: Iterable[Outcome] | None = None) -> Rate:
        """Decided by patterns alone: a pattern verdict whose pattern is not marked ambiguous."""
        rows = list(self.outcomes if rows is None else rows)
        return Rate(
            sum(1 for o in rows if o.decided_by == "pattern" and not o.ambiguous), len(rows)
        )

    def false_positives(self) -> Rate:
        return Rate(sum(1 for o in self.negatives if o.got != "no_failure"), len(self.negatives))

    def families(self) -> dict[str, list[Outcome]]:
        out: dict[str, list[Outcome]] = {}
        for o in self.outcomes:
            out.setdefault(o.family, []).append(o)
        return dict(sorted(out.items()))

    def repositories(self, negatives: bool = False) -> dict[str, list[Outcome]]:
        return self.grouped(lambda o: o.repository, negatives)

    def grouped(
        self, key: Callable[[Outcome], str], negatives: bool = False
    ) -> dict[str, list[Outcome]]:
        """The outcomes (or the passing logs') by `key`, sorted."""
        out: dict[str, list[Outcome]] = {}
        for o in self.negatives if negatives else self.outcomes:
            out.setdefault(key(o), []).append(o)
        return dict(sorted(out.items()))


def family(ecosystem: str) -> str:
    m = re.match(r"[A-Za-z#+]+", ecosystem.strip())
    name = m.group(0).lower() if m else "other"
    return _FAMILY.get(name, name)


def _inside(n: int, span: tuple[int, int]) -> bool:
    return span[0] <= n <= span[1]


def _verdict(classify: Classify, path: Path) -> tuple[Verdict | None, str | None]:
    """The log's verdict (the first failed job's when a file holds several), or an error line."""
    if not path.is_file():
        return None, f"{path}: no such log"
    try:
        verdicts = classify(path)
    except Exception as exc:  # one broken log must not end the evaluation
        return None, f"{path}: {type(exc).__name__}: {exc}"
    if not verdicts:
        return None, f"{path}: no job found"
    return next((v for v in verdicts if v.failed), verdicts[0]), None


class _Label(TypedDict, total=False):
    """Where the label puts the cause: the Outcome fields a corpus gives (one of them)."""

    key_line: int | None
    span: tuple[int, int] | None


def _outcome(
    classify: Classify,
    path: Path,
    ident: str,
    fam: str,
    expected: str,
    accepted: Iterable[str],
    repo: str = "",
    **kw: Unpack[_Label],
) -> Outcome:
    v, err = _verdict(classify, path)
    return Outcome(
        repository=project_of(path, repo),
        log_format=log_format(path, v.source if v else None),
        cause=cause_of(v),
        assertion_first=bool(v and v.assertion_first),
        id=ident,
        family=fam,
        expected=expected,
        accepted=frozenset(accepted),
        got=v.category if v else "error",
        decided_by=v.decided_by if v else "none",
        pattern_id=v.pattern_id if v else None,
        evidence=tuple(e.line for e in v.evidence) if v else (),
        ambiguous=bool(v and v.ambiguous),
        confidence=v.confidence if v else 0.0,
        error=err,
        **kw,
    )


def evaluate_gha(classify: Classify, directory: Path, labels: Path) -> Report:
    """Classify every labelled log and every passing log listed in `negatives.csv`."""
    if not (directory / "logs").is_dir():
        raise EvalError(f"{directory}/logs: not a directory (expected DIR/logs/<id>.log)")
    cases = gha_cases(directory, labels)
    # Every log missing is a wrong DIR, not a corpus of misses (one missing log is a miss).
    if len(cases) > 1 and not any(c.path.is_file() for c in cases):
        raise EvalError(f"{directory}/logs: none of the {len(cases)} labelled logs is there")
    report = Report("gha")
    start = time.perf_counter()
    report.outcomes.extend(case_outcome(classify, c) for c in cases)
    negatives = directory / "negatives.csv"
    if negatives.is_file():
        for row in read_rows(negatives, ("id",)):
            ident = row["id"].strip()
            path = directory / "negatives" / f"{ident}.log"
            repo = (row.get("repo") or "").strip()
            report.negatives.append(
                _outcome(classify, path, ident, "passing", "no_failure", {"no_failure"}, repo)
            )
    report.seconds = time.perf_counter() - start
    return report


def case_outcome(classify: Classify, c: GhaCase) -> Outcome:
    """One labelled log classified and compared with its label."""
    fam = family(c.ecosystem)
    return _outcome(
        classify, c.path, c.id, fam, c.category, c.accepted, c.repo, key_line=c.key_line
    )


def evaluate_logchunks(classify: Classify, directory: Path, chunks: Path) -> Report:
    """Classify every LogChunks log and compare its evidence lines with the labelled chunk."""
    base = directory / "logs" if (directory / "logs").is_dir() else directory
    report = Report("logchunks")
    start = time.perf_counter()
    table = read_rows(chunks, CHUNK_COLUMNS)
    if len(table) > 1 and not any((base / r["log"]).is_file() for r in table):
        raise EvalError(f"{base}: none of the {len(table)} logs in {chunks} is there")
    for i, row in enumerate(table, start=2):
        where = f"{chunks}:{i}"
        lo, hi = (
            line_number(row["chunk_start_line"], where),
            line_number(row["chunk_end_line"], where),
        )
        if lo is None or hi is None:  # a few LogChunks rows have a chunk text but no span
            report.skipped.append(f"{where}: {row['log']}: no chunk_start_line/chunk_end_line")
            continue
        fam = (row.get("language") or "").strip() or family(row["log"])
        repo = (row.get("repo") or "").strip()
        report.outcomes.append(
            _outcome(classify, base / row["log"], row["log"], fam, "", (), repo, span=(lo, hi))
        )
    report.seconds = time.perf_counter() - start
    return report


def default_classifier(
    patterns: Path | None, scan: ScanEngine | None = None, cache_dir: Path | None = None
) -> Classify:
    """The real engine over a pattern library (imported lazily: eval is its only user here);
    `scan` and `cache_dir` as the settings say (REPOPILOT_SCAN_ENGINE, the cache directory)."""
    return default_engine(patterns, scan, cache_dir).classify_path


def default_engine(
    patterns: Path | None, scan: ScanEngine | None = None, cache_dir: Path | None = None
) -> Classifier:
    """The Classifier behind default_classifier (the pairs mode sets its base log)."""
    from repopilot.engine.classify import Classifier
    from repopilot.engine.library.loader import load_library

    return Classifier(load_library(patterns, cache_dir), engine=scan, cache_dir=cache_dir)
