"""The report's links (report/markdown.py): a store anyone with push access can write must not
put a link to another page than an Actions run or job page in the job summary."""

from __future__ import annotations

from datetime import date

import pytest

from repopilot.report.markdown import render_markdown
from repopilot.report.tally import build
from tests.report.seen_data import record

pytestmark = pytest.mark.unit

RUN = "https://github.com/o/r/actions/runs/12"


def _links(run_url: str, job_url: str | None) -> str:
    rec = record("sig", "2026-11-20T00:00:00Z").model_copy(
        update={"run_url": run_url, "job_url": job_url}
    )
    md = render_markdown(build([rec], until=date(2026, 11, 29), weeks=2))
    row = next(line for line in md.splitlines() if line.startswith("| 1 |"))
    return row.rsplit(" | ", 1)[1]


def test_run_and_job_pages_are_linked():
    job = f"{RUN}/job/34#step:2:7"
    assert _links(RUN, job) == f"[run]({RUN}) [job]({job}) |"


@pytest.mark.parametrize(
    "url",
    [
        "https://evil.example/phish",
        "https://github.com/o/r/actions/runs/12/../../../../evil/phish",
        "https://github.com/o/r/settings",
    ],
)
def test_other_pages_are_not_linked(url):
    assert _links(url, url) == "— |"
