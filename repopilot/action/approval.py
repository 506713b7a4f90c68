"""`/repopilot apply|reject <id>` on an `issue_comment`: verify everything, then act once.

Checks, in order (docs/THREAT_MODEL.md §7, §8): a `created` comment on a PR whose body is exactly the
command, not from a bot, by a collaborator whose `role_name` is an approver; the proposal sits in
a marker comment authored by the bot itself; its diff hashes to the marker's sha256 (and HMAC);
the PR is open and its head is still the proposal's head SHA. Every refusal becomes a reply.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from repopilot.action.verify import start_ci
from repopilot.comment.markdown import code_span, fence
from repopilot.comment.marker import (
    Marker,
    MarkerProposal,
    extract_diff,
    parse_marker,
    same_diff,
    shown_diff,
    verify_marker,
)
from repopilot.comment.status import mark_status
from repopilot.github.apply import (
    Applied,
    ApplyRefused,
    HeadMoved,
    Via,
    check_applies,
    commit_to_branch,
)
from repopilot.github.client import Github, GithubException, IssueComment, Repository
from repopilot.github.events import CommentEvent, parse_command
from repopilot.github.prs import PullRef, bot_comments, pull_ref, reply
from repopilot.github.roles import refusal
from repopilot.github.suggest import post_suggestions
from repopilot.run_records import Proposal

DEFAULT_APPROVERS = frozenset({"admin", "maintain", "write"})


@dataclass(frozen=True)
class ApprovalConfig:
    bot: str
    approvers: frozenset[str] = DEFAULT_APPROVERS
    signing_key: str | None = None
    dry_run: bool = False
    max_wait: float = 60.0  # longest wait before retrying a write


@dataclass(frozen=True)
class Decision:
    """What happened to a command: `ignored` (no reply), `refused`, `applied`, `rejected`,
    `already-applied`, `already-rejected`, `would-apply` (dry run), `handed-back` (a fork PR without
    maintainer edits: the diff was posted as a patch, nothing committed). `message` is the reply
    text, if any."""

    outcome: str
    proposal_id: str | None = None
    message: str = ""
    commit_sha: str | None = None
    url: str | None = None


class Refusal(Exception):
    """A command that must not be carried out; the message is the reply's reason."""


def decide(gh: Github, repo: Repository, event: CommentEvent, cfg: ApprovalConfig) -> Decision:
    """Run every check and, when all pass, apply or reject. Never raises Refusal."""
    cmd = parse_command(event.comment.body)
    if event.action != "created" or event.issue.pull_request is None or cmd is None:
        return Decision("ignored")
    if event.comment.user.login == cfg.bot:
        return Decision("ignored")  # our own replies never trigger us (docs/THREAT_MODEL.md §13)
    verb, pid = cmd
    try:
        return _run(gh, repo, event, cfg, verb, pid)
    except Refusal as why:
        return Decision("refused", pid, f"`/repopilot {verb} {pid}` was not carried out: {why}")


