"""The Action as a new user copies it, end to end against the loopback GitHub (issue 13):
no LLM key, a passing re-run, four identical matrix jobs, an apply, and the same-workflow mode.
The entry point runs through `repopilot.action.entry.main(env)` with real PyGithub; comments are
parsed with markdown-it-py as GitHub renders them."""

from __future__ import annotations

import hashlib
import json

import pytest
from markdown_it import MarkdownIt

from repopilot.action.result_file import JobResult, RunResult
from repopilot.action.result_file import save as save_result
from repopilot.comment.marker import parse_marker
from repopilot.records import Evidence, Verdict
from repopilot.run_records import Proposal, TriageResult
from tests.adoption_logs import pytest_log, unknown_log
from tests.loopback.github_action import BOT, FIX, REPO, STEPS, comment_event, run_action, run_event
from tests.loopback.github_action import seed as seed_state
from tests.loopback.github_server import Fault, GitHubServer, State

pytestmark = pytest.mark.integration
MD = MarkdownIt("commonmark").enable(["table", "strikethrough"])
BUILTIN = {"patterns": ""}  # the bundled pattern library, as the Action ships it


@pytest.fixture
def gh():
    state = State(bot=BOT)
    with GitHubServer(state) as server:
        yield server, seed_state(state)
    assert state.errors == []


def bot_comments(state: State) -> list[dict]:
    return [c for c in state.issue_comments(7) if c["login"] == BOT]


def tokens(body: str):
    for tok in MD.parse(body):
        yield tok
        yield from tok.children or ()


def set_jobs(state: State, logs: dict[int, bytes], names: dict[int, str] | None = None) -> None:
    jobs = [{"id": 100, "name": "lint", "conclusion": "success"}]
    for job_id, log in logs.items():
        name = (names or {}).get(job_id, f"job {job_id}")
        jobs.append({"id": job_id, "name": name, "conclusion": "failure", "steps": STEPS})
        state.job_logs[job_id] = log
    state.runs[555]["jobs"] = jobs


def test_no_llm_key_still_posts_the_pattern_verdict_and_says_why(tmp_path, gh):
    server, facts = gh
    set_jobs(server.state, {101: unknown_log()}, {101: "release"})
    run = run_action(
        tmp_path,
        server.url,
        "workflow_run",
        run_event(facts),
        env={"OPENAI_API_KEY": ""},
        llm="openai",
        **BUILTIN,
    )
    assert run.returncode == 0, run.stderr
    [comment] = bot_comments(server.state)
    body = comment["body"]
    assert "The LLM was skipped" in body and "OPENAI\\_API\\_KEY is not set" in body
    assert "::warning::RepoPilot: the LLM was skipped: openai: OPENAI_API_KEY" in run.stdout
    assert run.outputs["category"] == "unknown" and run.outputs["decided-by"] == "none"
    # the unknown failure's own words are in the context block, above the exit line
    [context] = [t.content for t in tokens(body) if t.type == "fence" and t.info == "text"]
    assert "the versions differ; add a CHANGELOG.md entry for 1.4.0" in context
    assert "exit code 3" in context
    # the run summary in the Action's own log
    assert "RepoPilot: run 555: 1 failed job" in run.stdout
    assert "LLM: skipped (openai: OPENAI_API_KEY is not set" in run.stdout
    assert "  comment: http" in run.stdout and comment_url(comment) in run.stdout


def comment_url(comment: dict) -> str:
    return f"#issuecomment-{comment['id']}"


