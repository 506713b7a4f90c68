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
