"""One streaming pass over a job log: which patterns match which lines, and the failure signals.

Two engines, the same results. The default, `set` (engine/match/set_engine.py): per chunk, one
Hyperscan pass over the raw bytes selects the lines some pattern can match, and a second pass
over those lines' matchable texts says which patterns match each; the `regex` engine runs only
where RE2 cannot decide, and for the captures of the hits a verdict shows (`captures`).
`reference` (`REPOPILOT_SCAN_ENGINE=reference`, and the path wherever Hyperscan or google-re2 is
not installed): raw chunks are searched for every pattern's needles (engine/match/needles.py: one
RE2 alternation, or one trie of literals without RE2) and each candidate line is confirmed
pattern by pattern with `regex` under a timeout; tests compare the two.
Memory is bounded: hits and generic error lines are kept in capped structures, never the log.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Literal

import regex

from repopilot import rx
from repopilot.engine.library.loader import Pattern
from repopilot.engine.match.scan_result import (
    Hit,
    LineCtx,
    ScanResult,
    Selected,
    generic_deque,
    prefilter,
)
from repopilot.logs.reader import Chunk, JobLog, iter_chunks
from repopilot.logs.textnorm import annotation, body, display

if TYPE_CHECKING:
    from repopilot.engine.match.set_engine import SetMatcher

_ANSI_B = re.compile(rb"\x1b\[[0-9;?]*[ -/]*[@-~]")
_EXIT = regex.compile(r"(?i)process completed with exit code (\d+)|exited with (?:code )?(\d+)")
# Measured on the shared corpus: the per-pattern path 125 ns per byte, the set engine 22, its
# build from a warm cache ~45 ms. (Tests and forks build it at once with `prepare`.)
SET_MIN = 384 << 10
# Lines per MiB the set engine's first pass selects: ~10-25 in a quiet synthetic log, ~400 in
# real ones, ~1,500 in the dense synthetic one. Below QUIET, in a chunk of QUIET_CHUNK bytes or
# more, the next QUIET_PROBE chunks of that log take the per-pattern path.
QUIET = 40
QUIET_CHUNK = 512 << 10
QUIET_PROBE = 16
# ... and back to the set engine at once when the per-pattern path's literal prefilter finds
# this many candidate lines per MiB (a quiet synthetic log: a few dozen; real logs: thousands).
BUSY = 300
MAX_TIMEOUTS = 3
HEADER_MAX = 300  # lines of a step's script echo; past this, a missing ##[endgroup] is assumed


Engine = Literal["set", "reference"]


def default_engine() -> Engine:
    """The set engine (which itself takes the per-pattern path where Hyperscan is not
    installed, and which the Scanner replaces where google-re2 is not); the entry points pass
    REPOPILOT_SCAN_ENGINE=reference's choice as `engine`."""
    return "set"


