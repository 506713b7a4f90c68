"""A forked child that computes bytes and hands them to its parent through a pipe.

Shared by the split scan of one large log (engine/match/split_file.py) and the fan-out over many logs
(engine/fanout.py): the child inherits everything already built (the pattern library, the set
engine), so nothing but its result crosses the pipe.
"""

from __future__ import annotations

import os
from collections.abc import Callable


def start(produce: Callable[[], bytes]) -> tuple[int, int] | None:
    """(child pid, read end) in the parent; None when the fork fails. The child writes what
    `produce()` returns and exits 0, or exits 1 when it raises (the parent then has less)."""
    read_fd, write_fd = os.pipe()
    try:
        pid = os.fork()
    except OSError:
        os.close(read_fd)
        os.close(write_fd)
        return None
    if pid == 0:
        os.close(read_fd)
        code = 0
        try:
            data = produce()
            with os.fdopen(write_fd, "wb") as out:
                out.write(data)
        except BaseException:  # noqa: BLE001  (the parent falls back, whatever went wrong)
            code = 1
        os._exit(code)
    os.close(write_fd)
    return pid, read_fd


def finish(child: tuple[int, int]) -> tuple[bytes, int]:
    """What the child wrote, and its exit code, once it has exited."""
    pid, read_fd = child
    with os.fdopen(read_fd, "rb") as src:
        data = src.read()
    _, status = os.waitpid(pid, 0)
    return data, os.waitstatus_to_exitcode(status)
