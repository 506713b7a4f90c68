"""Post a proposal that fits inside the PR's own diff as one `suggestion` review (one click to
commit). Batched: all suggestions of a run in ONE review; never twice for the same proposals."""

from __future__ import annotations

from github import GithubException
from github.Repository import Repository

from repopilot.comment.suggest import PRFile, ReviewComment, suggestion_for
from repopilot.github.client import guarded_write
from repopilot.github.prs import PullRef
from repopilot.records import Proposal

TAG = "<!-- repopilot-suggestions:"


def _reviews_url(repo: Repository, number: int) -> str:
    return f"{repo.url}/pulls/{number}/reviews"


def _already(repo: Repository, pr: PullRef, bot: str, tag: str) -> dict | None:
    _, reviews = repo.requester.requestJsonAndCheck("GET", _reviews_url(repo, pr.number))
    for review in reviews or []:
        user = (review.get("user") or {}).get("login")
        if user == bot and (review.get("body") or "").startswith(tag):
            return review
    return None


def post_suggestions(
    repo: Repository,
    pr: PullRef,
    head_sha: str,
    proposals: list[Proposal],
    bot: str,
    max_wait: float = 60.0,
) -> list[str]:
    """The ids of the proposals posted as suggestions (empty when none fit, the head moved, or a
    review for exactly these proposals exists). A refusal by GitHub (422) is not an error: the
    PR comment still carries every fix."""
    unique = {p.id: p for p in proposals}
    if not unique or pr.head_sha != head_sha:
        return []
    pull = repo.get_pull(pr.number)
    files = [PRFile(f.filename, f.patch, f.status) for f in pull.get_files()]
    comments: list[ReviewComment] = []
    ids: list[str] = []
    for pid, proposal in unique.items():
        found = suggestion_for(proposal, files)
        if found:
            comments += found
            ids.append(pid)
    if not comments:
        return []
    tag = f"{TAG}{','.join(ids)} -->"
    if _already(repo, pr, bot, tag):
        return []
    payload = {
        "commit_id": head_sha,
        "event": "COMMENT",
        "body": f"{tag}\nRepoPilot's proposed fixes as suggestions: {', '.join(ids)}.",
        "comments": [c.wire() for c in comments],
    }

    def write():
        return repo.requester.requestJsonAndCheck(
            "POST", _reviews_url(repo, pr.number), input=payload
        )

    try:
        guarded_write(write, lambda: _already(repo, pr, bot, tag), max_wait=max_wait)
    except GithubException as exc:
        if exc.status != 422:
            raise
        return []
    return ids
