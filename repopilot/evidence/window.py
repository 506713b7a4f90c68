"""The evidence window: the slice of a failed job's log that the agent's first message carries.

Pure function over `(number, display_text)` lines and the deterministic Verdict; no I/O.

How lines are chosen. Anchors get a score: the verdict's evidence (1000) and pattern context (800);
summary lines a person looks for first (500: pytest's short summary, `E` lines and section
headers, `Tests run:` with failures, `--- FAIL`, `error[E..]`, `file:line: error`, tracebacks,
`##[error]`, ...; the same kind of line repeated fades to 300); other error-like lines (150);
the failing step's tail before its exit-code line (300, fading). Anchors outside the failing step
count half. Lines are then taken in two rounds until the token budget is spent:
1. cores: each strong anchor with CORE_BEFORE lines before and CORE_AFTER after (the message,
   caret and stack follow the error line), best anchors first, so one anchor cannot starve others;
2. wider context: every line by the best anchor score reaching it, less a decay per line of
   distance (DECAY_AFTER after an anchor, DECAY_BEFORE before it).
Ties go to the earlier line (the first error is usually the cause). Nothing carries past an
exit-code line: what follows belongs to another step. Noise (downloads, progress bars, package
managers) is never taken unless it is evidence; in runs of at least RUN_MIN lines of one shape
(or two alternating shapes) only the first and last few are candidates, and the gap prints as
`... N similar lines ...`. Kept lines print in log order as `<number>| <text>`.

Tokens are estimated as ceil(chars / 4) over the final, redacted text (line-number prefixes and
markers included): the usual rule of thumb for English and code with BPE tokenizers, and cheap.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from repopilot.evidence.runners import ends_step
from repopilot.evidence.signals import NOISE, S_CONTEXT, anchor_scores, collapsible
from repopilot.logs.textnorm import body
from repopilot.records import Category, Verdict
from repopilot.run_records import Record
from repopilot.safety.redact import clean_for_model

# The tuning constants stay importable from here, beside the docstring that explains them.

DEFAULT_BUDGET = 6000
MAX_LINE_CHARS = 400  # a longer line is cut; its number still points at the whole line
DECAY_AFTER, DECAY_BEFORE = 3, 10  # priority lost per line of distance from an anchor
CORE_BEFORE, CORE_AFTER, CORE_MIN = 3, 12, 200  # an anchor's close surroundings; who gets one


class ContextWindow(Record):
    """The redacted evidence window of one failed job (Contract 4 `repopilot context` RESULT)."""

    source: str
    category: Category
    line_ranges: tuple[tuple[int, int], ...]
    tokens: int
    text: str
    redactions: int = 0  # how many secrets were replaced (counted for the trace, never the values)

    def contract(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "category": self.category,
            "line_ranges": [[a, b] for a, b in self.line_ranges],
            "tokens": self.tokens,
            "text": self.text,
        }


def estimate_tokens(text: str) -> int:
    """ceil(chars / 4): the budget's unit (see the module docstring)."""
    return math.ceil(len(text) / 4)


def _cores(score: list[float], tail: list[float], exits: set[int]) -> list[float]:
    """The close surroundings of every strong anchor, valued at the anchor's score: all of
    these are taken before any wider context, so one anchor cannot starve the others."""
    core = list(tail)
    n = len(score)
    for i, s in enumerate(score):
        if s < CORE_MIN:
            continue
        for j in range(max(0, i - CORE_BEFORE), min(n, i + CORE_AFTER + 1)):
            if j > i and j - 1 in exits:
                break  # the next step is not this error's context
            core[j] = max(core[j], s)
    return core


def _priorities(score: list[float], exits: set[int]) -> list[float]:
    """Best anchor score reaching each line, less the distance decay (two linear passes).

    Nothing carries forward past an exit-code line: what follows belongs to another step."""
    n = len(score)
    fwd, bwd = [0.0] * n, [0.0] * n
    for i in range(n):
        carry = fwd[i - 1] - DECAY_AFTER if i and i - 1 not in exits else 0.0
        fwd[i] = max(score[i], carry)
    for i in range(n - 1, -1, -1):
        bwd[i] = max(score[i], (bwd[i + 1] - DECAY_BEFORE) if i + 1 < n else 0.0)
    return [max(a, b) for a, b in zip(fwd, bwd, strict=True)]


def _clip(text: str) -> str:
    if len(text) <= MAX_LINE_CHARS:
        return text
    return f"{text[:MAX_LINE_CHARS]} …[line cut at {MAX_LINE_CHARS} chars]"


