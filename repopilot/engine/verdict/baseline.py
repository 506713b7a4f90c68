"""The last green log as evidence: lines a passing run of the same job also printed are not the
cause (issue 20, "the last green log as evidence"; Contract 1 `--base-log`).

A line is compared after its volatile parts are normalised away: timestamps and clock times,
durations, hashes and UUIDs, temporary paths, ports and every other number (counters, pids, line
and byte counts). A failing log's pattern hits that the green log also holds are demoted: the
engine prefers a hit that is new, and when every hit is old it looks for the first error-looking
line that is new (the fallback over the new lines only). A base log that failed serves the origin
decision (`triage`) and demotes nothing. Whether it passed: `green` (a GitHub log's end may say
so despite tolerated errors, base_green.py), or the user's word (`--base-log-passed`).

Without a base log, a line repeated many times in the same log (a retry loop, a warning per file)
is weak evidence: `repeated` says which hit texts recur.
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Protocol, TypeVar

from repopilot.engine.match.scan_result import ScanResult
from repopilot.engine.verdict.base_green import ended_green
from repopilot.logs.reader import JobLog, iter_lines, open_logs
from repopilot.logs.textnorm import body
from repopilot.records import BASELINE_NOTE, Verdict

T = TypeVar("T")
MAX_LINES = 500_000  # lines of a base log kept (a few tens of MB at most)
REPEATED = 5  # a hit text seen this often in one log is weak evidence
NOTE = BASELINE_NOTE

# Order matters: the specific shapes first, then every remaining number.
_VOLATILE: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?"), "<ts>"),
    (re.compile(r"\b\d\d:\d\d:\d\d(?:[.,]\d+)?\b"), "<time>"),
    (
        re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b", re.I),
        "<uuid>",
    ),
    (re.compile(r"\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,64}\b", re.I), "<hash>"),
    (
        re.compile(r"(?:/tmp|/var/folders|/private/var|[A-Za-z]:\\[^\s]*\\Temp)[/\\][^\s'\"):]*"),
        "<tmp>",
    ),
    (re.compile(r"\b_temp/[^\s'\"):]*"), "<tmp>"),
    (
        re.compile(r"\b\d+(?:\.\d+)?\s?(?:ms|µs|us|ns|s|sec|secs|seconds?|m|min|minutes?|h)\b"),
        "<dur>",
    ),
    (re.compile(r"\d+"), "0"),
    (re.compile(r"\s+"), " "),
)


def normalise(text: str) -> str:
    """`text` (a display line) without its volatile parts, for comparing runs."""
    t = body(text).strip()
    for rx, repl in _VOLATILE:
        t = rx.sub(repl, t)
    return t


@dataclass(frozen=True, slots=True)
class Baseline:
    """The normalised lines of a passing log of the same job."""

    source: str
    lines: frozenset[str]

    def has(self, text: str) -> bool:
        return normalise(text) in self.lines

    def fresh(self, items: Iterable[T], text: Callable[[T], str]) -> list[T]:
        """The items whose text the green log does not hold, in order."""
        return [x for x in items if not self.has(text(x))]


def from_jobs(source: str, jobs: Iterable[JobLog]) -> Baseline:
    keep: set[str] = set()
    for job in jobs:
        for n, ln in enumerate(iter_lines(job)):
            if n >= MAX_LINES:
                break
            t = normalise(ln.text)
            if t:
                keep.add(t)
    return Baseline(source, frozenset(keep))


class _Scans(Protocol):
    def scan(self, job: JobLog) -> ScanResult: ...


class _Classifies(Protocol):
    @property
    def scanner(self) -> _Scans: ...

    def classify(self, job: JobLog, assume_failed: bool = False) -> Verdict: ...


def green(classifier: _Classifies, job: JobLog) -> bool:
    """Whether the base log's `job` passed: the failure rule finds no failure in it, or (a
    GitHub log) its end says the job carried on past every failure it reported, as a
    `continue-on-error` step or a command run with `|| true` leaves it (base_green.py)."""
    if classifier.classify(job).category == "no_failure":
        return True
    return ended_green(job, classifier.scanner.scan(job))


def base_verdicts(classifier: _Classifies, path: str, passed: bool = False) -> list[Verdict]:
    """Each job's verdict of the base log at `path`, `no_failure` where that job passed by
    `green` (or `passed`: the user's word), for the origin decision to compare with. LogError
    for unusable input."""
    out = []
    for job in open_logs(path):
        v = classifier.classify(job)
        if v.failed and (passed or ended_green(job, classifier.scanner.scan(job))):
            v = dataclasses.replace(v, category="no_failure", evidence=(), captures={})
        out.append(v)
    return out


def base_from_path(classifier: _Classifies, path: str, passed: bool = False) -> Baseline | None:
    """The base log at `path` as a Baseline when it passed (its passing jobs' lines, `green`),
    else None: a failed base log only serves the origin decision. `passed`: the user says it
    passed (`--base-log-passed`), so every job's lines count, unjudged. LogError for unusable
    input."""
    jobs = open_logs(path)
    kept = jobs if passed else [j for j in jobs if green(classifier, j)]
    return from_jobs(path, kept) if kept else None


def repeated(texts: Iterable[str]) -> set[str]:
    """Normalised texts seen REPEATED times or more among `texts`."""
    counts = Counter(normalise(t) for t in texts)
    return {t for t, n in counts.items() if n >= REPEATED}


def demote(
    base: Baseline | None,
    items: list[T],
    text: Callable[[T], str],
    weakens: Callable[[T], bool] = lambda x: True,
    where: Callable[[T], int] = lambda x: 0,
) -> tuple[list[T], bool]:
    """`items` (pattern hits) as the verdict should weigh them, and whether the green log holds
    every one of them. With a base log, the items it also holds are set aside when any other is
    left. Without one, a line that `weakens` (an infrastructure line) and that recurs REPEATED
    times is weak: a retry loop's error. It is set aside only for a different hit printed after
    its last repetition (the loop ended and something else failed); a repeated error that is the
    last thing the job printed (a download failing for every package) stays the cause."""
    if not items:
        return items, False
    if base is None:
        weak = repeated(text(x) for x in items if weakens(x))
        if not weak:
            return items, False

        def is_weak(x: T) -> bool:
            return weakens(x) and normalise(text(x)) in weak

        last = max(where(x) for x in items if is_weak(x))
        later = [x for x in items if not is_weak(x) and where(x) > last]
        return later or items, False
    new = base.fresh(items, text)
    return new or items, not new


def noted(v: Verdict, base: Baseline | None) -> Verdict:
    """`v` saying that it was compared with the base log."""
    if base is None or v.category == "no_failure":
        return v
    return dataclasses.replace(v, hint=f"{v.hint} {NOTE}".strip())
