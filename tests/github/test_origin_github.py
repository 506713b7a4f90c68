"""Each origin end to end (issue 14): `python -m repopilot action` in a subprocess, real PyGithub,
the loopback GitHub serving the base branch's runs, run attempts and job logs."""

from __future__ import annotations

import json

import pytest

from repopilot.comment.marker import parse_marker
from tests.loopback.github_action import BOT, LOG, run_action, run_event, seed
from tests.loopback.github_runs import WORKFLOW_ID, add_run, base_run
from tests.loopback.github_server import Fault, GitHubServer, State

pytestmark = pytest.mark.integration

JOB = "test (3.12)"
BASE_SHA = "b" * 40
# The same failure on another day, runner and duration; and another test failing in that file.
SAME = LOG.replace(b"2026-03-01T10", b"2026-02-27T22").replace(b"in 0.05s", b"in 1.93s")
OTHER = LOG.replace(b"test_add", b"test_sub")
DISK = (
    b"2026-03-01T10:00:00.0000000Z ##[group]Run pytest -q\n"
    b"2026-03-01T10:00:01.0000000Z ##[endgroup]\n"
    b"2026-03-01T10:00:02.0000000Z OSError: [Errno 28] No space left on device\n"
    b"2026-03-01T10:00:03.0000000Z ##[error]Process completed with exit code 1.\n"
)
LOOKUPS = r"/repos/octo-org/octo-repo/actions/(workflows/.*/runs|runs/\d+/attempts/\d+/jobs)"


@pytest.fixture
def gh():
    state = State(bot=BOT)
    with GitHubServer(state) as server:
        facts = seed(state)
        run = state.runs[facts.run_id]
        run.update(branch="feature", event="pull_request", number=77, status="completed")
        yield server, facts
    assert state.errors == []


def event(facts, **run_fields):
    ev = run_event(facts)
    ev["workflow_run"].update(workflow_id=WORKFLOW_ID, **run_fields)
    ev["workflow_run"]["pull_requests"][0]["base"].update(ref="main", sha=facts.base_sha)
    return ev


def act(tmp_path, server, facts, **inputs):
    run = run_action(tmp_path, server.url, "workflow_run", event(facts), **inputs)
    assert run.returncode == 0, run.stderr
    return run


def origin_of(run) -> dict:
    [origin] = run.trace["steps"][-1]["result"]["origins"]
    return origin


def job_trace(run) -> dict:
    [path] = run.trace["steps"][-1]["result"]["job_traces"]
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)


def comment(state) -> str:
    [c] = [c for c in state.issue_comments(7) if c["login"] == BOT]
    return c["body"]


def test_this_pr_when_the_job_passes_on_the_base_branch(tmp_path, gh):
    server, facts = gh
    base_run(server.state, 901, 41, "success")
    run = act(tmp_path, server, facts)
    assert run.outputs["origin"] == "this_pr"
    got = origin_of(run)
    assert got["base_run_number"] == 41 and got["base_branch"] == "main"
    assert got["signature"] == "python.pytest.failed-test|test=tests/test_calc.py::test_add"
    assert "`this_pr`" in run.summary
    [step] = [s for s in job_trace(run)["steps"] if (s["result"] or {}).get("event") == "origin"]
    assert step["result"]["origin"] == "this_pr" and step["result"]["signature"]
    # the base job passed: its log is fetched once, as the last green log (issue 20)
    assert len(server.state.calls("GET", r"/repos/.*/actions/jobs/9010/logs")) == 1


def test_base_branch_when_the_same_failure_is_on_main(tmp_path, gh):
    server, facts = gh
    state = server.state
    base_run(state, 903, 43, "failure", SAME)
    base_run(state, 902, 42, "failure", SAME)
    base_run(state, 901, 41, "success")
    run = act(tmp_path, server, facts)
    assert run.outputs["origin"] == "base_branch"
    got = origin_of(run)
    assert got["base_run_number"] == 42 and got["base_run_url"].endswith("/actions/runs/902")
    # logs only for the comparable failed jobs, never for lint or passing jobs
    assert state.calls("GET", r"/repos/.*/actions/jobs/9030/logs")
    assert state.calls("GET", r"/repos/.*/actions/jobs/9020/logs")
    assert not state.calls("GET", r"/repos/.*/actions/jobs/90[23]9/logs")


