"""The one pull request of `/repopilot learn` (issue 21, docs/CONTRACTS.md Contract 6), when
learning changes more than one new file: the learned pattern written where the default branch
keeps its id (a widened pattern, in its own file), and the learned patterns it contradicts
taken out (their entry, or their file).

One commit on the default branch's head (Git Database API: blobs -> one tree with the changed
and deleted paths -> commit -> a new branch), then `POST /pulls`. The branch is
`repopilot/learn/<id>-<digest>`, the digest over the changes: the same command again finds its
branch and its open pull request (one pull request per change), and a pattern widened after an
earlier pull request of the same id was merged gets a branch of its own (the earlier branch,
when not deleted, holds the old content). Nothing merges itself.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass

from github import GithubException, InputGitTreeElement
from github.Repository import Repository

from repopilot.github.learn_api import PATTERN_DIR


@dataclass(frozen=True, slots=True)
class OpenedPull:
    url: str
    branch: str
    created: bool  # False: the branch existed already (an earlier command opened it)


def branch_for(pattern_id: str, changes: Mapping[str, str | None]) -> str:
    """The pull request's branch for these changes (module docstring)."""
    blob = json.dumps(sorted(changes.items()), ensure_ascii=False).encode("utf-8")
    return f"repopilot/learn/{pattern_id}-{hashlib.sha256(blob).hexdigest()[:8]}"


def open_learn_pull(
    repo: Repository, pattern_id: str, changes: Mapping[str, str | None], title: str, body: str
) -> OpenedPull:
    """One pull request against the default branch making `changes` (file name under
    `.github/repopilot/patterns/` -> its new text, None: delete it); when its branch exists
    (the same command earlier), that branch's open pull request is the answer."""
    default = repo.default_branch or "main"
    branch = branch_for(pattern_id, changes)
    try:
        repo.get_git_ref(f"heads/{branch}").object.sha  # noqa: B018  (a lazy ref: read it)
    except GithubException as exc:
        if exc.status != 404:
            raise
        _push(repo, default, branch, pattern_id, changes)
    else:
        owner = repo.full_name.split("/")[0]
        for pull in repo.get_pulls(state="open", head=f"{owner}:{branch}"):
            return OpenedPull(pull.html_url, branch, False)
    pull = repo.create_pull(title=title, body=body, base=default, head=branch)
    return OpenedPull(pull.html_url, branch, True)


def _push(
    repo: Repository,
    default: str,
    branch: str,
    pattern_id: str,
    changes: Mapping[str, str | None],
) -> None:
    head = repo.get_git_ref(f"heads/{default}").object.sha
    base = repo.get_git_commit(head)
    tree: list[InputGitTreeElement] = []
    for name, text in sorted(changes.items()):
        path = f"{PATTERN_DIR}/{name}"
        if text is None:  # a null sha deletes the path from the base tree
            tree.append(InputGitTreeElement(path, "100644", "blob", sha=None))
        else:
            blob = repo.create_git_blob(text, "utf-8")
            tree.append(InputGitTreeElement(path, "100644", "blob", sha=blob.sha))
    made = repo.create_git_tree(tree, base.tree)
    commit = repo.create_git_commit(f"repopilot: learn pattern {pattern_id}", made, [base])
    repo.create_git_ref(f"refs/heads/{branch}", commit.sha)
