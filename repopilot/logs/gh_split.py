"""A `gh run view --log` file split into its jobs in one pass over the file.

Each line is `<job>\\t<step>\\t<timestamp> <text>`; a line without those columns continues the
job of the last line that had them. One job's reader sees every physical line of the file
(Contract 1: line numbers are the file's), its own lines without the two columns and every other
line blank, with a step starting wherever its step column changes. Reading the whole file once per
job cost jobs x lines; here each job's own lines go to its own spool file in one pass, and the
spool says which file line each of its stretches starts on (`LineRun`): the other jobs' lines are
not written (usually a job is one stretch, as `gh` prints the jobs one after the other), the
reader numbers the spool's lines by its runs and stands in the blank lines (logs/reader.py). The
per-line work is in C: a job's consecutive lines of one step are found with one regex search,
their columns cut with one `replace`.
"""

from __future__ import annotations

import atexit
import os
import re
import shutil
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import BinaryIO

_TS = rb"(?:\xef\xbb\xbf)?\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d"
# The timestamp column may carry the BOM a step's (or, under `UNKNOWN STEP`, the whole job's) log
# file starts with: gh copies each file's first line as it is.
GHCLI = re.compile(rb"^\xef?\xbb?\xbf?([^\t\n]*)\t([^\t\n]*)\t" + _TS)
GHCLI_AT = re.compile(rb"\xef?\xbb?\xbf?([^\t\n]*)\t([^\t\n]*)\t" + _TS)  # at a given offset
MAX_PREFIX = 8 << 20  # bytes of lines before the first gh line (each job keeps them)


@dataclass(frozen=True, slots=True)
class LineRun:
    """A stretch of a spool whose lines are consecutive lines of the gh file: from `offset` (a
    line start in the spool) to the next run's offset (or the spool's end)."""

    offset: int  # bytes into the spool
    line: int  # the gh file's number of the run's first line


@dataclass(frozen=True, slots=True)
class GhJob:
    """One job of a gh file: the spool its reader reads, which file lines the spool's stretches
    are, and where its steps start. The job's view of the file runs to its last line: the lines
    no run holds are the other jobs', blank in this view."""

    name: str
    spool: str
    steps: tuple[tuple[int, str], ...]  # (line, step name), ascending
    step_offsets: tuple[int, ...]  # where each step's first line starts in the spool
    runs: tuple[LineRun, ...]  # ascending, the first at offset 0; never empty
    last_own: int  # the number of the spool's last line (the job's last in the file)
    newlines: int  # the gh file's LFs: its last line is this, or one more (`blank_tail`)
    # the file's last line has no LF and is another job's: blank, it is still a line of this
    # job's view (its reader adds it)
    blank_tail: bool = False


@dataclass(frozen=True, slots=True)
class PieceJob:
    """One job's lines in one piece of a gh file (a byte range cut at a gh line): its spool,
    runs and steps numbered from the piece's first line (1)."""

    name: str
    spool: str
    steps: tuple[tuple[int, str], ...]
    step_offsets: tuple[int, ...]
    runs: tuple[LineRun, ...]
    size: int  # the spool's bytes
    next_line: int  # the piece line that would continue its last run
    step: str  # its last step's name


@dataclass(frozen=True, slots=True)
class Piece:
    """What splitting one piece of a gh file found (pickled from a forked worker)."""

    jobs: tuple[PieceJob, ...]  # in the order they first appear
    newlines: int  # the piece's LFs
    tail_owner: str | None  # the job its unterminated last line went to (None: it ends with LF)
    prefix: bytes  # the lines before the first gh line (only the first piece has any)
    masks: tuple[str, ...] = ()  # its `::add-mask::` lines, in order (when asked to collect them)


@dataclass(slots=True)
class _Out:
    file: BinaryIO
    size: int = 0  # bytes written to the spool
    next_line: int = 0  # the file line that continues the spool's last run (0: none yet)
    step: str | None = None
    steps: list[tuple[int, str]] = field(default_factory=list)
    step_offsets: list[int] = field(default_factory=list)
    runs: list[LineRun] = field(default_factory=list)


# A run of one job's lines of one step, from its first line's job column: the two columns
# (group `p`) and a timestamp on each line. One pattern for every run (a backreference), not
# one compiled per job and step.
# (`.*` stops at an LF; a line that starts with the columns but no timestamp is given back and
# ends the run, its LF taken by `\n?`)
_RUN = re.compile(rb"(?P<p>[^\t\n]*\t[^\t\n]*\t)" + _TS + rb".*(?:\n(?P=p)" + _TS + rb".*)*\n?")


