"""The Action knows each job's conclusion from the API: a failed job is never `no_failure`, even
when its log shows no failure (a tolerated error, a log cut short)."""

from __future__ import annotations

import json

import pytest

from tests.loopback.github_action import run_action, run_event, seed
from tests.loopback.github_server import GitHubServer, State

pytestmark = pytest.mark.integration

QUIET_LOG = "".join(
    f"2026-01-02T03:04:0{i}.0000000Z {ln}\n"
    for i, ln in enumerate(
        [
            "##[group]Run ./deploy.sh",
            "./deploy.sh",
            "##[endgroup]",
            "deploy: uploading bundle",
            "Post job cleanup.",
            "Cleaning up orphan processes",
        ]
    )
).encode()


def test_a_failed_job_with_a_quiet_log_is_not_no_failure(tmp_path):
    state = State(bot="repopilot-bot")
    result = tmp_path / "result.json"
    with GitHubServer(state) as gh:
        facts = seed(state)
        state.job_logs[101] = QUIET_LOG
        run = run_action(
            tmp_path,
            gh.url,
            "workflow_run",
            run_event(facts),
            mode="analyze",
            result_file=str(result),
        )
    assert run.returncode == 0, run.stderr
    data = json.loads(result.read_text(encoding="utf-8"))
    text = json.dumps(data)
    assert '"no_failure"' not in text and '"unknown"' in text
