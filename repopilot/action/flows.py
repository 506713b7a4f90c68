"""The `workflow_run` side of the Action, in two halves that may run in different jobs:
`analyze` (read-only: failed jobs -> logs -> triage) and `post` (write: find the PR, upsert).

Triage is passed in as a function (log path -> TriageResults), so this package never imports the
pipeline above it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from repopilot.action.result_file import JobResult, RunResult
from repopilot.comment.marker import Marker, parse_marker
from repopilot.errors import LogError
from repopilot.github.client import GithubException, IssueComment, Repository
from repopilot.github.events import RunEvent
from repopilot.github.origin import OriginLookup
from repopilot.github.origin_setup import OriginSetup
from repopilot.github.prs import PullRef, bot_comments, find_pull, upsert_comment
from repopilot.github.runs import (
    DEFAULT_CAPS,
    FailedJob,
    LogCaps,
    LogUnavailable,
    cleanup,
    failed_jobs,
    fetch_job_log,
    fetch_run_zip,
    fresh_workdir,
)
from repopilot.github.suggest import post_suggestions
from repopilot.records import Verdict
from repopilot.run_records import Proposal, TriageResult

Triage = Callable[[str], list[TriageResult]]


Render = Callable[[PullRef | None, str | None], str]


@dataclass(frozen=True)
class Posted:
    pr: PullRef | None
    comment: IssueComment | None
    body: str
    suggested: list[str] = field(default_factory=list)  # proposal ids posted as suggestions
    skipped: str = ""  # why a green run left the comment as it is (resolve)
    created: bool = False  # the comment is new (no earlier RepoPilot comment was edited)


def analyze(
    repo: Repository,
    event: RunEvent,
    triage: Triage,
    origin: OriginSetup | None = None,
    caps: LogCaps = DEFAULT_CAPS,
) -> RunResult:
    """Triage every failed job of the run's latest attempt; a lost job log falls back to the
    run's zip, and a job with no log at all still gets an entry saying so. With `origin`, each
    failed job also gets its origin (github/origin.py), within that setup's request budget.
    Downloads obey `caps` (REPOPILOT_MAX_LOG_BYTES, REPOPILOT_MAX_ZIP_BYTES)."""
    run = event.workflow_run
    jobs = failed_jobs(repo, run.id)
    workdir = fresh_workdir()
    lookup = OriginLookup(repo, event, origin, workdir) if origin else None
    zip_results: list[TriageResult] | None = None
    out: list[JobResult] = []
    try:
        for job in jobs:
            try:
                fetched = fetch_job_log(repo, job, workdir, caps.job)
            except LogUnavailable as why:
                reason = str(why)
            else:
                each = lookup.bind(triage, job.name) if lookup else triage
                found = _first(each, str(fetched.path), job)
                out.append(_entry(job, lookup.attach(job.name, found) if lookup else found))
                continue
            if zip_results is None:
                try:
                    each = lookup.bind(triage, None) if lookup else triage
                    fetched = fetch_run_zip(repo, run.id, workdir, caps.run_zip)
                    zip_results = _safe(each, str(fetched.path))
                except LogUnavailable as why:
                    zip_results, reason = [], f"{reason}; {why}"
            found = _pick(zip_results, job.name) or _no_log(job, reason)
            out.append(_entry(job, lookup.attach(job.name, found) if lookup else found))
    finally:
        cleanup(workdir)
    return RunResult(
        repository=event.repository.full_name or "",
        run_id=run.id,
        run_attempt=run.run_attempt,
        run_url=run.html_url,
        head_sha=run.head_sha,
        jobs=out,
    )


def post(
    repo: Repository,
    event: RunEvent,
    body: Render,
    bot: str,
    dry_run: bool,
    proposals: Sequence[Proposal] = (),
    max_wait: float = 60.0,
) -> Posted:
    """Find the PR and upsert the one comment; nothing posted on a dry run or without a PR.

    `body(pr, previous)` renders the comment; `previous` is the body it replaces (statuses of
    applied or rejected proposals survive a re-run through it). Proposals the comment offers and
    that fit the PR's diff also go out as one suggestion review."""
    pr = find_pull(repo, event)
    if pr is None or dry_run:
        return Posted(pr, None, body(pr, None))
    text: list[str] = []
    fresh: list[bool] = []

    def render(previous: str | None) -> str:
        text.append(body(pr, previous))
        fresh.append(previous is None)
        return text[-1]

    comment = upsert_comment(repo, pr.number, render, bot, max_wait)
    marker = parse_marker(text[-1])
    offered = {p.id for p in marker.proposals if p.status == "proposed"} if marker else set()
    wanted = [p for p in proposals if p.id in offered]
    suggested = post_suggestions(repo, pr, event.workflow_run.head_sha, wanted, bot, max_wait)
    return Posted(pr, comment, text[-1], suggested, created=fresh[-1])


