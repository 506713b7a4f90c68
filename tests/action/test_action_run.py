"""A failed `workflow_run` end to end: the entry point in-process through
`repopilot.action.entry.main(env)` (two tests start `python -m repopilot action` in a subprocess), real
PyGithub, the loopback GitHub. One comment, edited on re-runs, whatever faults the API throws in
between."""

from __future__ import annotations

import hashlib
import io
import json
import zipfile

import pytest

from repopilot.comment.marker import parse_marker
from tests.loopback.github_action import (
    BOT,
    FORK,
    LOG,
    SHORT_TIMEOUT,
    run_action,
    run_event,
    seed,
)
from tests.loopback.github_server import Fault, GitHubServer, State

pytestmark = pytest.mark.integration

COMMENTS = r"/repos/octo-org/octo-repo/issues/7/comments"
SECONDARY = {"message": "You have exceeded a secondary rate limit. Please wait a few minutes."}


def _bot_comments(state: State) -> list[dict]:
    return [c for c in state.issue_comments(7) if c["login"] == BOT]


def test_failed_run_posts_one_comment(tmp_path, gh):
    server, facts = gh
    state = server.state
    # end to end: `python -m repopilot action` as the runner starts it
    run = run_action(tmp_path, server.url, "workflow_run", run_event(facts), process=True)
    assert run.returncode == 0, run.stderr
    [comment] = _bot_comments(state)
    marker = parse_marker(comment["body"])
    assert marker is not None and marker.run_id == facts.run_id and marker.pr == 7
    assert "tests/test_calc.py::test_add" in comment["body"]
    assert run.outputs["category"] == "test_failure"
    assert run.outputs["decided-by"] == "pattern"
    assert run.outputs["comment-url"].endswith(f"#issuecomment-{comment['id']}")
    assert run.outputs["proposal-id"] == ""
    assert run.trace["outcome"] == "commented"
    assert "test (3.12)" in run.summary
    assert "/actions/runs/555/job/101#step:3:" in comment["body"]  # linked into the failing step
    [job_trace] = run.trace["steps"][-1]["result"]["job_traces"]
    assert job_trace and (tmp_path / job_trace).exists() or __import__("os").path.exists(job_trace)
    [jobs] = state.calls("GET", r"/repos/octo-org/octo-repo/actions/runs/555/jobs")
    assert jobs.query.get("filter") == ["latest"]


def test_log_is_fetched_from_the_redirect_without_the_token(tmp_path, gh):
    server, facts = gh
    state = server.state
    run_action(tmp_path, server.url, "workflow_run", run_event(facts))
    [redirect] = state.calls("GET", r"/repos/octo-org/octo-repo/actions/jobs/101/logs")
    assert redirect.headers.get("Authorization", "").endswith("ghs_loopbacktesttoken0123456789")
    [download] = state.calls("GET", r"/jobs/101", host="storage")
    assert not any(k.lower() == "authorization" for k in download.headers)
    assert "ghs_loopback" not in str(download.headers)


def test_rerun_edits_the_same_comment(tmp_path, gh):
    server, facts = gh
    state = server.state
    assert run_action(tmp_path / "1", server.url, "workflow_run", run_event(facts)).returncode == 0
    [first] = _bot_comments(state)
    state.comments[first["id"]]["body"] = first["body"] + "\nstale"
    run = run_action(tmp_path / "2", server.url, "workflow_run", run_event(facts))
    assert run.returncode == 0, run.stderr
    [again] = _bot_comments(state)
    assert again["id"] == first["id"] and not again["body"].endswith("stale")
    assert len(state.calls("POST", COMMENTS)) == 1
    assert len(state.calls("PATCH", r"/repos/.*/issues/comments/\d+")) == 1


