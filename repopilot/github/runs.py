"""A run's failed jobs and their logs.

Both log endpoints answer 302 to a short-lived storage URL. That URL is fetched with plain urllib
and no Authorization header (the token must never reach the storage host), streamed to a file
under byte caps so memory stays constant whatever the log size.
"""

from __future__ import annotations

import shutil
import urllib.parse
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from github import GithubException
from github.Repository import Repository

from repopilot.settings import DEFAULT_LOG_CAP, DEFAULT_ZIP_CAP

FAILED = frozenset({"failure", "timed_out"})
_CHUNK = 64 * 1024


@dataclass(frozen=True)
class FailedJob:
    """One failed job of the latest attempt, in the run's job order."""

    id: int
    name: str
    conclusion: str
    html_url: str | None
    step_number: int | None = None  # the step the jobs API marks failed, for `#step:N:L` links


@dataclass(frozen=True)
class FetchedLog:
    """Where a log landed: a job's text log, or (fallback) the whole run's zip."""

    path: Path
    kind: Literal["job", "run-zip"]
    truncated: bool


@dataclass(frozen=True)
class LogCaps:
    """Download caps in bytes: a job's text log is cut there, a larger run zip is refused."""

    job: int = DEFAULT_LOG_CAP  # REPOPILOT_MAX_LOG_BYTES
    run_zip: int = DEFAULT_ZIP_CAP  # REPOPILOT_MAX_ZIP_BYTES


DEFAULT_CAPS = LogCaps()


class LogUnavailable(Exception):
    """Neither the job log nor the run zip could be fetched (expired, deleted, refused)."""


def failed_jobs(repo: Repository, run_id: int) -> list[FailedJob]:
    """Failed jobs of the run's latest attempt, in the order the API lists them."""
    run = repo.get_workflow_run(run_id)
    out = []
    for job in run.jobs("latest"):
        if job.conclusion in FAILED:
            failed = next((s.number for s in job.steps if s.conclusion in FAILED), None)
            out.append(FailedJob(job.id, job.name, job.conclusion, job.html_url, failed))
    return out


def _location(repo: Repository, path: str) -> str:
    """The 302 Location of a log endpoint, read without following it."""
    headers, _ = repo.requester.requestBlobAndCheck("GET", f"{repo.url}{path}")
    location: str | None = {k.lower(): v for k, v in headers.items()}.get("location")
    if not location:
        raise LogUnavailable(f"{path}: no redirect to the log")
    scheme = urllib.parse.urlsplit(location).scheme
    if scheme not in ("https", "http"):
        raise LogUnavailable(f"{path}: refusing a {scheme!r} log URL")
    return location


def download(url: str, dest: Path, cap: int, timeout: float = 60.0) -> bool:
    """Stream `url` into `dest`, stopping at `cap` bytes; True if it was cut.

    A fresh opener with no auth handler: nothing but a User-Agent is sent to the storage host.
    """
    request = urllib.request.Request(url, headers={"User-Agent": "repopilot"})
    opener = urllib.request.build_opener()
    written = 0
    with opener.open(request, timeout=timeout) as resp, open(dest, "wb") as out:
        while True:
            chunk = resp.read(_CHUNK)
            if not chunk:
                return False
            if written + len(chunk) > cap:
                out.write(chunk[: cap - written])
                return True
            out.write(chunk)
            written += len(chunk)


def fetch_job_log(
    repo: Repository, job: FailedJob, workdir: Path, cap: int = DEFAULT_LOG_CAP
) -> FetchedLog:
    """The job's own text log, via its 302, cut at `cap` bytes (REPOPILOT_MAX_LOG_BYTES)."""
    dest = workdir / f"job-{job.id}.log"
    try:
        url = _location(repo, f"/actions/jobs/{job.id}/logs")
        truncated = download(url, dest, cap)
    except (GithubException, OSError) as exc:
        raise LogUnavailable(f"job {job.id} log: {_why(exc)}") from exc
    return FetchedLog(dest, "job", truncated)


def fetch_run_zip(
    repo: Repository, run_id: int, workdir: Path, cap: int = DEFAULT_ZIP_CAP
) -> FetchedLog:
    """The whole run's logs zip (fallback when a job log is gone); a cut zip is unusable, so one
    over `cap` bytes (REPOPILOT_MAX_ZIP_BYTES) is refused."""
    dest = workdir / f"run-{run_id}.zip"
    try:
        url = _location(repo, f"/actions/runs/{run_id}/logs")
        if download(url, dest, cap):
            dest.unlink(missing_ok=True)
            raise LogUnavailable(f"run {run_id} logs zip is larger than {cap} bytes")
    except (GithubException, OSError) as exc:
        raise LogUnavailable(f"run {run_id} logs zip: {_why(exc)}") from exc
    return FetchedLog(dest, "run-zip", False)


def _why(exc: BaseException) -> str:
    if isinstance(exc, GithubException):
        return {404: "not found (expired?)", 410: "gone (expired)"}.get(
            exc.status, f"HTTP {exc.status}"
        )
    return exc.__class__.__name__ + (f": {exc}" if str(exc) else "")


def fresh_workdir(base: str | None = None) -> Path:
    """A private temporary directory for downloaded logs (removed by `cleanup`)."""
    import tempfile

    return Path(tempfile.mkdtemp(prefix="repopilot-logs-", dir=base))


def cleanup(path: Path) -> None:
    shutil.rmtree(path, ignore_errors=True)
