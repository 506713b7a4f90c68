"""Reading the report's inputs: the seen-before store (`seen.json`) and a directory of run traces.

Every problem is one line naming the file. A store that cannot be read is an error (the report
would be about nothing); a trace that cannot be read among others is a warning and is skipped.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from repopilot.errors import TraceError, UsageError
from repopilot.run_records import RunTrace, SeenFile
from repopilot.trace import load

MAX_STORE_BYTES = 64 * 1024 * 1024  # far above what the Action keeps (its last records)
FETCH_HINT = (
    "git fetch origin repopilot-memory && git show origin/repopilot-memory:seen.json > seen.json"
)


@dataclass(frozen=True)
class Traces:
    traces: tuple[RunTrace, ...]
    files: int  # trace files found
    warnings: tuple[str, ...]  # one line per file skipped


def parse_store(raw: str | bytes, name: str) -> SeenFile:
    """The store from its text; UsageError `<name>: not a RepoPilot seen-before store (...)`."""
    try:
        return SeenFile.parse(raw)
    except ValueError as exc:
        raise UsageError(f"{name}: not a RepoPilot seen-before store ({exc})") from None


def load_store(path: str | os.PathLike[str]) -> SeenFile:
    """Read `seen.json`; UsageError with one line if it is missing, too large or not a store."""
    p = Path(path)
    try:
        if p.stat().st_size > MAX_STORE_BYTES:
            raise UsageError(f"{path}: larger than {MAX_STORE_BYTES // 2**20} MiB, not a store")
        raw = p.read_bytes()
    except FileNotFoundError:
        raise UsageError(f"{path}: no such file (to get it: {FETCH_HINT})") from None
    except OSError as exc:
        raise UsageError(f"{path}: {exc.strerror or 'cannot read'}") from None
    return parse_store(raw, str(path))


def load_traces(directory: str | os.PathLike[str]) -> Traces:
    """Every `*.json` trace under `directory` (downloaded artifacts nest them), one per run id;
    UsageError when the directory itself cannot be read."""
    d = Path(directory)
    if not d.is_dir():
        what = "not a directory" if d.exists() else "no such directory"
        raise UsageError(f"{directory}: {what} (--traces takes the directory of run traces)")
    files = sorted(f for f in d.rglob("*.json") if f.is_file())
    seen: dict[str, RunTrace] = {}
    warnings: list[str] = []
    for f in files:
        try:
            trace = load(f)
        except TraceError as exc:
            warnings.append(f"skipped {exc}")
            continue
        seen.setdefault(trace.run_id, trace)
    return Traces(tuple(seen.values()), len(files), tuple(warnings))
