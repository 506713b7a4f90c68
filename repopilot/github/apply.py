"""Apply an approved diff as ONE commit through the Git Database API; no checkout needed.

Files are read at the PR head through git trees and blobs (which also give each file's mode),
the diff is applied in Python (`repopilot.proposal.apply_to_files`), then blobs -> tree (based on
the head's tree) -> commit whose only parent is the head SHA -> `PATCH git/refs` with force=false.
"""

from __future__ import annotations

import base64
import urllib.parse
from dataclasses import dataclass

from github import GithubException, InputGitTreeElement
from github.Repository import Repository

from repopilot.github.client import guarded_write
from repopilot.github.events import APPLIED_TRAILER

_UNSAFE_MODES = {"120000": "a symlink", "160000": "a submodule"}


class HeadMoved(Exception):
    """The branch no longer points at the SHA the commit was built on."""


class ApplyRefused(Exception):
    """The diff cannot be applied at the head (one line: what and where)."""


@dataclass(frozen=True)
class Applied:
    """Where the commit went: onto the PR branch, a PR against a fork, or only a base branch."""

    commit_sha: str
    via: str  # "push" | "pull-request" | "branch"
    url: str | None = None
    branch: str | None = None


class TreeReader:
    """Reads text files of one commit through git trees and blobs, remembering their modes."""

    def __init__(self, repo: Repository, commit_sha: str):
        self.repo = repo
        self.tree_sha = repo.get_git_commit(commit_sha).tree.sha
        self.modes: dict[str, str] = {}
        self._trees: dict[str, dict[str, tuple[str, str, str]]] = {}

    def _listing(self, sha: str) -> dict[str, tuple[str, str, str]]:
        if sha not in self._trees:
            tree = self.repo.get_git_tree(sha)
            self._trees[sha] = {e.path: (e.mode, e.type, e.sha) for e in tree.tree}
        return self._trees[sha]

    def read(self, path: str) -> str | None:
        """The file's text at the commit, or None when it does not exist."""
        parts = path.split("/")
        sha = self.tree_sha
        for i, part in enumerate(parts):
            entry = self._listing(sha).get(part)
            if entry is None:
                return None
            mode, kind, sha = entry
            if i < len(parts) - 1 and kind != "tree":
                return None
        if kind != "blob" or mode in _UNSAFE_MODES:
            raise ApplyRefused(f"{path} is {_UNSAFE_MODES.get(mode, 'not a file')} at the head")
        self.modes[path] = mode
        blob = self.repo.get_git_blob(sha)
        raw = base64.b64decode(blob.content) if blob.encoding == "base64" else blob.content.encode()
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ApplyRefused(f"{path} is not UTF-8 text at the head") from exc


def _once(write, max_wait: float):
    # git objects are content-addressed, so repeating a POST whose answer was lost is harmless
    return guarded_write(write, lambda: None, max_wait=max_wait)


def build_commit(
    repo: Repository, head_sha: str, diff: str, proposal_id: str, max_wait: float = 60.0
) -> str:
    """Create (but do not publish) the commit: parent = head_sha, tree = head + diff."""
    from repopilot.proposal.apply import apply_to_files

    reader = TreeReader(repo, head_sha)
    try:
        changes = apply_to_files(diff, reader.read)
    except ApplyRefused:
        raise
    except Exception as exc:  # the proposal module's own error types: a refusal, not a crash
        raise ApplyRefused(f"the diff does not apply at {head_sha[:12]}: {exc}") from exc
    elements = []
    for path, text in sorted(changes.items()):
        mode = reader.modes.get(path, "100644")
        if text is None:
            elements.append(InputGitTreeElement(path, mode, "blob", sha=None))
            continue
        blob = _once(lambda text=text: repo.create_git_blob(text, "utf-8"), max_wait)
        elements.append(InputGitTreeElement(path, mode, "blob", sha=blob.sha))
    base_tree = repo.get_git_tree(reader.tree_sha)
    tree = _once(lambda: repo.create_git_tree(elements, base_tree), max_wait)
    parent = repo.get_git_commit(head_sha)
    message = f"Apply RepoPilot proposal {proposal_id}\n\n{APPLIED_TRAILER} {proposal_id}\n"
    commit = _once(lambda: repo.create_git_commit(message, tree, [parent]), max_wait)
    return commit.sha


def _ref_url(repo: Repository, branch: str) -> str:
    return f"{repo.url}/git/refs/heads/{urllib.parse.quote(branch, safe='/')}"


def fast_forward(repo: Repository, branch: str, commit_sha: str) -> None:
    """Move `branch` to `commit_sha` with force=false; HeadMoved when GitHub refuses (422).

    A retried PATCH that had already landed also answers 422: the ref then already points at
    our commit, which counts as success.
    """
    try:
        repo.requester.requestJsonAndCheck(
            "PATCH", _ref_url(repo, branch), input={"sha": commit_sha, "force": False}
        )
    except GithubException as exc:
        if exc.status != 422:
            raise
        _, data = repo.requester.requestJsonAndCheck("GET", _ref_url(repo, branch))
        if (data.get("object") or {}).get("sha") != commit_sha:
            raise HeadMoved(branch) from exc


def open_fork_pull(
    repo: Repository,
    fork: Repository,
    fork_branch: str,
    commit_sha: str,
    proposal_id: str,
    base_owner: str,
    max_wait: float = 60.0,
) -> Applied:
    """The head branch lives in a fork this token cannot push to: put the commit on
    `repopilot/<id>` in the base repository and try to open a PR from it against the fork's branch.
    When the fork refuses the PR, the branch alone is the result and the reply explains it."""
    branch = f"repopilot/{proposal_id}"
    try:
        _once(lambda: repo.create_git_ref(f"refs/heads/{branch}", commit_sha), max_wait)
    except GithubException as exc:
        if exc.status != 422:  # 422: the branch exists (a replay); the caller checked the status
            raise
    try:
        pr = _once(
            lambda: fork.create_pull(
                base=fork_branch,
                head=f"{base_owner}:{branch}",
                title=f"RepoPilot: apply proposal {proposal_id}",
                body=f"The fix approved as `{proposal_id}`; merging it updates the pull request.",
            ),
            max_wait,
        )
    except GithubException:
        return Applied(commit_sha, "branch", None, branch)
    return Applied(commit_sha, "pull-request", pr.html_url, branch)