def _run(
    gh: Github, repo: Repository, event: CommentEvent, cfg: ApprovalConfig, verb: str, pid: str
) -> Decision:
    _check_commenter(repo, event, cfg)
    number = event.issue.number
    comment, marker, prop = _find_proposal(
        repo, event.repository.full_name or "", number, cfg.bot, pid
    )
    status = prop.status
    if status.startswith("applied"):
        sha = status.partition(" ")[2]
        return Decision("already-applied", pid, f"Proposal `{pid}` was already applied ({sha}).")
    if verb == "reject":
        if status == "rejected":
            return Decision("already-rejected", pid, f"Proposal `{pid}` was already rejected.")
        if not cfg.dry_run:
            _mark(repo, number, comment, pid, "rejected")
        return Decision("rejected", pid, f"Proposal `{pid}` is marked rejected.")
    if status == "rejected":
        raise Refusal("the proposal was rejected earlier")
    diff = _verified_diff(comment.body, marker, prop, pid, cfg)
    pr = pull_ref(repo, number)
    if pr.state != "open":
        raise Refusal(f"the pull request is {pr.state}")
    head_sha = prop.head_sha
    if pr.head_sha != head_sha:
        raise Refusal(
            f"the pull request head moved from {str(head_sha)[:12]} to {pr.head_sha[:12]}; "
            "the proposal was made for the old head. Re-run the failed workflow for a new one."
        )
    if cfg.dry_run:
        return Decision("would-apply", pid, f"Dry run: proposal `{pid}` passed every check.")
    applied = _apply(gh, repo, pr, diff, pid, cfg)
    if applied.commit_sha is None:  # handed back as a patch: the proposal stays open
        return Decision("handed-back", pid, _handback_text(pid, pr, diff, applied.suggested))
    ci = start_ci(repo, pr, marker.run_id, applied, cfg.bot)  # issue 23: test the fix
    _mark(repo, number, comment, pid, f"applied {applied.commit_sha}", ci.text)
    text = f"{_applied_text(pid, applied, pr)} {ci.text}"
    return Decision("applied", pid, text, applied.commit_sha, ci.url or None)


def _mark(
    repo: Repository, number: int, comment: IssueComment, pid: str, status: str, note: str = ""
) -> None:
    """Record the status in the comment as it is now: a re-run may have re-rendered it since we
    read it, and an edit from the stale copy would undo that."""
    try:
        current = repo.get_issue(number).get_comment(comment.id)
    except GithubException:
        return
    if current.user is None or current.user.login != comment.user.login:
        return
    try:
        current.edit(mark_status(current.body or "", pid, status, note))
    except ValueError:
        pass  # the proposal left the comment in the meantime; the reply still tells what happened


def _check_commenter(repo: Repository, event: CommentEvent, cfg: ApprovalConfig) -> None:
    if (why := refusal(repo, event.comment.user, cfg.approvers, "approving")) is not None:
        raise Refusal(why)


def _find_proposal(
    repo: Repository, repo_name: str, number: int, bot: str, pid: str
) -> tuple[IssueComment, Marker, MarkerProposal]:
    """The bot-authored marker comment holding proposal `pid` (markers by anyone else are ignored)."""
    for comment in bot_comments(repo, number, bot):
        marker = parse_marker(comment.body or "")
        if marker is None or (marker.pr is not None and marker.pr != number):
            continue  # a marker copied from another PR proves nothing here
        if marker.repo and marker.repo.lower() != repo_name.lower():
            continue
        for prop in marker.proposals:
            if prop.id == pid:
                return comment, marker, prop
    raise Refusal(f"no proposal `{pid}` in a RepoPilot comment by `{bot}` on this pull request")


def _verified_diff(
    body: str, marker: Marker, prop: MarkerProposal, pid: str, cfg: ApprovalConfig
) -> str:
    diff = extract_diff(body, pid)
    if diff is None:
        raise Refusal(f"the diff of `{pid}` is missing from the RepoPilot comment")
    if hashlib.sha256(diff.encode("utf-8")).hexdigest() != prop.sha256:
        raise Refusal(
            "the diff in the comment does not match the hash recorded when it was proposed"
        )
    if cfg.signing_key and not verify_marker(marker, cfg.signing_key):
        raise Refusal("the proposal's signature does not verify with the configured signing key")
    # what is applied must be what the maintainer saw (docs/THREAT_MODEL.md §8): without a signing key the
    # hidden marker could have been swapped alone
    shown = shown_diff(body, pid, [p.id for p in marker.proposals])
    if shown is None or not same_diff(shown, diff):
        raise Refusal(
            f"the diff of `{pid}` in the hidden marker is not the one the comment shows; "
            "nothing was applied. Re-run the failed workflow for a fresh proposal."
        )
    return diff


