"""A `gh run view --log` file split in pieces on several cores, joined into its jobs.

logs/gh_split.py splits a run of chunks; a large plain gh file is cut into byte ranges that each
start at a gh line (`bounds`), each split by its own process (engine/gh_ahead.py forks them),
then `join` puts the pieces together as one pass over the whole file would have made them: line
numbers shifted by the lines of the pieces before, a job's spools of several pieces copied into
one, a step that goes on across a cut not started twice, the lines before the first gh line
given to the jobs that first appear in a later piece.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass, field

from repopilot.logs.gh_split import GHCLI_AT, GhJob, LineRun, Piece

SEEK_LIMIT = 1 << 20  # bytes looked through for a gh line after a cut's first guess


@dataclass(frozen=True, slots=True)
class Joined:
    """The jobs of a gh file split in pieces, and its `::add-mask::` lines in file order (for
    the process that opens the log to register, as the one pass does)."""

    jobs: tuple[GhJob, ...]
    masks: tuple[str, ...]


def joined(pieces: list[Piece], where: str) -> Joined | None:
    """The pieces of one file, in order, joined (None: no job, as one pass would say)."""
    jobs = join(pieces, where)
    return None if jobs is None else Joined(tuple(jobs), tuple(m for p in pieces for m in p.masks))


def bounds(path: str, pieces: int) -> list[tuple[int, int]]:
    """Byte ranges of the plain file at `path`, about equal, each after the first starting at a
    gh line (so no piece starts with another piece's continuation lines); fewer ranges where
    no gh line is near a cut."""
    size = os.path.getsize(path)
    cuts = [0]
    with open(path, "rb") as f:
        for k in range(1, pieces):
            f.seek(max(size * k // pieces, cuts[-1]))
            block = f.read(SEEK_LIMIT)
            at = _gh_line(block)
            if at is not None:
                cut = f.tell() - len(block) + at
                if cut > cuts[-1]:
                    cuts.append(cut)
    cuts.append(size)
    return list(zip(cuts, cuts[1:], strict=False))


def _gh_line(block: bytes) -> int | None:
    """The offset of the first whole line of `block` that is a gh line."""
    pos = block.find(b"\n") + 1
    while pos:
        end = block.find(b"\n", pos)
        if end < 0:
            return None  # (the line may go on past the block: not known to be whole)
        if GHCLI_AT.match(block, pos, end):
            return pos
        pos = end + 1
    return None


@dataclass(slots=True)
class _Job:
    parts: list[bytes | str] = field(default_factory=list)  # prefix bytes, piece spools
    runs: list[LineRun] = field(default_factory=list)
    steps: list[tuple[int, str]] = field(default_factory=list)
    step_offsets: list[int] = field(default_factory=list)
    size: int = 0
    next_line: int = 0
    step: str | None = None


def join(pieces: list[Piece], where: str) -> list[GhJob] | None:
    """The jobs of the pieces of one file, in order (None: no job)."""
    prefix = pieces[0].prefix
    jobs: dict[str, _Job] = {}
    shift = 0  # the lines of the pieces before
    for k, piece in enumerate(pieces):
        for pj in piece.jobs:
            job = jobs.get(pj.name)
            if job is None:
                job = jobs[pj.name] = _Job()
                if k and prefix:  # (the first piece wrote them into its jobs' spools)
                    job.parts.append(prefix)
                    job.runs.append(LineRun(0, 1))
                    job.size, job.next_line = len(prefix), prefix.count(b"\n") + 1
            runs = list(pj.runs)
            if runs[0].line + shift == job.next_line:  # its last run goes on in this piece
                runs.pop(0)
            job.runs.extend(LineRun(job.size + r.offset, r.line + shift) for r in runs)
            steps, at = list(pj.steps), list(pj.step_offsets)
            if steps and steps[0][1] == job.step and steps[0][0] == pj.runs[0].line:
                del steps[0], at[0]  # the same step going on across the cut
            job.steps.extend((line + shift, name) for line, name in steps)
            job.step_offsets.extend(job.size + a for a in at)
            job.parts.append(pj.spool)
            job.size += pj.size
            job.next_line, job.step = pj.next_line + shift, pj.step
        shift += piece.newlines
    tail = pieces[-1].tail_owner
    got = []
    for k, (name, job) in enumerate(jobs.items()):
        spool = _one_spool(job.parts, os.path.join(where, f"joined-{k}.log"))
        blank = tail is not None and tail != name
        last = job.next_line - (0 if tail == name else 1)  # (its own line without LF ends it)
        marks = (tuple(job.steps), tuple(job.step_offsets))
        got.append(GhJob(name, spool, *marks, tuple(job.runs), last, shift, blank))
    return got or None


def _one_spool(parts: list[bytes | str], path: str) -> str:
    """A spool holding `parts` one after the other: the one spool there is, or a copy at `path`."""
    if len(parts) == 1 and isinstance(parts[0], str):
        return parts[0]
    with open(path, "wb") as out:
        for part in parts:
            if isinstance(part, bytes):
                out.write(part)
                continue
            with open(part, "rb") as src:
                shutil.copyfileobj(src, out, 1 << 20)
            os.unlink(part)
    return path
