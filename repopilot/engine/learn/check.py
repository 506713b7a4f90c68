"""The checks a learned pattern passes before it is written (docs/CONTRACTS.md Contract 6).

Each returns a reason (one line) when the pattern fails it, None when it passes. The order in
`learner.py` is cheapest first: loading, the engine's safe route, the line itself, the library's
`no_match` examples, the lines every failure of a tool prints, the base logs, the own log, then a whole classification of the log.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from repopilot.engine.classify import Classifier
from repopilot.engine.learn.generic import generic_lines, summary_lines
from repopilot.engine.library.layers import layered
from repopilot.engine.library.loader import Pattern, check_examples
from repopilot.logs.reader import JobLog
from repopilot.logs.textnorm import body, display


@dataclass(frozen=True, slots=True)
class LogText:
    """A log's matchable lines (the body of each display line), numbered from 1."""

    name: str
    lines: tuple[str, ...]


def matches(p: Pattern, text: str) -> bool:
    low = text.lower()
    if p.literals and not any(lit in low for lit in p.literals):
        return False
    try:
        return any(r.search(text, timeout=0.1) for r in p.regexes)
    except TimeoutError:
        return True  # a line that makes it slow counts against it


def safe_route(p: Pattern) -> str | None:
    """The set engine decides it with RE2 alone (an exact line form), and its examples pass."""
    from repopilot.engine.match.routes import route

    r = route(p)
    if r.forms is None:
        return f"no RE2 form ({r.reason})"
    if not r.exact:
        return f"its RE2 form is not exact ({r.reason})"
    problems = check_examples(p)
    return problems[0] if problems else None


@dataclass(frozen=True, slots=True)
class Taken:
    """A line the pattern takes and must not: its text, and where it is (for the reason)."""

    text: str
    where: str


def library_no_match(p: Pattern, library: Iterable[Pattern]) -> list[Taken]:
    """The `no_match` examples of the library that the pattern takes."""
    out = []
    for q in library:
        for line in q.spec.examples.no_match:
            text = body(display(line))
            if matches(p, text):
                out.append(Taken(text, f"a no_match example of {q.id}: {line[:120]!r}"))
    return out


_GENERIC = tuple((body(display(line)), where) for line, where in generic_lines())
_SUMMARY = tuple((body(display(line)), where) for line, where in summary_lines())


def generic_hits(p: Pattern) -> list[Taken]:
    """The lines every failure of a tool prints (engine/learn/generic.py) that the pattern
    takes: above every built-in pattern, it would decide each such failure on that line."""
    return [Taken(text, f"{where}: {text[:120]!r}") for text, where in _GENERIC if matches(p, text)]


def summary_hits(p: Pattern) -> list[Taken]:
    """The tools' summary and wrapper lines (`generic.SUMMARY`) that the pattern takes: what no
    pattern the comment offers to learn may take."""
    return [Taken(text, f"{where}: {text[:120]!r}") for text, where in _SUMMARY if matches(p, text)]


def base_hits(p: Pattern, logs: Sequence[LogText]) -> list[Taken]:
    """The lines of the passing logs that the pattern takes."""
    return [
        Taken(text, f"line {i} of the base log {log.name}")
        for log in logs
        for i, text in enumerate(log.lines, 1)
        if matches(p, text)
    ]


def own_hits(p: Pattern, log: LogText) -> list[int]:
    return [i for i, text in enumerate(log.lines, 1) if matches(p, text)]


@dataclass(frozen=True, slots=True)
class Decided:
    """What classifying the job with the pattern on top gave: the reason it is not the pattern
    on `line` (None: it is), the evidence[0] line and the deciding pattern's id."""

    why: str | None
    line: int | None
    pattern_id: str | None


def verdict_line(p: Pattern, library: Sequence[Pattern], job: JobLog, line: int) -> Decided:
    """Classifying the job with the pattern on top of the library gives `line` as evidence[0]."""
    v = Classifier(layered(library, [p])).classify(job, assume_failed=True)
    got = v.evidence[0].line if v.evidence else None
    if v.pattern_id != p.id:
        why = f"the verdict comes from {v.pattern_id or v.decided_by} instead"
        return Decided(why, got, v.pattern_id)
    if got != line:
        return Decided(f"the verdict's evidence[0] is line {got}, not {line}", got, p.id)
    return Decided(None, got, p.id)
