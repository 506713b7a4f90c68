"""Turn a RunResult plus the PR into the comment body (`repopilot.comment.render`)."""

from __future__ import annotations

from repopilot.action.flows import Render
from repopilot.action.result_file import RunResult
from repopilot.comment.marker import parse_marker
from repopilot.comment.render import CommentContext, render
from repopilot.comment.sections import JobReport
from repopilot.github.prs import PullRef


def comment_renderer(found: RunResult, server_url: str, signing_key: str | None) -> Render:
    """A function (PR, previous body) -> the whole comment body, marker included (signed when
    a key is set); the previous comment's marker carries applied/rejected statuses over."""
    reports = [
        JobReport(
            name=j.name, html_url=j.html_url or "", result=j.result, step_number=j.step_number
        )
        for j in found.jobs
    ]

    def body(pr: PullRef | None, previous: str | None) -> str:
        ctx = CommentContext(
            repo=found.repository,
            run_id=found.run_id,
            head_sha=found.head_sha,
            server_url=server_url,
            run_url=found.run_url or "",
            pr_number=pr.number if pr else None,
            previous=parse_marker(previous) if previous else None,
            signing_key=signing_key,
            usage=found.llm.usage if found.llm.asked else None,
            llm_skipped=found.llm.skipped,
            llm_model=found.llm.model,
        )
        return render(reports, ctx)

    return body
