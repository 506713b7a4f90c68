"""A log's shape, for `repopilot eval`'s per-shape table: what the log looks like to the reader and
which kind of line the engine gave as the cause. Both come from the log and its verdict alone,
never from what a corpus is known to hold.

Log format, as logs/reader.py reads the file (the job the verdict is about):
- `gha`: a GitHub Actions runner log, each line behind its timestamp;
- `gh-cli`: a `gh run view --log` file, job and step columns before each line;
- `plain`: a console log without either (Travis, Jenkins, a local run);
- `go-test-json`: any of those carrying `go test -json` (test2json) event lines, which the reader
  decodes into the text Go prints.

Cause line, as the verdict records it (repopilot/records.py, engine/classify.py):
- `pattern`: a pattern decided and its hit (or the specific error before a wrapper) leads;
- `pattern+assertion`: a test-failure pattern, with the test's assertion message first and the
  test's line second (Verdict.assertion_first);
- `pattern+step-prior`: a pattern decided the line, the failing step's command the category (a
  wrapper's `other`, or a family read again; the title says "from the failing step's command");
- `fallback`: no pattern: the last block of error-looking lines before the step ended, the
  category a keyword guess or `unknown`;
- `fallback+step-prior`: the same, the category from the failing step's command;
- `step-end`: nothing error-looking: the step's last output and its header;
- `llm`, `no-failure`, `error` (the log could not be classified).
With a base log (`--base-log`, `eval --base-logs`) the kind gets `+base-log`: the verdict says it
was compared with a passing log of the same job (records.BASELINE_NOTE).
"""

from __future__ import annotations

import gzip
from pathlib import Path
from typing import Literal, get_args

from repopilot.engine.verdict.step_prior import SAYS
from repopilot.errors import LogError
from repopilot.logs.go_test_json import output_of
from repopilot.logs.reader import JobLog, open_logs
from repopilot.records import BASELINE_NOTE, Verdict

LogFormat = Literal["gha", "gh-cli", "plain", "go-test-json", "unreadable"]
LOG_FORMATS: tuple[str, ...] = get_args(LogFormat)
Cause = Literal[
    "pattern",
    "pattern+assertion",
    "pattern+step-prior",
    "fallback",
    "fallback+step-prior",
    "step-end",
    "llm",
    "no-failure",
    "error",
]
CAUSES: tuple[str, ...] = get_args(Cause)
BASE = "+base-log"

HEAD = 1 << 16  # bytes read to see whether a log carries test2json events
EVENTS = 3  # event lines in the head that make a log `go-test-json`
_READER = {"gha": "gha", "ghcli": "gh-cli", "plain": "plain"}


def cause_of(v: Verdict | None) -> str:
    """The kind of cause line `v` gives (None: the log could not be classified)."""
    if v is None:
        return "error"
    if v.category == "no_failure":
        return "no-failure"
    kind: Cause
    prior = SAYS in v.title
    if v.decided_by == "llm":
        kind = "llm"
    elif v.decided_by == "pattern" or v.pattern_id is not None:  # a guess names its pattern too
        kind = (
            "pattern+assertion"
            if v.assertion_first
            else "pattern+step-prior"
            if prior
            else "pattern"
        )
    elif _step_end(v):
        kind = "step-end"
    else:
        kind = "fallback+step-prior" if prior else "fallback"
    return kind + (BASE if BASELINE_NOTE in v.hint else "")


def _step_end(v: Verdict) -> bool:
    """The unknown verdict's last resort: the evidence ends with the failing step's header."""
    if not v.evidence or v.step_lines is None or not v.step:
        return False
    last = v.evidence[-1]
    return last.line == v.step_lines[0] and last.text == v.step


def log_format(path: Path, source: str | None = None) -> LogFormat:
    """How the reader reads the log at `path`: the format of the job named `source` (the
    verdict's; default the first job), `go-test-json` when it carries test2json events."""
    try:
        jobs = open_logs(str(path))
    except LogError:
        return "unreadable"
    if not jobs:
        return "unreadable"
    job = next((j for j in jobs if j.source == source), jobs[0])
    if _events(_head(path, job)) >= EVENTS:
        return "go-test-json"
    return _READER.get(job.fmt, "plain")  # type: ignore[return-value]


def _head(path: Path, job: JobLog) -> bytes:
    """The job's first bytes before decoding: a gh file's split jobs are spooled decoded, so
    their file is read instead."""
    try:
        if job.gh is None:
            with job.opener() as fh:
                return fh.read(HEAD)
        with path.open("rb") as raw:
            if raw.read(2) != b"\x1f\x8b":
                raw.seek(0)
                return raw.read(HEAD)
            raw.seek(0)
            with gzip.GzipFile(fileobj=raw) as unzipped:
                return unzipped.read(HEAD)
    except (OSError, EOFError, gzip.BadGzipFile):
        return b""


def _events(head: bytes) -> int:
    """test2json event lines in `head` (whatever precedes the object on its line is ignored)."""
    n = 0
    for line in head.split(b"\n"):
        if b'"Action"' not in line:
            continue
        brace = line.find(b"{")
        if brace >= 0 and output_of(line[brace:].rstrip(b"\r")) is not None:
            n += 1
    return n


def shape(fmt: str, cause: str) -> str:
    """The per-shape table's key: `format / cause`."""
    return f"{fmt} / {cause}"