@pytest.mark.parametrize(
    "fault",
    [
        Fault("POST", COMMENTS, 502, land=True),  # created, but the answer was lost
        Fault("POST", COMMENTS, 502),
        Fault("POST", COMMENTS, 429, {"message": "slow down"}, {"Retry-After": "1"}),
        Fault("POST", COMMENTS, 403, SECONDARY, {"Retry-After": "1"}, land=True),
        Fault("GET", COMMENTS, 502, times=2),
        Fault(
            "GET", r"/repos/.*/actions/runs/555/jobs", 429, {"message": "x"}, {"Retry-After": "1"}
        ),
        Fault("GET", r"/repos/.*/actions/runs/555/jobs", 403, SECONDARY),
        Fault("GET", r"/repos/.*/pulls/7", 503, times=3),
        Fault("GET", COMMENTS, None, delay=1.5),  # longer than the client's 1 s timeout
        Fault("POST", COMMENTS, None, delay=1.4),  # lands after the client gave up, before it looks
    ],
    ids=[
        "post-502-landed",
        "post-502",
        "post-429",
        "post-secondary-landed",
        "list-502",
        "jobs-429",
        "jobs-secondary",
        "pull-503x3",
        "list-timeout",
        "post-timeout-landed",
    ],
)
def test_transient_faults_are_retried_and_leave_one_comment(tmp_path, gh, fault):
    server, facts = gh
    state = server.state
    state.faults.append(fault)
    waits = SHORT_TIMEOUT if fault.delay else None
    run = run_action(tmp_path, server.url, "workflow_run", run_event(facts), env=waits)
    assert run.returncode == 0, run.stdout + run.stderr
    assert len(_bot_comments(state)) == 1
    assert fault.times == 0, "the fault was never hit"


def test_comment_deleted_between_find_and_edit_is_recreated(tmp_path, gh):
    server, facts = gh
    state = server.state
    run_action(tmp_path / "1", server.url, "workflow_run", run_event(facts))
    [first] = _bot_comments(state)

    def delete(st: State) -> None:
        st.comments.pop(first["id"])

    state.faults.append(Fault("PATCH", rf"/repos/.*/issues/comments/{first['id']}", hook=delete))
    run = run_action(tmp_path / "2", server.url, "workflow_run", run_event(facts))
    assert run.returncode == 0, run.stderr
    [again] = _bot_comments(state)
    assert again["id"] != first["id"]


# `success` edits an existing comment to "resolved": tests/action/test_adoption_action.py
@pytest.mark.parametrize("conclusion", ["cancelled", "skipped", "neutral", None])
def test_other_conclusions_post_nothing(tmp_path, gh, conclusion):
    server, facts = gh
    state = server.state
    run = run_action(tmp_path, server.url, "workflow_run", run_event(facts, conclusion=conclusion))
    assert run.returncode == 0, run.stderr
    assert state.requests == [] and state.comments == {}
    assert run.trace["outcome"] == "ignored"


@pytest.mark.parametrize("why", ["own-workflow", "bot-commit"])
def test_own_runs_and_commits_are_ignored(tmp_path, gh, why):
    server, facts = gh
    event = run_event(
        facts,
        path=".github/workflows/repopilot.yml"
        if why == "own-workflow"
        else ".github/workflows/ci.yml",
    )
    if why == "bot-commit":
        event["workflow_run"]["head_commit"]["message"] = (
            "Apply\n\nRepoPilot-Proposal: fix-calc-add\n"
        )
    run = run_action(tmp_path, server.url, "workflow_run", event)
    assert run.returncode == 0 and server.state.comments == {}
    assert run.trace["outcome"] == "ignored"


def test_fork_pr_is_found_by_head_repo_and_sha(tmp_path):
    state = State(bot=BOT)
    with GitHubServer(state) as server:
        facts = seed(state, fork=True)
        # a PR from the same branch name in another fork must not be picked
        state.pulls[8] = {**state.pulls[7], "number": 8, "head_repo": "mallory/octo-repo"}
        run = run_action(tmp_path, server.url, "workflow_run", run_event(facts, fork=True))
    assert run.returncode == 0, run.stderr
    [call] = state.calls("GET", r"/repos/octo-org/octo-repo/pulls")
    assert call.query["head"] == ["forker:feature"]
    assert [c["issue"] for c in state.comments.values()] == [7]
    assert FORK not in state.refs or state.refs[FORK]["feature"] == facts.head_sha