def test_another_failure_on_main_is_not_blamed_on_main(tmp_path, gh):
    server, facts = gh
    base_run(server.state, 901, 41, "failure", OTHER)
    run = act(tmp_path, server, facts)
    assert run.outputs["origin"] == "undetermined"
    assert "another failure" in origin_of(run)["reason"]


def test_flaky_when_another_attempt_of_the_commit_passed(tmp_path, gh):
    server, facts = gh
    state = server.state
    base_run(state, 901, 41, "success")
    state.runs[facts.run_id].update(
        attempt=2, attempts={1: [{"id": 99, "name": JOB, "conclusion": "success"}]}
    )
    ev = event(facts, run_attempt=2)
    run = run_action(tmp_path, server.url, "workflow_run", ev)
    assert run.returncode == 0, run.stderr
    assert run.outputs["origin"] == "flaky"
    assert state.calls("GET", r"/repos/.*/actions/runs/555/attempts/1/jobs")
    # decided before the base branch's jobs mattered; they are listed once, for the last green
    # log (issue 20: fetched before the failing log is classified)
    assert len(state.calls("GET", r"/repos/.*/actions/runs/901/jobs")) == 1


def test_flaky_when_the_same_failure_came_and_went_on_main(tmp_path, gh):
    server, facts = gh
    base_run(server.state, 902, 42, "success")
    base_run(server.state, 901, 41, "failure", SAME)
    run = act(tmp_path, server, facts)
    assert run.outputs["origin"] == "flaky"
    assert origin_of(run)["base_run_number"] == 41


def test_infra_for_a_full_disk_the_pr_did_not_cause(tmp_path, gh):
    server, facts = gh
    state = server.state
    state.job_logs[facts.job_id] = DISK
    state.pull_files[7] = [{"filename": "src/calc.py"}]
    base_run(state, 901, 41, "success")
    run = act(tmp_path, server, facts, patterns="")
    assert run.outputs["category"] == "oom_disk"
    assert run.outputs["origin"] == "infra"
    assert state.calls("GET", rf"/repos/.*/compare/{facts.base_sha}\.\.\.{facts.head_sha}")


def test_a_full_disk_with_a_workflow_change_is_not_called_infra(tmp_path, gh):
    server, facts = gh
    state = server.state
    state.job_logs[facts.job_id] = DISK
    state.pull_files[7] = [{"filename": ".github/workflows/ci.yml"}]
    run = act(tmp_path, server, facts, patterns="")
    assert run.outputs["origin"] == "undetermined"
    assert "CI configuration" in origin_of(run)["reason"]


def test_undetermined_without_base_branch_runs(tmp_path, gh):
    server, facts = gh
    run = act(tmp_path, server, facts)
    assert run.outputs["origin"] == "undetermined"
    assert "no completed run" in origin_of(run)["reason"]


def test_matrix_jobs_are_matched_by_their_full_name(tmp_path, gh):
    server, facts = gh
    state = server.state
    jobs = [
        {"id": 9010, "name": "test (3.11)", "conclusion": "failure"},
        {"id": 9011, "name": JOB, "conclusion": "success"},
    ]
    add_run(state, 901, branch="main", head_sha=BASE_SHA, jobs=jobs, number=41)
    state.job_logs[9010] = SAME
    run = act(tmp_path, server, facts)
    assert run.outputs["origin"] == "this_pr"
    assert not state.calls("GET", r"/repos/.*/actions/jobs/9010/logs")


def test_a_fork_branch_named_main_is_not_the_base_branch(tmp_path, gh):
    server, facts = gh
    state = server.state
    base_run(state, 902, 42, "failure", SAME)
    state.runs[902].update(event="pull_request", head_repo="forker/octo-repo")
    base_run(state, 901, 41, "success")
    run = act(tmp_path, server, facts)
    assert run.outputs["origin"] == "this_pr" and origin_of(run)["base_run_number"] == 41


def test_budget_exhaustion_ends_in_undetermined(tmp_path, gh):
    server, facts = gh
    base_run(server.state, 901, 41, "success")
    run = act(tmp_path, server, facts, origin_budget="2")
    assert run.outputs["origin"] == "undetermined"
    assert "budget (2)" in origin_of(run)["reason"]
    lookups = server.state.calls("GET", LOOKUPS)
    jobs = server.state.calls("GET", r"/repos/.*/actions/runs/901/jobs")
    assert len(lookups) + len(jobs) == 2


def test_budget_zero_turns_origins_off(tmp_path, gh):
    server, facts = gh
    base_run(server.state, 901, 41, "success")
    run = act(tmp_path, server, facts, origin_budget="0")
    assert run.outputs["origin"] == ""
    assert not server.state.calls("GET", LOOKUPS)


