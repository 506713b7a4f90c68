"""Issue 12, item 11: a malformed `Retry-After` (`-5`, `abc`, huge) on a GET gets a bounded back-off
and a retry, instead of ending the run with "unreachable (InvalidHeader)".

The Action runs in a subprocess (REPOPILOT_GITHUB_MAX_WAIT=1) against the loopback GitHub; the
jobs listing answers 429 (or a secondary-rate-limit 403) with the header once, then normally.
"""

from __future__ import annotations

import time

import pytest
from github import GithubException

from repopilot.github.client import BoundedRetry, wait_for
from tests.loopback.github_action import BOT, run_action, run_event, seed
from tests.loopback.github_server import Fault, GitHubServer, State

JOBS = r"/repos/octo-org/octo-repo/actions/runs/555/jobs"
VALUES = ["-5", "abc", "99999999999999999999", "1e999", "nan"]


@pytest.mark.unit
@pytest.mark.parametrize("value", VALUES)
def test_every_malformed_value_gives_a_bounded_positive_wait(value):
    retry = BoundedRetry(max_wait=5, total=3, backoff_factor=0.5)
    assert 0 <= retry.parse_retry_after(value) <= 5
    wait = wait_for(GithubException(429, {}, {"Retry-After": value}), 1, 5)
    assert 0.5 <= wait <= 5, "a malformed header never means 'retry at once' or 'wait forever'"


@pytest.mark.integration
@pytest.mark.parametrize("status", [429, 403])
@pytest.mark.parametrize("value", VALUES[:3])
def test_the_action_retries_after_a_malformed_retry_after(tmp_path, value, status):
    state = State(bot=BOT)
    body = {"message": "You have exceeded a secondary rate limit."}
    with GitHubServer(state) as server:
        facts = seed(state)
        state.faults.append(
            Fault("GET", JOBS, status=status, body=body, headers={"Retry-After": value})
        )
        started = time.monotonic()
        run = run_action(tmp_path, server.url, "workflow_run", run_event(facts))
        took = time.monotonic() - started
    assert run.returncode == 0, run.stdout + run.stderr
    assert "InvalidHeader" not in run.stdout + run.stderr
    assert len(state.calls("GET", JOBS)) == 2, "retried once, then answered"
    assert len([c for c in state.issue_comments(7) if c["login"] == BOT]) == 1
    assert took < 60, "the huge value was capped by max_wait"
