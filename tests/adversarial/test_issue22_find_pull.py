"""Issue 22, item 2: a run is matched to a PR only when the PR, read again from the API, has this
repository as its base and the run's head repository and commit. `workflow_run.pull_requests`
may name a PR that did not trigger the run: a fork's own PR #7 is not this repository's PR #7.
"""

from __future__ import annotations

import copy
from dataclasses import replace

import pytest

from repopilot.comment.marker import parse_marker
from tests.loopback.github_action import BOT, FORK, HEAD_FILES, LOG, run_action, run_event
from tests.loopback.github_action import seed as seed_state
from tests.loopback.github_server import GitHubServer, State

pytestmark = pytest.mark.integration


@pytest.fixture
def gh():
    state = State(bot=BOT)
    with GitHubServer(state) as server:
        yield server, seed_state(state)
    assert state.errors == []


def _fork_commit(state: State, facts) -> str:
    files = {**HEAD_FILES, "FORK": b"the fork's own branch\n"}
    return state.git.put_commit(state.git.tree_of_files(files), [facts.head_sha], "fork work")


def _fork_run_naming_pr_7(facts, sha: str, conclusion: str = "failure") -> dict:
    """A fork's run whose payload lists the fork's own PR #7 (same number as ours)."""
    event = run_event(replace(facts, head_sha=sha), fork=True, conclusion=conclusion)
    stub = copy.deepcopy(run_event(facts)["workflow_run"]["pull_requests"][0])
    stub["head"].update(sha=sha, ref="feature")
    event["workflow_run"]["pull_requests"] = [stub]
    return event


def _bot_comments(state: State) -> list[dict]:
    return [c for c in state.issue_comments(7) if c["login"] == BOT]


def test_a_fork_run_naming_its_own_pr_number_does_not_comment_on_ours(tmp_path, gh):
    server, facts = gh
    sha = _fork_commit(server.state, facts)
    server.state.runs[facts.run_id]["head_sha"] = sha
    done = run_action(tmp_path, server.url, "workflow_run", _fork_run_naming_pr_7(facts, sha))
    assert done.returncode == 0, done.stderr
    assert _bot_comments(server.state) == []
    assert not server.state.calls("POST", r"/repos/.*/issues/7/comments")


def test_a_fork_run_naming_its_own_pr_number_does_not_resolve_ours(tmp_path, gh):
    server, facts = gh
    first = run_action(tmp_path / "1", server.url, "workflow_run", run_event(facts))
    assert first.returncode == 0, first.stderr
    [before] = _bot_comments(server.state)
    sha = _fork_commit(server.state, facts)
    event = _fork_run_naming_pr_7(facts, sha, conclusion="success")
    green = run_action(tmp_path / "2", server.url, "workflow_run", event)
    assert green.returncode == 0, green.stderr
    [after] = _bot_comments(server.state)
    assert after["body"] == before["body"]
    assert "### RepoPilot: resolved" not in after["body"]


def test_a_listed_pr_whose_head_is_another_repository_is_not_taken(tmp_path, gh):
    server, facts = gh
    # our PR #7 has the run's commit, but from a fork; the run is a push to our own branch
    server.state.pulls[7]["head_repo"] = FORK
    done = run_action(tmp_path, server.url, "workflow_run", run_event(facts))
    assert done.returncode == 0, done.stderr
    assert _bot_comments(server.state) == []


def test_the_right_pr_is_still_found(tmp_path, gh):
    server, facts = gh
    server.state.job_logs[facts.job_id] = LOG
    done = run_action(tmp_path, server.url, "workflow_run", run_event(facts))
    assert done.returncode == 0, done.stderr
    [comment] = _bot_comments(server.state)
    assert parse_marker(comment["body"]).pr == 7
