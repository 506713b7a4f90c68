"""What one scan of a job log yields (ScanResult, its Hits), and the seam between the Scanner and
the set engine: the prefilter record the set engine reads (Prefilter) and the per-line call it
makes back (`LineSink.line(raw, LineCtx)`).

The Scanner (engine/match/scan.py) owns the prefilter and decides each line's hits; the set engine
(engine/match/set_engine.py) selects lines and, for each, hands the Scanner what it decided there.
Neither reads the other's private members, so each can change behind this record.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol, TypeAlias

from repopilot.engine.match.needles import ChunkScan, Needle, NeedleSet, chunk_scan, needle_set
from repopilot.logs.textnorm import body, display

if TYPE_CHECKING:
    from collections.abc import Set

    from repopilot.engine.library.loader import Pattern

MAX_HITS = 4096
GENERIC_KEEP = 48  # error-like lines kept per step (ScanResult.generic)
# Lines that look like errors, for best-guess evidence when no pattern decides.
GENERIC = (
    "error",
    "fail",
    "fatal",
    "exception",
    "panic",
    "traceback",
    "killed",
    "denied",
    "cannot",
    "could not",
    "unable to",
    "not found",
    "timed out",
    "abort",
)
# Runner lines the scan must see whether or not a pattern names them (steps, exits, markers).
SIGNALS = (
    "##[error]",
    "exit code",
    "exited with",
    "finished: ",
    "build failure",
    "build failed",
    "the operation was canceled",
    "job succeeded",
    "##[group]",
    "##[endgroup]",
)

# One error-like line a step keeps: (line number, display text, anchor of its chunk).
GenericLine: TypeAlias = tuple[int, str, tuple[int, int]]


@dataclass(slots=True)
class Hit:
    pattern: Pattern
    line: int
    text: str  # display text
    # None: RE2 alone decided the line (the set engine); `Scanner.captures()` reads them when a
    # verdict needs them: of all the hits in a log, only the verdict's first one does.
    captures: dict[str, str] | None
    step: int  # index into ScanResult.steps (-1: before any step)
    anchor: tuple[int, int]  # (byte offset, first line) of the chunk holding the line


@dataclass(slots=True)
class ScanResult:
    steps: list[tuple[int, str]] = field(default_factory=list)  # (start line, name)
    hits: deque[Hit] = field(default_factory=lambda: deque(maxlen=MAX_HITS))
    # step -> recent error-like lines
    generic: dict[int, deque[GenericLine]] = field(default_factory=dict)
    errors: list[tuple[int, int, str]] = field(default_factory=list)  # (line, step, text) ##[error]
    exit_lines: list[tuple[int, int, int]] = field(default_factory=list)  # (line, step, code)
    success_marker: bool = False
    failure_marker: bool = False
    timeouts: dict[str, int] = field(default_factory=dict)
    lines: int = 0
    header_until: int = 0  # a step's script echo: `##[group]Run ...` to `##[endgroup]` (capped)


def generic_deque() -> deque[GenericLine]:
    """A step's recent error-like lines: (line number, display text, chunk anchor)."""
    return deque(maxlen=GENERIC_KEEP)


@dataclass(frozen=True, slots=True)
class Prefilter:
    """What the set engine needs from the Scanner: its patterns and its needles.

    A needle (engine/match/needles.py: a literal or a pattern's prefilter_regex) is what a line
    must hold for some pattern, error-like word or runner signal to concern it."""

    patterns: list[Pattern]
    signals: tuple[str, ...]
    generic: tuple[str, ...]
    chunk_scan: ChunkScan  # over the minimal needles (one chunk search)
    needles: NeedleSet  # over every needle, in `needle_patterns` order
    needle_patterns: list[list[int]]  # needle index -> the patterns it stands for
    generic_needles: frozenset[int]  # needle indexes of the error-like words
    generic_words: NeedleSet  # over the error-like words alone
    always: list[int]  # patterns without a needle: tried on every line

    def generic_text(self, raw: bytes) -> str | None:
        """The display text of `raw` when it holds an error-like word (a generic line)."""
        text = display(raw)
        return text if self.generic_words.present(body(text)) else None


def prefilter(patterns: list[Pattern]) -> Prefilter:
    """The needles of `patterns`, the error-like words and the runner signals, compiled."""
    needles: dict[Needle, list[int]] = {}
    always: list[int] = []
    for i, p in enumerate(patterns):
        if p.needle_re:
            needles.setdefault(Needle(None, p.needle_re), []).append(i)
        elif not p.literals:
            always.append(i)
        for lit in p.literals:
            needles.setdefault(Needle(lit), []).append(i)
    for lit in GENERIC + SIGNALS:
        needles.setdefault(Needle(lit), [])
    names = list(needles)
    generic = [Needle(g) for g in GENERIC]
    return Prefilter(
        patterns=patterns,
        signals=SIGNALS,
        generic=GENERIC,
        chunk_scan=chunk_scan(_minimal(patterns), every_line=bool(always)),
        needles=needle_set(names),
        needle_patterns=[needles[n] for n in names],
        generic_needles=frozenset(names.index(g) for g in generic),
        generic_words=needle_set(generic),
        always=always,
    )


def _minimal(patterns: list[Pattern]) -> list[Needle]:
    """The needles the chunk scan needs: a literal that contains another literal adds nothing
    (every line holding it holds the shorter one too), and a smaller alternation scans faster.
    Which patterns a candidate line concerns is then decided by the full set (`Set.Match`)."""
    literals = sorted(
        {lit for p in patterns for lit in p.literals} | set(GENERIC) | set(SIGNALS), key=len
    )
    kept: list[str] = []
    for lit in literals:
        if not any(k in lit for k in kept):
            kept.append(lit)
    regexes = sorted({p.needle_re for p in patterns if p.needle_re})
    return [Needle(k) for k in kept] + [Needle(None, r) for r in regexes]


@dataclass(frozen=True, slots=True)
class Selected:
    """What the set engine decided about one line, so the Scanner need not decide it again."""

    text: str  # display text
    matchable: str  # body(text): what patterns match
    todo: Set[int]  # patterns `regex` must try, or that are decided (`direct`)
    direct: Set[int]  # patterns RE2's exact line forms decided: hits without `regex`
    lazy: Set[int]  # of those, the patterns with named groups (read only for a verdict)
    generic: bool  # an error-like word is in the line


@dataclass(slots=True)
class LineCtx:
    """Where one line is: the scan it belongs to, its chunk, its number and step; and what the
    set engine decided there (None: the Scanner selects its patterns with its own needles)."""

    res: ScanResult
    anchor: tuple[int, int]  # (byte offset, first line) of the chunk holding the line
    number: int
    step: int
    selected: Selected | None = None


class LineSink(Protocol):
    """The Scanner, as the set engine sees it."""

    def line(self, raw: bytes, ctx: LineCtx) -> None: ...
