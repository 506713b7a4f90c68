"""Starting a workflow by hand: which workflow a run belongs to, whether its file accepts
`workflow_dispatch`, and `POST /repos/{o}/{r}/actions/workflows/{id}/dispatches`.

Used after an apply pushed with GITHUB_TOKEN, whose pushes start no workflow run (GitHub's rule,
except for `workflow_dispatch` and `repository_dispatch`): dispatching the failing workflow on the
PR branch runs CI on the applied commit.
"""

from __future__ import annotations

import base64
import urllib.parse
from dataclasses import dataclass

import yaml
from github import GithubException
from github.Repository import Repository


@dataclass(frozen=True)
class WorkflowRef:
    """The workflow of a run: its id, its file's path and its name."""

    id: int
    path: str
    name: str


class DispatchRefused(Exception):
    """The API refused the dispatch; the message says the status and GitHub's reason."""


def workflow_of_run(repo: Repository, run_id: int) -> WorkflowRef | None:
    """The workflow run `run_id` belongs to, or None when the run cannot be read."""
    try:
        _, data = repo.requester.requestJsonAndCheck("GET", f"{repo.url}/actions/runs/{run_id}")
    except GithubException:
        return None
    wid, path = data.get("workflow_id"), str(data.get("path") or "")
    if not isinstance(wid, int) or not path:
        return None
    # a run of a dynamic or called workflow names its path with the ref: `ci.yml@main`
    return WorkflowRef(wid, path.split("@", 1)[0], str(data.get("name") or path))


def default_branch(repo: Repository, fallback: str) -> str:
    """The repository's default branch (`fallback`, the PR's base, when the API does not say)."""
    try:
        _, data = repo.requester.requestJsonAndCheck("GET", repo.url)
    except GithubException:
        return fallback
    return str(data.get("default_branch") or fallback)


def triggers(text: str) -> set[str]:
    """The event names a workflow file's `on:` lists (YAML 1.1 reads a bare `on` key as True)."""
    try:
        doc = yaml.safe_load(text)
    except yaml.YAMLError:
        return set()
    if not isinstance(doc, dict):
        return set()
    on = doc.get("on", doc.get(True))
    if isinstance(on, str):
        return {on}
    if isinstance(on, list):
        return {str(e) for e in on}
    if isinstance(on, dict):
        return {str(k) for k in on}
    return set()


def accepts_dispatch(repo: Repository, path: str, ref: str) -> bool | None:
    """Whether the workflow file at `path` on `ref` has a `workflow_dispatch` trigger; None when
    the file cannot be read (no `contents: read`, a deleted file)."""
    quoted = urllib.parse.quote(path, safe="/")
    try:
        _, data = repo.requester.requestJsonAndCheck(
            "GET", f"{repo.url}/contents/{quoted}", parameters={"ref": ref}
        )
    except GithubException:
        return None
    if not isinstance(data, dict) or data.get("encoding") != "base64":
        return None
    try:
        text = base64.b64decode(str(data.get("content") or "")).decode("utf-8")
    except (ValueError, UnicodeDecodeError):
        return None
    return "workflow_dispatch" in triggers(text)


def dispatch(repo: Repository, workflow_id: int, ref: str) -> None:
    """Start the workflow on `ref` (a branch); DispatchRefused when the API says no."""
    url = f"{repo.url}/actions/workflows/{workflow_id}/dispatches"
    try:
        repo.requester.requestJsonAndCheck("POST", url, input={"ref": ref})
    except GithubException as exc:
        message = exc.data.get("message") if isinstance(exc.data, dict) else None
        raise DispatchRefused(f"{exc.status}: {message or 'refused'}") from exc


def runs_page(repo_html_url: str, path: str, branch: str) -> str:
    """The page listing the workflow's dispatched runs on `branch` (the run's own URL is not
    known when the dispatch returns)."""
    name = path.rsplit("/", 1)[-1]
    query = urllib.parse.quote(f"branch:{branch} event:workflow_dispatch")
    return f"{repo_html_url.rstrip('/')}/actions/workflows/{urllib.parse.quote(name)}?query={query}"