def test_no_pull_request_writes_the_summary_only(tmp_path, gh):
    server, facts = gh
    state = server.state
    state.pulls.clear()
    run = run_action(tmp_path, server.url, "workflow_run", run_event(facts, prs=False))
    assert run.returncode == 0, run.stderr
    # nothing posted; only the memory (issue 28, docs/MEMORY.md) writes its branch
    assert state.comments == {} and not state.calls("POST", r"/repos/[^/]+/[^/]+/(issues|pulls)/.*")
    assert "no pull request" in run.summary and "<!-- repopilot:" in run.summary
    assert run.outputs["category"] == "test_failure" and run.outputs["comment-url"] == ""


def test_dry_run_writes_the_comment_to_the_summary(tmp_path, gh):
    server, facts = gh
    state = server.state
    run = run_action(tmp_path, server.url, "workflow_run", run_event(facts), dry_run="true")
    assert run.returncode == 0, run.stderr
    assert state.comments == {} and not state.calls("POST", r".*")
    assert "dry run" in run.summary and "tests/test_calc.py::test_add" in run.summary


def _zip(jobs: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for i, (name, data) in enumerate(jobs.items()):
            zf.writestr(f"{i}_{name}.txt", data)
    return buf.getvalue()


@pytest.mark.parametrize("status", [404, 410])
def test_expired_job_log_falls_back_to_the_run_zip(tmp_path, gh, status):
    server, facts = gh
    state = server.state
    state.job_logs[101] = status
    state.runs[555]["zip"] = _zip({"lint": b"ok\n", "test (3.12)": LOG})
    run = run_action(tmp_path, server.url, "workflow_run", run_event(facts))
    assert run.returncode == 0, run.stderr
    assert run.outputs["category"] == "test_failure"
    [download] = state.calls("GET", r"/runs/555\.zip", host="storage")
    assert not any(k.lower() == "authorization" for k in download.headers)


def test_no_log_at_all_still_comments(tmp_path, gh):
    server, facts = gh
    server.state.job_logs[101] = 410
    run = run_action(tmp_path, server.url, "workflow_run", run_event(facts))
    assert run.returncode == 0, run.stderr
    assert run.outputs["category"] == "unknown"
    [comment] = _bot_comments(server.state)
    assert "could not be read" in comment["body"]


def test_api_unreachable_after_retries_is_one_error_line(tmp_path, gh):
    server, facts = gh
    server.state.faults.append(Fault("GET", r"/repos/.*/actions/runs/555/jobs", 502, times=50))
    # in a subprocess: the exit status and the console are the runner's
    run = run_action(tmp_path, server.url, "workflow_run", run_event(facts), process=True)
    assert run.returncode == 1
    errors = [line for line in run.stdout.splitlines() if line.startswith("::error")]
    assert len(errors) == 1 and "GitHub API" in errors[0]
    assert "Traceback" not in run.stderr
    assert server.state.comments == {}
    assert run.trace["outcome"] == "error"


@pytest.mark.parametrize(
    "inputs,message",
    [
        ({"llm": "gpt"}, "input llm"),
        ({"dry_run": "maybe"}, "input dry-run"),
        ({"mode": "both"}, "input mode"),
        ({"github_token": "", "escalate": "always"}, "input"),
    ],
)
def test_bad_inputs_fail_with_one_error_line(tmp_path, gh, inputs, message):
    server, facts = gh
    run = run_action(tmp_path, server.url, "workflow_run", run_event(facts), **inputs)
    assert run.returncode == 1
    [error] = [line for line in run.stdout.splitlines() if line.startswith("::error")]
    assert message in error and "Traceback" not in run.stderr


def test_token_without_user_endpoint_posts_as_github_actions(tmp_path):
    state = State(bot=None)  # GET /user -> 403, like the workflow GITHUB_TOKEN
    with GitHubServer(state) as server:
        facts = seed(state)
        run = run_action(tmp_path / "1", server.url, "workflow_run", run_event(facts))
        run2 = run_action(tmp_path / "2", server.url, "workflow_run", run_event(facts))
    assert run.returncode == 0 and run2.returncode == 0, run.stderr + run2.stderr
    assert [c["login"] for c in state.comments.values()] == ["github-actions[bot]"]


def test_enterprise_server_api_prefix(tmp_path):
    state = State(bot=BOT, prefix="/api/v3")
    with GitHubServer(state) as server:
        facts = seed(state)
        run = run_action(tmp_path, server.url, "workflow_run", run_event(facts))
    assert run.returncode == 0, run.stderr
    assert len(state.comments) == 1
    assert run.outputs["comment-url"].startswith(server.url.split("/api/v3")[0])


def test_analyze_then_post_in_separate_jobs(tmp_path, gh):
    server, facts = gh
    state = server.state
    result = str(tmp_path / "shared" / "result.json")
    first = run_action(
        tmp_path / "a",
        server.url,
        "workflow_run",
        run_event(facts),
        mode="analyze",
        result_file=result,
    )
    assert first.returncode == 0, first.stderr
    assert state.comments == {} and first.outputs["category"] == "test_failure"
    seen = len(state.requests)
    second = run_action(
        tmp_path / "p",
        server.url,
        "workflow_run",
        run_event(facts),
        mode="post",
        result_file=result,
    )
    assert second.returncode == 0, second.stderr
    assert len(_bot_comments(state)) == 1
    later = state.requests[seen:]
    assert not any("/actions/" in r.path or r.host == "storage" for r in later)


def test_post_refuses_a_result_file_of_another_run(tmp_path, gh):
    server, facts = gh
    result = str(tmp_path / "result.json")
    run_action(
        tmp_path / "a",
        server.url,
        "workflow_run",
        run_event(facts),
        mode="analyze",
        result_file=result,
    )
    other = run_event(facts)
    other["workflow_run"]["id"] = 556
    run = run_action(
        tmp_path / "p", server.url, "workflow_run", other, mode="post", result_file=result
    )
    assert run.returncode == 1 and "result-file" in run.stdout
    assert server.state.comments == {}


def test_hostile_branch_name_is_only_data(tmp_path):
    branch = "$(touch pwned)`id`;${{ github.token }}"
    state = State(bot=BOT)
    with GitHubServer(state) as server:
        facts = seed(state, fork=True)
        state.pulls[7]["head_ref"] = branch
        event = run_event(facts, fork=True)
        event["workflow_run"]["head_branch"] = branch
        run = run_action(tmp_path, server.url, "workflow_run", event)
    assert run.returncode == 0, run.stderr
    [call] = state.calls("GET", r"/repos/octo-org/octo-repo/pulls")
    assert call.query["head"] == [f"forker:{branch}"]
    assert [c["issue"] for c in state.comments.values()] == [7]
    assert not (tmp_path / "pwned").exists()


def test_post_rechecks_proposals_from_the_result_file(tmp_path, gh):
    server, facts = gh
    result = tmp_path / "result.json"
    run_action(
        tmp_path / "a",
        server.url,
        "workflow_run",
        run_event(facts),
        mode="analyze",
        result_file=str(result),
    )
    data = json.loads(result.read_text())
    evil = (
        "--- a/.github/workflows/ci.yml\n+++ b/.github/workflows/ci.yml\n@@ -1 +1 @@\n"
        "-on: push\n+on: pull_request_target\n"
    )
    data["jobs"][0]["result"]["proposal"] = {
        "id": "evil-fix1",
        "diff": evil,
        "sha256": hashlib.sha256(evil.encode()).hexdigest(),
        "files": [".github/workflows/ci.yml"],
        "diagnosis": "trust me",
        "confidence": 0.99,
    }
    result.write_text(json.dumps(data))
    run = run_action(
        tmp_path / "p",
        server.url,
        "workflow_run",
        run_event(facts),
        mode="post",
        result_file=str(result),
    )
    assert run.returncode == 0, run.stderr
    [comment] = _bot_comments(server.state)
    assert "/repopilot apply evil-fix1" not in comment["body"]
    assert parse_marker(comment["body"]).proposals == ()
