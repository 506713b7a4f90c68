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
import re
from collections.abc import Sequence
from typing import Any

import re2

from repopilot.records import Record, Verdict
from repopilot.redact import clean_for_model
from repopilot.textnorm import body

DEFAULT_BUDGET = 6000
MAX_LINE_CHARS = 400  # a longer line is cut; its number still points at the whole line
RUN_MIN, RUN_HEAD, RUN_TAIL = 8, 3, 2  # collapse same-shape runs of >= RUN_MIN lines
DECAY_AFTER, DECAY_BEFORE = 3, 10  # priority lost per line of distance from an anchor
TAIL_LINES = 40  # lines before an exit-code line that count as the failing step's tail
CORE_BEFORE, CORE_AFTER, CORE_MIN = 3, 12, 200  # an anchor's close surroundings; who gets one

S_EVIDENCE, S_EVIDENCE_MORE, S_CONTEXT = 1000, 900, 800
S_SUMMARY, S_TAIL, S_ERRORISH = 500, 300, 150

# What a person looks at first, by tool. Written from how each tool formats its output.
_SUMMARY_PARTS = (
    # pytest / unittest / Python
    r"short test summary info|^(?:FAILED|ERROR)\s+\S|^=+ .*\b(?:failed|errors?)\b.* =+$",
    r"^=+ (?:FAILURES|ERRORS) =+$|^_{2,} .+ _{2,}$|^E\s{2,}\S|Traceback \(most recent call last\)",
    r"^\S+:\d+: \w*(?:Error|Exception)\b|^\s*[\w.$]*(?:Error|Exception): |AssertionError",
    # JVM: surefire, gradle, scalatest
    r"Tests run: \d+, Failures: (?:[1-9]|\d+, Errors: [1-9])|<<< (?:FAILURE|ERROR)!",
    r"Failed to execute goal|\bBUILD FAILED\b|FAILURE: Build failed|^\* What went wrong:",
    r"^Execution failed for task|^> There were failing tests|^\S.* > .* FAILED$|Exception in thread",
    r"\*\*\* FAILED \*\*\*",
    # go, rust, C/C++ and other compilers (`file:line[:col]: error`, javac `file:[l,c]`)
    r"^\s*--- FAIL|^FAIL\s|^panic: |error\[E\d+\]|^error(?:\[|:)|^test result: FAILED",
    r"^\S+?:\d+(?::\d+)?:? (?:fatal )?error|^\S+\.\w+:\[?\d+[,:]\d+\]?:? ",
    r"==\d+==ERROR: |\bSegmentation fault\b",
    # JS/TS: jest, mocha, npm, tsc; xcpretty
    r"^\s*● |^\s*✕ |^\s*✗ |^\s*\d+\) |^\s*\d+ failing\b|^Tests:\s+\d+ failed",
    r"^\s*Expected\b|^\s*Received\b|^npm ERR! |\berror TS\d+",
    # generic
    r"^ERROR:|^Error: |\bassert(?:ion)? failed|^\s*\d+ (?:tests? )?failed\b",
)
# re2: linear time and ~5x faster than `re` on these wide alternations.
_SUMMARY = re2.compile("|".join(_SUMMARY_PARTS))
_ERRORISH = re2.compile(
    r"(?i)\b(?:error|errors|fail|failed|failure|fatal|exception|panic|traceback|assert\w*|"
    r"cannot|can't|undefined|unresolved|not found|no such|denied|refused|segmentation|killed|"
    r"timed? ?out|abort\w*|missing|invalid|unexpected|mismatch|expected)\b"
)
_NOT_ERROR = re.compile(
    r"(?i)\b(?:0 (?:errors?|failed|failures)|failures: 0, errors: 0|errors?: 0\b|-Werror|"
    r"error_?reporting|ignore_?errors|fail-?fast|allow[-_ ]failures?|continue-on-error)"
)
_EXIT = re.compile(
    r"Process completed with exit code [1-9]|The command \".*\" (?:exited|failed) with [1-9]"
    r"|Done\. Your build exited with [1-9]|\bexit(?:ed)? (?:code|status|with) [1-9]\d*\b"
)
_BOILERPLATE = re.compile(r"Process completed with exit code|^Post job cleanup|^Cleaning up orphan")
_NOISE = re2.compile(
    r"(?i)^\s*(?:downloading|downloaded|download|fetching|receiving objects|resolving deltas|"
    r"unpacking|progress|get:\d|hit:\d|ign:\d|preparing to unpack|selecting previously|"
    r"setting up |processing triggers|go: (?:downloading|finding|extracting)|collecting |"
    r"requirement already satisfied|using cached|\[info\] download|remote: (?:counting|compressing)"
    r"|npm (?:warn|notice|http)|\(reading database)|\d{1,3}%\s*[|\[]|[█▓▒░#=>.\- ]{20,}$"
)
# sbt and Maven put a level tag before the tool's own line; summaries are matched without it.
_LEVEL = re.compile(r"^\[(?i:info|error|warn|warning)\]\s+")
_SHAPE_WORD = re.compile(r"^[A-Za-z!:\[\]-]+$")
_NAME = re.compile(r"\w+")
_STEP_START = re.compile(r"^##\[group\]Run |^\$ \S")  # a GitHub Actions step; a Travis command


