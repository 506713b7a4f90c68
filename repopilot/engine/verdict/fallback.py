"""What to point at when no pattern decides: the last block of error-looking lines before the
failing command ended, scored by generic signals only (no tool, no project; engine/verdict/line_score.py),
a script's own `##[error]` message first. The category is a guess from keyword families (disk,
permission, network, timeout, not-found) and says so with a low confidence.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import cast

from repopilot.engine.verdict.line_score import Line, command_starts, score
from repopilot.engine.verdict.passing import is_passing_test
from repopilot.evidence.runners import alternation, entries, runner_exit
from repopilot.evidence.signals import NOISE
from repopilot.logs.textnorm import annotation, body
from repopilot.records import AssignedCategory, Category

LOOKBACK = 400  # lines before the end of the failing step that the fallback reads
MIN_SCORE = 3
WORDED = 2  # an error word, an exception name or an error prefix: some line of a block says so


def _families(table: str) -> tuple[tuple[AssignedCategory, re.Pattern[str]], ...]:
    """A keyword family table of runners.toml: (category, its words, case ignored), in order."""
    return tuple(
        (cast(AssignedCategory, e.category), re.compile("(?i)" + e.regex)) for e in entries(table)
    )


# What a failure is about, from its lines' words (disk, permission, network, timeout, not found).
_FAMILIES = _families("family")


@dataclass(frozen=True, slots=True)
class Guess:
    """The fallback's pick: evidence lines (best first) and a category guess, or `unknown`."""

    lines: tuple[Line, ...]
    category: Category
    confidence: float
    # the best line of every other error-worded block, strongest first (the next candidates)
    others: tuple[Line, ...] = ()
    block: tuple[int, int] | None = None  # first and last line of the block the pick comes from


HEADER_MAX = 300  # lines of a step's script echo; past this, a missing ##[endgroup] is assumed


def without_echo(lines: list[Line]) -> list[Line]:
    """Drop the runner's echo of a step's script (`##[group]Run ...` to `##[endgroup]`): it
    says what will run, not what failed."""
    out: list[Line] = []
    until = 0
    for ln in lines:
        if ln.text.startswith("##[group]Run "):
            until = ln.number + HEADER_MAX
            continue
        if ln.text.startswith("##[endgroup]"):
            until = 0
            continue
        if ln.number > until:
            out.append(ln)
    return out


def blocks_of(lines: list[Line], end: int) -> list[list[tuple[float, Line]]]:
    """The blocks of error-looking lines (gaps of up to 3 quiet lines), scored, in order."""
    span = max(1, len(lines))
    scored = [(score(ln, end, span), ln) for ln in lines]
    blocks: list[list[tuple[float, Line]]] = []
    quiet = 99
    for sc, ln in scored:
        if sc > 0:
            if quiet > 3 or not blocks:
                blocks.append([])
            blocks[-1].append((sc, ln))
            quiet = 0
        else:
            quiet += 1
    return blocks


def best_block(lines: list[Line], end: int) -> list[tuple[float, Line]]:
    """The last block of error-looking lines (gaps of up to 3 quiet lines), scored."""
    blocks = blocks_of(lines, end)
    strong = [b for b in blocks if max(sc for sc, _ in b) >= MIN_SCORE]
    if not strong:
        return blocks[-1] if blocks else []
    picked = strong[-1]
    # The script ran another command after the strong block (it handled that error) and that
    # printed an error-looking line too (an error word at least): the later block is the cause.
    later = [b for b in blocks if b[0][1].number > picked[-1][1].number and _worded(b)]
    if later and _command_between(lines, picked[-1][1].number, later[-1][0][1].number):
        return later[-1]
    return picked


def _worded(block: list[tuple[float, Line]]) -> bool:
    return max(sc for sc, _ in block) >= WORDED


def _command_between(lines: list[Line], lo: int, hi: int) -> bool:
    return any(lo < n < hi for n in command_starts(lines))


