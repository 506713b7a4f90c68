"""Large `gh run view --log` files split on every core, started before anything needs them.

Splitting a gh file into its jobs (logs/gh_split.py) is one process's pass over the whole file,
and nothing can be classified before it ends. Here each such file is cut into byte ranges at gh
lines (logs/gh_pieces.py `bounds`), one forked process splits each range into per-job spools,
and the log's opener joins the pieces (`Ahead.take`): the same jobs, lines, steps and mask
values as the one pass. `repopilot classify` starts this before it loads the pattern library,
so the pieces are split while it loads. A piece that fails (a fork refused, a child that died,
too much before the first gh line) leaves the file to the one pass, which then says what it says.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field

from repopilot.engine.match import fork_pipe
from repopilot.logs.gh_pieces import Joined, bounds, joined
from repopilot.logs.gh_split import Piece, spool_dir
from repopilot.logs.reader import gh_file, gh_piece

MIN_BYTES = 8 << 20  # a smaller gh file is split in one pass: forking would cost more
MAX_FILES = 4  # gh files split ahead at once (the others in one pass each, when opened)


@dataclass(slots=True)
class _Pending:
    where: str
    children: list[tuple[int, int]]


@dataclass(slots=True)
class Ahead:
    """The gh files being split by forked processes, by path."""

    pending: dict[str, _Pending] = field(default_factory=dict)

    def take(self, path: str) -> Joined | None:
        """The jobs of `path` once its pieces are split (None: not split ahead, or a piece
        failed: the opener then splits it in one pass)."""
        got = self.pending.pop(path, None)
        if got is None:
            return None
        import pickle  # (here: a run without a large gh file never needs it)

        pieces: list[Piece] = []
        for child in got.children:  # (every child waited for, even after one failed)
            blob, code = fork_pipe.finish(child)
            piece = pickle.loads(blob) if code == 0 and blob else None
            if isinstance(piece, Piece):
                pieces.append(piece)
        if len(pieces) < len(got.children):
            return None
        return joined(pieces, got.where)

    def close(self) -> None:
        """Wait for the pieces nobody took (an earlier log's error ended the run)."""
        for path in list(self.pending):
            self.take(path)


def start(paths: list[str], processes: int, min_bytes: int = MIN_BYTES) -> Ahead:
    """Fork the pieces of the plain gh files of `min_bytes` or more among `paths`, `processes`
    pieces each (nothing when `processes` < 2 or fork is not there)."""
    ahead = Ahead()
    if processes < 2 or not hasattr(os, "fork"):
        return ahead
    for path in dict.fromkeys(paths):
        if len(ahead.pending) >= MAX_FILES:
            break
        if path == "-" or _size(path) < max(min_bytes, 1) or not gh_file(path):
            continue
        ranges = bounds(path, processes)
        if len(ranges) < 2:
            continue
        where = spool_dir()
        children = []
        for k, at in enumerate(ranges):
            child = fork_pipe.start(_piece(path, where, f"p{k}-", at))
            if child is None:
                break
            children.append(child)
        if len(children) < len(ranges):  # (a refused fork: the file is split in one pass)
            for child in children:
                fork_pipe.finish(child)
            continue
        ahead.pending[path] = _Pending(where, children)
    return ahead


def _piece(path: str, where: str, tag: str, at: tuple[int, int]) -> Callable[[], bytes]:
    def produce() -> bytes:
        import pickle

        return pickle.dumps(gh_piece(path, where, tag, at))

    return produce


def _size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0