def test_a_bad_budget_is_one_configuration_error(tmp_path, gh):
    server, facts = gh
    run = run_action(tmp_path, server.url, "workflow_run", event(facts), origin_budget="lots")
    assert run.returncode == 1
    assert "origin-budget" in run.stdout and "Traceback" not in run.stderr


@pytest.mark.parametrize(
    ("status", "body"),
    [
        (500, {"message": "Server Error"}),
        (403, {"message": "Resource not accessible by integration"}),
        (404, {"message": "Not Found"}),
    ],
)
def test_api_errors_end_in_undetermined_and_the_comment_is_posted(tmp_path, gh, status, body):
    server, facts = gh
    state = server.state
    base_run(state, 901, 41, "success")
    state.faults.append(
        Fault("GET", r"/repos/.*/actions/workflows/.*/runs", status=status, body=body, times=50)
    )
    run = act(tmp_path, server, facts)
    assert run.outputs["origin"] == "undetermined"
    assert f"answered {status}" in origin_of(run)["reason"]
    assert parse_marker(comment(state)) is not None
    assert run.outputs["category"] == "test_failure"
    # not retried past the client's limits: a 4xx once, a 5xx within the client's retries
    tries = len(state.calls("GET", r"/repos/.*/actions/workflows/.*/runs"))
    assert tries == 1 if status < 500 else 1 <= tries <= 5


def test_a_lost_base_log_is_not_a_match(tmp_path, gh):
    server, facts = gh
    base_run(server.state, 901, 41, "failure")  # no log stored: 404
    run = act(tmp_path, server, facts)
    assert run.outputs["origin"] == "undetermined"
    assert "another failure" in origin_of(run)["reason"]
    assert server.state.calls("GET", r"/repos/.*/actions/jobs/9010/logs")


def test_extra_requests_for_a_typical_failed_run(tmp_path, gh):
    """The measured cost: one failed job, `main` green. Recorded in the issue's closing note."""
    server, facts = gh
    state = server.state
    base_run(state, 902, 42, "success")
    base_run(state, 901, 41, "success")
    before = len([r for r in state.requests if r.host == "api"])
    act(tmp_path / "off", server, facts, origin_budget="0", memory="false")
    off = len([r for r in state.requests if r.host == "api"]) - before
    state.requests.clear()
    state.comments.clear()
    act(tmp_path / "on", server, facts, memory="false")  # the memory's own: docs/MEMORY.md
    on = len([r for r in state.requests if r.host == "api"])
    # runs at the head SHA, base-branch runs, jobs of the latest base run, and (issue 20) the
    # log endpoint of the same job in the newest green run
    assert on - off == 4


def test_a_green_run_without_the_job_is_not_evidence(tmp_path, gh):
    server, facts = gh
    state = server.state
    base_run(state, 901, 41, "failure", SAME)
    lint_only = [{"id": 9021, "name": "lint", "conclusion": "success"}]
    add_run(
        state,
        902,
        branch="main",
        head_sha=BASE_SHA,
        jobs=lint_only,
        conclusion="success",
        number=42,
    )
    base_run(state, 903, 43, "success")
    state.runs[903]["jobs"] = lint_only  # the job was not run there either (a condition)
    run = act(tmp_path, server, facts)
    assert run.outputs["origin"] == "base_branch"
    assert origin_of(run)["base_run_number"] == 41
    assert state.calls("GET", r"/repos/.*/actions/runs/90[23]/jobs")


def test_the_comment_wording_follows_the_origin(tmp_path, gh):
    server, facts = gh
    state = server.state
    base_run(state, 902, 42, "failure", SAME)
    base_run(state, 901, 41, "success")
    act(tmp_path, server, facts)
    body = comment(state)
    assert "**Origin: base branch**" in body
    assert "also failing on ` main ` since [run #42](<" in body and "/actions/runs/902>)" in body
    assert "not caused by this PR" in body
    assert "caused by the changes in this pull request" not in body
    assert "rebase this branch on it" in body  # issue 23: the next step
    assert parse_marker(body).origins == {JOB: "base_branch"}


