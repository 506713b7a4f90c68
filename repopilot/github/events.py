"""Typed views of the two events the Action handles, read from `GITHUB_EVENT_PATH`.

Every string here (branch names, titles, comment bodies) is attacker-controllable data: it is only
ever compared or passed to the API as a value, never interpolated into code or a shell.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from repopilot.comment.command import parse_command as _parse_command
from repopilot.settings import GitHubSettings

FAILED_CONCLUSIONS = frozenset({"failure", "timed_out"})
APPLIED_TRAILER = "RepoPilot-Proposal:"


class EventError(Exception):
    """The event file is missing or not shaped like the event it claims to be (one line)."""


class _Loose(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)


class Account(_Loose):
    login: str
    type: str = "User"


class RepoRef(_Loose):
    full_name: str | None = None
    name: str | None = None
    url: str | None = None
    owner: Account | None = None
    default_branch: str | None = None  # the base branch for runs with no PR (issue 14)


class BranchRef(_Loose):
    ref: str
    sha: str
    repo: RepoRef | None = None


class PullStub(_Loose):
    number: int
    head: BranchRef
    base: BranchRef | None = None


class HeadCommit(_Loose):
    id: str | None = None
    message: str = ""
    author: dict[str, Any] = Field(default_factory=dict)
    committer: dict[str, Any] = Field(default_factory=dict)


class WorkflowRun(_Loose):
    id: int
    run_attempt: int = 1
    conclusion: str | None = None
    head_sha: str
    head_branch: str | None = None
    path: str = ""
    workflow_id: int | None = None  # the base branch's runs of the same workflow (issue 14)
    html_url: str | None = None
    head_repository: RepoRef | None = None
    pull_requests: list[PullStub] = Field(default_factory=list)
    head_commit: HeadCommit | None = None
    actor: Account | None = None
    triggering_actor: Account | None = None
    event: str = ""  # what started the run: push, pull_request, schedule, ... ("" when unsaid)


class RunEvent(_Loose):
    """`workflow_run` payload: the fields RepoPilot reads."""

    action: str = ""
    workflow_run: WorkflowRun
    repository: RepoRef


class IssueStub(_Loose):
    number: int
    pull_request: dict[str, Any] | None = None


class IssueComment(_Loose):
    id: int
    body: str | None = ""
    user: Account


class CommentEvent(_Loose):
    """`issue_comment` payload: the fields RepoPilot reads."""

    action: str
    issue: IssueStub
    comment: IssueComment
    repository: RepoRef


def read_event(path: str | None) -> dict[str, Any]:
    """The raw event JSON at `path` (GITHUB_EVENT_PATH)."""
    if not path:
        raise EventError("GITHUB_EVENT_PATH is not set")
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise EventError(f"{path}: cannot read the event JSON ({exc.__class__.__name__})") from exc
    if not isinstance(data, dict):
        raise EventError(f"{path}: the event is not a JSON object")
    return data


def parse_run_event(data: dict[str, Any], where: str = "event") -> RunEvent:
    try:
        return RunEvent.model_validate(data)
    except ValidationError as exc:
        raise EventError(f"{where}: not a workflow_run event ({_first(exc)})") from exc


def parse_comment_event(data: dict[str, Any], where: str = "event") -> CommentEvent:
    try:
        return CommentEvent.model_validate(data)
    except ValidationError as exc:
        raise EventError(f"{where}: not an issue_comment event ({_first(exc)})") from exc


def _first(exc: ValidationError) -> str:
    err = exc.errors()[0]
    return f"{'.'.join(str(p) for p in err['loc'])}: {err['msg']}"


def parse_command(body: str | None) -> tuple[str, str] | None:
    """`("apply"|"reject", proposal_id)` when the whole body is exactly one command."""
    cmd = _parse_command(body or "")
    return (cmd.action, cmd.proposal_id) if cmd else None


def is_own_run(event: RunEvent, own_workflow_ref: str | None, bot: str) -> bool:
    """True for runs RepoPilot must not react to (docs/THREAT_MODEL.md §13): its own workflow's runs,
    runs started by the bot, and commits it made (they carry the RepoPilot-Proposal trailer)."""
    run = event.workflow_run
    if own_workflow_ref and run.path:
        # GITHUB_WORKFLOW_REF = owner/repo/.github/workflows/x.yml@refs/...
        own_path = own_workflow_ref.split("@", 1)[0].split("/", 2)[-1]
        if own_path == run.path:
            return True
    actors = {a.login for a in (run.actor, run.triggering_actor) if a is not None}
    if bot in actors:
        return True
    commit = run.head_commit
    return commit is not None and APPLIED_TRAILER in commit.message


CI_EVENTS = frozenset({"push", "pull_request"})


def ci_run_event(name: str, data: dict[str, Any], github: GitHubSettings) -> RunEvent:
    """The same-workflow mode: RepoPilot is a job of the user's own CI workflow (`needs:` +
    `if: failure()`) on `push` or `pull_request`, and triages the current run, GITHUB_RUN_ID.
    The payload is read into the `workflow_run` shape the rest of the Action knows: the PR head
    (not the merge commit GITHUB_SHA points at) is the head a fix is proposed against."""
    server_url = github.server_url
    try:
        run_id = int(github.run_id)
        attempt = int(github.run_attempt or "1")
    except ValueError as exc:
        raise EventError("GITHUB_RUN_ID / GITHUB_RUN_ATTEMPT: expected numbers") from exc
    repo = data.get("repository") or {}
    full = repo.get("full_name") or github.repository
    run: dict[str, Any] = {
        "id": run_id,
        "run_attempt": attempt,
        "conclusion": "failure",
        "html_url": f"{server_url.rstrip('/')}/{full}/actions/runs/{run_id}",
        "actor": data.get("sender"),
        "event": name,
    }
    if name == "pull_request":
        pr = data.get("pull_request") or {}
        head = pr.get("head") or {}
        run.update(
            head_sha=head.get("sha", ""),
            head_branch=head.get("ref"),
            head_repository=head.get("repo"),
            pull_requests=[{"number": pr.get("number"), "head": head, "base": pr.get("base")}],
        )
    else:
        ref = str(data.get("ref") or "")
        run.update(
            head_sha=data.get("after") or github.sha,
            head_branch=ref.removeprefix("refs/heads/") if ref.startswith("refs/heads/") else None,
            head_repository=repo,
            head_commit=data.get("head_commit"),
        )
    return parse_run_event({"workflow_run": run, "repository": repo}, f"{name} event")
