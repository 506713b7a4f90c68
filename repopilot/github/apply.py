"""Apply an approved diff as ONE commit through the Git Database API; no checkout needed.

Files are read at the PR head through git trees and blobs (which also give each file's mode),
the diff is applied in Python (`repopilot.proposal.apply_to_files`), then blobs -> tree (based on
the head's tree) -> commit whose only parent is the head SHA -> `PATCH git/refs` with force=false.

The commit is always made in the repository that holds the PR's head branch: the base repository
for a same-repository PR, the fork itself for a fork PR that allows maintainer edits. A fork's tree
is never written into the base repository (docs/THREAT_MODEL.md §15): a branch there holding fork code
would run that code's `on: push` workflows with the base repository's secrets.
"""

from __future__ import annotations

import base64
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from functools import partial
from typing import TypeVar

from github import GithubException, InputGitTreeElement
from github.Repository import Repository

from repopilot.comment.markdown import code_span
from repopilot.github.client import guarded_write
from repopilot.github.events import APPLIED_TRAILER

_UNSAFE_MODES = {"120000": "a symlink", "160000": "a submodule"}


class HeadMoved(Exception):
    """The branch no longer points at the SHA the commit was built on."""


class ApplyRefused(Exception):
    """The diff cannot be applied at the head (one line: what and where)."""


class Via(StrEnum):
    """How an approved fix reached the PR."""

    PUSH = "push"  # one commit on the head branch of a same-repository PR
    FORK_PUSH = "fork-push"  # one commit on the fork's head branch (maintainer edits allowed)
    PATCH = "patch"  # nothing committed: the diff was handed to the author as a patch


@dataclass(frozen=True)
class Applied:
    """What happened to an approved fix: the commit made (None for a patch) and how."""

    commit_sha: str | None
    via: Via
    suggested: bool = False  # PATCH only: also posted as a suggestion review


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
            what = _UNSAFE_MODES.get(mode, "not a file")
            raise ApplyRefused(f"{code_span(path)} is {what} at the head")
        self.modes[path] = mode
        blob = self.repo.get_git_blob(sha)
        raw = base64.b64decode(blob.content) if blob.encoding == "base64" else blob.content.encode()
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ApplyRefused(f"{code_span(path)} is not UTF-8 text at the head") from exc


T = TypeVar("T")


def _once(write: Callable[[], T], max_wait: float) -> T:
    # git objects are content-addressed, so repeating a POST whose answer was lost is harmless
    return guarded_write(write, lambda: None, max_wait=max_wait)


def _changes(
    repo: Repository, head_sha: str, diff: str
) -> tuple[dict[str, str | None], dict[str, str], str]:
    """(path -> new text or None, path -> git mode, the head's tree SHA). A mode the diff sets
    is the one committed (a `new mode 100755` is applied as shown, not dropped)."""
    from repopilot.proposal.apply import apply_to_files, file_modes

    reader = TreeReader(repo, head_sha)
    try:
        changes, stated = apply_to_files(diff, reader.read), file_modes(diff)
    except ApplyRefused:
        raise
    except Exception as exc:  # the proposal module's own error types: a refusal, not a crash
        # the reason quotes paths from the diff: shown as inert code, never as Markdown
        raise ApplyRefused(
            f"the diff does not apply at {head_sha[:12]}: {code_span(str(exc), 400)}"
        ) from exc
    modes: dict[str, str] = {}
    for path in changes:
        at_head, change = reader.modes.get(path), stated.get(path)
        if change is not None and change.old and at_head and change.old != at_head:
            raise ApplyRefused(
                f"{code_span(path)} has mode {at_head} at the head, not {change.old} as the "
                "diff says"
            )
        modes[path] = change.new if change is not None else at_head or "100644"
    return changes, modes, reader.tree_sha


def check_applies(repo: Repository, head_sha: str, diff: str) -> None:
    """ApplyRefused unless `diff` applies at `head_sha` (reads only; nothing is written)."""
    _changes(repo, head_sha, diff)


def build_commit(
    repo: Repository, head_sha: str, diff: str, proposal_id: str, max_wait: float = 60.0
) -> str:
    """Create (but do not publish) the commit: parent = head_sha, tree = head + diff."""
    changes, modes, tree_sha = _changes(repo, head_sha, diff)
    elements = []
    for path, text in sorted(changes.items()):
        mode = modes[path]
        if text is None:
            elements.append(InputGitTreeElement(path, mode, "blob", sha=None))
            continue
        blob = _once(partial(repo.create_git_blob, text, "utf-8"), max_wait)
        elements.append(InputGitTreeElement(path, mode, "blob", sha=blob.sha))
    base_tree = repo.get_git_tree(tree_sha)
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


def commit_to_branch(
    repo: Repository, branch: str, head_sha: str, diff: str, proposal_id: str, max_wait: float
) -> str:
    """One commit on `branch` of `repo` (the repository that holds it), parent `head_sha`."""
    sha = build_commit(repo, head_sha, diff, proposal_id, max_wait)
    fast_forward(repo, branch, sha)
    return sha
