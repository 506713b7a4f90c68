"""Lines of a job read again after its scan: a wrapper's or a failing test's lookback, the
fallback's last block, the context around the evidence.

A read starts at the chunk anchor (byte offset, first line) the scan recorded nearest before the
lines, makes no step or mask pass (the scan made those), and splits a chunk no further than the
last line wanted. A `Region` serves one verdict: it keeps the last window it read (at most
`MAX_WINDOW` raw lines, never the log) and each line's display text, so the lead line's lookback
and the context around it cost one read.
"""

from __future__ import annotations

import os
import re

from repopilot.engine.match.scan_result import ScanResult
from repopilot.engine.verdict.line_score import Line
from repopilot.logs.reader import JobLog, iter_chunks
from repopilot.logs.textnorm import MAX_LINE, display

Anchor = tuple[int, int]  # (byte offset of a line start, its line number), as a Chunk records

_RED = re.compile(rb"\x1b\[(?:[0-9;]*;)?(?:31|91|1;31)m")
MAX_WINDOW = 4096  # raw lines a Region keeps beyond a request (its margin is dropped past this)


def anchor_for(res: ScanResult, line: int) -> Anchor | None:
    """The latest chunk anchor the scan recorded at or before `line` (None: read from the top)."""
    anchors = [h.anchor for h in res.hits] + [g[2] for q in res.generic.values() for g in q]
    usable = [a for a in anchors if a[1] <= line]
    return max(usable, key=lambda a: a[1]) if usable else None


def read_raw(
    job: JobLog, lo: int, hi: int, anchor: Anchor | None, last: int = 0
) -> tuple[list[bytes], bool]:
    """Raw lines `lo..hi` (`lo` at or after the anchor's line) and whether the log ended first.
    A line longer than MAX_LINE is kept capped (see `_capped`): memory stays flat.
    `last`: the number of the log's last line, as the scan counted it (0: unknown). A failure is
    usually near the end: lines in the last chunk of a plain file are then split from its end
    when that splits fewer."""
    out: list[bytes] = []
    size = _size(job) if last > 0 else None
    if job.gh is not None:  # one job of a gh file: its spool ends at its own last line
        last = job.gh.last_own
    for chunk in iter_chunks(job, anchor, gha_steps=False, reread=True):
        first, data = chunk.first_line, chunk.data
        if first > hi:
            return out, False
        if size == chunk.offset + len(data) and first <= last and last - lo < hi - first:
            start = max(lo, first)
            _keep(out, _from_end(data, start, last)[: hi - start + 1], 0)
            if job.gh is None or hi <= last:
                return out, hi >= last
            lo = max(lo, last + 1)  # a gh job's view goes on: the other jobs' lines, blank
            continue
        want = hi - first + 1
        parts = data.split(b"\n", want)
        if len(parts) > want:  # line `hi` ends inside this chunk: the rest is not split
            del parts[want:]
            _keep(out, parts, lo - first)
            return out, False
        if data.endswith(b"\n"):
            parts.pop()  # the empty piece after the last LF is no line
            chunk.n_newlines = len(parts)
        else:
            chunk.n_newlines = len(parts) - 1
        _keep(out, parts, lo - first)
    return out, True


def _size(job: JobLog) -> int | None:
    """The size of a plain file the reader yields as it is (not a gh log it rewrites; the spool
    of a split gh job)."""
    path = job.gh.spool if job.gh is not None else job.path
    if path is None or (job.fmt == "ghcli" and job.gh is None):
        return None
    try:
        return os.path.getsize(path)
    except OSError:
        return None


def _from_end(data: bytes, start: int, last: int) -> list[bytes]:
    """Lines `start..last` of the chunk `data` whose last line is number `last`."""
    body = data[:-1] if data.endswith(b"\n") else data
    want = last - start + 1
    if want <= 0:
        return []
    parts = body.rsplit(b"\n", want)
    if len(parts) > want:
        del parts[0]  # the lines before `start`
    return parts


def _keep(out: list[bytes], parts: list[bytes], skip: int) -> None:
    kept = parts[max(0, skip) :]
    out.extend(_capped(p) if len(p) > MAX_LINE else p for p in kept)


def _capped(raw: bytes) -> bytes:
    """What a Line needs of a long raw line: `display` reads only its first MAX_LINE bytes, the
    red test reads it all, so the head plus a red code when the whole line had one says both."""
    return raw[:MAX_LINE] + (b"\x1b[31m" if _RED.search(raw) else b"")


class Region:
    """One verdict's view of a job's lines after the scan (module docstring).

    `margin` = (lines before, lines after) read beyond each request and kept, for the context
    that a later request asks around a line of the first one."""

    def __init__(self, job: JobLog, res: ScanResult, margin: tuple[int, int] = (0, 0)):
        self.job, self.res, self.margin = job, res, margin
        self._anchor: Anchor | None = None
        self._first = 0  # number of _raws[0]
        self._raws: list[bytes] = []
        self._eof = False
        self._lines: dict[int, Line] = {}

    def anchor_for(self, line: int) -> Anchor | None:
        return anchor_for(self.res, line)

    def lines(self, lo: int, hi: int, anchor: Anchor | None) -> list[Line]:
        """Lines `lo..hi` (fewer at the end of the log) as read from `anchor`."""
        lo = max(1, lo)
        if hi < lo:
            return []
        if not self._covers(lo, hi, anchor):
            self._read(lo, hi, anchor)
        end = min(hi, self._first + len(self._raws) - 1)
        return [self._line(n) for n in range(lo, end + 1)]

    def _covers(self, lo: int, hi: int, anchor: Anchor | None) -> bool:
        if not self._raws or lo < self._first:
            return False
        if hi >= self._first + len(self._raws) and not self._eof:
            return False
        # `gh` logs: which continuation lines belong to the job depends on where a read starts
        return anchor == self._anchor or self.job.fmt != "ghcli"

    def _read(self, lo: int, hi: int, anchor: Anchor | None) -> None:
        before, after = self.margin
        start = max(lo - before, anchor[1] if anchor else 1, 1)
        stop = hi + after
        if stop - start + 1 > MAX_WINDOW:
            start, stop = lo, hi
        raws, eof = read_raw(self.job, start, stop, anchor, self.res.lines)
        self._anchor, self._first, self._raws, self._eof = anchor, start, raws, eof
        self._lines = {}

    def _line(self, number: int) -> Line:
        ln = self._lines.get(number)
        if ln is None:
            ln = self._lines[number] = _RawLine(number, self._raws[number - self._first])
        return ln


class _RawLine(Line):
    """A Line whose display text and colour are worked out when first asked for: a test's
    message is usually found within the first few lines read after it."""

    __slots__ = ("_raw", "_text")
    _raw: bytes
    _text: str | None

    def __init__(self, number: int, raw: bytes):  # a Line's fields: `text` and `red` come late
        object.__setattr__(self, "number", number)
        object.__setattr__(self, "_raw", raw)
        object.__setattr__(self, "_text", None)

    @property
    def text(self) -> str:
        text = self._text
        if text is None:
            text = display(self._raw)
            object.__setattr__(self, "_text", text)
        return text

    @property
    def red(self) -> bool:
        return b"\x1b" in self._raw and _RED.search(self._raw) is not None
