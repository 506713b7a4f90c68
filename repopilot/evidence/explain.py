"""The lines that explain a failure, for the PR comment's context block (no I/O).

A maintainer reading the comment wants the cause line and the few lines that say why: the
assertion or error message, the `file:line` the tool points at, the code line it quotes, and for
a failure no pattern knows, the last lines the failing command printed before its exit code.
The pattern's own context is often a summary (pytest's short test summary repeats the test id;
the `E   assert ...` line and `tests/x.py:430:` sit a hundred lines above it), so the lines are
chosen here with the evidence window's anchor scores (`evidence.signals`), not by distance.

Chosen, in this order, until EXPLAIN_LINES: the verdict's evidence; the strongest summary lines
of the failing step (`E` lines, `file:line: Error`, tracebacks, `Expected`/`Received`, `--- FAIL`,
`Tests run: ... Failures`, `error[E..]` ...; EXPLAIN_ANCHORS of them, earliest first on ties); for
`unknown` verdicts or when nothing else explains, the step's last non-blank lines up to its
exit-code line; then one line on either side of each chosen anchor. The lines come back
redacted (`safety.redact.clean_lines`), like every line the engine hands on.
"""

from __future__ import annotations

from collections.abc import Sequence

from repopilot.evidence.runners import ends_step
from repopilot.evidence.signals import NOISE, S_SUMMARY, anchor_scores
from repopilot.logs.textnorm import body
from repopilot.records import Evidence, Verdict
from repopilot.safety.redact import clean_lines

EXPLAIN_LINES = 14  # the block stays readable in five seconds
EXPLAIN_ANCHORS = 6
TAIL_LINES = 5
# Summary lines outside the failing step score half (signals.anchor_scores); still worth showing.
_MIN_SCORE = S_SUMMARY / 2


def _usable(text: str) -> bool:
    b = body(text).strip()
    return bool(b) and not NOISE.search(b) and not b.startswith("##[endgroup]")


class _Picked:
    """Line indices in the order they were chosen, each once, at most `limit` of them."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.order: list[int] = []

    def take(self, *indices: int) -> None:
        for i in indices:
            if i not in self.order and len(self.order) < self.limit:
                self.order.append(i)

    def __len__(self) -> int:
        return len(self.order)


def _span(
    verdict: Verdict, index: dict[int, int], exits: list[int], evidence: list[int], n: int
) -> tuple[int, int]:
    """The failing step's first line and the exit line that ends the evidence's command (or the
    last line), as indices."""
    focus = evidence[0] if evidence else (exits[-1] if exits else n - 1)
    stop = min((x for x in exits if x >= focus), default=n - 1)
    start = 0
    if verdict.step_lines and verdict.step_lines[0] in index:
        start = index[verdict.step_lines[0]]
    return start, stop


def _anchors(score: list[float], texts: list[str], start: int, stop: int) -> list[int]:
    """The strongest summary lines of the span (earliest first on ties), in file order."""
    strong = [i for i in range(start, stop + 1) if score[i] >= _MIN_SCORE and _usable(texts[i])]
    return sorted(sorted(strong, key=lambda i: (-score[i], i))[:EXPLAIN_ANCHORS])


def _tail(texts: list[str], start: int, stop: int) -> list[int]:
    """The last usable lines before the exit line, in file order."""
    return sorted([i for i in range(stop - 1, start - 1, -1) if _usable(texts[i])][:TAIL_LINES])


def _neighbours(marks: set[int], texts: list[str], start: int, stop: int) -> list[int]:
    """One usable line on either side of each mark, within the span."""
    near = ((i - 1, i + 1) for i in sorted(marks))
    return [j for pair in near for j in pair if start <= j <= stop and _usable(texts[j])]


def explaining_lines(
    lines: Sequence[tuple[int, str]], verdict: Verdict, limit: int = EXPLAIN_LINES
) -> tuple[Evidence, ...]:
    """The lines of `lines` ((number, display text), file order) that explain `verdict`."""
    if not lines:
        return ()
    nums = [n for n, _ in lines]
    texts = [t for _, t in lines]
    index = {n: i for i, n in enumerate(nums)}
    exits = [i for i, t in enumerate(texts) if ends_step(t)]
    score, _ = anchor_scores(nums, texts, verdict.model_copy(update={"context": ()}), exits)
    evidence = [index[e.line] for e in verdict.evidence if e.line in index]
    start, stop = _span(verdict, index, exits, evidence, len(texts))
    picked = _Picked(limit)
    picked.take(*evidence)
    anchors = _anchors(score, texts, start, stop)
    picked.take(*anchors)
    if verdict.category == "unknown" or len(picked) <= 1:
        picked.take(*_tail(texts, start, stop))
        if stop in exits:
            picked.take(stop)  # the exit code itself says how the command ended
    picked.take(*_neighbours(set(evidence) | set(anchors), texts, start, stop))
    chosen = sorted(picked.order)
    # Redacted here, like every line the engine hands on: verdicts are saved, posted and traced.
    cleaned, _ = clean_lines([texts[i] for i in chosen])
    return tuple(Evidence(line=nums[i], text=t) for i, t in zip(chosen, cleaned, strict=True))
