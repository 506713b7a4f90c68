"""Scan a large plain log file on two cores: the second half in a forked child.

The RE2 prefilter is the whole cost of a big log and the machine has two cores; the GIL keeps
threads from sharing it, a fork does not (the compiled scanner is inherited, nothing is pickled
but the child's few findings). Line numbers in the child are relative to its half and are
shifted once the parent knows how many lines its own half held. Anywhere fork is unavailable or
fails, the caller scans serially.
"""

from __future__ import annotations

import os
from collections import deque

from repopilot.engine.match import fork_pipe
from repopilot.engine.match.scan import Scanner
from repopilot.engine.match.scan_result import MAX_HITS, Hit, ScanResult
from repopilot.logs.reader import JobLog, iter_chunks
from repopilot.safety.masks import registered_masks, remember_values

MIN_SPLIT = 24 << 20  # below this, forking costs more than it saves


def eligible(job: JobLog) -> bool:
    if job.path is None or job.fmt == "ghcli" or not hasattr(os, "fork"):
        return False
    try:
        return os.path.getsize(job.path) >= MIN_SPLIT
    except OSError:
        return False


def _midpoint(path: str) -> int | None:
    """A line start near the middle of the file."""
    size = os.path.getsize(path)
    with open(path, "rb") as f:
        f.seek(size // 2)
        rest = f.read(1 << 20)
    nl = rest.find(b"\n")
    return None if nl < 0 else size // 2 + nl + 1


def _run(
    scanner: Scanner, job: JobLog, anchor: tuple[int, int], stop: int | None
) -> tuple[ScanResult, int]:
    res = ScanResult()
    nxt = anchor[1]
    for chunk in iter_chunks(job, anchor, gha_steps=False, stop=stop):
        scanner.scan_chunk(chunk, res)
        nxt = chunk.first_line + (chunk.n_newlines or 0)
    return res, nxt


def _pack(scanner: Scanner, res: ScanResult) -> bytes:
    import pickle  # only a split scan (a large log) needs it: start-up stays small

    index = {id(p): i for i, p in enumerate(scanner.patterns)}
    hits = [(index[id(h.pattern)], h.line, h.text, h.captures, h.step, h.anchor) for h in res.hits]
    generic = {k: list(v) for k, v in res.generic.items()}
    return pickle.dumps(
        (
            res.steps,
            hits,
            generic,
            res.errors,
            res.exit_lines,
            res.success_marker,
            res.failure_marker,
            res.timeouts,
            res.lines,
            registered_masks(),  # the child's half registered them; the parent redacts
        )
    )


def _merge(scanner: Scanner, res: ScanResult, packed: bytes, shift: int) -> ScanResult:
    import pickle

    steps, hits, generic, errors, exits, success, failure, timeouts, lines, masks = pickle.loads(
        packed
    )
    remember_values(masks)
    base = len(res.steps)  # the child's step -1 is the parent's last step
    res.steps.extend((line + shift, name) for line, name in steps)
    merged = deque(res.hits, maxlen=MAX_HITS)
    for pi, line, text, caps, step, (off, first) in hits:
        merged.append(
            Hit(scanner.patterns[pi], line + shift, text, caps, step + base, (off, first + shift))
        )
    res.hits = merged
    for step, entries in generic.items():
        dq = res.generic.setdefault(step + base, deque(maxlen=48))
        dq.extend((n + shift, t, (off, first + shift)) for n, t, (off, first) in entries)
    res.errors.extend((n + shift, st + base, t) for n, st, t in errors)
    res.exit_lines.extend((n + shift, st + base, c) for n, st, c in exits)
    res.success_marker |= success
    res.failure_marker |= failure
    for pid, count in timeouts.items():
        res.timeouts[pid] = res.timeouts.get(pid, 0) + count
    if lines:
        res.lines = lines + shift
    return res


def split_scan(scanner: Scanner, job: JobLog) -> ScanResult | None:
    """The whole log's ScanResult, or None when the file cannot be split here."""
    mid = _midpoint(job.path) if job.path else None
    if mid is None:
        return None
    scanner.prepare()  # built once, before the fork: both halves use it

    def second_half() -> bytes:  # (in the child: relative line numbers from 1)
        res, _ = _run(scanner, job, (mid, 1), None)
        return _pack(scanner, res)

    child = fork_pipe.start(second_half)
    if child is None:
        return None
    res, next_line = _run(scanner, job, (0, 1), mid)
    packed, code = fork_pipe.finish(child)
    if code != 0 or not packed:
        return None
    return _merge(scanner, res, packed, next_line - 1)
