"""The set engine: which patterns match which lines of a chunk, for all patterns at once.

Most lines of a real log hold some pattern's literal (`error`, `failed`, a tool's name) without
being a failure, so confirming candidates pattern by pattern was what made the scan slow. Here
every pattern is translated to RE2 (engine/match/re2_translate.py) and the work per chunk is: one
Hyperscan pass over the raw bytes (engine/match/hyperscan_pass.py) selects the lines some pattern's raw form
matches, a runner signal, and lines holding an error-like word (of which only the last 48 per
step are read: all that ScanResult keeps); per selected ASCII (or lineset.decidable) line, the
line forms of the patterns named there (engine/match/re2_lines.py) say which patterns match. `regex`, with its timeout,
then runs only for patterns whose RE2 form is wider than the pattern (lookarounds, atomic
groups; and only where their needle is), that have no form, and on the few lines that are not
ASCII; a pattern decided by RE2 gets its captures from `regex` only for the hit a verdict shows
(Scanner.captures). A pattern whose regex starts with a whitespace class is selected by its
needle instead of its own raw form (engine/match/hyperscan_select.py).
Same results as the per-pattern path by construction (raw forms are never narrower than their
pattern, line forms are exact or marked inexact). Vectorscan 5.4.12 (the `hyperscan` 0.9.1
wheel, built without its AVX2 code) misses matches in some multi-pattern databases, so the
Hyperscan pass checks every pattern's examples and probes of its expressions when it is built
(engine/match/hyperscan_probe.py) and leaves the patterns it misses to their prefilter; tests/engine/match/test_set_engine_equal.py compares the two paths on the fixtures and on the shared corpus.
"""

from __future__ import annotations

import bisect
import re
from pathlib import Path
from typing import TYPE_CHECKING

from repopilot.engine.match.re2_lines import NOTHING, LineSet, decidable
from repopilot.engine.match.routes import routes
from repopilot.engine.match.scan_result import (
    GENERIC_KEEP,
    LineCtx,
    LineSink,
    Prefilter,
    ScanResult,
    Selected,
    generic_deque,
)
from repopilot.logs.textnorm import body, display

if TYPE_CHECKING:
    from collections.abc import Set

    from repopilot.engine.match.re2_lines import Decided
    from repopilot.logs.reader import Chunk

_ANSI_B = re.compile(rb"\x1b\[[0-9;?]*[ -/]*[@-~]")


