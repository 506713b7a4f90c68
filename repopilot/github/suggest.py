"""Post a proposal that fits inside the PR's own diff as one `suggestion` review (one click to
commit). Batched: all suggestions of a run in ONE review; never twice for the same proposals.

Suggestions are optional: the PR comment carries every fix. So a GitHub refusal or failure here
(403 or 404 on the review listing, 422 on the post, 5xx after retries) is never an error of the
Action; the caller simply gets no ids back.
"""

from __future__ import annotations

from typing import Any

import requests
from github import GithubException
from github.PullRequest import PullRequest
from github.Repository import Repository

from repopilot.comment.suggest import PRFile, ReviewComment, suggestion_for
from repopilot.github.client import guarded_write
from repopilot.github.prs import PullRef
from repopilot.run_records import Proposal

TAG = "<!-- repopilot-suggestions:"


def _reviews_url(repo: Repository, number: int) -> str:
    return f"{repo.url}/pulls/{number}/reviews"


def _already(pull: PullRequest, bot: str, tag: str) -> bool:
    """A review by `bot` whose body starts with `tag`, on ANY page of the PR's reviews."""
    for review in pull.get_reviews():  # paginated: a busy PR has more than one page
        user = review.user.login if review.user is not None else None
        if user == bot and (review.body or "").startswith(tag):
            return True
    return False


def post_suggestions(
    repo: Repository,
    pr: PullRef,
    head_sha: str,
    proposals: list[Proposal],
    bot: str,
    max_wait: float = 60.0,
) -> list[str]:
    """The ids of the proposals posted as suggestions (empty when none fit, the head moved, a
    review for exactly these proposals exists, or GitHub refused or failed: see the module
    docstring)."""
    unique = {p.id: p for p in proposals}
    if not unique or pr.head_sha != head_sha:
        return []
    try:
        return _post(repo, pr, head_sha, unique, bot, max_wait)
    except (GithubException, requests.exceptions.RequestException):
        return []  # optional: the comment, already posted, carries every fix


def _post(
    repo: Repository,
    pr: PullRef,
    head_sha: str,
    unique: dict[str, Proposal],
    bot: str,
    max_wait: float,
) -> list[str]:
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
    if _already(pull, bot, tag):
        return []
    payload = {
        "commit_id": head_sha,
        "event": "COMMENT",
        "body": f"{tag}\nRepoPilot's proposed fixes as suggestions: {', '.join(ids)}.",
        "comments": [c.wire() for c in comments],
    }

    def write() -> tuple[dict[str, Any], Any]:  # (headers, the review as JSON)
        return repo.requester.requestJsonAndCheck(
            "POST", _reviews_url(repo, pr.number), input=payload
        )

    guarded_write(write, lambda: True if _already(pull, bot, tag) else None, max_wait=max_wait)
    return ids
