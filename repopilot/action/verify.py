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
When the run finishes: a green run marks the comment resolved ("the fix held"); a red one gets a
note under the fix that it did not hold, naming the failed jobs. Runs of RepoPilot's own commits
are never triaged (docs/THREAT_MODEL.md §13), so fixes never chain.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from repopilot.comment.markdown import code_span, link
from repopilot.comment.marker import parse_marker
from repopilot.comment.status import mark_status
from repopilot.github.apply import Applied, Via
from repopilot.github.client import GithubException, Repository
from repopilot.github.dispatch import (
    DispatchRefused,
    accepts_dispatch,
    default_branch,
    dispatch,
    runs_page,
    workflow_of_run,
)
from repopilot.github.events import RunEvent
from repopilot.github.prs import PullRef, bot_comments, find_pull
from repopilot.github.runs import failed_jobs
from repopilot.safety.redact import clean_for_model

GITHUB_TOKEN_LOGIN = "github-actions[bot]"
HELD = "When it finishes, RepoPilot's comment on this pull request says whether the fix held."

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


def tests_a_fix(event: RunEvent, own_workflow_ref: str | None) -> bool:
    """A run `is_own_run` flags that is still worth reporting: one of the user's workflows (not
    RepoPilot's own, by path) run on a commit RepoPilot applied or started by RepoPilot's
    dispatch. Its outcome says whether the fix held; it is never triaged (docs/THREAT_MODEL.md §13)."""
    run = event.workflow_run
    if own_workflow_ref and run.path:
        # GITHUB_WORKFLOW_REF = owner/repo/.github/workflows/x.yml@refs/... (as is_own_run reads it)
        own_path = own_workflow_ref.split("@", 1)[0].split("/", 2)[-1]
        if own_path == run.path.split("@", 1)[0]:
            return False
    return True


def report_failed_fix(repo: Repository, event: RunEvent, bot: str, dry_run: bool) -> str | None:
    """A red run of a commit RepoPilot applied: the note under that fix in the PR's comment says
    it did not hold and which jobs failed (names from the jobs API; no log is read and nothing is
    triaged, so fixes never chain). The comment's URL, or None when no fix was applied there."""
    run = event.workflow_run
    pr = find_pull(repo, event)
    if pr is None:
        return None
    status = f"applied {run.head_sha}"
    for comment in bot_comments(repo, pr.number, bot):
        marker = parse_marker(comment.body or "")
        held = [p.id for p in marker.proposals if p.status == status] if marker else []
        if not held:
            continue
        names = [clean_for_model(j.name).text for j in failed_jobs(repo, run.id)]
        if not names:
            return None  # nothing failed (a job of a green run): nothing to say here
        jobs = ", ".join(code_span(n, 80) for n in names[:8])
        where = link(f"run {run.id}", run.html_url) if run.html_url else f"run {run.id}"
        note = (
            f"**It did not hold:** {where} at `{run.head_sha[:12]}` failed ({jobs}). RepoPilot "
            "does not triage runs of its own commits (no chain of fixes): read that run's log, "
            "push a fix, and the next failure gets a fresh comment."
        )
        if not dry_run:
            try:
                comment.edit(mark_status(comment.body or "", held[0], status, note))
            except GithubException as exc:
                if exc.status not in (403, 404):  # a read-only token, a deleted comment
                    raise
                return None
        return comment.html_url
    return None