class ContextWindow(Record):
    """The redacted evidence window of one failed job (Contract 4 `repopilot context` RESULT)."""

    source: str
    category: str
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


def _shape(text: str) -> tuple[str, ...]:
    """What makes lines 'the same kind': first two tokens (words verbatim, names and numbers
    reduced to `w`) and the token count. `PASSED a.py::x` ~ `PASSED b.py::y`, not `FAILED ...`."""
    toks = text.split()
    if not toks:
        return ("",)
    head = [t if _SHAPE_WORD.match(t) else _NAME.sub("w", t) for t in toks[:2]]
    return (*head, str(len(toks)))


def _collapsible(texts: list[str]) -> list[bool]:
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


def _scores(
    nums: list[int], texts: list[str], verdict: Verdict, exits: list[int]
) -> tuple[list[float], list[float]]:
    """(anchor score, failing-step tail score) of every line."""
    index = {n: i for i, n in enumerate(nums)}
    score = [0.0] * len(texts)
    seen: dict[tuple[str, ...], int] = {}
    for i, t in enumerate(texts):
        b = body(t)
        if _BOILERPLATE.search(b):
            continue
        if _SUMMARY.search(_LEVEL.sub("", b)) or (t.startswith("##[error]") and b.strip()):
            # The 200th failure of the same shape tells less than the first: fade repeats.
            key = _shape(b)[:2]
            seen[key] = seen.get(key, 0) + 1
            score[i] = S_SUMMARY - min(200, 25 * (seen[key] - 1))
        elif _ERRORISH.search(b) and not _NOT_ERROR.search(b):
            score[i] = S_ERRORISH
    tail = [0.0] * len(texts)
    for e in exits[-3:]:
        for d in range(1, min(TAIL_LINES, e) + 1):
            tail[e - d] = max(tail[e - d], S_TAIL - 5 * d)
    span = _failing_span(nums, texts, verdict, exits)
    if span:
        for i in range(len(texts)):
            if not span[0] <= i <= span[1]:
                score[i] *= 0.5
    first = index.get(verdict.evidence[0].line, 0) if verdict.evidence else 0
    stop = min((x for x in exits if x >= first), default=len(texts))
    for e in verdict.context:
        # Pattern context may run past the step's exit line into the runner's cleanup: not context.
        if e.line in index and index[e.line] <= stop:
            score[index[e.line]] = max(score[index[e.line]], S_CONTEXT)
    for k, e in enumerate(verdict.evidence):
        if e.line in index:
            score[index[e.line]] = S_EVIDENCE if k == 0 else S_EVIDENCE_MORE
    return score, tail


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
    exit_list = [i for i, t in enumerate(texts) if _EXIT.search(t)]
    exits = set(exit_list)
    score, tail = _scores(nums, texts, verdict, exit_list)
    core = _cores(score, tail, exits)
    wide = _priorities([max(a, b) for a, b in zip(score, tail, strict=True)], exits)
    similar = _collapsible(texts)
    rank: dict[int, tuple[float, float]] = {}
    for i, t in enumerate(texts):
        if score[i] >= S_CONTEXT:
            rank[i] = (score[i], wide[i])  # evidence is kept even if it looks like noise
        elif (core[i] > 0 or wide[i] > 0) and not similar[i] and not _NOISE.search(body(t)):
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


def _finish(nums, texts, keep, similar, rank, verdict, budget, source) -> ContextWindow:
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
