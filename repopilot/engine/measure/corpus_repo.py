"""Which project a labelled log comes from, for `repopilot eval`'s per-repository table.

A corpus row may name the data set it was taken from (`BugSwarm/bugswarm`) rather than the
project that ran the job. The log itself says which project ran: the runner's workspace path
(GitHub: `/home/runner/work/<repo>/<repo>`, `/__w/<repo>/<repo>`, `D:\\a\\<repo>\\<repo>`,
`/Users/runner/work/<repo>/<repo>`; Travis: `/home/travis/build/<owner>/<repo>`; Jenkins:
`workspace/<job>`). That name is used when the log has one, else the row's `repo` column.
"""

from __future__ import annotations

import re
from pathlib import Path

HEAD = 1 << 18  # bytes of a log searched for its workspace path

_WORKSPACE = re.compile(
    rb"(?:/home/runner/work|/Users/runner/work|/__w|[A-Z]:\\a)[/\\]([\w.-]+)[/\\]\1\b"
    rb"|/home/travis/build/([\w.-]+/[\w.-]+)"
    rb"|/workspace/([\w.-]+)"
)


def project_of(path: Path, fallback: str) -> str:
    """The project named by the log's workspace path, else `fallback` (the label's repo)."""
    try:
        with path.open("rb") as fh:
            head = fh.read(HEAD)
    except OSError:
        return fallback or "?"
    m = _WORKSPACE.search(head)
    if m:
        name = next(g for g in m.groups() if g)
        return name.decode("utf-8", "replace")
    return fallback or "?"
