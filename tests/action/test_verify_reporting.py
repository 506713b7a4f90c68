"""Issue 23: the Action says what it did. The job summary says whether the comment was created or
updated; the apply job's own log says what a command did (applied as which commit, or refused and
why) and where the reply is. End to end against the loopback GitHub."""

from __future__ import annotations

import hashlib

import pytest

from repopilot.action.result_file import JobResult, RunResult
from repopilot.action.result_file import save as save_result
from repopilot.records import Evidence, Verdict
from repopilot.run_records import Proposal, TriageResult
from tests.loopback.github_action import (
    BOT,
    FIX,
    REPO,
    Facts,
    comment_event,
    run_action,
    run_event,
)
from tests.loopback.github_action import seed as seed_state
from tests.loopback.github_server import GitHubServer, State

pytestmark = pytest.mark.integration


@pytest.fixture
def gh():
    state = State(bot=BOT)
    with GitHubServer(state) as server:
        yield server, seed_state(state)
    assert state.errors == []


def proposed(facts: Facts) -> RunResult:
    """A run result whose one failed job carries the fix for `add` (the seed's broken head)."""
    prop = Proposal(
        id="fix-calc-add",
        diff=FIX,
        sha256=hashlib.sha256(FIX.encode()).hexdigest(),
        files=("src/calc.py",),
        diagnosis="`add` subtracts.",
        confidence=0.8,
    )
    verdict = Verdict(
        source="job-101.log",
        category="test_failure",
        confidence=0.9,
        decided_by="llm",
        title="pytest: tests/test_calc.py::test_add failed",
        evidence=(Evidence(line=18, text="E       assert 3 == 4"),),
    )
    job = JobResult(
        id=101,
        name="test (3.12)",
        conclusion="failure",
        html_url=f"https://github.com/{REPO}/actions/runs/555/job/101",
        step_number=3,
        result=TriageResult(verdict=verdict, diagnosis="`add` subtracts.", proposal=prop),
    )
    return RunResult(
        repository=REPO, run_id=555, run_attempt=1, head_sha=facts.head_sha, jobs=[job]
    )


def post(tmp_path, server, facts):
    save_result(tmp_path / "result.json", proposed(facts))
    return run_action(
        tmp_path,
        server.url,
        "workflow_run",
        run_event(facts),
        mode="post",
        result_file=str(tmp_path / "result.json"),
    )


def test_the_summary_says_created_then_updated(tmp_path, gh) -> None:
    server, facts = gh
    first = post(tmp_path / "1", server, facts)
    assert first.returncode == 0, first.stderr
    assert "RepoPilot created its comment on #7" in first.summary
    second = post(tmp_path / "2", server, facts)
    assert "RepoPilot updated its comment on #7" in second.summary


def test_the_apply_job_logs_what_it_did(tmp_path, gh) -> None:
    server, facts = gh
    assert post(tmp_path / "p", server, facts).returncode == 0
    refused = run_action(
        tmp_path / "r",
        server.url,
        "issue_comment",
        comment_event("/repopilot apply fix-calc-add", login="reader", cid=901),
    )
    [line] = [ln for ln in refused.stdout.splitlines() if ln.startswith("RepoPilot: refused")]
    assert "has the role `read`" in line and "(reply: http" in line
    applied = run_action(
        tmp_path / "a",
        server.url,
        "issue_comment",
        comment_event("/repopilot apply fix-calc-add", cid=902),
    )
    assert applied.returncode == 0, applied.stderr
    sha = server.state.refs[REPO]["feature"]
    assert sha != facts.head_sha
    [line] = [ln for ln in applied.stdout.splitlines() if ln.startswith("RepoPilot: applied")]
    assert f"proposal fix-calc-add as commit {sha}" in line and "(reply: http" in line
    assert not any(ln.startswith("::") and "add-mask" in ln for ln in applied.stdout.splitlines())
