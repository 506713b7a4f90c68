"""After an apply: get CI to run on the new head, and say which way it went (or what to do).

GitHub starts no workflow run for a push made with GITHUB_TOKEN (except `workflow_dispatch` and
`repository_dispatch` events), so an applied fix would otherwise never be tested and required
checks would stay pending. Three cases:
- the token is a GitHub App's or a person's (the bot's login is not `github-actions[bot]`): the
  push itself starts CI; nothing to do;
- GITHUB_TOKEN, a branch of this repository, and the failing workflow accepts `workflow_dispatch`
  (read from its file on the default branch): RepoPilot dispatches it on the PR branch, which runs
  at the new head;
- otherwise: exactly what the maintainer can do (push any commit or reopen the PR now; add
  `workflow_dispatch:` or use an App token for next time).
When the run finishes, the usual paths report it: a green run marks the comment resolved ("the
fix held"), a red one replaces it with what failed now.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from github.Repository import Repository

from repopilot.comment.markdown import code_span, link
from repopilot.github.apply import Applied, Via
from repopilot.github.dispatch import (
    DispatchRefused,
    accepts_dispatch,
    default_branch,
    dispatch,
    runs_page,
    workflow_of_run,
)
from repopilot.github.prs import PullRef

GITHUB_TOKEN_LOGIN = "github-actions[bot]"
HELD = "When it finishes, this comment says whether the fix held."

CIHow = Literal["dispatched", "push", "manual"]


@dataclass(frozen=True)
class CIStart:
    """How CI gets to the applied commit: `text` (Markdown, RepoPilot's own words and inert
    names) goes into the reply and under the fix in the comment; `url` lists the started runs."""

    how: CIHow
    text: str
    url: str = ""


def _now(branch: str) -> str:
    return (
        f"To run it now, push any commit to {code_span(branch, 120)} (an empty one will do: "
        "`git commit --allow-empty -m 'Run CI' && git push`) or close and reopen the pull request."
    )


def _manual(branch: str, why: str, later: str) -> CIStart:
    text = (
        "CI has not started on the new head: GitHub starts no workflow for a push made with "
        f"GITHUB_TOKEN{why}. {_now(branch)}{later}"
    )
    return CIStart("manual", text)


def _later(path: str) -> str:
    where = f" in {code_span(path, 200)}" if path else " in the failing workflow"
    return (
        f" For next time: add `workflow_dispatch:` under `on:`{where} on the default branch and "
        "give the apply job `actions: write` (RepoPilot then starts CI after each apply), or use a "
        'GitHub App token (README: "CI on applied fixes").'
    )


def start_ci(
    repo: Repository, pr: PullRef, run_id: int | None, applied: Applied, bot: str
) -> CIStart:
    """Get CI running on `applied.commit_sha` where the token allows it (module docstring)."""
    if bot != GITHUB_TOKEN_LOGIN:
        return CIStart(
            "push",
            "The push starts CI on the new head (RepoPilot's token is a GitHub App's or a "
            f"person's, not GITHUB_TOKEN). {HELD}",
        )
    branch = pr.head_ref
    if applied.via != Via.PUSH:  # a fork's branch: nothing here can start its workflows
        return _manual(branch, ", and a fork's branch cannot be dispatched from here", "")
    workflow = workflow_of_run(repo, run_id) if run_id else None
    if workflow is None:
        return _manual(branch, "", _later(""))
    accepts = accepts_dispatch(repo, workflow.path, default_branch(repo, branch))
    name = code_span(workflow.path, 200)
    if accepts is False:
        return _manual(
            branch, f", and {name} does not accept `workflow_dispatch`", _later(workflow.path)
        )
    try:
        dispatch(repo, workflow.id, branch)
    except DispatchRefused as why:
        refused = f", and starting {name} by `workflow_dispatch` was refused ({why})"
        return _manual(branch, refused, _later(workflow.path))
    page = runs_page(repo.html_url, workflow.path, branch)
    text = (
        f"CI was started on the new head: RepoPilot dispatched {name} on "
        f"{code_span(branch, 120)} ({link('its runs', page)}), since a push made with "
        f"GITHUB_TOKEN starts no workflow. {HELD}"
    )
    return CIStart("dispatched", text, page)
