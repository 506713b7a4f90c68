"""`repopilot eval --learn`: what learning each repository's failures buys (issues 21, 28).

Per repository, logs in build order (Travis build ids, Actions job ids grow with time): build k
is classified with the built-in library alone and with what was learned from builds 0..k-1 on top;
then a pattern is learned from build k's labelled line, whatever its verdict was (Actions: the
key line; LogChunks: the chunk's most error-looking line by the fallback's generic score, the
next error-looking ones when that is refused, up to three), widening an earlier learned pattern where the line
is the same failure (engine/learn/).

Reported over the later builds (all but each repository's first): the share whose cause is in
the labelled lines with and without learning; the recurring failures among them (the same
failure as an earlier build of that repository, defined without the learner: the chunk's first
non-blank line, normalised as engine/verdict/baseline.normalise compares runs, equals an earlier
build's);
how often a learned pattern decided, and on a line outside the labelled ones (a wrong line); the
share of learn attempts that wrote a pattern, and each refusal with its reason.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from repopilot.engine.classify import Classifier
from repopilot.engine.learn.check import matches
from repopilot.engine.learn.learner import Learned, LearnRefused, LearnRequest, learn
from repopilot.engine.library.layers import layered
from repopilot.engine.library.loader import Pattern
from repopilot.engine.measure.corpus_repo import project_of
from repopilot.engine.measure.labels import gha_cases
from repopilot.engine.verdict.baseline import normalise
from repopilot.engine.verdict.line_score import Line, score
from repopilot.errors import EvalError, InputError
from repopilot.logs.reader import iter_lines, open_logs
from repopilot.logs.textnorm import body
from repopilot.records import AssignedCategory, Verdict

TRIES = 3  # labelled lines tried to learn from, the next when one is refused
LOOK = 20  # LogChunks: the chunk's first non-blank lines looked at for the labelled line
SAME_FAILURE = (
    "the same failure: the chunk's first non-blank line (Actions: the key line), normalised by "
    "engine/verdict/baseline.normalise, equals an earlier build's"
)


@dataclass(frozen=True, slots=True)
class Case:
    """One labelled failed log: where its cause is."""

    repo: str
    order: int
    path: Path
    cause: tuple[int, int]  # inclusive span (one line for an Actions key line)
    category: str | None  # None: not labelled (LogChunks)
    accepted: frozenset[str] = frozenset()


@dataclass(slots=True)
class RepoFigures:
    repo: str
    logs: int = 0
    later: int = 0
    found_base: int = 0
    found_learn: int = 0
    category_base: int = 0
    category_learn: int = 0
    labelled: int = 0
    recurring: int = 0
    recurring_base: int = 0
    recurring_learn: int = 0
    learn_tried: int = 0
    learned: int = 0
    widened: int = 0
    retired: int = 0  # learned patterns a later example contradicted (removed)
    patterns: int = 0  # learned patterns the repository ends with
    fired: int = 0
    false_hits: int = 0
    refusals: list[str] = field(default_factory=list)


def gha(directory: Path, labels: Path) -> list[Case]:
    out = []
    for c in gha_cases(directory, labels):
        if c.key_line is None or c.category in ("no_failure", "unknown"):
            continue
        digits = re.findall(r"\d+", c.id)
        out.append(Case(project_of(c.path, c.repo), int(digits[-1]) if digits else 0, c.path,
                        (c.key_line, c.key_line), c.category, c.accepted))  # fmt: skip
    return out


def logchunks(directory: Path, chunks: Path) -> list[Case]:
    base = directory / "logs" if (directory / "logs").is_dir() else directory
    csv.field_size_limit(1 << 30)
    out = []
    try:
        with chunks.open(newline="", encoding="utf-8") as fh:
            for row in csv.DictReader(fh):
                lo, hi = row.get("chunk_start_line", ""), row.get("chunk_end_line", "")
                if not (lo.strip().isdigit() and hi.strip().isdigit()):
                    continue
                build = row.get("build_id", "")
                out.append(Case(row.get("repo", "?"), int(build) if build.isdigit() else 0,
                                base / row["log"], (int(lo), int(hi)), None))  # fmt: skip
    except (OSError, KeyError, csv.Error) as exc:
        raise EvalError(f"{chunks}: cannot read the chunks: {exc}") from None
    return out


def _found(v: Verdict | None, case: Case) -> bool:
    if v is None or not v.evidence:
        return False
    lo, hi = case.cause
    first = v.evidence[0].line
    if lo <= first <= hi:
        return True
    return v.assertion_first and len(v.evidence) > 1 and lo <= v.evidence[1].line <= hi


def _category_ok(v: Verdict | None, case: Case) -> bool:
    return v is not None and (v.category == case.category or v.category in case.accepted)


def _verdict(classifier: Classifier, path: Path) -> Verdict | None:
    try:
        jobs = open_logs(str(path))
    except InputError:
        return None
    return classifier.classify(jobs[0], assume_failed=True) if jobs else None


def _labelled(case: Case) -> list[tuple[int, str]]:
    """The labelled lines, the one a maintainer would point at first: (line number, body text).
    Actions: the key line. LogChunks: the chunk's non-blank lines (its first LOOK), the most
    error-looking first by the fallback's generic score (engine/verdict/line_score.py), in
    order at equal score."""
    try:
        jobs = open_logs(str(case.path))
    except InputError:
        return []
    lo, hi = case.cause
    got = [(x.number, body(x.text)) for x in iter_lines(jobs[0], lo, hi)] if jobs else []
    if case.category is not None:
        return got[:1]
    lines = [(n, t) for n, t in got if t.strip()][:LOOK]
    return sorted(lines, key=lambda x: -_score(x, lo))


def _score(line: tuple[int, str], lo: int) -> float:
    return score(Line(line[0], line[1], False), lo, 1 << 30)


def _key(case: Case, lines: list[tuple[int, str]]) -> str:
    """What makes two builds' failures the same (SAME_FAILURE): the labelled line normalised."""
    first = min(lines) if lines else None
    return normalise(first[1]) if first else ""


