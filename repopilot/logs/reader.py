"""Read CI logs, streaming and in constant memory, into jobs -> steps -> lines.

Inputs: a raw GitHub Actions job log, a run-logs `.zip` as GitHub serves it, `gh run view --log`
output (`job<TAB>step<TAB>timestamp line`), any plain CI log, a `.gz` of any of these, or `-`.
Line numbers are the ORIGINAL 1-based physical lines (Contract 1): lines end at LF, a CR before the
LF belongs to the ending, a lone CR does not end a line.

The engine reads `Chunk`s: up to ~1 MiB of whole lines, with the step boundaries found in them.
Everything a user can get wrong raises `LogError` with one line saying what and where.
"""

from __future__ import annotations

import atexit
import bisect
import functools
import gzip
import io
import os
import re
import shutil
import stat
import sys
import tempfile
import zipfile
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, BinaryIO, cast

from repopilot import rx
from repopilot.errors import LogError
from repopilot.logs import go_test_json
from repopilot.logs.archive import ZipLimits, zip_jobs
from repopilot.logs.gh_pieces import Joined, join
from repopilot.logs.gh_split import GHCLI as _GHCLI
from repopilot.logs.gh_split import GhJob, Piece, split_piece, spool_dir
from repopilot.logs.textnorm import MAX_LINE, display
from repopilot.safety.masks import remember_masks

if TYPE_CHECKING:
    from _typeshed import WriteableBuffer

CHUNK = 1 << 20
_GHA_TS = re.compile(rb"^\xef?\xbb?\xbf?\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z ")
# GitLab's FF_TIMESTAMPS column (logs/textnorm.py): a GitLab job log, not a GitHub one.
_GITLAB_TS = re.compile(rb"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z \d\d[OE](?:\+| |\r?$)")
_STEP_RUN = b"##[group]Run "


@dataclass(frozen=True, slots=True)
class JobLog:
    """One job's log. `opener` returns a fresh decompressed byte stream each call."""

    source: str
    name: str
    opener: Callable[[], BinaryIO]
    fmt: str  # "gha" | "ghcli" | "plain"
    job_filter: str | None = None  # ghcli: keep only this job's lines
    path: str | None = None  # set when the log is a plain uncompressed file (it can be split)
    gh: GhJob | None = None  # one job of a gh file, split out (`opener` reads its spool)


@dataclass(slots=True)
class Chunk:
    first_line: int  # number of the first line in `data`
    offset: int  # byte offset of `data` in the raw stream (a line start)
    data: bytes  # whole lines (the last may lack its LF at end of input)
    steps: list[tuple[int, str]] = field(default_factory=list)  # (line, name) steps starting here
    n_newlines: int | None = None  # a consumer that counted them sets this: saves a pass


@dataclass(frozen=True, slots=True)
class LogLine:
    number: int
    text: str  # display text: timestamp, ANSI and CR removed
    step: str | None


# ---------------------------------------------------------------- opening


def _sniff(head: bytes, where: str) -> None:
    if not head:
        raise LogError(f"{where}: empty log")
    sample = head[:8192]
    if sample.count(b"\0") > 4:
        raise LogError(f"{where}: binary input (NUL bytes), not a text log")


def _detect(head: bytes) -> str:
    """The format most of the first 20 non-blank lines have: one odd first line (a pasted title,
    a truncated line) must not turn a timestamped log into a plain one."""
    votes = {"ghcli": 0, "gha": 0, "plain": 0}
    for line in [ln for ln in head.split(b"\n", 40)[:40] if ln.strip()][:20]:
        fmt = "ghcli" if _GHCLI.match(line) else "gha" if _GHA_TS.match(line) else "plain"
        if fmt == "gha" and _GITLAB_TS.match(line):
            fmt = "plain"
        votes[fmt] += 1
    best = max(("ghcli", "gha"), key=lambda f: votes[f])
    return best if votes[best] and votes[best] >= votes["plain"] else "plain"


