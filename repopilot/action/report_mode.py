"""`mode: report` (issue 28): the Action writes `repopilot report` to the job summary.

For a scheduled workflow (`on: schedule`): whatever the event, the repository's memory is read
through the API with the job's token (`contents: read`), every record it keeps, and the report
over the last `WEEKS` ISO weeks, ending with today's, becomes the job summary, in the Markdown
`repopilot report --format markdown` prints. Nothing is written to the repository.

RepoPilot never fails the workflow it serves: a memory that is not there yet, or cannot be read
(a refused token, an unknown repository, an unreachable API, a corrupt `seen.json`), is one
`::warning::` line saying what and where, and the short "no failures recorded" report, exit 0. `memory: false` (or `REPOPILOT_MEMORY=false`) reads nothing: the summary says so in one
line.
"""

from __future__ import annotations

from datetime import UTC, datetime

from repopilot.action import runner
from repopilot.action.handlers import Outcome
from repopilot.errors import UsageError
from repopilot.github.memory_read import read_loaded
from repopilot.github.seen_store import WHERE
from repopilot.report.markdown import render_markdown, runs_home
from repopilot.report.tally import build
from repopilot.run_records import SeenRecord
from repopilot.settings import Settings

WEEKS = 8
OFF = (
    "The memory is off (`memory: false` or `REPOPILOT_MEMORY=false`): the report read nothing "
    f"from `{WHERE}`."
)


def report_outcome(settings: Settings) -> Outcome:
    """The report as the run's summary; never an error (module docstring)."""
    if not settings.action.memory:
        return Outcome("memory-off", f"## RepoPilot report\n\n{OFF}\n", details={"memory": False})
    records = _records(settings)
    report = build(records, until=datetime.now(UTC).date(), weeks=WEEKS)
    details: dict[str, object] = {"failures": report.failures, "signatures": report.signatures}
    # links only to this repository's run pages: the memory branch is anyone-with-push's text
    home = runs_home(settings.github.server_url, settings.github.repository)
    return Outcome("reported", render_markdown(report, home), details=details)


def _records(settings: Settings) -> tuple[SeenRecord, ...]:
    """Every record of the memory; none, with one warning, when it cannot be read."""
    repository = settings.github.repository
    if not repository:
        runner.warning(f"RepoPilot: mode report: GITHUB_REPOSITORY is not set: {WHERE} not read")
        return ()
    try:
        loaded = read_loaded(settings.github, repository)
    except UsageError as exc:
        runner.warning(f"RepoPilot: mode report: {exc}; the report is empty")
        return ()
    if loaded.absent:
        runner.warning(
            f"RepoPilot: mode report: {repository} has no {WHERE} yet (no failure triaged with "
            "the memory on); the report is empty"
        )
    return loaded.records
