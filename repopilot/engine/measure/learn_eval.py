"""`repopilot eval --learn`: what learning each repository's failures buys (issue 21).

Per repository, logs in chronological order (Travis build ids, Actions job ids grow with time):
each log is classified with the built-in library alone and with the patterns learned from the
earlier logs of that repository on top; then, when the cause was not found, a pattern is learned
from the log's labelled line (Actions: the key line; LogChunks: the chunk's first non-blank lines,
up to three tried). Reported over the later logs (all but each repository's first): the share
whose cause line is found with and without learning (and the category, where labelled), the
learn success rate, and how often a learned pattern decided a verdict on a line that is not the
cause (a false hit).
"""

from __future__ import annotations

import csv
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from repopilot.engine.classify import Classifier
from repopilot.engine.learn.learner import LearnRefused, LearnRequest, learn
from repopilot.engine.library.layers import layered
from repopilot.engine.library.loader import Pattern
from repopilot.engine.measure.corpus_repo import project_of
from repopilot.engine.measure.labels import gha_cases
from repopilot.errors import EvalError, InputError
from repopilot.logs.reader import iter_lines, open_logs
from repopilot.records import AssignedCategory, Verdict

TRIES = 3  # LogChunks: chunk lines tried as the labelled line


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
    learn_tried: int = 0
    learned: int = 0
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


def _lines_to_try(case: Case) -> list[int]:
    if case.category is not None:
        return [case.cause[0]]
    lo, hi = case.cause
    job = open_logs(str(case.path))[0]
    return [x.number for x in iter_lines(job, lo, hi) if x.text.strip()][:TRIES]


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
        learned: list[Pattern] = []
        for i, case in enumerate(todo):
            with_learned = Classifier(layered(library, learned)) if learned else base
            v_learn = _verdict(with_learned, case.path)
            if i > 0:
                _count(fig, case, _verdict(base, case.path), v_learn, {p.id for p in learned})
            if _found(v_learn, case):
                continue
            fig.learn_tried += 1
            got = _learn(case, [*layered(library, learned)], lint, fig)
            if got is not None:
                fig.learned += 1
                learned.append(got)
        out.append(fig)
    return out


def _count(
    fig: RepoFigures, case: Case, v_base: Verdict | None, v_learn: Verdict | None, ids: set[str]
) -> None:
    fig.later += 1
    fig.found_base += _found(v_base, case)
    fig.found_learn += _found(v_learn, case)
    if case.category is not None:
        fig.labelled += 1
        fig.category_base += _category_ok(v_base, case)
        fig.category_learn += _category_ok(v_learn, case)
    if v_learn is not None and v_learn.pattern_id in ids:
        fig.fired += 1
        fig.false_hits += not _found(v_learn, case)


def _learn(
    case: Case, library: list[Pattern], lint: Lint | None, fig: RepoFigures
) -> Pattern | None:
    category: AssignedCategory = case.category if case.category else "other"  # type: ignore[assignment]
    why = ""
    for n in _lines_to_try(case):
        req = LearnRequest(str(case.path), n, category, pattern_id=f"learned.eval.{fig.learned}")
        try:
            return learn(req, library, lint).pattern
        except (LearnRefused, InputError) as exc:
            why = str(exc)
    fig.refusals.append(why)
    return None


_SUMS = ("logs", "later", "found_base", "found_learn", "category_base", "category_learn",
         "labelled", "learn_tried", "learned", "fired", "false_hits")  # fmt: skip


def total(figures: Sequence[RepoFigures]) -> RepoFigures:
    out = RepoFigures("all")
    for f in figures:
        for k in _SUMS:
            setattr(out, k, getattr(out, k) + getattr(f, k))
        out.refusals.extend(f.refusals)
    return out


def _pct(a: int, b: int) -> str:
    return f"{100 * a / b:.1f}%" if b else "-"


def as_dict(f: RepoFigures) -> dict[str, object]:
    """The wire form (`--format json`)."""
    return {
        **{k: getattr(f, k) for k in ("repo", *_SUMS)},
        "found_base_rate": round(f.found_base / f.later, 4) if f.later else None,
        "found_learn_rate": round(f.found_learn / f.later, 4) if f.later else None,
        "learn_rate": round(f.learned / f.learn_tried, 4) if f.learn_tried else None,
        "refusals": list(f.refusals),
    }


def render(figures: Sequence[RepoFigures], tot: RepoFigures) -> str:
    head = f"{'repository':<36} {'logs':>4} {'later':>5} {'cause w/o':>9} {'cause with':>10}"
    head += f" {'learned':>9} {'fired':>5} {'false':>5}"
    rows = [head]
    for f in [*figures, tot]:
        rows.append(
            f"{f.repo[:36]:<36} {f.logs:>4} {f.later:>5} {_pct(f.found_base, f.later):>9} "
            f"{_pct(f.found_learn, f.later):>10} {f'{f.learned}/{f.learn_tried}':>9} "
            f"{f.fired:>5} {f.false_hits:>5}"
        )
    rows.append(
        f"cause line on later logs: {_pct(tot.found_base, tot.later)} without learning, "
        f"{_pct(tot.found_learn, tot.later)} with; learn success {_pct(tot.learned, tot.learn_tried)}"
        f"; learned patterns decided {tot.fired} later logs, {tot.false_hits} on a line not the cause"
    )
    if tot.labelled:
        rows.append(
            f"category right on labelled later logs: {_pct(tot.category_base, tot.labelled)} "
            f"without, {_pct(tot.category_learn, tot.labelled)} with"
        )
    return "\n".join(rows)