def _apply(
    gh: Github, repo: Repository, pr: PullRef, diff: str, pid: str, cfg: ApprovalConfig
) -> Applied:
    """Commit where the head branch lives, never a fork's tree into the base repository
    (docs/THREAT_MODEL.md §15): the PR's own repository, the fork when it allows maintainer edits, else
    a patch (and suggestions) for the author."""
    try:
        if pr.head_repo == pr.base_repo:
            sha = commit_to_branch(repo, pr.head_ref, pr.head_sha, diff, pid, cfg.max_wait)
            return Applied(sha, Via.PUSH)
        if not pr.head_repo:
            raise Refusal("the head repository of this pull request no longer exists")
        if pr.maintainer_can_modify:
            fork = gh.get_repo(pr.head_repo)  # lazy client: no request
            try:
                sha = commit_to_branch(fork, pr.head_ref, pr.head_sha, diff, pid, cfg.max_wait)
                return Applied(sha, Via.FORK_PUSH)
            except GithubException as exc:
                if exc.status not in (401, 403, 404):  # this token may not write to the fork
                    raise
        check_applies(repo, pr.head_sha, diff)  # a patch is handed back only if it applies
    except ApplyRefused as why:
        raise Refusal(str(why)) from why
    except HeadMoved as moved:
        raise Refusal(
            f"the branch {code_span(pr.head_ref)} moved while the commit was being made; "
            "nothing was pushed"
        ) from moved
    sha256 = hashlib.sha256(diff.encode("utf-8")).hexdigest()
    proposal = Proposal(id=pid, diff=diff, sha256=sha256, files=())
    suggested = post_suggestions(repo, pr, pr.head_sha, [proposal], cfg.bot, cfg.max_wait)
    return Applied(None, Via.PATCH, suggested=bool(suggested))


def _applied_text(pid: str, applied: Applied, pr: PullRef) -> str:
    if applied.via == Via.FORK_PUSH:
        return (
            f"Applied proposal `{pid}` as {applied.commit_sha} on the branch "
            f"{code_span(pr.head_ref)} of the fork {code_span(pr.head_repo)} "
            "(the fork allows edits by maintainers)."
        )
    return f"Applied proposal `{pid}` as {applied.commit_sha}."


def _handback_text(pid: str, pr: PullRef, diff: str, suggested: bool) -> str:
    why = (
        "allows edits by maintainers, but this token cannot push to it"
        if pr.maintainer_can_modify
        else "does not allow edits by maintainers"
    )
    also = (
        " The same fix is also posted as suggestions in a review: each can be committed with one "
        "click."
        if suggested
        else ""
    )
    return (
        f"Proposal `{pid}` was approved, but nothing was committed: the head branch is in the fork "
        f"{code_span(pr.head_repo)}, which {why}, and RepoPilot never copies a fork's code into "
        f"this repository.{also} The PR author can apply the approved diff on "
        f"{code_span(pr.head_ref)}: save it as `fix.patch`, run `git apply fix.patch`, commit "
        f"and push.\n\n{fence(diff, 'diff')}"
    )


def post_reply(
    repo: Repository, event: CommentEvent, decision: Decision, bot: str, max_wait: float = 60.0
) -> IssueComment | None:
    """Answer the command in the PR conversation (not for ignored comments)."""
    if decision.outcome == "ignored" or not decision.message:
        return None
    number, after = event.issue.number, event.comment.id
    return reply(repo, number, decision.message, bot, after, max_wait=max_wait)


def log_line(decision: Decision, reply_url: str = "") -> str:
    """What the command did, as one line of the apply job's own log. It starts with `RepoPilot:`
    and is flattened to one line, so nothing in it can be read as a workflow command."""
    what = f"RepoPilot: {decision.outcome}"
    if decision.proposal_id:
        what += f" proposal {decision.proposal_id}"
    if decision.commit_sha:
        what += f" as commit {decision.commit_sha}"
    why = " ".join((decision.message or "").split()).split("```", 1)[0].strip()
    if why:
        what += f": {why[:400]}"
    if reply_url:
        what += f" (reply: {reply_url})"
    return what
