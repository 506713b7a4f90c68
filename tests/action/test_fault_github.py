"""Fault matrix, GitHub side: the Action in-process through `main(env)`, real PyGithub, the loopback GitHub
answering with the faults GitHub produces. tests/action/test_action_run.py shows each retried fault leaves
one comment; here every fault is also checked for the other invariants: at most one RepoPilot
comment, no commit without an approved and matching proposal, no secret of the log in anything
written, and a trace that records what happened. Faults on the apply path are here too.
"""

from __future__ import annotations

import hashlib
import json

import pytest

from repopilot.comment.marker import (
    Marker,
    MarkerProposal,
    dump_marker,
    encode_diff,
    parse_marker,
    sign,
)
from repopilot.comment.status import status_block
from tests.adversarial.corpus import leaked
from tests.adversarial.harness import hostile_log, read_traces
from tests.loopback.github_action import (
    BOT,
    FIX,
    REPO,
    SHORT_TIMEOUT,
    comment_event,
    run_action,
    run_event,
)
from tests.loopback.github_contents import repository_writes
from tests.loopback.github_server import Fault, State

pytestmark = pytest.mark.integration

COMMENTS = r"/repos/octo-org/octo-repo/issues/7/comments"
EDIT = r"/repos/octo-org/octo-repo/issues/comments/\d+"
SECONDARY = {"message": "You have exceeded a secondary rate limit. Please wait a few minutes."}
SLOW = {"Retry-After": "1"}
PID = "fix-calc-add"

RUN_FAULTS = {
    "user-502": Fault("GET", r"/user", 502),
    "run-jobs-timeout": Fault("GET", r"/repos/.*/actions/runs/555/jobs", delay=1.5),
    "run-jobs-500x2": Fault("GET", r"/repos/.*/actions/runs/555/jobs", 500, times=2),
    "job-log-502": Fault("GET", r"/repos/.*/actions/jobs/101/logs", 502),
    "job-log-429": Fault("GET", r"/repos/.*/actions/jobs/101/logs", 429, {"message": "x"}, SLOW),
    "storage-502": Fault("GET", r"/jobs/101", 502),
    "list-comments-secondary-403": Fault("GET", COMMENTS, 403, SECONDARY, SLOW),
    "post-comment-502-landed": Fault("POST", COMMENTS, 502, land=True),
    "post-comment-timeout-landed": Fault("POST", COMMENTS, None, land=True, delay=1.4),
    "post-comment-secondary-403": Fault("POST", COMMENTS, 403, SECONDARY, SLOW),
    "pull-502x2": Fault("GET", r"/repos/.*/pulls/7", 502, times=2),
}


@pytest.fixture
def gh(gh, tmp_path):
    """tests/conftest.py's loopback GitHub, whose failed job's log is the hostile one."""
    server, _facts = gh
    server.state.job_logs[101] = hostile_log(tmp_path / "job.log").read_bytes()
    return gh


def _no_secret(run, state: State, tmp) -> None:
    written = "\n".join(c["body"] for c in state.comments.values())
    written += run.summary + json.dumps(run.outputs) + run.stdout + run.stderr
    assert leaked(written) == [], leaked(written)
    assert leaked(read_traces(tmp / "runs")) == []


@pytest.mark.parametrize("name", list(RUN_FAULTS), ids=list(RUN_FAULTS))
def test_run_fault_invariants(tmp_path, gh, name):
    server, facts = gh
    state = server.state
    fault = RUN_FAULTS[name]
    fault = Fault(**{**fault.__dict__})  # a fresh copy: `times` counts down
    state.faults.append(fault)
    # timeouts with the client's 1 s timeout (delays above are longer than it, shorter than 2 s)
    waits = SHORT_TIMEOUT if fault.delay else None
    run = run_action(tmp_path, server.url, "workflow_run", run_event(facts), env=waits)
    assert run.returncode == 0, run.stdout + run.stderr
    assert fault.times == 0, "the fault was never hit"
    bot = [c for c in state.issue_comments(7) if c["login"] == BOT]
    assert len(bot) == 1, [c["id"] for c in bot]
    assert parse_marker(bot[0]["body"]) is not None
    assert not repository_writes(state)  # nothing but RepoPilot's memory branch (issue 28)
    assert run.trace is not None and run.trace["outcome"] == "commented"
    assert run.trace["steps"][-1]["result"]["comment_id"] == bot[0]["id"]
    _no_secret(run, state, tmp_path)


