"""Find the run's pull request and keep exactly one RepoPilot comment on it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from github import GithubException
from github.IssueComment import IssueComment
from github.Repository import Repository

from repopilot.comment.marker import MARKER_PREFIX
from repopilot.github.client import guarded_write
from repopilot.github.events import RunEvent


@dataclass(frozen=True)
class PullRef:
    """The PR facts approval and apply depend on, read fresh from the API."""

    number: int
    state: str
    head_sha: str
    head_ref: str
    head_repo: str  # full_name of the head repository ("" when the fork was deleted)
    base_repo: str
    html_url: str
    maintainer_can_modify: bool = False


def pull_ref(repo: Repository, number: int) -> PullRef:
    pr = repo.get_pull(number)
    head_repo = pr.head.repo.full_name if pr.head.repo is not None else ""
    return PullRef(
        number=pr.number,
        state=pr.state,
        head_sha=pr.head.sha,
        head_ref=pr.head.ref,
        head_repo=head_repo,
        base_repo=pr.base.repo.full_name,
        html_url=pr.html_url,
        maintainer_can_modify=bool(pr.maintainer_can_modify),
    )


def find_pull(repo: Repository, event: RunEvent) -> PullRef | None:
    """The PR the failed run belongs to, or None (a push to a branch).

    Fork PRs leave the payload's `pull_requests` empty, so they are looked up by
    `head=<owner>:<branch>`; a hit counts only when both its head SHA and head repository match
    the run's, since anybody can open a PR from a branch with the same name. A number the
    payload names counts on the same terms, read again from the API: GitHub documents that
    `pull_requests` may not name the PR that triggered the run, and a fork's own PR #7 is not
    this repository's PR #7 (issue 22).
    """
    run = event.workflow_run
    for stub in run.pull_requests:
        if stub.head.sha == run.head_sha:
            found = _same_run(repo, pull_ref(repo, stub.number), event)
            if found is not None:
                return found
    head_repo = run.head_repository
    if not run.head_branch or head_repo is None or head_repo.owner is None:
        return None
    head = f"{head_repo.owner.login}:{run.head_branch}"
    for pr in repo.get_pulls(state="open", head=head):
        pr_repo = pr.head.repo.full_name if pr.head.repo is not None else None
        if pr.head.sha == run.head_sha and pr_repo == head_repo.full_name:
            return _same_run(repo, pull_ref(repo, pr.number), event)
    return None


def _same_run(repo: Repository, pr: PullRef, event: RunEvent) -> PullRef | None:
    """`pr` when, as the API has it now, its base is this repository and its head is the run's
    repository and commit; None otherwise."""
    run = event.workflow_run
    head_repo = run.head_repository.full_name if run.head_repository else None
    same = (
        pr.base_repo.lower() == repo.full_name.lower()
        and pr.head_sha == run.head_sha
        and (head_repo is None or pr.head_repo.lower() == head_repo.lower())
    )
    return pr if same else None


def bot_comments(repo: Repository, number: int, bot: str) -> list[IssueComment]:
    """Comments on the PR authored by the bot and carrying the hidden marker, oldest first."""
    issue = repo.get_issue(number)
    found = [
        c
        for c in issue.get_comments()
        if c.user is not None and c.user.login == bot and _has_marker(c.body)
    ]
    return sorted(found, key=lambda c: c.id)  # ids grow with time: the first is the oldest


def _has_marker(body: str | None) -> bool:
    # the marker opens a RepoPilot comment; replies and quotes that mention it elsewhere do not count
    return (body or "").lstrip(" \t\r\n\ufeff").startswith(MARKER_PREFIX)


def upsert_comment(
    repo: Repository,
    number: int,
    render: Callable[[str | None], str],
    bot: str,
    max_wait: float = 60.0,
) -> IssueComment:
    """Edit the bot's marker comment in place, or create it; never leave two.

    `render(previous_body)` gives the new body. A comment deleted between the lookup and the edit
    (PATCH 404) is created anew. Two runs for one PR at once (two workflows failing together, a
    re-run racing the first) can both create: after creating, the comments are listed again and
    converge on the OLDEST marker comment, which gets this run's body; newer ones are deleted, or
    folded into a one-line pointer when deleting is refused (docs/THREAT_MODEL.md §18).
    """
    found = bot_comments(repo, number, bot)
    if found:
        try:
            found[0].edit(render(found[0].body))
        except GithubException as exc:
            if exc.status != 404:
                raise
        else:
            _fold(found[1:], found[0])  # duplicates an earlier race left behind
            return found[0]
    issue = repo.get_issue(number)
    body = render(None)

    def landed() -> IssueComment | None:
        again = bot_comments(repo, number, bot)
        return again[0] if again else None

    created = guarded_write(lambda: issue.create_comment(body), landed, max_wait=max_wait)
    return _converge(repo, number, bot, created, render)


def _converge(
    repo: Repository,
    number: int,
    bot: str,
    created: IssueComment,
    render: Callable[[str | None], str],
) -> IssueComment:
    again = bot_comments(repo, number, bot)
    if not again:
        return created
    oldest = again[0]
    if oldest.id != created.id:
        try:
            oldest.edit(render(oldest.body))  # this run's findings, the oldest's statuses
        except GithubException as exc:
            if exc.status != 404:
                raise
            return created  # the other run's comment is gone: ours stands
    _fold([c for c in again if c.id != oldest.id], oldest)
    return oldest


def _fold(duplicates: list[IssueComment], keep: IssueComment) -> None:
    """Delete each duplicate; where that is refused, edit it into a pointer without a marker."""
    for dup in duplicates:
        try:
            dup.delete()
            continue
        except GithubException:
            pass
        try:
            dup.edit(f"RepoPilot: a duplicate of {keep.html_url}, folded into it.")
        except GithubException as exc:
            if exc.status != 404:  # deleted meanwhile (by the other run): nothing to fold
                raise


def reply(
    repo: Repository, number: int, body: str, bot: str, after_id: int, max_wait: float = 60.0
) -> IssueComment:
    """Post a reply once: a retried POST first looks for the same text posted after `after_id`."""
    issue = repo.get_issue(number)

    def landed() -> IssueComment | None:
        return _same_reply(repo, number, body, bot, after_id)

    return guarded_write(lambda: issue.create_comment(body), landed, max_wait=max_wait)


def _same_reply(
    repo: Repository, number: int, body: str, bot: str, after_id: int
) -> IssueComment | None:
    match: Callable[[IssueComment], bool] = lambda c: (  # noqa: E731
        c.id > after_id and c.user is not None and c.user.login == bot and c.body == body
    )
    return next((c for c in repo.get_issue(number).get_comments() if match(c)), None)
