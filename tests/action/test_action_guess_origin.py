"""A guess blames no one, in every place the Action tells the origin (issue 20; Contract 3: the origin
is "shown per job, stored in the marker's JSON, and output as `origin`"). The job passes on the
base branch (origin `this_pr`), but the engine only guessed the category (the fallback, read from
the step's command): the comment says nothing about blame and its marker stores `undetermined`,
so the `origin` output and the job summary's table say the same. The real entry point, real
PyGithub, the loopback GitHub; the bundled patterns."""

from __future__ import annotations

import json
import re

import pytest

from tests.loopback.github_action import BOT, run_action, run_event, seed
from tests.loopback.github_runs import WORKFLOW_ID, add_run
from tests.loopback.github_server import GitHubServer, State

pytestmark = pytest.mark.integration

JOB = "test (3.12)"  # the seeded run's failed job


def gha(lines: list[str]) -> bytes:
    return "".join(f"2026-03-01T10:00:{i:02d}.0000000Z {t}\n" for i, t in enumerate(lines)).encode()


# No pattern knows the failing line; the step's command (`npm run e2e`) guesses test_failure.
GUESSED = gha(
    [
        "##[group]Run npm run e2e",
        "npm run e2e",
        "##[endgroup]",
        "scenario 0001: checkout ok",
        "scenario 0002: refund flow",
        "Scenario 0002 (refund flow): expected status 200, got 500",
        "##[error]Process completed with exit code 1.",
    ]
)


@pytest.fixture
def gh():
    state = State(bot=BOT)
    with GitHubServer(state) as server:
        facts = seed(state)
        state.job_logs[facts.job_id] = GUESSED
        state.runs[facts.run_id].update(
            branch="feature", event="pull_request", number=77, status="completed"
        )
        # the same job passes on main: the origin rule says this_pr
        add_run(
            state,
            902,
            branch="main",
            head_sha=f"{42:040x}",
            jobs=[{"id": 9020, "name": JOB, "conclusion": "success"}],
            conclusion="success",
            number=42,
        )
        state.job_logs[9020] = gha(["##[group]Run npm run e2e", "npm run e2e", "all ok"])
        yield server, facts
    assert state.errors == []


def test_a_guess_is_undetermined_in_the_output_summary_and_marker(tmp_path, gh):
    server, facts = gh
    ev = run_event(facts)
    ev["workflow_run"].update(workflow_id=WORKFLOW_ID)
    ev["workflow_run"]["pull_requests"][0]["base"].update(ref="main", sha=facts.base_sha)
    run = run_action(tmp_path, server.url, "workflow_run", ev, patterns="")
    assert run.returncode == 0, run.stderr
    [c] = [c for c in server.state.issue_comments(7) if c["login"] == BOT]
    body = c["body"]
    assert "(a guess)" in body and "caused by the changes in this pull request" not in body
    marker = json.loads(re.match(r"<!-- repopilot:(.*?) -->", body).group(1))
    assert marker["origins"] == {JOB: "undetermined"}
    assert run.outputs["category"] == "test_failure"
    assert run.outputs["origin"] == "undetermined"  # as the marker stores it
    assert "`this_pr`" not in run.summary
