"""One streaming pass over a job log: which patterns match which lines, and the failure signals.

Two engines, the same results. The default, `set` (engine/match/set_engine.py): per chunk, one
Hyperscan pass over the raw bytes selects the lines some pattern can match, and a second pass
over those lines' matchable texts says which patterns match each; the `regex` engine runs only
where RE2 cannot decide, and for the captures of the hits a verdict shows (`captures`).
`reference` (`REPOPILOT_SCAN_ENGINE=reference`, and the path wherever Hyperscan is not
installed): raw chunks are searched for every pattern's required literals with one RE2
alternation and each candidate line is confirmed pattern by pattern with `regex` under a
timeout; tests compare the two.
Memory is bounded: hits and generic error lines are kept in capped structures, never the log.
"""

from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Literal

import re2
import regex

from repopilot.engine.library.loader import Pattern
from repopilot.logs.reader import Chunk, JobLog, iter_chunks
from repopilot.logs.textnorm import annotation, body, display

if TYPE_CHECKING:
    from repopilot.engine.match.re2_lines import Decided
    from repopilot.engine.match.set_engine import SetMatcher

_ANSI_B = re.compile(rb"\x1b\[[0-9;?]*[ -/]*[@-~]")
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
_SIGNALS = (
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
_EXIT = regex.compile(r"(?i)process completed with exit code (\d+)|exited with (?:code )?(\d+)")
MAX_HITS = 4096
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


@dataclass(slots=True)
class Hit:
    pattern: Pattern
    line: int
    text: str  # display text
    # None: RE2 alone decided the line (the set engine); `captures()` reads them when a verdict
    # needs them: of all the hits in a log, only the verdict's first one does.
    captures: dict[str, str] | None
    step: int  # index into ScanResult.steps (-1: before any step)
    anchor: tuple[int, int]  # (byte offset, first line) of the chunk holding the line


@dataclass(slots=True)
class ScanResult:
    steps: list[tuple[int, str]] = field(default_factory=list)  # (start line, name)
    hits: deque = field(default_factory=lambda: deque(maxlen=MAX_HITS))
    generic: dict[int, deque] = field(default_factory=dict)  # step -> recent error-like lines
    errors: list[tuple[int, int, str]] = field(default_factory=list)  # (line, step, text) ##[error]
    exit_lines: list[tuple[int, int, int]] = field(default_factory=list)  # (line, step, code)
    success_marker: bool = False
    failure_marker: bool = False
    timeouts: dict[str, int] = field(default_factory=dict)
    lines: int = 0
    header_until: int = 0  # a step's script echo: `##[group]Run ...` to `##[endgroup]` (capped)


def _minimal(patterns: list[Pattern]) -> list[str]:
    """The needles the chunk scan needs: a literal that contains another literal adds nothing
    (every line holding it holds the shorter one too), and a smaller alternation scans faster.
    Which patterns a candidate line concerns is then decided by the full set (`Set.Match`)."""
    literals = sorted(
        {lit for p in patterns for lit in p.literals} | set(GENERIC) | set(_SIGNALS), key=len
    )
    kept: list[str] = []
    for lit in literals:
        if not any(k in lit for k in kept):
            kept.append(lit)
    regexes = sorted({p.needle_re for p in patterns if p.needle_re})
    return [re2.escape(k) for k in kept] + regexes


Engine = Literal["set", "reference"]


def default_engine() -> Engine:
    """The set engine (which itself takes the per-pattern path where Hyperscan is not
    installed); the entry points pass REPOPILOT_SCAN_ENGINE=reference's choice as `engine`."""
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
        # needles: RE2 expressions (escaped literals or a pattern's prefilter_regex) -> patterns
        needles: dict[str, list[int]] = {}
        self.always: list[int] = []
        for i, p in enumerate(patterns):
            if p.needle_re:
                needles.setdefault(p.needle_re, []).append(i)
            elif not p.literals:
                self.always.append(i)
            for lit in p.literals:
                needles.setdefault(re2.escape(lit), []).append(i)
        for lit in GENERIC + _SIGNALS:
            needles.setdefault(re2.escape(lit), [])
        self.needles = list(needles)
        self.by_lit = [needles[s] for s in self.needles]
        opts = re2.Options()
        opts.max_mem = 1 << 28
        opts.case_sensitive = False
        opts.never_nl = True  # a needle must never start on one line and end on the next
        alternation = "|".join(f"(?:{n})" for n in _minimal(patterns)).encode("utf-8")
        self._scan = re2.compile(alternation if not self.always else b"(?m)^", opts)
        self._set = re2.Set.SearchSet(opts)
        for n in self.needles:
            self._set.Add(n)
        self._set.Compile()
        self._generic = {self.needles.index(re2.escape(g)) for g in GENERIC}
        self._generic_set = re2.Set.SearchSet(opts)
        for g in GENERIC:
            self._generic_set.Add(re2.escape(g))
        self._generic_set.Compile()
        self.engine: Engine = engine or default_engine()
        if self.always:  # a pattern confirmed on every line: nothing for a set to skip
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

            sets = SetMatcher(self, _SIGNALS, GENERIC, self.cache_dir)
            if sets.finder is None:  # no Hyperscan here: the per-pattern path, same results
                self.engine = "reference"
                return
            self.sets = sets

    def scan(self, job: JobLog) -> ScanResult:
        res = ScanResult()
        for chunk in iter_chunks(job, gha_steps=False):
            self._chunk(chunk, res)
        return res

    def _chunk(self, chunk: Chunk, res: ScanResult) -> None:
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
        selected = self.sets.chunk(self, chunk, res)
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
        for m in self._scan.finditer(data):
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
            self._line(data[start:end], line, len(res.steps) - 1, anchor, res, candidate=True)
        while pending is not None:
            res.steps.append(pending)
            pending = next(steps, None)
        line += data.count(b"\n", pos)
        chunk.n_newlines = line - chunk.first_line
        res.lines = line - (1 if data.endswith(b"\n") else 0)
        return found

    def _line(
        self,
        raw: bytes,
        number: int,
        step: int,
        anchor,
        res: ScanResult,
        sets: SetMatcher | None = None,
        raw_hits: set[int] | None = None,
        pre: tuple[str, Decided | None, str] | None = None,
        candidate: bool = False,
    ) -> None:
        """One line. A line the literal scan would not have chosen (`candidate` unknown) is
        ignored. With `sets`, `raw_hits` are the patterns whose raw form matched this line (None:
        a line raw forms prove nothing about: every prefiltered pattern is tried, as on the
        per-pattern path), and the set engine chooses what `regex` confirms."""
        if not candidate and self._scan.search(raw) is None:
            return
        text = display(raw) if pre is None else pre[0]
        if text.startswith("##[group]Run "):  # a step of a raw GitHub log (see iter_chunks)
            res.steps.append((number, text[len("##[group]") :].strip()[:200]))
            step = len(res.steps) - 1
        matchable = body(text) if pre is None else pre[2]  # (the set engine has it already)
        direct: frozenset[int] | set[int] = frozenset()
        if sets is not None and raw_hits is not None:
            # one RE2 set over every pattern's line form decides (engine/match/set_engine.py)
            todo, direct, generic = sets.select(matchable, raw_hits, pre[1] if pre else None)
        else:
            found = self._set.Match(matchable) or ()
            # An annotation whose body holds no needle (`##[error]Size limit exceeded`) still
            # counts: the chunk scan found it by its marker, which `body` removed.
            if not found and not self.always and not text.startswith("##["):
                return
            todo = set(self.always)
            generic = False
            for i in found:
                todo.update(self.by_lit[i])
                generic = generic or i in self._generic
        low = matchable.lower()
        if text.startswith("##[group]Run "):
            res.header_until = number + HEADER_MAX
        elif text.startswith("##[endgroup]"):
            res.header_until = 0
        # Runner annotations and exit codes always count: an unclosed `##[group]Run` in a PR's
        # log must not hide a failure.
        self._signals(text, low, number, step, res)
        if number <= res.header_until:
            return  # the runner echoing the step's script: it says what will run, not what failed
        if generic:
            res.generic.setdefault(step, self._generic_deque()).append((number, text, anchor))
        if not todo:
            return
        name = res.steps[step][1] if step >= 0 else None
        for i in sorted(todo):
            p = self.patterns[i]
            if res.timeouts and res.timeouts.get(p.id, 0) >= MAX_TIMEOUTS:
                continue
            # A log without steps (before the first one, or a plain log) cannot rule a pattern out.
            if p.step_re is not None and name is not None and not self._step_ok(p, name, res):
                continue
            if i in direct:  # exact in RE2: no `regex` now (its captures are read if needed)
                assert sets is not None  # (only the set engine decides patterns)
                res.hits.append(Hit(p, number, text, None if i in sets.lazy else {}, step, anchor))
                continue
            m = self._confirm(p, matchable, res)
            if m is not None:
                res.hits.append(Hit(p, number, text, _groups(m), step, anchor))

    @staticmethod
    def _generic_deque() -> deque:
        return deque(maxlen=48)

    def _generic_text(self, raw: bytes) -> str | None:
        """The display text of a line the set engine found only for an error-like word, when
        the per-pattern path would have kept it as a generic line (else None)."""
        text = display(raw)
        return text if self._generic_set.Match(body(text)) else None

    def _step_ok(self, p: Pattern, name: str, res: ScanResult) -> bool:
        if p.step_re is None:
            return True
        try:
            return p.step_re.search(name, timeout=self.timeout) is not None
        except TimeoutError:  # step names come from the log: a hostile one must not stall us
            res.timeouts[p.id] = res.timeouts.get(p.id, 0) + 1
            return False

    def _confirm(self, p: Pattern, text: str, res: ScanResult):
        try:
            return self._search(p, text)
        except TimeoutError:
            res.timeouts[p.id] = res.timeouts.get(p.id, 0) + 1
            return None

    def _search(self, p: Pattern, text: str):
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


def _groups(m) -> dict[str, str]:
    """A match's named groups that took part in it."""
    return {k: v for k, v in m.groupdict().items() if v is not None}
