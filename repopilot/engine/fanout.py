"""Classify many logs on every core the process may use, with the results of one process.

`repopilot classify` over a run's job logs is a loop over independent files, so it forks
workers after the library and the set engine are built (they share them, nothing is pickled but
the verdicts). Each process takes the next log from a shared queue, largest first (`_Queue`);
the parent then takes every result back in input order. What one log can change for the next is the `::add-mask::` registry (a value
registered while reading one log is redacted in every later one, safety/masks.py): each result
carries the values its log registered, and a log classified by a worker that had not seen a
value an earlier log registered is classified again, in order, by the parent. So the output is
the same as classifying the logs one by one, including which input error stops the run.
Where fork is not there (or one core, or one log) the logs are classified one by one.

`classify_jobs` shares out jobs rather than files: the parent opens every log first (a
`gh run view --log` file is split into its jobs there, logs/gh_split.py; a large one in pieces on
every core, engine/gh_ahead.py, started by the caller as early as it can), then each job is a
unit of work, so the jobs of one gh file are classified on several cores. Opening a log registers the
mask values the split read (as it does one by one, before the log's first job): each unit carries
them, a worker registers them before classifying it, and the order check counts them before it.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from repopilot.engine import gh_ahead
from repopilot.engine.match import fork_pipe
from repopilot.errors import LogError
from repopilot.logs.reader import JobLog, open_logs
from repopilot.records import Verdict
from repopilot.safety.masks import forget_masks, registered_masks, remember_values

MAX_WORKERS = 4
FAN_OUT_MIN = 2 << 20  # bytes of logs below which the default is one process


@dataclass(frozen=True, slots=True)
class _Unit:
    """One unit of work: a log (classify_many) or one job of a log (classify_jobs)."""

    run: Callable[[], list[Verdict]]
    size: int  # bytes, for the queue's largest-first order
    opened: frozenset[str] = frozenset()  # mask values opening its log registered


@dataclass(frozen=True, slots=True)
class _Done:
    index: int
    verdicts: list[Verdict] | None
    error: str | None  # the LogError's message, when the log could not be read
    seen: frozenset[str]  # mask values registered before this log (in its worker)
    added: frozenset[str]  # mask values this log registered


def workers() -> int:
    """How many processes to classify with: the cores this process may use, at most 4."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    return max(1, min(cores, MAX_WORKERS))


def processes(paths: list[str], jobs: int | None = None) -> int:
    """How many processes classify `paths`: `jobs` when asked for, else the usable cores;
    one for standard input, no log, more logs than the queue holds, no fork, and by
    default for logs under FAN_OUT_MIN bytes in all (forking would cost more than it saves)."""
    if "-" in paths or not paths or len(paths) > _Queue.LIMIT or not hasattr(os, "fork"):
        return 1
    if jobs is None:
        if sum(_size(p) for p in paths) < FAN_OUT_MIN:
            return 1
        jobs = workers()
    # (one file may hold many jobs, a gh file: classify_jobs caps this by the jobs it finds)
    return jobs if len(paths) == 1 else min(jobs, len(paths))


def _size(path: str) -> int:
    try:
        return os.stat(path).st_size
    except OSError:
        return 0  # (its error is raised where the loop reaches it)


def classify_many(
    classify: Callable[[str], list[Verdict]], paths: list[str], jobs: int | None = None
) -> list[Verdict]:
    """`classify(path)` for every path, in order; a LogError is raised as the loop would."""
    jobs = min(processes(paths, jobs), len(paths))
    if jobs < 2:
        return [v for p in paths for v in classify(p)]
    units = [_Unit(functools.partial(classify, p), _size(p)) for p in paths]
    return _fan(units, jobs, None)


def classify_jobs(
    classify: Callable[[JobLog], Verdict],
    paths: list[str],
    jobs: int | None = None,
    ahead: gh_ahead.Ahead | None = None,
) -> list[Verdict]:
    """`classify(job)` for every job of every path (logs/reader.py `open_logs`), in order, the
    jobs shared out over `jobs` processes; a LogError is raised where the loop would raise it.
    `ahead`: the large gh files among `paths` already being split in pieces (`gh_ahead.start`
    with the same `paths` and `processes(paths, jobs)`); None: they are started here."""
    jobs = processes(paths, jobs)
    if jobs < 2:
        return [classify(j) for p in paths for j in open_logs(p)]
    ahead = ahead if ahead is not None else gh_ahead.start(paths, jobs)
    initial = registered_masks()
    units: list[_Unit] = []
    error = None
    for path in paths:
        before = registered_masks()
        try:
            logs = open_logs(path, joined=ahead.take(path))
        except LogError as exc:  # raised at its place, after the jobs before it
            error = str(exc)
            break
        opened = registered_masks() - before
        units.extend(
            _Unit(functools.partial(_one, classify, j), _job_size(j, path, len(logs)), opened)
            for j in logs
        )
    ahead.close()
    # the workers and the parent's own share start from what one process had before the first log
    forget_masks()
    remember_values(initial)
    if len(units) > _Queue.LIMIT:
        jobs = 1
    return _fan(units, min(jobs, len(units)), error)