class SetMatcher:
    """Compiled once per Scanner when a log is large enough to repay it. It reads the Scanner's
    needles from its Prefilter record and hands each selected line back through `LineSink.line`
    (engine/match/scan_result.py)."""

    def __init__(self, prefilter: Prefilter, cache_dir: Path | None = None) -> None:
        from repopilot.engine.match import hyperscan_pass

        patterns = prefilter.patterns
        self.prefilter = prefilter
        self.routes = routes(patterns, cache_dir)  # (cached in `cache_dir`, as the database)
        self.slow_ids = {i for i, r in enumerate(self.routes) if r.forms is None}
        self.finder = hyperscan_pass.build(
            patterns, self.routes, prefilter.signals, prefilter.generic, cache_dir
        )
        if self.finder is not None:  # Hyperscan missed their examples: prefiltered instead
            self.slow_ids |= self.finder.unsafe
        # Per selected decidable line, one RE2 set decides (engine/match/re2_lines.py).
        self.lines = LineSet(patterns, self.routes, self.slow_ids, prefilter.generic)
        # An exact line form decides a hit; `regex` reads its captures only for a verdict.
        self.lazy = frozenset(i for i in self.lines.exact if self.routes[i].captures)

    def select(
        self, matchable: str, raw_hits: set[int], decided: Decided | None
    ) -> tuple[set[int], set[int] | frozenset[int], bool]:
        """For one line: the patterns `regex` must try or that are decided, those decided (an
        exact line form: a hit without `regex`, which reads captures only for a verdict), and
        whether an error-like word is in it. A pattern matches only where its required literal is, so
        this finds the hits the per-pattern path's literal filter finds."""
        if decided is None:  # a line RE2 does not decide (lineset.decidable): `regex` does
            pre = self.prefilter
            found = pre.needles.present(matchable)
            allowed: set[int] = set()
            for k in found:
                allowed.update(pre.needle_patterns[k])
            return raw_hits & allowed, set(), any(k in pre.generic_needles for k in found)
        todo = set(decided.patterns) | (raw_hits - self.lines.covered)
        return todo, decided.patterns & self.lines.exact, decided.generic

    def chunk(self, chunk: Chunk, res: ScanResult, sink: LineSink) -> int:
        """One chunk: the same effects on `res` as the Scanner's per-pattern path; how many
        lines the first pass selected (attention and generic ones). Each attention line goes to
        `sink.line` with what was decided there."""
        assert self.finder is not None  # Scanner uses the set engine only with a finder
        data = chunk.data
        if b"\x1b" in data:
            data = _ANSI_B.sub(b"", data)
        anchor = (chunk.offset, chunk.first_line)
        found, generic = self.finder.find(data)
        odd = [start for start, ids in found.items() if ids is None]
        if odd:
            for start in _not_candidates(self.prefilter, data, odd):
                del found[start]
        starts = found.keys()
        lines = self._prepare(data, found, set(generic))
        signalled, covered = self.finder.signalled, self.lines.covered
        steps = list(chunk.steps)
        line, pos = chunk.first_line, 0
        gi, si = 0, 0
        n_generic = len(generic)
        for start in sorted(starts):
            # generic lines before this attention line share one step and one header state
            if gi < n_generic and generic[gi] < start:
                gi, si, line, pos = self._flush(
                    data, generic, starts, (gi, si), steps, start, (line, pos), anchor, res
                )
            line += data.count(b"\n", pos, start)
            pos = start
            while si < len(steps) and steps[si][0] <= line:
                res.steps.append(steps[si])
                si += 1
            raw, text, matchable, decided = lines[start]
            ids = found[start]
            if decided is NOTHING and ids is not None and start not in signalled:
                if not ids - covered:
                    continue  # no pattern, word or signal here: nothing for the line to change
            # (no needle check: a line where no needle is can give no hit, signal or generic
            # entry, so the set engine's extra lines change nothing)
            ctx = LineCtx(res, anchor, line, len(res.steps) - 1)
            if ids is not None:  # (None: raw forms prove nothing here: the Scanner's needles)
                todo, direct, worded = self.select(matchable, ids, decided)
                ctx.selected = Selected(text, matchable, todo, direct, self.lazy, worded)
            sink.line(raw, ctx)
        gi, si, line, pos = self._flush(
            data, generic, starts, (gi, si), steps, len(data) + 1, (line, pos), anchor, res
        )
        res.steps.extend(steps[si:])
        line += data.count(b"\n", pos)
        chunk.n_newlines = line - chunk.first_line
        res.lines = line - (1 if data.endswith(b"\n") else 0)
        return len(found) + len(generic)

    def _prepare(
        self, data: bytes, found: dict[int, set[int] | None], worded: set[int]
    ) -> dict[int, tuple[bytes, str, str, Decided | None]]:
        """Per attention line: (raw bytes, display text, matchable text, what the line set
        decided there: None for a line it does not decide). `worded`: the starts of lines
        whose raw bytes hold an error-like word (only those can be generic lines)."""
        out: dict[int, tuple[bytes, str, str, Decided | None]] = {}
        decide = self.lines.decide
        for start, ids in found.items():
            end = data.find(b"\n", start)
            raw = data[start : len(data) if end < 0 else end]
            text = display(raw)
            matchable = body(text)
            decided = None
            if ids is not None and decidable(matchable):
                decided = decide(matchable, ids, start in worded)
            out[start] = (raw, text, matchable, decided)
        return out

    def _flush(
        self,
        data: bytes,
        generic: list[int],
        starts: Set[int],
        at: tuple[int, int],
        steps: list[tuple[int, str]],
        until: int,
        where: tuple[int, int],
        anchor: tuple[int, int],
        res: ScanResult,
    ) -> tuple[int, int, int, int]:
        """Generic lines starting before `until`: per step, the last GENERIC_KEEP of them."""
        gi, si = at
        line, pos = where
        group: list[tuple[int, int]] = []  # (start, line number) within one step
        while gi < len(generic) and generic[gi] < until:
            start = generic[gi]
            gi += 1
            if start in starts:
                continue  # an attention line: it keeps its own generic entry, in order
            line += data.count(b"\n", pos, start)
            pos = start
            if si < len(steps) and steps[si][0] <= line:
                _keep(self.prefilter, data, group, anchor, res)
                group = []
                while si < len(steps) and steps[si][0] <= line:
                    res.steps.append(steps[si])
                    si += 1
            group.append((start, line))
        _keep(self.prefilter, data, group, anchor, res)
        return gi, si, line, pos


def _not_candidates(prefilter: Prefilter, data: bytes, odd: list[int]) -> set[int]:
    """Of the non-ASCII lines (whose raw forms prove nothing), those holding no prefilter
    needle: the per-pattern path would not look at them either. One needle search over the
    lines joined, instead of one call per line (a progress bar of `█` is on every line)."""
    odd.sort()
    pieces, offsets, at = [], [], 0
    for start in odd:
        end = data.find(b"\n", start)
        piece = data[start : len(data) if end < 0 else end]
        pieces.append(piece)
        offsets.append(at)
        at += len(piece) + 1
    joined = b"\n".join(pieces)
    keep: set[int] = set()
    pos = 0
    while pos < len(joined):
        m = prefilter.chunk_scan.search(joined, pos)
        if m is None:
            break
        k = bisect.bisect_right(offsets, m.start()) - 1
        keep.add(odd[k])
        pos = offsets[k + 1] if k + 1 < len(offsets) else len(joined)
    return set(odd) - keep


def _keep(
    prefilter: Prefilter,
    data: bytes,
    group: list[tuple[int, int]],
    anchor: tuple[int, int],
    res: ScanResult,
) -> None:
    """The last GENERIC_KEEP lines of `group` (one step) that are generic lines, in order."""
    if not group or group[-1][1] <= res.header_until:
        return  # header_until changes only at attention lines: constant within a group
    kept: list[tuple[int, str, tuple[int, int]]] = []
    for start, number in reversed(group):
        if number <= res.header_until:
            break
        end = data.find(b"\n", start)
        text = prefilter.generic_text(data[start : len(data) if end < 0 else end])
        if text is not None:
            kept.append((number, text, anchor))
            if len(kept) == GENERIC_KEEP:
                break
    if kept:
        step = len(res.steps) - 1
        dq = res.generic.get(step)
        if dq is None:
            dq = res.generic[step] = generic_deque()
        dq.extend(reversed(kept))
