"""Does a GitHub job log reach the job's end? A whole log without a failure report passed; an
excerpt (one step, `--log-failed`, a paste) does not say."""

from __future__ import annotations

from collections import deque

from repopilot.logs.reader import JobLog, iter_chunks
from repopilot.logs.textnorm import display

_END_MARKS = (
    "Cleaning up orphan processes",  # GitHub Actions: the runner's last step of every job
    "Post job cleanup.",  # an action's post step: they run after every main step
    "Job completed",
    # Azure Pipelines (the GitHub runner's parent agent, same log format): its Finalize Job
    # step, then the job's section end (azure-pipelines-agent: src/Agent.Worker/JobRunner.cs)
    "Start cleaning up orphan processes",
    "##[section]Finishing: Finalize Job",
    "##[section]Finishing: Job",
)
TAIL_LINES = 40


def tail(job: JobLog, n: int = TAIL_LINES) -> list[str]:
    """The job's last `n` non-blank display lines: read from the end of a plain file, else one
    streaming pass in constant memory (a gzip, a zip member, one job of a `gh` file)."""
    last: deque[bytes] = deque(maxlen=n)
    if job.path is not None and job.fmt == "gha":
        try:
            with open(job.path, "rb") as f:
                f.seek(0, 2)
                f.seek(max(0, f.tell() - 65536))
                data = f.read()
        except OSError:
            data = b""
        last.extend(ln for ln in data.split(b"\n")[1:] if ln.strip())
        return [display(b) for b in last]
    # (blanks=False: one job of a gh file without the other jobs' lines, blank in its view)
    for chunk in iter_chunks(job, gha_steps=False, reread=True, blanks=False):
        last.extend(last_nonblank(chunk.data, n))
    return [display(b) for b in last]


def tail_lines(job: JobLog, total: int, n: int = TAIL_LINES) -> list[tuple[int, str]]:
    """The job's last `n` lines (blank ones too) as (line number, display text), numbered back
    from `total`, the scan's count of the log's lines (`tail_raw`)."""
    return [(k, display(b)) for k, b in tail_raw(job, total, n)]


def tail_raw(job: JobLog, total: int, n: int = TAIL_LINES) -> list[tuple[int, bytes]]:
    """The job's last `n` raw lines (blank ones too) as (line number, bytes), numbered back
    from `total`: read from the end of a plain file, else one streaming pass in constant
    memory."""
    if total <= 0:
        return []
    if job.path is not None and job.gh is None and job.fmt != "ghcli":
        try:
            with open(job.path, "rb") as f:
                f.seek(0, 2)
                size = f.tell()
                f.seek(max(0, size - 65536))
                data = f.read()
        except OSError:
            data = b""
        parts = data.split(b"\n")
        if data.endswith(b"\n"):
            parts.pop()
        if size > 65536:
            parts = parts[1:]  # the first piece may be a line's end
        parts = parts[-n:]
        first = total - len(parts) + 1
        return [(first + i, p) for i, p in enumerate(parts)]
    last: deque[tuple[int, bytes]] = deque(maxlen=n)
    for chunk in iter_chunks(job, gha_steps=False, reread=True):
        parts = chunk.data.split(b"\n")
        if chunk.data.endswith(b"\n"):
            parts.pop()
        start = max(0, len(parts) - n)
        last.extend((chunk.first_line + i, parts[i]) for i in range(start, len(parts)))
    return [(k, b) for k, b in last if k <= total]


def last_nonblank(data: bytes, n: int) -> list[bytes]:
    """`[ln for ln in data.split(b"\\n") if ln.strip()][-n:]`, splitting only as far back from
    the end as it takes: one job of a gh file has the other jobs' lines blank, anywhere."""
    k = 2 * n + 2
    while True:
        parts = data.rsplit(b"\n", k)
        whole = len(parts) <= k  # every line of `data` is in `parts`
        kept = [ln for ln in (parts if whole else parts[1:]) if ln.strip()]
        if whole or len(kept) >= n:
            return kept[-n:]
        k *= 4


def job_complete(job: JobLog, step_names: list[str | None]) -> bool:
    """Whether a GitHub log reaches the job's end (gh's closing step names, or the runner's
    last lines); always False for other formats, which have no such marker."""
    if job.fmt not in ("gha", "ghcli"):
        return False
    if any(n == "Complete job" or (n or "").startswith("Post ") for n in step_names):
        return True  # gh's step column: the runner's own closing steps ran
    return any(t.strip().startswith(_END_MARKS) for t in tail(job))