def _one(classify: Callable[[JobLog], Verdict], job: JobLog) -> list[Verdict]:
    return [classify(job)]


def _job_size(job: JobLog, path: str, jobs: int) -> int:
    if job.gh is not None:
        return _size(job.gh.spool)
    if job.path is not None:
        return _size(job.path)
    return _size(path) // max(1, jobs)  # a zip's member: its share of the zip


def _fan(units: list[_Unit], jobs: int, error: str | None) -> list[Verdict]:
    """The units' verdicts in order over `jobs` processes; then `error` (a log that could not be
    opened, after the units) is raised."""
    if jobs < 2:
        return _in_order(units, {}, error)
    import pickle  # (here, not at start-up: a single log never needs it)

    queue = _Queue([], [u.size for u in units])
    children = []
    for _ in range(1, jobs):  # workers: units from the queue, then their results
        child = fork_pipe.start(lambda: pickle.dumps(_share(units, queue)))
        if child is None:
            break
        children.append(child)
    done: dict[int, _Done] = {d.index: d for d in _share(units, queue)}
    queue.close()
    for child in children:
        blob, _ = fork_pipe.finish(child)
        try:
            done.update((d.index, d) for d in pickle.loads(blob))
        except Exception:  # noqa: BLE001  (a worker that died: its units are done here)
            continue
    return _in_order(units, done, error)


class _Queue:
    """The logs' indexes, largest log first, in a pipe every process reads 4 bytes at a time
    (a pipe read is atomic): whoever is free takes the next log."""

    LIMIT = 16000  # indexes one pipe holds without a reader (64 KiB)

    def __init__(self, paths: list[str], sizes: list[int] | None = None) -> None:
        sizes = sizes if sizes is not None else [_size(p) for p in paths]
        order = sorted(range(len(sizes)), key=lambda i: (-sizes[i], i))
        read_fd, write_fd = os.pipe()
        os.write(write_fd, b"".join(i.to_bytes(4, "little") for i in order))
        os.close(write_fd)
        self._fd = read_fd

    def __iter__(self) -> Iterator[int]:
        while self._fd >= 0:
            got = os.read(self._fd, 4)
            if len(got) < 4:
                return
            yield int.from_bytes(got, "little")

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1


def _share(units: list[_Unit], share: Iterable[int]) -> list[_Done]:
    out: list[_Done] = []
    for i in share:
        unit = units[i]
        remember_values(unit.opened)  # as one process had them: its log was opened before it
        before = registered_masks()
        try:
            verdicts, error = unit.run(), None
        except LogError as exc:
            verdicts, error = None, str(exc)
        out.append(_Done(i, verdicts, error, before, registered_masks() - before))
        if error is not None:
            break  # the run stops at the first unreadable log: nothing after it is needed
    return out


def _in_order(units: list[_Unit], done: dict[int, _Done], error: str | None) -> list[Verdict]:
    """The results in input order, as one process would have made them."""
    every = set(registered_masks())  # the parent's own share registered its values
    seen_so_far: set[str] = set()  # what one process would have registered before unit i
    out: list[Verdict] = []
    try:
        for i, unit in enumerate(units):
            seen_so_far |= unit.opened
            every |= unit.opened
            d = done.get(i)
            if d is None or d.seen != seen_so_far:
                # again, here, with exactly the values one process would have had by now
                forget_masks()
                remember_values(frozenset(seen_so_far))
                verdicts = unit.run()  # raises its LogError itself
                d = _Done(i, verdicts, None, frozenset(seen_so_far), registered_masks())
            if d.error is not None:
                raise LogError(d.error)
            seen_so_far |= d.added
            every |= d.added
            out.extend(d.verdicts or [])
        if error is not None:
            raise LogError(error)
    finally:
        forget_masks()
        remember_values(frozenset(every | seen_so_far))
    return out
