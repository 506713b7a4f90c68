"""A verdict's evidence as ranked, distinct cause candidates (issue 27, "top candidates").

`evidence[0]` is the cause the verdict names (engine/verdict/order.py decides it). What follows is
not more lines of that cause but the next best *other* answers, so a reader (or the model) whose
first answer is wrong finds the right one among the first three: another pattern's leading line,
a script's own `##[error]` message, the fallback's best error-looking line of the failing step.

A candidate is one or more lines that belong together (a failing test's message and the test's
own line, Contract 1). A line is the same candidate as one already chosen when its text is the same
once volatile parts are normalised (engine/verdict/baseline.py), or when it is the next line of a
chosen one (or of a line already found next to one) and starts with the same word: a run of
FAILED lines in a test summary is one report. The line right above a wrapper is not its repeat.

With a passing base log, a candidate whose first line the green log also prints goes after every
novel one (a line a passing run prints is a poor cause); inside the leading candidate, old lines
give way to a novel one.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass

from repopilot.engine.verdict.baseline import Baseline, normalise
from repopilot.engine.verdict.fallback import LOOKBACK, first_said, guess
from repopilot.engine.verdict.line_score import Line
from repopilot.engine.verdict.structure import Structure

BLOCK_SPAN = 1  # lines apart at most for two candidates to be one (one report printed once)

NEAR = 4  # the fallback starts a new block after more than 3 quiet lines: closer is the same output
Read = Callable[[int, int], list[Line]]  # lines lo..hi of the job, as the verdict reads them


@dataclass(frozen=True, slots=True)
class Candidate:
    """Lines that name one cause, the one that carries it first."""

    lines: tuple[Line, ...]
    lead: bool = False  # the verdict's own cause (its lines as order.py put them)
    # the error block it was read from (the fallback's): a chosen line inside it is this cause
    block: tuple[int, int] | None = None
    # more lines of a cause already chosen (the leading pattern's further hits): taken last, only
    # while room is left, and not held to the block rule
    more: bool = False


class _Chosen:
    """The lines chosen so far, and whether a new one repeats one of them."""

    def __init__(self) -> None:
        self.numbers: list[int] = []
        self.texts: set[str] = set()
        # chosen lines and the lines found next to them, with their first word
        self.block: dict[int, str] = {}

    def add(self, ln: Line) -> None:
        self.numbers.append(ln.number)
        self.texts.add(normalise(ln.text))
        self.block[ln.number] = _kind(ln.text)

    def inside(self, block: tuple[int, int] | None) -> bool:
        """A chosen line lies in `block` or within NEAR lines of it: the same output goes on
        (a panic's goroutine dump after its message, a traceback after its error)."""
        if block is None:
            return False
        return any(block[0] - NEAR <= n <= block[1] + NEAR for n in self.numbers)

    def repeats(self, ln: Line) -> bool:
        """The same text as a chosen line, or the next line of one that starts with the same
        word (through other such lines)."""
        if ln.number in self.numbers or normalise(ln.text) in self.texts:
            return True
        kind = _kind(ln.text)
        if any(abs(n - ln.number) <= BLOCK_SPAN and k == kind for n, k in self.block.items()):
            self.block[ln.number] = kind
            return True
        return False


def _kind(text: str) -> str:
    """A line's first word once volatile parts are normalised: `FAILED`, `--- FAIL:`'s `---`."""
    words = normalise(text).split(maxsplit=1)
    return words[0] if words else ""


def ranked(
    candidates: Iterable[Candidate], limit: int, base: Baseline | None = None
) -> tuple[Line, ...]:
    """The evidence lines: the candidates in order (novel ones first with a base log), each
    skipped when it repeats a line already chosen, at most `limit` lines."""
    units = [u for c in candidates if c.lines for u in _fresh_lead(c, base)]
    # old ones (the green log prints their first line) last, then further hits of a chosen cause
    units.sort(key=lambda c: (base is not None and base.has(c.lines[0].text), c.more))
    chosen = _Chosen()
    out: list[Line] = []
    for c in units:
        if c.lead and not out:  # the cause's own lines belong together (Contract 1's pair)
            keep = list(dict.fromkeys(c.lines))
        elif c.more and normalise(c.lines[0].text) in chosen.texts:
            continue
        elif not c.more and (chosen.repeats(c.lines[0]) or chosen.inside(c.block)):
            continue
        else:
            keep = [c.lines[0]]
        for ln in keep:
            if len(out) < limit and ln.number not in chosen.numbers:
                out.append(ln)
                chosen.add(ln)
    return tuple(out)


def _fresh_lead(c: Candidate, base: Baseline | None) -> list[Candidate]:
    """The leading candidate without the lines the green log prints, when a new one is left;
    those old lines become candidates of their own (so they go after every new one)."""
    if base is None or not c.lead:
        return [c]
    new = tuple(ln for ln in c.lines if not base.has(ln.text))
    if not new or new == c.lines:
        return [c]
    old = [Candidate((ln,)) for ln in c.lines if ln not in new]
    return [Candidate(new, True, c.block), *old]


def fallback_candidate(
    read: Read, st: Structure, base: Baseline | None, aside: Collection[int] = ()
) -> list[Candidate]:
    """The fallback's best error-looking line of the failing step (engine/verdict/fallback.py),
    over the lines a green log does not print when there is one, never from a block that holds a
    line in `aside`."""
    lines = read(max(st.start, st.focus - LOOKBACK), st.focus)
    if base is not None:
        lines = base.fresh(lines, lambda ln: ln.text)
    g = guess(lines, st.focus, (), None)
    if not g.lines or (g.block and any(g.block[0] <= n <= g.block[1] for n in aside)):
        return []  # that block is a failure the engine set aside (survived, a mention, old)
    return [Candidate(g.lines[:1], block=g.block)]


def first_new(
    read: Read, st: Structure, base: Baseline | None, aside: Collection[int] = ()
) -> list[Candidate]:
    """With a passing base log: the first line of the failing step's end (its last LOOKBACK
    lines) that the green log does not print and that says something (fallback.says): where
    this run first differs from the passing one, whatever its words."""
    if base is None:
        return []
    # to the step's end, not its focus: a `##[error]` the green log also prints may be the focus
    lines = read(max(st.start, st.end - LOOKBACK), st.end)
    new = [ln for ln in lines if ln.number not in aside and not base.has(ln.text)]
    first = first_said(new)
    return [Candidate((first,))] if first is not None else []


def line_of(number: int, text: str) -> Line:
    return Line(number, text, False)


def singles(items: Sequence[tuple[int, str]]) -> list[Candidate]:
    """One candidate per (line, text)."""
    return [Candidate((line_of(n, t),)) for n, t in items]