def _file_opener(path: str) -> Callable[[], BinaryIO]:
    def opener() -> BinaryIO:
        f: BinaryIO = open(path, "rb")  # noqa: SIM115  (caller closes)
        if f.read(2) == b"\x1f\x8b":
            f.seek(0)
            return gzip.GzipFile(fileobj=f, mode="rb")  # type: ignore[return-value]
        f.seek(0)
        return f

    return opener


def _head(opener: Callable[[], BinaryIO], where: str) -> bytes:
    try:
        with opener() as f:
            return f.read(65536)
    except (OSError, EOFError, zlib.error, gzip.BadGzipFile, zipfile.BadZipFile) as exc:
        raise LogError(f"{where}: cannot read: {exc}") from None


def _spool(src: BinaryIO) -> str:
    """Copy a stream that can be read only once (stdin, a FIFO) to a temporary file, removed at
    exit: every job is then re-readable for its context lines."""
    tmp = tempfile.NamedTemporaryFile(prefix="repopilot-spool-", delete=False)  # noqa: SIM115
    atexit.register(_remove, tmp.name)
    with tmp:
        shutil.copyfileobj(src, tmp, CHUNK)
    return tmp.name


def _remove(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def _real_path(path: str, where: str) -> str:
    if path == "-":
        return _spool(sys.stdin.buffer)
    try:
        mode = os.stat(path).st_mode
    except OSError as exc:
        raise LogError(f"{where}: cannot open: {exc.strerror or exc}") from None
    if stat.S_ISDIR(mode):
        raise LogError(f"{where}: is a directory, not a log")
    if not stat.S_ISREG(mode):
        try:
            with open(path, "rb") as fifo:  # a FIFO or device: read once
                return _spool(fifo)
        except OSError as exc:
            raise LogError(f"{where}: cannot open: {exc.strerror or exc}") from None
    return path


def open_logs(
    path: str, limits: ZipLimits | None = None, joined: Joined | None = None
) -> list[JobLog]:
    """Every job log in `path` (a file, a run zip, or `-` for stdin). `joined`: the jobs of
    `path`, a gh file, as its pieces were split on other cores (engine/gh_ahead.py)."""
    where = "<stdin>" if path == "-" else path
    real = _real_path(path, where)
    try:
        with open(real, "rb") as f:
            magic = f.read(4)
    except OSError as exc:
        raise LogError(f"{where}: cannot open: {exc.strerror or exc}") from None
    if magic.startswith(b"PK\x03\x04") or magic.startswith(b"PK\x05\x06"):
        jobs = zip_jobs(real, where, limits or ZipLimits(), LogError)
        if not jobs:
            raise LogError(f"{where}: zip holds no job logs (*.txt)")
        return [_job(op, src, name) for src, name, op in jobs]
    plain = None if magic.startswith(b"\x1f\x8b") else real
    return _split_ghcli(_job(_file_opener(real), where, where, plain), joined)


def _job(opener: Callable[[], BinaryIO], source: str, name: str, path: str | None = None) -> JobLog:
    head = _head(opener, source)
    _sniff(head, source)
    return JobLog(source, name, opener, _detect(head), path=path)


def _split_ghcli(job: JobLog, joined: Joined | None) -> list[JobLog]:
    """`gh run view --log` holds every job of a run: one JobLog per job column value, each
    reading its own spool written in one pass over the file (logs/gh_split.py), or as pieces
    of the file split on other cores made them (`joined`: the same jobs)."""
    if job.fmt != "ghcli":
        return [job]
    if joined is not None:
        for line in joined.masks:  # as the one pass would have registered them
            remember_masks(line)
        jobs: list[GhJob] | None = list(joined.jobs)
    else:
        where = spool_dir()
        piece = split_piece(_gh_chunks(job), where)
        jobs = None if piece is None else join([piece], where)
    if jobs is None:  # no gh line after all: read as it is, as before
        return [job]
    if len(jobs) == 1:  # one job: keep the source, name it by its column
        (gh,) = jobs
        return [JobLog(job.source, gh.name, _file_opener(gh.spool), "ghcli", path=job.path, gh=gh)]
    return [
        JobLog(f"{job.source}!{gh.name}", gh.name, _file_opener(gh.spool), "ghcli", gh.name, gh=gh)
        for gh in jobs
    ]


def _gh_chunks(job: JobLog) -> Iterator[bytes]:
    """The gh file's chunks as each job's reader saw them before the split (test2json decoded);
    the masks any job registers are registered here, as reading any job read them all."""
    with job.opener() as raw:
        stream = raw if isinstance(raw, io.BufferedReader) else io.BufferedReader(_raw(raw), CHUNK)
        for _, data in _raw_chunks(stream, job.source):
            data = go_test_json.decode(data)
            _register_masks(data)
            yield data


def gh_piece(path: str, where: str, tag: str, at: tuple[int, int]) -> Piece | None:
    """Bytes `at` = (start, stop) of the plain gh file `path`, a piece cut at a gh line (see
    logs/gh_pieces.py `bounds`), split as `_gh_chunks` feeds the whole file; its `::add-mask::`
    lines are kept in the Piece, not registered (the process reading the log does that)."""
    masks: list[str] = []
    start, stop = at
    with open(path, "rb") as f:
        f.seek(start)
        stream = io.BufferedReader(_Limit(f, stop - start), CHUNK)
        chunks = (_masks_in(go_test_json.decode(d), masks) for _, d in _raw_chunks(stream, path))
        return split_piece(chunks, where, tag, masks)


def gh_file(path: str) -> bool:
    """Whether `path` is a plain (uncompressed) file that reads as `gh run view --log` output."""
    try:
        with open(path, "rb") as f:
            head = f.read(65536)
    except OSError:
        return False
    return not head.startswith((b"\x1f\x8b", b"PK")) and _detect(head) == "ghcli"


# ---------------------------------------------------------------- reading


def _raw_chunks(stream: BinaryIO, where: str) -> Iterator[tuple[int, bytes]]:
    """(raw offset, whole lines). A line over 1 MiB keeps its first MAX_LINE bytes."""
    carry = b""
    offset = 0  # raw offset of carry[0]
    skipping = False  # inside an over-long line whose head was already emitted
    while True:
        try:
            block = stream.read(CHUNK)
        except (OSError, EOFError, zlib.error, zipfile.BadZipFile, gzip.BadGzipFile) as exc:
            raise LogError(f"{where}: truncated or corrupt input: {exc}") from None
        if not block:
            break
        if skipping:
            nl = block.find(b"\n")
            if nl < 0:
                offset += len(block)
                continue
            offset += nl + 1
            block = block[nl + 1 :]
            skipping = False
        data = carry + block
        cut = data.rfind(b"\n")
        if cut < 0:
            if len(data) > CHUNK:
                yield offset, data[:MAX_LINE] + b"\n"  # stands in for the line's real LF
                offset += len(data)
                carry, skipping = b"", True
            else:
                carry = data
            continue
        yield offset, data[: cut + 1]
        offset += cut + 1
        carry = data[cut + 1 :]
    if carry and not skipping:
        yield offset, carry


# Travis CI echoes each command as `$ cmd` (often after an erase-line code): its steps.
# Travis often writes `travis_time:start:...\r\x1b[0K$ cmd` on one physical line.
# A step starts at a line start or a CR, then an optional erase-line code, then `$ ` and a
# non-blank. Searched as the literal `$ ` and checked backwards: `(?m)(?:^|\r)...` made `re`
# try every position of every chunk (a third of the scan's time on plain logs).
_TRAVIS_CMD = re.compile(rb"\$ (?=\S)")
_ERASE = b"\x1b[0K"


def _newlines(data: bytes) -> int:
    """`data.count(b"\\n")`, faster: `replace` finds the LFs with memchr, `count` looks at
    every byte."""
    return len(data) - len(data.replace(b"\n", b""))


def _plain_steps(data: bytes, first_line: int) -> list[tuple[int, str]]:
    steps = []
    line, pos = first_line, 0
    for m in _TRAVIS_CMD.finditer(data):
        start = m.start()
        if data.endswith(_ERASE, 0, start):
            start -= len(_ERASE)
        if start and data[start - 1] == 0x0D:
            start -= 1  # the CR belongs to the step's text, as before
        elif start and data[start - 1] != 0x0A:
            continue
        line += _newlines(data[pos:start])
        pos = start
        end = data.find(b"\n", m.end())
        end = len(data) if end < 0 else end
        steps.append((line, display(data[start:end]).strip()[:200]))
    return steps


def _gha_steps(data: bytes, first_line: int) -> list[tuple[int, str]]:
    steps = []
    line, counted = first_line, 0
    pos = data.find(_STEP_RUN)
    while pos >= 0:
        start = data.rfind(b"\n", 0, pos) + 1
        end = data.find(b"\n", pos)
        end = len(data) if end < 0 else end
        line += data.count(b"\n", counted, start)
        counted = start
        name = display(data[pos + len(b"##[group]") : end]).strip()
        steps.append((line, name[:200]))
        pos = data.find(_STEP_RUN, end)
    return steps


def _ghcli_rewrite(
    data: bytes, first_line: int, state: list[str | bool | None], keep: str | None
) -> Chunk:
    """Drop the job and step columns (and other jobs' lines, as blanks: numbering stays)."""
    out: list[bytes] = []
    steps: list[tuple[int, str]] = []
    for i, line in enumerate(data.split(b"\n")[:-1] if data.endswith(b"\n") else data.split(b"\n")):
        m = _GHCLI.match(line)
        if not m:
            out.append(line if state[1] else b"")
            continue
        job = m.group(1).decode("utf-8", "replace")
        state[1] = keep is None or job == keep
        if not state[1]:
            out.append(b"")
            continue
        step = m.group(2).decode("utf-8", "replace")
        if step != state[0]:
            state[0] = step
            steps.append((first_line + i, step))
        out.append(line[m.end(2) + 1 :])
    text = b"\n".join(out) + (b"\n" if data.endswith(b"\n") else b"")
    return Chunk(first_line, 0, text, steps)


def _steps_in(gh: GhJob, offset: int, data: bytes) -> list[tuple[int, str]]:
    """The steps of a split gh job that start on the lines of `data`, read at spool `offset`."""
    lo = bisect.bisect_left(gh.step_offsets, offset)
    hi = bisect.bisect_left(gh.step_offsets, offset + len(data), lo)
    return list(gh.steps[lo:hi])


def _raw(stream: BinaryIO) -> io.RawIOBase:
    """`stream` as the raw stream BufferedReader wraps (what every unbuffered opener returns)."""
    return cast(io.RawIOBase, stream)


class _Limit(io.RawIOBase):
    """At most `left` bytes of `inner`: one half of a split file."""

    def __init__(self, inner: BinaryIO, left: int):
        self._inner, self._left = inner, left

    def readable(self) -> bool:
        return True

    def readinto(self, buf: WriteableBuffer) -> int:
        # the caller's buffer as bytes (BufferedReader passes a memoryview; typing says Buffer)
        with memoryview(buf) as view:
            data = self._inner.read(min(len(view), self._left))
            n = len(data)
            view[:n] = data
        self._left -= n
        return n


# the whole line: safety/masks.py honours the command only at a line start, as the runner does
_ADD_MASK = re.compile(rb"(?:^|(?<=\r))[^\r\n]*?::add-mask::[^\r\n]*", re.IGNORECASE | re.MULTILINE)


@functools.cache
def _mask_hint() -> rx.Compiled:
    """RE2 (where installed) finds the command in a chunk in one DFA pass, about twice as fast
    as `re` (which stops at every `::`); it folds case at least as widely as `_ADD_MASK`, so a
    chunk it rules out has none."""
    return rx.compile(b"::add-mask::", ignore_case=True, latin1=True)


def _register_masks(data: bytes) -> None:
    """Values a step registered with `::add-mask::` are hidden in every later text (as the runner
    hides them), even where the registering line is far from the line that prints the value."""
    if _mask_hint().search(data) is None:
        return
    for m in _ADD_MASK.finditer(data):
        remember_masks(m.group(0).decode("utf-8", "replace"))


def _masks_in(data: bytes, into: list[str]) -> bytes:
    """`data`, its `::add-mask::` lines added to `into` (what `_register_masks` registers)."""
    if _mask_hint().search(data) is not None:
        into.extend(m.group(0).decode("utf-8", "replace") for m in _ADD_MASK.finditer(data))
    return data


def _seek(stream: BinaryIO, offset: int, where: str) -> None:
    """Move to `offset`: a zip member's stream cannot seek, so it is read up to there."""
    if stream.seekable():
        stream.seek(offset)
        return
    left = offset
    while left > 0:
        try:
            got = stream.read(min(left, CHUNK))
        except (OSError, EOFError, zlib.error, zipfile.BadZipFile, gzip.BadGzipFile) as exc:
            raise LogError(f"{where}: truncated or corrupt input: {exc}") from None
        if not got:
            return
        left -= len(got)


def iter_chunks(
    job: JobLog,
    anchor: tuple[int, int] | None = None,
    gha_steps: bool = True,
    stop: int | None = None,
    reread: bool = False,
    blanks: bool = True,
) -> Iterator[Chunk]:
    """The job log as chunks of whole lines with their step boundaries.

    `anchor` = (byte offset of a line start, its line number), as recorded in a Chunk, starts
    the read there instead of at the top (step names before it are then unknown).
    `gha_steps=False` skips finding `##[group]Run` steps of raw GitHub logs: the scanner sees
    those lines anyway and saves a pass over the log.
    `reread=True`: a read of lines the scan has already seen (evidence context, a lookback):
    no step boundaries of raw or plain logs (gh's step column still comes) and no `::add-mask::`
    registration (the scan registered the whole log's values), two passes saved per chunk.
    `blanks=False`: one job of a split gh file comes as its own lines only, the chunks' numbers
    jumping over the other jobs' lines (blank in its view: a scan finds nothing there), then
    one blank last line that says where the view ends. By default every line comes.
    """
    offset0, line = anchor or (0, 1)
    state: list[str | bool | None] = [None, True]  # [the current gh step, keeping its job]
    with job.opener() as raw:
        # An opener returns an open file (buffered) or a raw stream (a zip member, a split half).
        stream = raw if isinstance(raw, io.BufferedReader) else io.BufferedReader(_raw(raw), CHUNK)
        if offset0:
            _seek(stream, offset0, job.source)
        if stop is not None:
            stream = io.BufferedReader(_Limit(stream, stop - offset0), CHUNK)
        if job.gh is not None:  # (split and decoded already: the gh columns are gone)
            # (its masks too: the split read the whole file, registering every job's values)
            view = _GhView(job.gh, blanks)
            yield from view.chunks(_raw_chunks(stream, job.source), offset0, line)
            return
        for offset, data in _raw_chunks(stream, job.source):
            data = go_test_json.decode(data)  # test2json events -> their output lines
            if job.fmt == "ghcli":
                chunk = _ghcli_rewrite(data, line, state, job.job_filter)
                chunk.offset = offset + offset0
            else:
                if reread:
                    steps = []
                elif job.fmt == "gha":
                    steps = _gha_steps(data, line) if gha_steps else []
                else:
                    steps = _plain_steps(data, line)
                chunk = Chunk(line, offset + offset0, data, steps)
            if not reread:
                _register_masks(data)
            yield chunk
            line += chunk.n_newlines if chunk.n_newlines is not None else data.count(b"\n")


_BLANK = b"\n" * CHUNK


class _GhView:
    """One split gh job's chunks, numbered by its spool's runs (logs/gh_split.py): a chunk never
    crosses from one run to the next, whose first line is a later line of the file. With
    `blanks`, the lines between runs and after the last one (other jobs' lines) come as blank
    chunks, at most CHUNK lines each; without, only the view's last line does (so a scan knows
    where the log ends). A blank chunk's offset is where the spool goes on: not an anchor."""

    def __init__(self, gh: GhJob, blanks: bool):
        self.gh, self.blanks = gh, blanks
        self.starts = [r.offset for r in gh.runs]

    def chunks(self, raw: Iterator[tuple[int, bytes]], offset0: int, line: int) -> Iterator[Chunk]:
        """The chunks from spool offset `offset0` on, line `line` (the top: 0 and 1; an anchor)."""
        runs, starts = self.gh.runs, self.starts
        at = bisect.bisect_right(starts, offset0) - 1  # the run reading starts in
        nxt = at + 1
        if starts[at] == offset0:  # a run's start: the lines before it, if any, come first
            yield from self._gap(line, runs[at].line, offset0)
            line = runs[at].line
        end = offset0
        for offset, data in raw:
            offset += offset0
            pos = 0
            while True:
                cut = len(data) if nxt == len(runs) else min(len(data), starts[nxt] - offset)
                if cut > pos:
                    piece = data if cut - pos == len(data) else data[pos:cut]
                    chunk = Chunk(
                        line, offset + pos, piece, _steps_in(self.gh, offset + pos, piece)
                    )
                    yield chunk
                    n = chunk.n_newlines
                    line += n if n is not None else _newlines(piece)
                    pos = cut
                if pos == len(data):
                    break
                yield from self._gap(line, runs[nxt].line, offset + pos)
                line = runs[nxt].line
                nxt += 1
            end = offset + len(data)
        yield from self._tail(line, end)

    def _gap(self, line: int, until: int, offset: int) -> Iterator[Chunk]:
        """Lines `line..until-1`, other jobs' lines: blank chunks (only `blanks`)."""
        if not self.blanks:
            return
        while line < until:
            n = min(until - line, CHUNK)
            yield Chunk(line, offset, _BLANK[:n], [], n)
            line += n

    def _tail(self, line: int, end: int) -> Iterator[Chunk]:
        """The view's lines after the spool's last (`line` is the next line's number)."""
        gh = self.gh
        if line > gh.newlines + gh.blank_tail:  # the job's own line ended the file
            return
        if self.blanks:
            yield from self._gap(line, gh.newlines + 1, end)
        elif not gh.blank_tail:
            yield Chunk(gh.newlines, end, b"\n", [], 1)
        if gh.blank_tail:
            yield Chunk(gh.newlines + 1, end, b"", [], 0)  # another job's last line, no LF


def iter_lines(
    job: JobLog, start: int = 1, end: int | None = None, anchor: tuple[int, int] | None = None
) -> Iterator[LogLine]:
    """Display lines from `start` to `end` (inclusive), with the step each belongs to."""
    step: str | None = None
    if anchor is not None and anchor[1] > start:
        anchor = None
    for chunk in iter_chunks(job, anchor):
        bounds = dict(chunk.steps)
        n_lines = chunk.data.count(b"\n") + (0 if chunk.data.endswith(b"\n") else 1)
        if chunk.first_line + n_lines <= start:
            step = chunk.steps[-1][1] if chunk.steps else step
            continue
        for i, raw in enumerate(chunk.data.split(b"\n")[:n_lines]):
            number = chunk.first_line + i
            step = bounds.get(number, step)
            if end is not None and number > end:
                return
            if number >= start:
                yield LogLine(number, display(raw), step)