class Scanner:
    """Compiled once per pattern library; `scan(job)` is one pass over one log."""

    def __init__(
        self,
        patterns: list[Pattern],
        timeout: float = 0.05,
        engine: Engine | None = None,
        adaptive: bool = True,
        cache_dir: Path | None = None,
    ):
        self.patterns = patterns
        self.cache_dir = cache_dir  # where the set engine's routes and database are cached
        self.timeout = timeout
        # the needles, error-like words and runner signals; the set engine reads them too
        self.prefilter = prefilter(patterns)
        self.always = self.prefilter.always
        self.engine: Engine = engine or default_engine()
        # a pattern confirmed on every line leaves a set nothing to skip; without RE2 there is none
        if self.always or not rx.available():
            self.engine = "reference"
        self.sets: SetMatcher | None = None
        self._seen = 0  # bytes this scanner has scanned (see SET_MIN)
        self._quiet = 0  # chunks left on the per-pattern path (see QUIET)
        self.adaptive = adaptive  # False: the set engine on every chunk (tests compare it)
        self.chunks = {"set": 0, "reference": 0}  # chunks scanned by each path, so far

    def prepare(self) -> None:
        """Build the set engine now (before a fork, so both halves share it)."""
        if self.engine == "set" and self.sets is None:
            from repopilot.engine.match.set_engine import SetMatcher

            sets = SetMatcher(self.prefilter, self.cache_dir)
            if sets.finder is None:  # no Hyperscan here: the per-pattern path, same results
                self.engine = "reference"
                return
            self.sets = sets

    def scan(self, job: JobLog) -> ScanResult:
        res = ScanResult()
        # One job of a gh file without the other jobs' lines (blank in its view: nothing to
        # find there), unless a pattern is confirmed on every line, a blank one too.
        for chunk in iter_chunks(job, gha_steps=False, blanks=bool(self.always)):
            self.scan_chunk(chunk, res)
        return res

    def scan_chunk(self, chunk: Chunk, res: ScanResult) -> None:
        """One chunk of a log, its effects recorded in `res` (`scan` calls it per chunk)."""
        # The set engine once a process has scanned SET_MIN bytes: on real logs it costs about
        # a fifth of the per-pattern path per byte, on a quiet one the same, but building it
        # (from the cache) costs what the per-pattern path spends on SET_MIN of a real log.
        self._seen += len(chunk.data)
        if self.engine == "set" and self.sets is None and self._seen >= SET_MIN:
            self.prepare()
        if chunk.offset == 0:
            self._quiet = 0  # a new log: the last one's measure says nothing about it
        if self.sets is None or self._quiet:
            # A quiet stretch of a log (few lines any pattern or error-like word could
            # concern) costs the per-pattern path less CPU than Hyperscan's ~1,000 expressions;
            # the set engine measures again after QUIET_PROBE chunks. Same results either way.
            self._quiet = max(0, self._quiet - 1)
            self.chunks["reference"] += 1
            found = self._chunk_literal(chunk, res)
            if found * (1 << 20) >= BUSY * max(len(chunk.data), 1 << 16):
                self._quiet = 0  # busy again: the set engine from the next chunk
            return
        self.chunks["set"] += 1
        selected = self.sets.chunk(chunk, res, self)
        size = len(chunk.data)
        if self.adaptive and size >= QUIET_CHUNK and selected * (1 << 20) < QUIET * size:
            self._quiet = QUIET_PROBE

    def _chunk_literal(self, chunk: Chunk, res: ScanResult) -> int:
        """The per-pattern path: each literal prefilter candidate line, pattern by pattern
        (how many there were)."""
        data = chunk.data
        if b"\x1b" in data:
            data = _ANSI_B.sub(b"", data)
        anchor = (chunk.offset, chunk.first_line)
        steps = iter(chunk.steps)
        pending = next(steps, None)
        line, pos, last_end = chunk.first_line, 0, -1
        found = 0
        for m in self.prefilter.chunk_scan.finditer(data):
            start = data.rfind(b"\n", 0, m.start()) + 1
            if start <= last_end:
                continue
            found += 1
            end = data.find(b"\n", m.start())
            end = len(data) if end < 0 else end
            last_end = end
            line += data.count(b"\n", pos, start)
            pos = start
            while pending is not None and pending[0] <= line:
                res.steps.append(pending)
                pending = next(steps, None)
            self.line(data[start:end], LineCtx(res, anchor, line, len(res.steps) - 1))
        while pending is not None:
            res.steps.append(pending)
            pending = next(steps, None)
        line += data.count(b"\n", pos)
        chunk.n_newlines = line - chunk.first_line
        res.lines = line - (1 if data.endswith(b"\n") else 0)
        return found

    def line(self, raw: bytes, ctx: LineCtx) -> None:
        """One line a chunk scan selected: its runner signals, its generic entry and its hits,
        recorded in `ctx.res`. `ctx.selected` is what the set engine decided about the line;
        None: the Scanner's own needles say which patterns `regex` tries."""
        sel = ctx.selected if ctx.selected is not None else self._select(raw)
        if sel is None:
            return
        res, number, text = ctx.res, ctx.number, sel.text
        step = ctx.step
        if text.startswith("##[group]Run "):  # a step of a raw GitHub log (see iter_chunks)
            res.steps.append((number, text[len("##[group]") :].strip()[:200]))
            step = len(res.steps) - 1
            res.header_until = number + HEADER_MAX
        elif text.startswith("##[endgroup]"):
            res.header_until = 0
        # Runner annotations and exit codes always count: an unclosed `##[group]Run` in a PR's
        # log must not hide a failure.
        self._signals(text, sel.matchable.lower(), number, step, res)
        if number <= res.header_until:
            return  # the runner echoing the step's script: it says what will run, not what failed
        if sel.generic:
            res.generic.setdefault(step, generic_deque()).append((number, text, ctx.anchor))
        if sel.todo:
            self._hits(sel, ctx, step)

    def _select(self, raw: bytes) -> Selected | None:
        """The per-pattern path's choice for one line: the patterns whose needle it holds (and
        those without one); None when nothing can concern the line."""
        text = display(raw)
        matchable = body(text)
        pre = self.prefilter
        found = pre.needles.present(matchable)
        # An annotation whose body holds no needle (`##[error]Size limit exceeded`) still
        # counts: the chunk scan found it by its marker, which `body` removed.
        if not found and not self.always and not text.startswith("##["):
            return None
        todo = set(self.always)
        generic = False
        for i in found:
            todo.update(pre.needle_patterns[i])
            generic = generic or i in pre.generic_needles
        return Selected(text, matchable, todo, _NONE, _NONE, generic)

    def _hits(self, sel: Selected, ctx: LineCtx, step: int) -> None:
        """The patterns of `sel.todo` that match the line: decided ones at once, the others
        confirmed by `regex` under the timeout."""
        res, number, text, anchor = ctx.res, ctx.number, sel.text, ctx.anchor
        name = res.steps[step][1] if step >= 0 else None
        for i in sorted(sel.todo):
            p = self.patterns[i]
            if res.timeouts and res.timeouts.get(p.id, 0) >= MAX_TIMEOUTS:
                continue
            # A log without steps (before the first one, or a plain log) cannot rule a pattern out.
            if p.step_re is not None and name is not None and not self._step_ok(p, name, res):
                continue
            if i in sel.direct:  # exact in RE2: no `regex` now (its captures are read if needed)
                res.hits.append(Hit(p, number, text, None if i in sel.lazy else {}, step, anchor))
                continue
            m = self._confirm(p, sel.matchable, res)
            if m is not None:
                res.hits.append(Hit(p, number, text, _groups(m), step, anchor))

    def _step_ok(self, p: Pattern, name: str, res: ScanResult) -> bool:
        if p.step_re is None:
            return True
        try:
            return p.step_re.search(name, timeout=self.timeout) is not None
        except TimeoutError:  # step names come from the log: a hostile one must not stall us
            res.timeouts[p.id] = res.timeouts.get(p.id, 0) + 1
            return False

    def _confirm(self, p: Pattern, text: str, res: ScanResult) -> regex.Match[str] | None:
        try:
            return self._search(p, text)
        except TimeoutError:
            res.timeouts[p.id] = res.timeouts.get(p.id, 0) + 1
            return None

    def _search(self, p: Pattern, text: str) -> regex.Match[str] | None:
        """The first of `p`'s expressions to match `text`, under the timeout (which raises)."""
        for r in p.regexes:
            m = r.search(text, timeout=self.timeout)
            if m:
                return m
        return None

    def captures(self, hit: Hit) -> dict[str, str] | None:
        """The hit's named groups, as `regex` reads them from its line (what the per-pattern
        path records during the scan); None when `regex` times out on the line."""
        if hit.captures is None:
            try:
                m = self._search(hit.pattern, body(hit.text))
            except TimeoutError:
                return None
            hit.captures = {} if m is None else _groups(m)
        return hit.captures

    @staticmethod
    def _signals(text: str, low: str, number: int, step: int, res: ScanResult) -> None:
        if annotation(text) == "error":
            res.errors.append((number, step, text))
            del res.errors[:-256]
        m = _EXIT.search(low) if "exit" in low else None
        if m:
            code = int(m.group(1) or m.group(2))
            res.exit_lines.append((number, step, code))
            del res.exit_lines[:-256]
        if low.startswith(("finished: success", "done. your build exited with 0", "job succeeded")):
            res.success_marker = True
        if low.startswith(("finished: failure", "build failure", "build failed")):
            res.failure_marker = True


_NONE: frozenset[int] = frozenset()


def _groups(m: regex.Match[str]) -> dict[str, str]:
    """A match's named groups that took part in it."""
    return {k: v for k, v in m.groupdict().items() if v is not None}
