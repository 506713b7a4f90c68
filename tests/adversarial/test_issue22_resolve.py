"""Issue 22, item 1 and the "another workflow" note: a green run resolves the RepoPilot comment
only when it ran on the PR's current head, belongs to the failing run's workflow, and is not an
older run of the failing commit. The Action runs against the loopback GitHub with real PyGithub.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from repopilot.comment.marker import parse_marker
from tests.loopback.github_action import BOT, HEAD_FILES, LOG, REPO, STEPS, run_action, run_event
from tests.loopback.github_action import seed as seed_state
from tests.loopback.github_runs import WORKFLOW_ID, add_run
from tests.loopback.github_server import GitHubServer, State

pytestmark = pytest.mark.integration
OTHER_WORKFLOW = WORKFLOW_ID + 1


@pytest.fixture
def gh():
    state = State(bot=BOT)
    with GitHubServer(state) as server:
        facts = seed_state(state)
        state.runs[facts.run_id]["workflow_id"] = WORKFLOW_ID
        yield server, facts
    assert state.errors == []


def _comment(state: State) -> dict:
    [comment] = [c for c in state.issue_comments(7) if c["login"] == BOT]
    return comment


def _failing_jobs(job_id: int) -> list[dict]:
    return [{"id": job_id, "name": "test (3.12)", "conclusion": "failure", "steps": STEPS}]


def _push(state: State, facts, message: str) -> str:
    """A new commit on the PR's branch; the PR's head moves to it."""
    files = {**HEAD_FILES, "NOTES": message.encode()}
    sha = state.git.put_commit(state.git.tree_of_files(files), [facts.head_sha], message)
    state.pulls[7]["head_sha"] = sha
    state.refs[REPO]["feature"] = sha
    return sha


def _fail(tmp, server, facts, run_id: int, head: str, workflow: int = WORKFLOW_ID):
    state = server.state
    add_run(state, run_id, branch="feature", head_sha=head, jobs=_failing_jobs(run_id * 10))
    state.runs[run_id]["workflow_id"] = workflow
    state.job_logs[run_id * 10] = LOG
    done = run_action(
        tmp, server.url, "workflow_run", run_event(replace(facts, run_id=run_id, head_sha=head))
    )
    assert done.returncode == 0, done.stderr
    marker = parse_marker(_comment(state)["body"])
    assert marker is not None and (marker.run_id, marker.head_sha) == (run_id, head)


def _green(tmp, server, facts, run_id: int, head: str, workflow: int = WORKFLOW_ID):
    jobs = [{"id": run_id * 10, "name": "test (3.12)", "conclusion": "success"}]
    add_run(server.state, run_id, branch="feature", head_sha=head, jobs=jobs, conclusion="success")
    server.state.runs[run_id]["workflow_id"] = workflow
    event = run_event(replace(facts, run_id=run_id, head_sha=head), conclusion="success")
    event["workflow_run"]["workflow_id"] = workflow
    done = run_action(tmp, server.url, "workflow_run", event)
    assert done.returncode == 0, done.stderr
    return done


def _resolved(state: State) -> bool:
    return "### RepoPilot: resolved" in _comment(state)["body"]


def test_a_slow_green_run_of_the_previous_head_does_not_hide_the_new_failure(tmp_path, gh):
    server, facts = gh
    _fail(tmp_path / "1", server, facts, 555, facts.head_sha)
    new_head = _push(server.state, facts, "second push")
    _fail(tmp_path / "2", server, facts, 557, new_head)
    # run 556 tested the first head and passed; it finishes after the new head failed
    late = _green(tmp_path / "3", server, facts, 556, facts.head_sha)
    assert not _resolved(server.state)
    assert late.trace["outcome"] == "ignored"
    marker = parse_marker(_comment(server.state)["body"])
    assert marker.run_id == 557 and marker.head_sha == new_head
    # the new head passing does resolve
    _green(tmp_path / "4", server, facts, 558, new_head)
    assert _resolved(server.state)


def test_a_green_run_of_another_workflow_does_not_resolve(tmp_path, gh):
    server, facts = gh
    _fail(tmp_path / "1", server, facts, 555, facts.head_sha)
    other = _green(tmp_path / "2", server, facts, 560, facts.head_sha, workflow=OTHER_WORKFLOW)
    assert not _resolved(server.state)
    assert "another workflow" in other.stdout
    _green(tmp_path / "3", server, facts, 561, facts.head_sha)
    assert _resolved(server.state)


def test_an_older_green_run_of_the_failing_commit_does_not_resolve(tmp_path, gh):
    server, facts = gh
    _fail(tmp_path / "1", server, facts, 570, facts.head_sha)
    older = _green(tmp_path / "2", server, facts, 569, facts.head_sha)
    assert not _resolved(server.state)
    assert "older than the failing run 570" in older.stdout


def test_a_rerun_of_the_failing_run_that_passes_resolves(tmp_path, gh):
    server, facts = gh
    _fail(tmp_path / "1", server, facts, 555, facts.head_sha)
    _green(tmp_path / "2", server, facts, 555, facts.head_sha)
    assert _resolved(server.state)


def _pull_request_event(head: str) -> dict:
    side = {
        "ref": "feature",
        "sha": head,
        "repo": {"full_name": REPO, "name": "octo-repo", "owner": {"login": "octo-org"}},
    }
    return {
        "action": "synchronize",
        "number": 7,
        "pull_request": {"number": 7, "head": side, "base": {**side, "ref": "main"}},
        "repository": {"full_name": REPO, "name": "octo-repo", "owner": {"login": "octo-org"}},
        "sender": {"login": "contributor", "type": "User"},
    }


def test_same_workflow_mode_a_green_run_of_an_old_head_does_not_resolve(tmp_path, gh):
    server, facts = gh
    state = server.state
    env = {"GITHUB_RUN_ID": "555", "GITHUB_RUN_ATTEMPT": "1"}
    first = run_action(
        tmp_path / "1", server.url, "pull_request", _pull_request_event(facts.head_sha), env=env
    )
    assert first.returncode == 0, first.stderr
    new_head = _push(state, facts, "second push")
    add_run(state, 580, branch="feature", head_sha=new_head, jobs=_failing_jobs(5800))
    state.job_logs[5800] = LOG
    env = {"GITHUB_RUN_ID": "580", "GITHUB_RUN_ATTEMPT": "1"}
    second = run_action(
        tmp_path / "2", server.url, "pull_request", _pull_request_event(new_head), env=env
    )
    assert second.returncode == 0, second.stderr
    assert parse_marker(_comment(state)["body"]).head_sha == new_head
    # the `if: always()` job of a slower run on the first head: every job passed
    passed = [{"id": 5790, "name": "test (3.12)", "conclusion": "success"}]
    add_run(
        state, 579, branch="feature", head_sha=facts.head_sha, jobs=passed, conclusion="success"
    )
    env = {"GITHUB_RUN_ID": "579", "GITHUB_RUN_ATTEMPT": "1"}
    late = run_action(
        tmp_path / "3", server.url, "pull_request", _pull_request_event(facts.head_sha), env=env
    )
    assert late.returncode == 0, late.stderr
    assert not _resolved(state)
