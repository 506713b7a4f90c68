"""Learn one pattern from a log and the line that is its cause (docs/CONTRACTS.md Contract 6).

The line is redacted first (the comment's rules: a secret never reaches a repository's pattern
file), then generalised (engine/learn/tokens.py): its stable words and the tool's punctuation
stay, what varies between occurrences becomes a class or a named capture, the whole line anchored.
When the repository already has a learned pattern of that category that the line almost matches
(engine/learn/widen.py), that pattern is widened instead: one pattern per failure, not a pile.
A pattern that takes lines it must not (other lines of its own log, a base log's, a library
`no_match` example, a line every failure of a tool prints: engine/learn/generic.py) is
specialised one class at a time (engine/learn/specialise.py); it must end
up deciding the line as evidence[0] of its own log's verdict (engine/learn/check.py). When it
cannot, `LearnRefused` says why.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from repopilot.engine.learn import check, wire
from repopilot.engine.learn.line import cut, refusal, scrub, wordy
from repopilot.engine.learn.specialise import literal, next_keep, volatile
from repopilot.engine.learn.tokens import Piece, fixed_words, pieces, regex_of
from repopilot.engine.learn.widen import widen
from repopilot.engine.library.layers import learned_from
from repopilot.engine.library.loader import Pattern
from repopilot.engine.verdict.baseline import normalise
from repopilot.errors import InputError, PatternError
from repopilot.logs.reader import JobLog, iter_lines, open_logs
from repopilot.logs.textnorm import body
from repopilot.records import AssignedCategory
from repopilot.safety.redact import clean_lines

NEAR = 6  # lines either side looked at for `no_match` examples
MAX_RETIRED = 2  # learned patterns a new example may contradict at once
MIN_CUT_WORDS = 3  # fixed words the start of a cut line keeps (it is learned without its end)
MAX_LINE = wire.MAX_LINE
PRIORITY = wire.PRIORITY
CONFIDENCE = wire.CONFIDENCE


class LearnRefused(InputError):
    """No safe pattern can be made from that line: the message says why."""


@dataclass(frozen=True, slots=True)
class LearnRequest:
    """What to learn from: `line` of the log at `path` is the cause."""

    path: str
    line: int
    category: AssignedCategory = "other"
    title: str | None = None
    hint: str | None = None
    base_logs: tuple[str, ...] = ()
    pattern_id: str | None = None
    source_name: str | None = None  # the file named in `source:` (default: the path's name)


@dataclass(frozen=True, slots=True)
class Learned:
    """The learned pattern: its file data (the YAML wire form) and the loaded pattern;
    `widened`: the id of the repository's learned pattern it replaces (None: a new one);
    `retired`: learned patterns that decide this log on another line (it decides only without
    them: the line the maintainer named is the cause, theirs is not)."""

    data: dict[str, Any]
    pattern: Pattern
    own_hits: tuple[int, ...] = field(default=())
    widened: str | None = None
    # learned patterns that decide this log on another line: no reliable cause (remove them)
    retired: tuple[str, ...] = ()

    @property
    def id(self) -> str:
        return self.pattern.id


Lint = Callable[[Pattern], list[str]]


@dataclass(frozen=True, slots=True)
class _Ctx:
    req: LearnRequest
    text: str  # the line as the log has it (the body)
    library: Sequence[Pattern]
    lint: Lint | None
    bases: list[check.LogText]
    own: check.LogText
    job: JobLog


@dataclass(frozen=True, slots=True)
class _Outcome:
    why: str | None  # None: the pattern passes
    taken: tuple[str, ...] = ()  # lines it takes and must not (specialising may help)
    hits: tuple[int, ...] = ()
    retired: tuple[str, ...] = ()


def learn(
    req: LearnRequest,
    library: Sequence[Pattern],
    lint: Lint | None = None,
    job: JobLog | None = None,
) -> Learned:
    """The pattern for `req`, checked against `library` (the built-in library and the repository's
    patterns it will sit on, its learned ones among them); LearnRefused when none passes."""
    job = job or _job(req.path)
    own = check.LogText(req.path, tuple(body(x.text) for x in iter_lines(job)))
    if not 1 <= req.line <= len(own.lines):
        raise LearnRefused(f"{req.path}: no line {req.line} (the log has {len(own.lines)})")
    text = own.lines[req.line - 1]
    why = refusal(text)
    if why is not None:
        raise LearnRefused(f"{req.path}:{req.line}: {why}")
    # redacted as the comment redacts: the window as one text (a token wrapped across lines)
    lo, hi = max(1, req.line - NEAR), min(len(own.lines), req.line + NEAR)
    window, _ = clean_lines(own.lines[lo - 1 : hi])
    scrubbed = scrub(window[req.line - lo]).rstrip()
    safe = cut(scrubbed)
    near = [x for i, x in enumerate(window, lo) if i != req.line and wordy(x)]
    ps = pieces(safe)
    if not _fixed_word(ps) and all(volatile(p) for p in ps if p.kind == "class"):
        raise LearnRefused(f"{req.path}:{req.line}: the line has no fixed text, only values")
    if safe != scrubbed and fixed_words(ps) < MIN_CUT_WORDS:
        # a cut line is learned as a prefix (no end anchor): `Traceback aaaa...` became
        # `^Traceback`, which takes every Python traceback above every built-in pattern
        raise LearnRefused(
            f"{req.path}:{req.line}: a line of {len(scrubbed)} characters whose start before the "
            f"cut ({safe[:60]!r}) has fewer than {MIN_CUT_WORDS} fixed words: it would take "
            "every line that starts so"
        )
    ctx = _Ctx(req, text, library, lint, [_log_text(b) for b in req.base_logs], own, job)
    source = f"{req.source_name or Path(req.path).name}:{req.line}"
    for q in library:  # the same failure learned before: widen that pattern
        regex = widen(q, safe) if _mergeable(q, req) else None
        if regex is not None:
            data = wire.widened_data(q, regex, safe, source, near)
            got = _attempt(ctx, data)
            if isinstance(got, tuple):
                return Learned(data, got[0], got[1], widened=q.id, retired=got[2])
    return _new(ctx, ps, safe, near, source, safe == scrubbed)


def _mergeable(q: Pattern, req: LearnRequest) -> bool:
    return learned_from(q) is not None and q.spec.category == req.category and not req.pattern_id


def _new(
    ctx: _Ctx, ps: list[Piece], safe: str, near: list[str], source: str, whole: bool
) -> Learned:
    """A new pattern: the generalised line, specialised while it takes lines it must not."""
    req = ctx.req
    indented = safe[:1].isspace()
    keep = _names_kept(ps)
    why = "no candidate"
    for _ in range(len(ps) + 1):
        regex = regex_of(literal(ps, keep), indented, whole)
        data = wire.new_data(pattern_id=req.pattern_id, category=req.category, source=source,
                             regex=regex, safe=safe, ps=literal(ps, keep), near=near,
                             title=req.title, hint=req.hint)  # fmt: skip
        got = _attempt(ctx, data)
        if isinstance(got, tuple):
            return Learned(data, got[0], got[1], retired=got[2])
        why = got.why or why
        more = next_keep(ps, keep, got.taken, indented, whole) if got.taken else None
        if more is None:
            break
        keep = more
    raise LearnRefused(f"{req.path}:{req.line}: no safe pattern: {why}")


def _fixed_word(ps: list[Piece]) -> bool:
    return any(p.kind == "fixed" and any(c.isalnum() for c in p.text) for p in ps)


def _names_kept(ps: list[Piece]) -> frozenset[int]:
    """Where to start specialising from: nothing, when the line has a fixed word; else (a path
    alone, `1) Suite::testName`) its names stay literal and only its values vary."""
    if _fixed_word(ps):
        return frozenset()
    return frozenset(i for i, p in enumerate(ps) if p.kind == "class" and not volatile(p))


def _attempt(
    ctx: _Ctx, data: dict[str, Any]
) -> tuple[Pattern, tuple[int, ...], tuple[str, ...]] | _Outcome:
    """The loaded pattern and its own-log hits when it passes every check, else the outcome."""
    try:
        p = wire.load(data)
    except PatternError as exc:
        return _Outcome(str(exc).rsplit(": ", 1)[-1])
    got = _check(ctx, p)
    return (p, got.hits, got.retired) if got.why is None else got


def _check(ctx: _Ctx, p: Pattern) -> _Outcome:
    req = ctx.req
    if not check.matches(p, ctx.text):
        return _Outcome("it does not match the line (redaction changed its shape)")
    why = check.safe_route(p)
    if why:
        return _Outcome(why)
    for taken in (
        check.library_no_match(p, ctx.library),
        check.generic_hits(p),
        check.base_hits(p, ctx.bases),
    ):
        if taken:
            return _Outcome(f"it matches {taken[0].where}", tuple(t.text for t in taken))
    hits = tuple(check.own_hits(p, ctx.own))
    others = [h for h in hits if h != req.line]
    same = normalise(ctx.text)
    # other lines of another shape: specialise first; the same line again (other numbers, a
    # summary repeating it): fine when the verdict still takes this one
    if any(normalise(ctx.own.lines[h - 1]) != same for h in others):
        texts = tuple(ctx.own.lines[h - 1] for h in others)
        return _Outcome(f"it also matches line {others[0]} of its own log", texts, hits)
    if ctx.lint is not None:
        problems = ctx.lint(p)
        if problems:
            return _Outcome(f"patterns lint: {problems[0]}", (), hits)
    library: list[Pattern] = list(ctx.library)
    retired: tuple[str, ...] = ()
    for _ in range(1 + MAX_RETIRED):
        got = check.verdict_line(p, library, ctx.job, req.line)
        q = next((x for x in library if x.id == got.pattern_id and x.id != p.id), None)
        if got.why is None or q is None or learned_from(q) is None:
            break
        # a pattern learned before decides this log on another line: the maintainer says that
        # line is not the cause here, so it is no reliable cause (the caller retires it)
        library, retired = [x for x in library if x is not q], (*retired, q.id)
    if got.why is None:
        return _Outcome(None, (), hits, retired)
    line = got.line
    again = (ctx.own.lines[line - 1],) if line is not None and line in others else ()
    return _Outcome(got.why, again, hits)


def _job(path: str) -> JobLog:
    jobs = open_logs(path)
    if not jobs:
        raise LearnRefused(f"{path}: no job log in it")
    return jobs[0]


def _log_text(path: str) -> check.LogText:
    lines: list[str] = []
    for job in open_logs(path):
        lines.extend(body(x.text) for x in iter_lines(job))
    return check.LogText(path, tuple(lines))


def to_yaml(learned: Learned) -> str:
    return wire.to_yaml(learned.data)
