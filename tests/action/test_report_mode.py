"""`mode: report` (issue 28): a scheduled run of the Action writes the memory's report to the job
summary, against the loopback GitHub where an earlier run of the Action recorded a failure."""

from __future__ import annotations

import pytest

from tests.loopback.github_action import REPO, run_action, run_event

pytestmark = pytest.mark.integration

SCHEDULE = {"schedule": "23 6 * * 1", "repository": {"full_name": REPO, "name": "octo-repo"}}
WRITES = r"/repos/octo-org/octo-repo/(contents/.*|git/.*|issues/.*)"


def _writes(state) -> int:
    return sum(len(state.calls(m, WRITES)) for m in ("POST", "PUT", "PATCH", "DELETE"))


def test_a_scheduled_report_summarises_what_the_action_recorded(tmp_path, gh):
    server, facts = gh
    state = server.state
    triaged = run_action(tmp_path / "1", server.url, "workflow_run", run_event(facts))
    assert triaged.returncode == 0, triaged.stderr
    writes = _writes(state)
    run = run_action(tmp_path / "2", server.url, "schedule", SCHEDULE, mode="report")
    assert run.returncode == 0, run.stderr
    assert run.summary.startswith(
        "## RepoPilot report\n\n1 failure, 1 signature, on 1 PR, 0 on the default"
    )
    assert 'pie title Decided by\n    "patterns" : 1\n```' in run.summary
    assert "| 1 | 1 | ` test_failure ` |" in run.summary and "\\#7" in run.summary
    assert run.trace["outcome"] == "reported"
    assert _writes(state) == writes  # the report writes nothing to the repository


def test_no_memory_yet_is_a_short_report(tmp_path, gh):
    server, _ = gh
    run = run_action(tmp_path, server.url, "schedule", SCHEDULE, mode="report")
    assert run.returncode == 0, run.stderr
    assert "No failures recorded from " in run.summary and "pie" not in run.summary