def test_flaky_and_undetermined_comments_never_blame_the_pr(tmp_path, gh):
    server, facts = gh
    state = server.state
    base_run(state, 902, 42, "success")
    base_run(state, 901, 41, "failure", SAME)
    act(tmp_path / "flaky", server, facts)
    body = comment(state)
    assert "**Origin: flaky**" in body and "re-run the failed jobs" in body
    assert "caused by the changes" not in body
    state.runs = {k: v for k, v in state.runs.items() if k == facts.run_id}
    act(tmp_path / "undetermined", server, facts)
    body = comment(state)
    assert "**Origin:" not in body and "cannot tell" not in body  # undetermined: says nothing
    assert "caused" not in body


def test_several_jobs_get_an_origin_each_and_a_table_column(tmp_path, gh):
    server, facts = gh
    state = server.state
    run = state.runs[facts.run_id]
    run["jobs"].append({"id": 102, "name": "test (3.11)", "conclusion": "failure"})
    state.job_logs[102] = OTHER
    jobs = [
        {"id": 9010, "name": "test (3.11)", "conclusion": "success"},
        {"id": 9011, "name": JOB, "conclusion": "failure"},
    ]
    add_run(state, 901, branch="main", head_sha=BASE_SHA, jobs=jobs, number=41)
    state.job_logs[9011] = SAME
    got = act(tmp_path, server, facts)
    assert got.outputs["origin"] == "base_branch"  # the first failed job's
    body = comment(state)
    assert parse_marker(body).origins == {JOB: "base_branch", "test (3.11)": "this_pr"}
    assert "| Origin |" in body and "`this_pr`" in body and "`base_branch`" in body
    assert "Part of this looks caused by the changes in this pull request" in body
    # one list of base runs and one jobs list serve both failed jobs
    assert len(state.calls("GET", r"/repos/.*/actions/workflows/.*/runs")) == 2
    assert len(state.calls("GET", r"/repos/.*/actions/runs/901/jobs")) == 1


def test_origin_travels_from_analyze_to_post(tmp_path, gh):
    """The lookups run in the read-only analyze job; post only reads the result file."""
    server, facts = gh
    state = server.state
    base_run(state, 902, 42, "failure", SAME)
    result = str(tmp_path / "shared" / "result.json")
    first = act(tmp_path / "a", server, facts, mode="analyze", result_file=result)
    assert first.outputs["origin"] == "base_branch" and state.comments == {}
    seen = len(state.requests)
    second = act(tmp_path / "p", server, facts, mode="post", result_file=result)
    assert second.outputs["origin"] == "base_branch"
    assert parse_marker(comment(state)).origins == {JOB: "base_branch"}
    assert not any("/actions/" in r.path for r in state.requests[seen:])


def test_after_an_api_error_no_later_job_asks_again(tmp_path, gh):
    server, facts = gh
    state = server.state
    state.runs[facts.run_id]["jobs"].append(
        {"id": 102, "name": "test (3.11)", "conclusion": "failure"}
    )
    state.job_logs[102] = OTHER
    base_run(state, 901, 41, "success")
    state.faults.append(Fault("GET", r"/repos/.*/actions/workflows/.*/runs", status=403, times=50))
    act(tmp_path, server, facts)
    assert parse_marker(comment(state)).origins == {
        JOB: "undetermined",
        "test (3.11)": "undetermined",
    }
    assert len(state.calls("GET", r"/repos/.*/actions/workflows/.*/runs")) == 1


def test_same_workflow_mode_learns_the_workflow_from_the_run(tmp_path, gh):
    """On `pull_request` (RepoPilot as a job of the CI itself) the payload names no workflow."""
    server, facts = gh
    state = server.state
    state.runs[facts.run_id].update(workflow_id=WORKFLOW_ID, status="in_progress")
    base_run(state, 902, 42, "failure", SAME)
    head = {"ref": "feature", "sha": facts.head_sha, "repo": {"full_name": "octo-org/octo-repo"}}
    base = {"ref": "main", "sha": facts.base_sha, "repo": {"full_name": "octo-org/octo-repo"}}
    ev = {
        "action": "synchronize",
        "number": 7,
        "pull_request": {"number": 7, "head": head, "base": base},
        "repository": {"full_name": "octo-org/octo-repo", "name": "octo-repo"},
        "sender": {"login": "contributor", "type": "User"},
    }
    env = {"GITHUB_RUN_ID": str(facts.run_id), "GITHUB_RUN_ATTEMPT": "1"}
    run = run_action(tmp_path, server.url, "pull_request", ev, env=env)
    assert run.returncode == 0, run.stderr
    assert run.outputs["origin"] == "base_branch"
    assert state.calls("GET", rf"/repos/.*/actions/workflows/{WORKFLOW_ID}/runs")