def _render(nums: list[int], texts: list[str], keep: list[int], similar: list[bool]) -> str:
    """Kept lines as `<number>| <text>`; every gap becomes one `... N lines ...` marker."""
    width = len(str(nums[-1])) if nums else 1
    pad = " " * width
    out: list[str] = []
    prev = None
    for i in keep:
        skipped = nums[i] - (nums[prev] if prev is not None else 0) - 1
        if skipped > 0:
            gap = similar[(prev if prev is not None else -1) + 1 : i]
            what = "similar lines" if gap and all(gap) else "line" if skipped == 1 else "lines"
            out.append(f"{pad}  ... {skipped} {what} ...")
        out.append(f"{nums[i]:>{width}}| {_clip(texts[i])}")
        prev = i
    if prev is not None and prev < len(texts) - 1:
        out.append(f"{pad}  ... more lines ...")
    return "\n".join(out)


def _bridge(keep: list[int], texts: list[str], similar: list[bool]) -> list[int]:
    """Fill one-line gaps: the line costs about what its `... 1 line ...` marker would."""
    kept = set(keep)
    for a, b in zip(keep, keep[1:], strict=False):
        if b - a == 2 and not similar[a + 1]:
            kept.add(a + 1)
    return sorted(kept)


def _ranges(nums: list[int], keep: list[int]) -> tuple[tuple[int, int], ...]:
    ranges: list[list[int]] = []
    for i in keep:
        n = nums[i]
        if ranges and ranges[-1][1] == n - 1:
            ranges[-1][1] = n
        else:
            ranges.append([n, n])
    return tuple((a, b) for a, b in ranges)


def build_window(
    lines: Sequence[tuple[int, str]],
    verdict: Verdict,
    *,
    budget: int = DEFAULT_BUDGET,
    source: str | None = None,
) -> ContextWindow:
    """Choose, redact and number the lines of one job log that fit `budget` estimated tokens.

    `lines` are (1-based physical line number, display text) in file order (Contract 1);
    `verdict` is the deterministic classification of that job.
    """
    nums = [n for n, _ in lines]
    texts = [t for _, t in lines]
    exit_list = [i for i, t in enumerate(texts) if ends_step(t)]
    exits = set(exit_list)
    score, tail = anchor_scores(nums, texts, verdict, exit_list)
    core = _cores(score, tail, exits)
    wide = _priorities([max(a, b) for a, b in zip(score, tail, strict=True)], exits)
    similar = collapsible(texts)
    rank: dict[int, tuple[float, float]] = {}
    for i, t in enumerate(texts):
        if score[i] >= S_CONTEXT:
            rank[i] = (score[i], wide[i])  # evidence is kept even if it looks like noise
        elif (core[i] > 0 or wide[i] > 0) and not similar[i] and not NOISE.search(body(t)):
            rank[i] = (core[i], wide[i])
    # Cores first, then wider context; ties go to the earlier line (the first error is the cause).
    order = sorted(rank, key=lambda i: (-rank[i][0], -rank[i][1], i))
    keep: list[int] = []
    spent = 0
    for i in order:
        cost = estimate_tokens(_clip(texts[i])) + 3  # number prefix, newline, share of markers
        if spent + cost <= budget:
            keep.append(i)
            spent += cost
    keep = _bridge(sorted(keep), texts, similar)
    return _finish(nums, texts, keep, similar, rank, verdict, budget, source)


def _finish(
    nums: list[int],
    texts: list[str],
    keep: list[int],
    similar: list[bool],
    rank: dict[int, tuple[float, float]],
    verdict: Verdict,
    budget: int,
    source: str | None,
) -> ContextWindow:
    """Render and redact; drop the lowest-priority lines until the estimate fits the budget."""
    while True:
        red = clean_for_model(_render(nums, texts, keep, similar))
        tokens = estimate_tokens(red.text)
        if tokens <= budget or not keep:
            break
        # Markers and redaction can push the estimate over: shed the weakest lines and retry.
        over = tokens - budget
        for i in sorted(keep, key=lambda i: (rank.get(i, (0, 0)), i)):
            keep.remove(i)
            over -= estimate_tokens(_clip(texts[i])) + 2
            if over <= 0:
                break
    return ContextWindow(
        source=source if source is not None else verdict.source,
        category=verdict.category,
        line_ranges=_ranges(nums, keep),
        tokens=tokens,
        text=red.text,
        redactions=red.count,
    )