class _Splitter:
    def __init__(self, where: str, tag: str = ""):
        self.where, self.tag = where, tag
        self.jobs: dict[str, _Out] = {}
        self.newlines = 0  # in the input so far
        self.active: str | None = None  # the job continuation lines belong to
        self.prefix: list[bytes] = []  # lines before the first gh line: every job keeps them
        self.prefix_size = 0
        self.tail_owner: str | None = None  # the job an unterminated last line went to

    def _out(self, name: str) -> _Out:
        out = self.jobs.get(name)
        if out is None:
            path = os.path.join(self.where, f"{self.tag}job-{len(self.jobs)}.log")
            out = self.jobs[name] = _Out(open(path, "wb"))  # noqa: SIM115  (closed in `done`)
            if self.prefix:  # lines 1.. of every job's view
                out.runs.append(LineRun(0, 1))
                out.file.writelines(self.prefix)
                out.size = self.prefix_size
                out.next_line = len(self.prefix) + 1
        return out

    def _write(self, out: _Out, text: bytes) -> int:
        """`text` (whole lines, or the input's unterminated last line), the input's next lines,
        appended to the spool (a new run unless it continues the last one); its LFs, counted
        once (the input's lines it stands for: the columns hold none)."""
        line = self.newlines + 1
        if line != out.next_line:
            out.runs.append(LineRun(out.size, line))
        out.file.write(text)
        out.size += len(text)
        lfs = text.count(b"\n")
        out.next_line = line + lfs
        return lfs

    def feed(self, data: bytes) -> bool:
        """One chunk of whole lines; False when the file is not worth splitting here."""
        pos, n = 0, len(data)
        self.tail_owner = None
        while pos < n:
            m = GHCLI_AT.match(data, pos)
            if m is None:  # a continuation line: the active job's (every job's before the first)
                end = data.find(b"\n", pos)
                end = n if end < 0 else end + 1
                if self.active is None:
                    self.prefix.append(data[pos:end])
                    self.prefix_size += end - pos
                    if self.prefix_size > MAX_PREFIX:
                        return False
                    self.newlines += data.count(b"\n", pos, end)
                else:
                    self.newlines += self._write(self.jobs[self.active], data[pos:end])
                pos = end
                continue
            run = _RUN.match(data, m.start(1))
            stop = run.end() if run is not None else n  # (it matches: m did)
            prefix = data[m.start(1) : m.end(2) + 1]
            body = data[m.end(2) + 1 : stop].replace(b"\n" + prefix, b"\n")
            name = m.group(1).decode("utf-8", "replace")
            step = m.group(2).decode("utf-8", "replace")
            out = self._out(name)
            if step != out.step:
                out.step = step
                out.steps.append((self.newlines + 1, step))
                out.step_offsets.append(out.size)
            self.active = name
            self.newlines += self._write(out, body)
            pos = stop
        if n and data[-1] != 0x0A:
            self.tail_owner = self.active or ""
        return True

    def piece(self, masks: tuple[str, ...] = ()) -> Piece:
        jobs = []
        for name, out in self.jobs.items():
            out.file.close()
            spool: str = out.file.name
            steps, at, runs = tuple(out.steps), tuple(out.step_offsets), tuple(out.runs)
            jobs.append(
                PieceJob(name, spool, steps, at, runs, out.size, out.next_line, out.step or "")
            )
        return Piece(tuple(jobs), self.newlines, self.tail_owner, b"".join(self.prefix), masks)

    def close(self) -> None:
        for out in self.jobs.values():
            out.file.close()


def split_piece(
    chunks: Iterable[bytes], where: str, tag: str = "", masks: list[str] | None = None
) -> Piece | None:
    """The jobs of a gh file (or of one piece of it, cut at a gh line) given as chunks of whole
    lines, their spools written in `where` (names starting with `tag`); None when there are too
    many lines before the first gh line to copy into every job. `masks`: a list the chunks'
    producer fills with the piece's `::add-mask::` lines, carried in the Piece."""
    splitter = _Splitter(where, tag)
    try:
        for data in chunks:
            if not splitter.feed(data):
                splitter.close()
                return None
        return splitter.piece(tuple(masks or ()))
    except BaseException:
        splitter.close()
        raise


def spool_dir() -> str:
    """A new directory for spools, removed when this process exits."""
    where = tempfile.mkdtemp(prefix="repopilot-gh-")
    atexit.register(_remove, where, os.getpid())
    return where


def _remove(where: str, pid: int) -> None:
    if os.getpid() == pid:  # (a forked worker exits without removing what its parent uses)
        shutil.rmtree(where, ignore_errors=True)