# The runner's own bookkeeping between a command's output and its exit line (Travis's folds
# and timers, GitHub's post-job lines): never what the command said.
_BOILERPLATE = re.compile(alternation("boilerplate"))


def last_said(lines: list[Line], header: int, end: int, command: str) -> Line | None:
    """The last line the failing command (its step starts at line `header`) printed before it
    ended at line `end`: where a script that fails in its own words says why. Not its echo, a
    blank line, the runner's exit line, bookkeeping or an annotation, a download or progress
    line, a passing test, nor the command itself."""
    quiet = command.removeprefix("Run ").strip()
    for ln in reversed(without_echo(lines)):
        if ln.number <= header:
            break
        if ln.number < end and says(ln) and body(ln.text).strip() != quiet:
            return ln
    return None


def says(ln: Line) -> bool:
    """The line is something a command said: not blank, not an annotation, the runner's exit
    line or bookkeeping, a download or progress line, nor a passing test."""
    text = body(ln.text).strip()
    if not text or annotation(ln.text) is not None or runner_exit(ln.text) is not None:
        return False
    if _BOILERPLATE.match(text) or NOISE.search(text):
        return False
    return not is_passing_test(ln.text)


def first_said(lines: list[Line]) -> Line | None:
    """The first line of `lines` (the runner's echo of a script left out) that `says` something."""
    return next((ln for ln in without_echo(lines) if says(ln)), None)


# What the failing command was for, from its tools' names (step `Run <cmd>`, gh's step column,
# Travis's `$ cmd`): a last, weaker guess when the lines name no family.
_STEP_FAMILIES = _families("step_family")


def guess(
    lines: list[Line],
    end: int,
    script_errors: tuple[tuple[int, str], ...] = (),
    step: str | None = None,
) -> Guess:
    """Evidence for an unknown failure: a script's own `##[error]` message first when the failing
    step printed one, else the strongest line of the last error block (its first on ties). The
    category: a keyword family of those lines, else the failing step's tool, else `unknown`."""
    picked: list[Line] = []
    lines = without_echo(lines)
    block = best_block(lines, end)
    others = _other_blocks(blocks_of(lines, end), block, lines)
    if script_errors:
        picked = [Line(n, t, False) for n, t in script_errors[:3]]
    else:
        top = max((sc for sc, _ in block), default=0.0)
        firsts = [ln for sc, ln in block if sc >= top - 0.5]
        rest = sorted((x for x in block if x[1] not in firsts[:1]), key=lambda x: -x[0])
        picked = firsts[:1] + [ln for _, ln in rest[:2]]
    category: Category = "unknown"
    confidence = 0.2
    if picked:
        text = " ".join(body(ln.text) for ln in picked)
        for cat, rx in _FAMILIES:
            if rx.search(text):
                category, confidence = cat, 0.35
                break
    if category == "unknown" and step:
        for cat, rx in _STEP_FAMILIES:
            if rx.search(step):
                category, confidence = cat, 0.25
                break
    span = (block[0][1].number, block[-1][1].number) if block and not script_errors else None
    return Guess(tuple(picked), category, confidence, others, span)


def _other_blocks(
    blocks: list[list[tuple[float, Line]]], picked: list[tuple[float, Line]], lines: list[Line]
) -> tuple[Line, ...]:
    """The strongest line of each error-worded block but the picked one, strongest block first
    (the later one on ties: the failure is usually near the end). Only blocks of the command
    that printed the picked one: no command starts between them (an earlier command's error
    was handled, the script went on)."""
    if not picked:
        return ()
    starts = list(command_starts(lines))

    def same_command(b: list[tuple[float, Line]]) -> bool:
        lo, hi = sorted((b[0][1].number, picked[0][1].number))
        return not any(lo < n <= hi for n in starts)

    tops = [
        max(b, key=lambda x: x[0])
        for b in blocks
        if b is not picked and _worded(b) and same_command(b)
    ]
    tops.sort(key=lambda x: (x[0], x[1].number), reverse=True)
    return tuple(ln for _, ln in tops)
