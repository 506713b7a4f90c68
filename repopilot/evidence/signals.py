"""What each log line signals to the evidence window (`repopilot.agent.context`), by regex.

The tables say which lines are tool summaries, error-like, noise, exit-code lines or step starts;
`anchor_scores` turns them (and the Verdict's evidence and context) into per-line anchor scores,
and `collapsible` finds the middles of same-shape runs. The scores and why they are what they are
are described in `repopilot.agent.context`'s docstring.
"""

from __future__ import annotations

import re

from repopilot import rx
from repopilot.evidence.runners import alternation, runner_exit
from repopilot.logs.textnorm import body
from repopilot.records import Verdict

RUN_MIN, RUN_HEAD, RUN_TAIL = 8, 3, 2  # collapse same-shape runs of >= RUN_MIN lines
TAIL_LINES = 40  # lines before an exit-code line that count as the failing step's tail

S_EVIDENCE, S_EVIDENCE_MORE, S_CONTEXT = 1000, 900, 800
S_SUMMARY, S_TAIL, S_ERRORISH = 500, 300, 150

# What a person looks at first, by tool (runners.toml `summary`); the runner's bookkeeping and
# the tools' noise (`boilerplate`, `noise`). RE2 where installed (repopilot.rx): linear time and
# ~5x faster than `re` on these wide alternations.
_SUMMARY = rx.compile(alternation("summary"))
_ERRORISH = rx.compile(
    r"(?i)\b(?:error|errors|fail|failed|failure|fatal|exception|panic|traceback|assert\w*|"
    r"cannot|can't|undefined|unresolved|not found|no such|denied|refused|segmentation|killed|"
    r"timed? ?out|abort\w*|missing|invalid|unexpected|mismatch|expected)\b"
)
_NOT_ERROR = re.compile(
    r"(?i)\b(?:0 (?:errors?|failed|failures)|failures: 0, errors: 0|errors?: 0\b|-Werror|"
    r"error_?reporting|ignore_?errors|fail-?fast|allow[-_ ]failures?|continue-on-error)"
)
_BOILERPLATE = re.compile(alternation("boilerplate"))
NOISE = rx.compile("(?i)" + alternation("noise"))
# sbt and Maven put a level tag before the tool's own line; summaries are matched without it.
_LEVEL = re.compile(r"^\[(?i:info|error|warn|warning)\]\s+")
_SHAPE_WORD = re.compile(r"^[A-Za-z!:\[\]-]+$")
_NAME = re.compile(r"\w+")
_STEP_START = re.compile(r"^##\[group\]Run |^\$ \S")  # a GitHub Actions step; a Travis command


def _shape(text: str) -> tuple[str, ...]:
    """What makes lines 'the same kind': first two tokens (words verbatim, names and numbers
    reduced to `w`) and the token count. `PASSED a.py::x` ~ `PASSED b.py::y`, not `FAILED ...`."""
    toks = text.split()
    if not toks:
        return ("",)
    head = [t if _SHAPE_WORD.match(t) else _NAME.sub("w", t) for t in toks[:2]]
    return (*head, str(len(toks)))


def collapsible(texts: list[str]) -> list[bool]:
    """True for the middle of every run of >= RUN_MIN lines that repeat one shape, or a pair of
    shapes alternating (`Running X` / `Tests run: ... X`): head and tail of each run stay."""
    out = [False] * len(texts)
    shapes = [_shape(t) for t in texts]
    for period in (1, 2):
        i = period
        while i < len(texts):
            j = i
            while j < len(texts) and shapes[j] == shapes[j - period] and shapes[j] != ("",):
                j += 1
            first, last = i - period, j - 1  # the run covers first..last
            if last - first + 1 >= RUN_MIN:
                for k in range(first + RUN_HEAD * period, last - RUN_TAIL * period + 1):
                    out[k] = True
            i = j + 1
    return out


def _failing_span(
    nums: list[int], texts: list[str], verdict: Verdict, exits: list[int]
) -> tuple[int, int] | None:
    """Indices of the failing step: the verdict's, else the last step that ends in an exit code."""
    if verdict.step_lines:
        first, last = verdict.step_lines
        inside = [i for i, n in enumerate(nums) if first <= n <= last]
        return (inside[0], inside[-1]) if inside else None
    if not exits:
        return None
    end = exits[-1]
    start = next((i for i in range(end - 1, -1, -1) if _STEP_START.match(texts[i])), 0)
    return start, end


def _line_scores(texts: list[str]) -> list[float]:
    """What each line says by itself: a summary line (repeats of one shape fading), an
    error-like line, or nothing (the runner's exit line and bookkeeping)."""
    score = [0.0] * len(texts)
    seen: dict[tuple[str, ...], int] = {}
    for i, t in enumerate(texts):
        b = body(t)
        if runner_exit(b) is not None or _BOILERPLATE.search(b):
            continue
        if _SUMMARY.search(_LEVEL.sub("", b)) or (t.startswith("##[error]") and b.strip()):
            # The 200th failure of the same shape tells less than the first: fade repeats.
            key = _shape(b)[:2]
            seen[key] = seen.get(key, 0) + 1
            score[i] = S_SUMMARY - min(200, 25 * (seen[key] - 1))
        elif _ERRORISH.search(b) and not _NOT_ERROR.search(b):
            score[i] = S_ERRORISH
    return score


def _tail_scores(n: int, exits: list[int]) -> list[float]:
    """The lines before the last exit-code lines, fading with distance."""
    tail = [0.0] * n
    for e in exits[-3:]:
        for d in range(1, min(TAIL_LINES, e) + 1):
            tail[e - d] = max(tail[e - d], S_TAIL - 5 * d)
    return tail


def _mark_verdict(score: list[float], nums: list[int], verdict: Verdict, exits: list[int]) -> None:
    """The verdict's pattern context and evidence, over what the lines say by themselves."""
    index = {n: i for i, n in enumerate(nums)}
    first = index.get(verdict.evidence[0].line, 0) if verdict.evidence else 0
    stop = min((x for x in exits if x >= first), default=len(score))
    for ev in verdict.context:
        # Pattern context may run past the step's exit line into the runner's cleanup: not context.
        if ev.line in index and index[ev.line] <= stop:
            score[index[ev.line]] = max(score[index[ev.line]], S_CONTEXT)
    for k, ev in enumerate(verdict.evidence):
        if ev.line in index:
            score[index[ev.line]] = S_EVIDENCE if k == 0 else S_EVIDENCE_MORE


def anchor_scores(
    nums: list[int], texts: list[str], verdict: Verdict, exits: list[int]
) -> tuple[list[float], list[float]]:
    """(anchor score, failing-step tail score) of every line."""
    score = _line_scores(texts)
    tail = _tail_scores(len(texts), exits)
    span = _failing_span(nums, texts, verdict, exits)
    if span:
        for i in range(len(texts)):
            if not span[0] <= i <= span[1]:
                score[i] *= 0.5
    _mark_verdict(score, nums, verdict, exits)
    return score, tail