def resolve(
    repo: Repository,
    event: RunEvent,
    body: Callable[[PullRef, str], str | None],
    bot: str,
    dry_run: bool,
) -> Posted | None:
    """A passing run: edit the bot's existing comment on the PR to say the failure is resolved.

    Nothing is created: a PR that never failed gets no comment. `body(pr, previous)` is the new
    text, or None to leave the comment as it is (already resolved). Only a green run of the PR's
    current head (find_pull re-reads it) and of the failing run's workflow resolves, and not one
    older than the failing run on the same commit (issue 22): a slow green run of the previous
    push, or another workflow's, must not hide a live failure."""
    pr = find_pull(repo, event)
    if pr is None:
        return None
    found = bot_comments(repo, pr.number, bot)
    if not found:
        return None
    comment = found[0]
    marker = parse_marker(comment.body or "")
    stale = _stale(repo, event, marker) if marker is not None else ""
    if stale:
        return Posted(pr, None, "", skipped=stale)
    text = body(pr, comment.body or "")
    if text is None:
        return Posted(pr, None, "")
    if not dry_run:
        comment.edit(text)  # PATCH is idempotent: the client's own retries are safe here
    return Posted(pr, None if dry_run else comment, text)


def _stale(repo: Repository, event: RunEvent, marker: Marker) -> str:
    """Why the green run does not answer the failure the marker records ("" when it does)."""
    run = event.workflow_run
    if run.head_sha == marker.head_sha and run.id < marker.run_id:
        return f"run {run.id} is older than the failing run {marker.run_id} of the same commit"
    if run.id == marker.run_id:
        return ""  # a re-run attempt of the failing run itself
    try:
        green = repo.get_workflow_run(run.id).workflow_id
        failing = repo.get_workflow_run(marker.run_id).workflow_id
    except GithubException as exc:
        return f"the workflow of run {marker.run_id} or {run.id} cannot be read ({exc.status})"
    if green != failing:
        return f"run {run.id} is of another workflow than the failing run {marker.run_id}"
    return ""


def read_only_token(exc: BaseException) -> bool:
    """A 403 on a write: the token may not write here (a fork's `pull_request` run)."""
    return isinstance(exc, GithubException) and exc.status == 403


def _entry(job: FailedJob, result: TriageResult) -> JobResult:
    return JobResult(
        id=job.id,
        name=job.name,
        conclusion=job.conclusion,
        html_url=job.html_url,
        step_number=job.step_number,
        result=result,
    )


def _safe(triage: Triage, path: str) -> list[TriageResult]:
    try:
        return triage(path)
    except LogError:
        return []


def _first(triage: Triage, path: str, job: FailedJob) -> TriageResult:
    try:
        found = triage(path)
    except LogError as exc:
        return _no_log(job, f"the log is unreadable: {exc}")
    return found[0] if found else _no_log(job, "the log is empty")


def _pick(results: list[TriageResult], job_name: str) -> TriageResult | None:
    """The zip member for `job_name` (zip folders are named after jobs)."""
    named = [r for r in results if (r.verdict.job or "").strip() == job_name.strip()]
    failing = [r for r in named or results if r.verdict.failed]
    if named:
        return (failing or named)[0]
    return failing[0] if len(failing) == 1 else None


def _no_log(job: FailedJob, reason: str) -> TriageResult:
    verdict = Verdict(
        source=f"job {job.id}",
        job=job.name,
        category="unknown",
        title="The job log could not be read",
        hint=f"{reason}. Logs expire; re-run the job to triage it.",
    )
    return TriageResult(verdict=verdict)