def test_passing_rerun_marks_the_comment_resolved(tmp_path, gh):
    server, facts = gh
    state = server.state
    set_jobs(state, {101: pytest_log()}, {101: "test (3.12)"})
    first = run_action(tmp_path / "1", server.url, "workflow_run", run_event(facts), **BUILTIN)
    assert first.returncode == 0, first.stderr
    [failed] = bot_comments(state)
    assert "test_failure" in first.outputs["category"]
    green = run_action(
        tmp_path / "2", server.url, "workflow_run", run_event(facts, conclusion="success")
    )
    assert green.returncode == 0, green.stderr
    [resolved] = bot_comments(state)
    assert resolved["id"] == failed["id"]
    body = resolved["body"]
    assert "### RepoPilot: resolved" in body and "no longer occurs" in body
    assert green.outputs["comment-url"].endswith(comment_url(resolved))
    assert green.trace["outcome"] == "resolved"
    details = [t for t in MD.parse(body) if t.type == "html_block" and "<details>" in t.content]
    assert details and "Earlier failure (run 555)" in details[0].content
    assert "**Earlier:** 1 failed job" in body  # the old header, demoted, inside the details
    assert "```" not in body  # short: no context block, no diff
    assert parse_marker(body) is not None
    # a second green run edits nothing
    patches = len(state.calls("PATCH", r"/repos/.*/issues/comments/\d+"))
    again = run_action(
        tmp_path / "3", server.url, "workflow_run", run_event(facts, conclusion="success")
    )
    assert again.returncode == 0 and again.trace["outcome"] == "ignored"
    assert len(state.calls("PATCH", r"/repos/.*/issues/comments/\d+")) == patches


def test_a_green_run_without_a_comment_posts_nothing(tmp_path, gh):
    server, facts = gh
    run = run_action(tmp_path, server.url, "workflow_run", run_event(facts, conclusion="success"))
    assert run.returncode == 0 and server.state.comments == {}
    assert not server.state.calls("POST", r"/repos/.*/issues/\d+/comments")


def test_four_identical_matrix_jobs_are_one_section_with_a_table(tmp_path, gh):
    server, facts = gh
    names = {101 + i: f"test ({v})" for i, v in enumerate(("3.10", "3.11", "3.12", "3.13"))}
    set_jobs(server.state, {job: pytest_log() for job in names}, names)
    run = run_action(tmp_path, server.url, "workflow_run", run_event(facts), **BUILTIN)
    assert run.returncode == 0, run.stderr
    [comment] = bot_comments(server.state)
    body = comment["body"]
    assert "4 failed jobs" in body
    assert body.count("\n#### ") == 1, "identical failures are one section"
    assert "(4 jobs): test failure" in body  # issue 23: the heading names the group
    rows = [t for t in tokens(body) if t.type == "tr_open"]
    assert rows == []  # one distinct failure: no table repeating the section
    hrefs = [t.attrs["href"] for t in tokens(body) if t.type == "link_open"]
    for job in names:
        assert any(f"/job/{job}#step:3:" in h for h in hrefs), job
    [context] = [t.content for t in tokens(body) if t.type == "fence" and t.info == "text"]
    assert "E       assert (1, 2) in {(1, 1), (2, 2)}" in context
    assert "tests/test_core.py:430: AssertionError" in context
    assert "RepoPilot: run 555: 4 failed jobs" in run.stdout


def _result_with_proposal(facts) -> RunResult:
    sha = hashlib.sha256(FIX.encode()).hexdigest()
    prop = Proposal(
        id="fix-calc-add",
        diff=FIX,
        sha256=sha,
        files=("src/calc.py",),
        diagnosis="`add` subtracts.",
        confidence=0.8,
    )
    verdict = Verdict(
        source="job-101.log",
        category="test_failure",
        confidence=0.9,
        decided_by="llm",
        pattern_id="python.pytest.failed-test",
        title="pytest: tests/test_calc.py::test_add failed",
        evidence=(Evidence(line=18, text="E       assert 3 == 4"),),
    )
    result = TriageResult(verdict=verdict, diagnosis="`add` subtracts.", escalated=True)
    job = JobResult(
        id=101,
        name="test (3.12)",
        conclusion="failure",
        html_url=f"https://github.com/{REPO}/actions/runs/555/job/101",
        step_number=3,
        result=result.model_copy(update={"proposal": prop}),
    )
    return RunResult(
        repository=REPO, run_id=555, run_attempt=1, head_sha=facts.head_sha, jobs=[job]
    )