def test_edit_whose_answer_was_lost_keeps_one_comment(tmp_path, gh):
    server, facts = gh
    state = server.state
    assert run_action(tmp_path / "1", server.url, "workflow_run", run_event(facts)).returncode == 0
    state.faults.append(Fault("PATCH", EDIT, 502, land=True))
    run = run_action(tmp_path / "2", server.url, "workflow_run", run_event(facts))
    assert run.returncode == 0, run.stdout + run.stderr
    assert len([c for c in state.issue_comments(7) if c["login"] == BOT]) == 1
    assert len(state.calls("POST", COMMENTS)) == 1


def test_api_down_for_good_is_one_error_line_and_no_comment(tmp_path, gh):
    server, facts = gh
    state = server.state
    state.faults.append(Fault("GET", COMMENTS, 502, times=100))
    run = run_action(tmp_path, server.url, "workflow_run", run_event(facts))
    assert run.returncode == 1
    assert len([ln for ln in run.stdout.splitlines() if ln.startswith("::error")]) == 1
    assert "Traceback" not in run.stderr
    assert state.comments == {}
    assert run.trace["outcome"] == "error"
    _no_secret(run, state, tmp_path)


# ---------------------------------------------------------------- the apply path


def _proposal(facts) -> str:
    prop = MarkerProposal(
        id=PID,
        sha256=hashlib.sha256(FIX.encode()).hexdigest(),
        head_sha=facts.head_sha,
        diff_z=encode_diff(FIX),
    )
    marker = sign(
        Marker(repo=REPO, pr=7, run_id=555, head_sha=facts.head_sha, proposals=(prop,)), None
    )
    return f"{dump_marker(marker)}\n{status_block(marker)}\n```diff\n{FIX}```\n"


APPLY_FAULTS = {
    "permission-429": Fault(
        "GET", r"/repos/.*/collaborators/writer/permission", 429, {"message": "x"}, SLOW
    ),
    "blob-502-landed": Fault("POST", r"/repos/.*/git/blobs", 502, land=True),
    "tree-502-landed": Fault("POST", r"/repos/.*/git/trees", 502, land=True),
    "commit-502-landed": Fault("POST", r"/repos/.*/git/commits", 502, land=True),
    "ref-502-landed": Fault("PATCH", r"/repos/.*/git/refs/heads/feature", 502, land=True),
    "reply-502-landed": Fault("POST", COMMENTS, 502, land=True),
    "mark-status-502-landed": Fault("PATCH", EDIT, 502, land=True),
}


@pytest.mark.parametrize("name", list(APPLY_FAULTS), ids=list(APPLY_FAULTS))
def test_apply_fault_makes_one_commit_and_one_reply(tmp_path, gh, name):
    server, facts = gh
    state = server.state
    cid = state.add_comment(7, _proposal(facts), BOT, "Bot")
    fault = Fault(**{**APPLY_FAULTS[name].__dict__})
    state.faults.append(fault)
    event = comment_event(f"/repopilot apply {PID}")
    run = run_action(tmp_path, server.url, "issue_comment", event)
    assert fault.times == 0, "the fault was never hit"
    assert "Traceback" not in run.stderr
    head = state.refs[REPO]["feature"]
    replies = [c for c in state.issue_comments(7) if not c["body"].startswith("<!--")]
    if run.returncode == 0:
        # applied exactly once: the branch moved by one commit whose parent is the old head
        assert head != facts.head_sha
        assert state.git.commits[head].parents == [facts.head_sha]
        assert len(replies) == 1 and head in replies[0]["body"], replies
        assert parse_marker(state.comments[cid]["body"]).proposals[0].status == f"applied {head}"
        assert run.trace["outcome"] == "applied"
    else:  # gave up: one ::error:: line; the branch is either untouched or at our one commit
        assert head == facts.head_sha or state.git.commits[head].parents == [facts.head_sha]
        assert len([ln for ln in run.stdout.splitlines() if ln.startswith("::error")]) == 1
    assert len(state.calls("PATCH", r"/repos/.*/git/refs/heads/feature")) <= 2
