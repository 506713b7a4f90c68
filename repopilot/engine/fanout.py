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
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass

from repopilot.engine.match import fork_pipe
from repopilot.errors import LogError
from repopilot.records import Verdict
from repopilot.safety.masks import forget_masks, registered_masks, remember_values

MAX_WORKERS = 4
FAN_OUT_MIN = 2 << 20  # bytes of logs below which the default is one process


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
    one for standard input, a single log, more logs than the queue holds, no fork, and by
    default for logs under FAN_OUT_MIN bytes in all (forking would cost more than it saves)."""
    if "-" in paths or len(paths) < 2 or len(paths) > _Queue.LIMIT or not hasattr(os, "fork"):
        return 1
    if jobs is None:
        if sum(_size(p) for p in paths) < FAN_OUT_MIN:
            return 1
        jobs = workers()
    return min(jobs, len(paths))


def _size(path: str) -> int:
    try:
        return os.stat(path).st_size
    except OSError:
        return 0  # (its error is raised where the loop reaches it)


def classify_many(
    classify: Callable[[str], list[Verdict]], paths: list[str], jobs: int | None = None
) -> list[Verdict]:
    """`classify(path)` for every path, in order; a LogError is raised as the loop would."""
    jobs = processes(paths, jobs)
    if jobs < 2:
        return [v for p in paths for v in classify(p)]
    import pickle  # (here, not at start-up: a single log never needs it)

    queue = _Queue(paths)
    children = []
    for _ in range(1, jobs):  # workers: logs from the queue, then their results
        child = fork_pipe.start(lambda: pickle.dumps(_share(classify, paths, queue)))
        if child is None:
            break
        children.append(child)
    done: dict[int, _Done] = {d.index: d for d in _share(classify, paths, queue)}
    queue.close()
    for child in children:
        blob, _ = fork_pipe.finish(child)
        try:
            done.update((d.index, d) for d in pickle.loads(blob))
        except Exception:  # noqa: BLE001  (a worker that died: its logs are done here)
            continue
    return _in_order(classify, paths, done)


class _Queue:
    """The logs' indexes, largest log first, in a pipe every process reads 4 bytes at a time
    (a pipe read is atomic): whoever is free takes the next log."""

    LIMIT = 16000  # indexes one pipe holds without a reader (64 KiB)

    def __init__(self, paths: list[str]) -> None:
        order = sorted(range(len(paths)), key=lambda i: (-_size(paths[i]), i))
        read_fd, write_fd = os.pipe()
        os.write(write_fd, b"".join(i.to_bytes(4, "little") for i in order))
        os.close(write_fd)
        self._fd = read_fd

    def __iter__(self):
        while self._fd >= 0:
            got = os.read(self._fd, 4)
            if len(got) < 4:
                return
            yield int.from_bytes(got, "little")

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1


def _share(classify, paths: list[str], share) -> list[_Done]:
    out = []
    for i in share:
        before = registered_masks()
        try:
            verdicts, error = classify(paths[i]), None
        except LogError as exc:
            verdicts, error = None, str(exc)
        out.append(_Done(i, verdicts, error, before, registered_masks() - before))
        if error is not None:
            break  # the run stops at the first unreadable log: nothing after it is needed
    return out


def _in_order(classify, paths: list[str], done: dict[int, _Done]) -> list[Verdict]:
    """The results in input order, as one process would have made them."""
    every = set(registered_masks())  # the parent's own share registered its values
    seen_so_far: set[str] = set()  # what one process would have registered before log i
    out: list[Verdict] = []
    try:
        for i, path in enumerate(paths):
            d = done.get(i)
            if d is None or d.seen != seen_so_far:
                # again, here, with exactly the values one process would have had by now
                forget_masks()
                remember_values(frozenset(seen_so_far))
                verdicts = classify(path)  # raises its LogError itself
                d = _Done(i, verdicts, None, frozenset(seen_so_far), registered_masks())
            if d.error is not None:
                raise LogError(d.error)
            seen_so_far |= d.added
            every |= d.added
            out.extend(d.verdicts or [])
    finally:
        forget_masks()
        remember_values(frozenset(every | seen_so_far))
    return out