Lint = Callable[[Pattern], list[str]]


def evaluate(
    cases: Sequence[Case], library: Sequence[Pattern], lint: Lint | None = None
) -> list[RepoFigures]:
    """The figures per repository with two or more logs, in the repositories' name order."""
    by_repo: dict[str, list[Case]] = {}
    for c in cases:
        if c.path.is_file():
            by_repo.setdefault(c.repo, []).append(c)
    base = Classifier(list(library))
    out = []
    for repo in sorted(by_repo):
        todo = sorted(by_repo[repo], key=lambda c: c.order)
        if len(todo) < 2:
            continue
        fig = RepoFigures(repo, logs=len(todo))
        learned: dict[str, Pattern] = {}
        seen: set[str] = set()
        for i, case in enumerate(todo):
            lines = _labelled(case)
            key = _key(case, lines)
            current = layered(library, list(learned.values()))
            if i > 0:
                v_base = _verdict(base, case.path)
                hit = _takes_a_line(list(learned.values()), case.path)
                v_learn = _verdict(Classifier(current), case.path) if hit else v_base
                _count(fig, case, v_base, v_learn, bool(key) and key in seen)
            seen.add(key)
            got = _learn(case, lines, current, lint, fig)
            if got is not None:
                for old in got.retired:
                    learned.pop(old, None)
                learned[got.id] = got.pattern
        fig.patterns = len(learned)
        out.append(fig)
    return out


def _takes_a_line(patterns: list[Pattern], path: Path) -> bool:
    """Whether any of `patterns` matches a line of the log: when none does, the verdict with
    them on top is the verdict without them (the same hits), and is not computed again."""
    if not patterns:
        return False
    try:
        jobs = open_logs(str(path))
    except InputError:
        return False
    return any(
        matches(p, body(x.text)) for job in jobs[:1] for x in iter_lines(job) for p in patterns
    )


def _count(
    fig: RepoFigures, case: Case, v_base: Verdict | None, v_learn: Verdict | None, again: bool
) -> None:
    fig.later += 1
    fig.found_base += _found(v_base, case)
    fig.found_learn += _found(v_learn, case)
    if again:
        fig.recurring += 1
        fig.recurring_base += _found(v_base, case)
        fig.recurring_learn += _found(v_learn, case)
    if case.category is not None:
        fig.labelled += 1
        fig.category_base += _category_ok(v_base, case)
        fig.category_learn += _category_ok(v_learn, case)
    if v_learn is not None and v_learn.learned_from is not None:
        fig.fired += 1
        fig.false_hits += not _found(v_learn, case)


def _learn(
    case: Case,
    lines: list[tuple[int, str]],
    library: list[Pattern],
    lint: Lint | None,
    fig: RepoFigures,
) -> Learned | None:
    """Learn from the labelled line (the next ones when it is refused): the pattern, or None with
    the first line's refusal recorded."""
    fig.learn_tried += 1
    category: AssignedCategory = case.category if case.category else "other"  # type: ignore[assignment]
    why = f"{case.path.name}: no labelled line in the log"
    # after the first, only lines that look like an error (a chunk that is a success summary
    # or plain output has nothing else to learn)
    tries = lines[:1] + [x for x in lines[1:TRIES] if _score(x, case.cause[0]) > 0]
    for k, (n, _text) in enumerate(tries):
        req = LearnRequest(str(case.path), n, category)
        try:
            got = learn(req, library, lint)
        except (LearnRefused, InputError) as exc:
            why = why if k else str(exc)
            continue
        fig.learned += 1
        fig.widened += got.widened is not None
        fig.retired += len(got.retired)
        return got
    fig.refusals.append(f"{fig.repo}: {why}")
    return None
