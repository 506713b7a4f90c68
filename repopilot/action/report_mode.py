"""`mode: report` (issue 28): the Action writes `repopilot report` to the job summary.

For a scheduled workflow (`on: schedule`): whatever the event, the repository's memory is read
through the API with the job's token (`contents: read`), and the report over the last `WEEKS` ISO
weeks, ending with today's, becomes the job summary, in the Markdown `repopilot report
--format markdown` prints. Nothing is written to the repository. No memory yet is a short
"no failures recorded" report; a memory that cannot be read is the Action's failure (one line).
"""

from __future__ import annotations

from datetime import UTC, datetime

from repopilot.action.handlers import Outcome
from repopilot.errors import UsageError
from repopilot.github.memory_read import read_memory
from repopilot.report.markdown import render_markdown
from repopilot.report.tally import build
from repopilot.settings import ConfigError, Settings

WEEKS = 8


def report_outcome(settings: Settings) -> Outcome:
    """The report as the run's summary; ConfigError (the Action's one-line failure) when the
    memory cannot be read."""
    try:
        records = read_memory(settings.github, settings.github.repository)
    except UsageError as exc:
        raise ConfigError(f"mode report: {exc}") from None
    report = build(records, until=datetime.now(UTC).date(), weeks=WEEKS)
    details: dict[str, object] = {"failures": report.failures, "signatures": report.signatures}
    return Outcome("reported", render_markdown(report), details=details)