def test_apply_replaces_the_instructions_with_the_outcome(tmp_path, gh):
    server, facts = gh
    state = server.state
    save_result(tmp_path / "result.json", _result_with_proposal(facts))
    posted = run_action(
        tmp_path,
        server.url,
        "workflow_run",
        run_event(facts),
        mode="post",
        result_file=str(tmp_path / "result.json"),
    )
    assert posted.returncode == 0, posted.stderr
    [comment] = bot_comments(state)
    assert "a maintainer comments `/repopilot apply fix-calc-add`" in comment["body"]
    assert comment["body"].count("subtracts") == 1  # the diagnosis once, not twice
    applied = run_action(
        tmp_path / "a", server.url, "issue_comment", comment_event("/repopilot apply fix-calc-add")
    )
    assert applied.returncode == 0, applied.stderr
    body = state.comments[comment["id"]]["body"]
    assert "/repopilot apply fix-calc-add" not in body
    commit = parse_marker(body).proposals[0].status.split(" ", 1)[1]
    assert f"**Applied** in {commit} after a maintainer's approval." in body
    assert state.refs[REPO]["feature"] == commit


def _pull_request_event(facts) -> dict:
    head = {
        "ref": "feature",
        "sha": facts.head_sha,
        "repo": {"full_name": REPO, "name": "octo-repo", "owner": {"login": "octo-org"}},
    }
    return {
        "action": "synchronize",
        "number": 7,
        "pull_request": {"number": 7, "head": head, "base": {**head, "ref": "main"}},
        "repository": {"full_name": REPO, "name": "octo-repo", "owner": {"login": "octo-org"}},
        "sender": {"login": "contributor", "type": "User"},
    }


def test_same_workflow_mode_triages_the_current_run(tmp_path, gh):
    server, facts = gh
    set_jobs(server.state, {101: pytest_log()}, {101: "test (3.12)"})
    env = {"GITHUB_RUN_ID": "555", "GITHUB_RUN_ATTEMPT": "1"}
    event = _pull_request_event(facts)
    run = run_action(tmp_path, server.url, "pull_request", event, env=env, **BUILTIN)
    assert run.returncode == 0, run.stderr
    [comment] = bot_comments(server.state)
    marker = parse_marker(comment["body"])
    assert marker.run_id == 555 and marker.head_sha == facts.head_sha and marker.pr == 7
    assert run.outputs["category"] == "test_failure"
    # the same job with `if: always()` on a run whose jobs all passed: resolved
    server.state.runs[555]["jobs"] = [{"id": 100, "name": "lint", "conclusion": "success"}]
    green = run_action(tmp_path / "2", server.url, "pull_request", event, env=env)
    assert green.returncode == 0, green.stderr
    assert "### RepoPilot: resolved" in server.state.comments[comment["id"]]["body"]


def test_analyze_hands_the_llm_note_to_the_post_job(tmp_path, gh):
    server, facts = gh
    set_jobs(server.state, {101: unknown_log()}, {101: "release"})
    result = tmp_path / "r.json"
    common = dict(result_file=str(result), **BUILTIN)
    analyzed = run_action(
        tmp_path / "an",
        server.url,
        "workflow_run",
        run_event(facts),
        env={"OPENAI_API_KEY": ""},
        mode="analyze",
        llm="openai",
        **common,
    )
    assert analyzed.returncode == 0, analyzed.stderr
    assert json.loads(result.read_text())["llm"]["skipped"].startswith("openai: OPENAI_API_KEY")
    posted = run_action(
        tmp_path / "po", server.url, "workflow_run", run_event(facts), mode="post", **common
    )
    assert posted.returncode == 0, posted.stderr
    [comment] = bot_comments(server.state)
    assert "The LLM was skipped" in comment["body"]


def test_same_workflow_mode_on_a_fork_token_puts_the_comment_in_the_summary(tmp_path, gh):
    server, facts = gh
    set_jobs(server.state, {101: pytest_log()}, {101: "test (3.12)"})
    forbidden = {"message": "Resource not accessible by integration"}
    server.state.faults.append(
        Fault("POST", r"/repos/.*/issues/7/comments", status=403, body=forbidden, times=9)
    )
    env = {"GITHUB_RUN_ID": "555", "GITHUB_RUN_ATTEMPT": "1"}
    run = run_action(
        tmp_path, server.url, "pull_request", _pull_request_event(facts), env=env, **BUILTIN
    )
    assert run.returncode == 0, run.stderr
    assert "::warning::RepoPilot cannot comment with this run's token" in run.stdout
    assert "E       assert (1, 2) in {(1, 1), (2, 2)}" in run.summary
    assert "RepoPilot could not post" in run.summary and bot_comments(server.state) == []
