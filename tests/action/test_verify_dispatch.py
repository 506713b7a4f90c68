"""Issue 23, verified fixes, end to end against the loopback GitHub: an apply pushed with
GITHUB_TOKEN (whose pushes start no workflow) dispatches the failing workflow on the PR branch when
its file accepts `workflow_dispatch`, says so in the reply and the comment with a link, and the
dispatched run's success for the new head marks the comment resolved ("the fix held"). Without the
trigger, or with an App token, the reply says exactly what happens instead."""

from __future__ import annotations

import pytest

from repopilot.action.result_file import save as save_result
from repopilot.comment.marker import parse_marker
from tests.action.test_verify_reporting import proposed
from tests.loopback.github_action import (
    BASE_FILES,
    REPO,
    Facts,
    comment_event,
    run_action,
    run_event,
)
from tests.loopback.github_action import seed as seed_state
from tests.loopback.github_runs import add_run
from tests.loopback.github_server import GitHubServer, State

pytestmark = pytest.mark.integration
TOKEN_BOT = "github-actions[bot]"  # GET /user answers 403 for GITHUB_TOKEN
WORKFLOW_ID = 159038  # the failing run's workflow (the run fixture's)
WORKFLOW = ".github/workflows/build.yml"
WITH_DISPATCH = "name: Build\non:\n  pull_request:\n  workflow_dispatch:\njobs: {}\n"
WITHOUT = "name: Build\non: [pull_request]\njobs: {}\n"


def world(state: State, workflow: str) -> Facts:
    facts = seed_state(state)
    files = {**BASE_FILES, WORKFLOW: workflow.encode()}
    main = state.git.put_commit(state.git.tree_of_files(files), [facts.base_sha], "CI")
    state.refs[REPO]["main"] = main
    state.workflow_paths[WORKFLOW_ID] = WORKFLOW
    return facts


def post_then_apply(tmp_path, server, facts):
    save_result(tmp_path / "result.json", proposed(facts))
    posted = run_action(
        tmp_path / "post",
        server.url,
        "workflow_run",
        run_event(facts),
        mode="post",
        result_file=str(tmp_path / "result.json"),
    )
    assert posted.returncode == 0, posted.stderr
    applied = run_action(
        tmp_path / "apply",
        server.url,
        "issue_comment",
        comment_event("/repopilot apply fix-calc-add"),
    )
    assert applied.returncode == 0, applied.stderr
    return applied


def comments(state: State, login: str) -> list[str]:
    return [c["body"] for c in state.issue_comments(7) if c["login"] == login]


def test_apply_dispatches_ci_and_its_success_resolves_the_comment(tmp_path) -> None:
    state = State(bot=None)
    with GitHubServer(state) as server:
        facts = world(state, WITH_DISPATCH)
        applied = post_then_apply(tmp_path, server, facts)
        new_head = state.refs[REPO]["feature"]
        assert new_head != facts.head_sha
        assert state.dispatches == [{"workflow_id": WORKFLOW_ID, "ref": "feature", "inputs": None}]
        [read] = state.calls("GET", rf"/repos/{REPO}/contents/{WORKFLOW}")
        assert read.query == {"ref": ["main"]}, "the trigger is read on the default branch"
        [body] = comments(state, TOKEN_BOT)[:1]
        [reply] = [c for c in comments(state, TOKEN_BOT) if c.startswith("Applied proposal")]
        for text in (reply, body):
            assert "CI was started on the new head" in text and "workflow_dispatch" in text
            assert "event%3Aworkflow_dispatch" in text  # the link to the dispatched runs
        assert "RepoPilot: applied proposal fix-calc-add" in applied.stdout
        # the dispatched run passes at the new head: the usual resolve path says the fix held
        add_run(
            state,
            556,
            branch="feature",
            head_sha=new_head,
            jobs=[{"id": 201, "name": "test (3.12)", "conclusion": "success"}],
            conclusion="success",
            event="workflow_dispatch",
            workflow_id=WORKFLOW_ID,
        )
        state.runs[555]["workflow_id"] = WORKFLOW_ID
        green = dispatched_run(facts, new_head, "success")
        done = run_action(tmp_path / "green", server.url, "workflow_run", green, mode="post")
        assert done.returncode == 0, done.stderr
        [body] = comments(state, TOKEN_BOT)[:1]
        assert "### RepoPilot: resolved" in body and "The fix `fix-calc-add` held" in body
        assert parse_marker(body).proposals[0].status == f"applied {new_head}"
    assert state.errors == []


def dispatched_run(facts: Facts, head: str, conclusion: str) -> dict:
    """The workflow_run event of the run RepoPilot dispatched: started by the bot (GITHUB_TOKEN),
    on a commit carrying RepoPilot's trailer, with no PR number (is_own_run flags it)."""
    event = run_event(Facts(facts.base_sha, head, run_id=556), conclusion=conclusion)
    run = event["workflow_run"]
    run.update(event="workflow_dispatch", pull_requests=[])
    run["actor"]["login"] = TOKEN_BOT
    run["triggering_actor"] = dict(run["actor"])
    run["head_commit"]["message"] = "Apply fix-calc-add\n\nRepoPilot-Proposal: fix-calc-add"
    return event


def test_a_red_dispatched_run_says_the_fix_did_not_hold(tmp_path) -> None:
    state = State(bot=None)
    with GitHubServer(state) as server:
        facts = world(state, WITH_DISPATCH)
        post_then_apply(tmp_path, server, facts)
        new_head = state.refs[REPO]["feature"]
        failed = {"id": 201, "name": "test (3.12)", "conclusion": "failure"}
        add_run(state, 556, branch="feature", head_sha=new_head, jobs=[failed],
                event="workflow_dispatch", workflow_id=WORKFLOW_ID)  # fmt: skip
        red = dispatched_run(facts, new_head, "failure")
        done = run_action(tmp_path / "red", server.url, "workflow_run", red, patterns="")
        assert done.returncode == 0, done.stderr
        [body] = comments(state, TOKEN_BOT)[:1]
        assert "**It did not hold:** [run 556](<" in body and "` test (3.12) `" in body
        assert parse_marker(body).proposals[0].status == f"applied {new_head}"
        # never triaged: no log read, no new proposal (SECURITY.md §13: fixes never chain)
        assert not state.calls("GET", rf"/repos/{REPO}/actions/jobs/201/logs")
        assert "failed on an applied fix" in done.summary
    assert state.errors == []


def test_without_workflow_dispatch_the_reply_says_what_to_do(tmp_path) -> None:
    state = State(bot=None)
    with GitHubServer(state) as server:
        facts = world(state, WITHOUT)
        post_then_apply(tmp_path, server, facts)
        assert state.dispatches == []
        [reply] = [c for c in comments(state, TOKEN_BOT) if c.startswith("Applied proposal")]
        assert "CI has not started on the new head" in reply
        assert f"` {WORKFLOW} ` does not accept `workflow_dispatch`" in reply
        assert "git commit --allow-empty" in reply and "close and reopen" in reply
        assert "add `workflow_dispatch:` under `on:`" in reply and "GitHub App token" in reply
    assert state.errors == []


def test_an_app_token_push_starts_ci_itself(tmp_path) -> None:
    state = State(bot="repopilot-app[bot]")
    with GitHubServer(state) as server:
        facts = world(state, WITH_DISPATCH)
        post_then_apply(tmp_path, server, facts)
        assert state.dispatches == [], "the push starts CI: no second run"
        [reply] = [
            c for c in comments(state, "repopilot-app[bot]") if c.startswith("Applied proposal")
        ]
        assert "The push starts CI on the new head" in reply
    assert state.errors == []
