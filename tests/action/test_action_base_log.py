"""The last green run's log as evidence in the Action (issue 20, Contract 3): the failing job's log
is compared with the log of the same job in the newest successful run of the workflow on the base
branch, downloaded within the origin lookups' request budget; lines that green run also printed
(a handled 404 probe) are not the cause, and the comment names the run. The real entry point, real
PyGithub, the loopback GitHub serving the base branch's runs and job logs; the bundled patterns."""

from __future__ import annotations

import json

import pytest

from tests.loopback.github_action import BOT, run_action, run_event, seed
from tests.loopback.github_runs import WORKFLOW_ID, add_run, base_run
from tests.loopback.github_server import GitHubServer, State

pytestmark = pytest.mark.integration

JOB = "test (3.12)"  # the seeded run's failed job
PROBE = "npm ERR! code E404"  # the script's "already published?" lookup, handled
CAUSE = "Error: CHANGELOG.md has no entry for 1.4.2"
SCRIPT = [
    "##[group]Run ./scripts/release.sh",
    "##[endgroup]",
    "Checking whether mypkg@1.4.2 is already on the registry",
    PROBE,
    "npm ERR! 404 Not Found - GET https://registry.npmjs.org/mypkg/1.4.2 - Not found",
    "Not published yet: building it",
]


def gha(lines: list[str], day: str) -> bytes:
    """`lines` as a raw Actions job log, stamped on `day`."""
    stamps = (f"{day}T10:{i // 60:02d}:{i % 60:02d}.0000000Z" for i in range(len(lines)))
    return "".join(f"{at} {t}\n" for at, t in zip(stamps, lines, strict=True)).encode()


FAILING = gha([*SCRIPT, CAUSE, "##[error]Process completed with exit code 1."], "2026-03-01")
# The same job passing on main a few days earlier: the probe's 404 is printed there too.
GREEN = gha([*SCRIPT, "Build finished in 4.2s", "Published mypkg@1.4.1"], "2026-02-26")


@pytest.fixture
def gh():
    state = State(bot=BOT)
    with GitHubServer(state) as server:
        facts = seed(state)
        state.job_logs[facts.job_id] = FAILING
        run = state.runs[facts.run_id]
        run.update(branch="feature", event="pull_request", number=77, status="completed")
        yield server, facts
    assert state.errors == []


def act(tmp_path, server, facts, **inputs):
    ev = run_event(facts)
    ev["workflow_run"].update(workflow_id=WORKFLOW_ID)
    ev["workflow_run"]["pull_requests"][0]["base"].update(ref="main", sha=facts.base_sha)
    inputs.setdefault("patterns", "")  # the bundled library
    run = run_action(tmp_path, server.url, "workflow_run", ev, **inputs)
    assert run.returncode == 0, run.stderr
    assert "Traceback" not in run.stderr
    return run


def verdict(run) -> dict:
    """The job's deterministic verdict, as its trace's classify step records it."""
    [path] = run.trace["steps"][-1]["result"]["job_traces"]
    with open(path, encoding="utf-8") as fh:
        steps = json.load(fh)["steps"]
    [step] = [s for s in steps if s["type"] == "classify"]
    return step["result"]


def comment(state) -> str:
    [c] = [c for c in state.issue_comments(7) if c["login"] == BOT]
    return c["body"]


def log_downloads(state) -> list:
    return state.calls("GET", r"/repos/.*/actions/jobs/\d+/logs")


def test_without_a_green_run_the_handled_probe_is_taken_for_the_cause(tmp_path, gh):
    """The control: nothing on main to compare with, so the 404 probe wins."""
    server, facts = gh
    run = act(tmp_path, server, facts)
    got = verdict(run)
    assert got["evidence"][0]["text"] == PROBE
    assert "Compared with the last green run" not in comment(server.state)
    assert len(log_downloads(server.state)) == 1  # the failing job's own log only


def test_the_green_runs_lines_are_not_the_cause(tmp_path, gh):
    server, facts = gh
    state = server.state
    base_run(state, 902, 42, "success", GREEN)
    base_run(state, 901, 41, "success", GREEN)
    run = act(tmp_path, server, facts)
    got = verdict(run)
    assert got["evidence"][0]["text"] == CAUSE
    assert all(e["text"] != PROBE for e in got["evidence"])
    body = comment(state)
    url = f"{server.url.split('/api/')[0]}/octo-org/octo-repo/actions/runs/902"
    assert "Compared with the last green run [#42]" in body
    assert f"[#42](<{url}>)" in body
    assert body.count("Compared with") == 1  # the engine's own note is not repeated in the hint
    # The newest green run's log, once; the older green run's is never asked for.
    assert state.calls("GET", r"/repos/.*/actions/jobs/9020/logs")
    assert not state.calls("GET", r"/repos/.*/actions/jobs/90(10|19|19)/logs")
    # (the failing job's log is read again to offer a pattern for its unknown verdict)
    assert {r.path.rsplit("/", 2)[-2] for r in log_downloads(state)} == {"101", "9020"}
    assert len(state.calls("GET", r"/repos/.*/actions/jobs/9020/logs")) == 1
    # The origin decision reads the same runs and jobs lists (one request each).
    assert len(state.calls("GET", r"/repos/.*/actions/workflows/.*/runs", "api")) == 2
    assert len(state.calls("GET", r"/repos/.*/actions/runs/902/jobs")) == 1
    assert run.outputs["origin"] == "this_pr"


def test_the_green_run_travels_in_the_result_file(tmp_path, gh):
    """analyze (read-only) downloads and compares; post renders from the result file alone."""
    server, facts = gh
    state = server.state
    base_run(state, 901, 41, "success", GREEN)
    result = str(tmp_path / "shared" / "result.json")
    act(tmp_path / "a", server, facts, mode="analyze", result_file=result)
    with open(result, encoding="utf-8") as fh:
        [job] = json.load(fh)["jobs"]
    assert job["result"]["baseline_run"]["number"] == 41
    assert job["result"]["verdict"]["evidence"][0]["text"] == CAUSE
    seen = len(state.requests)
    act(tmp_path / "p", server, facts, mode="post", result_file=result)
    assert "Compared with the last green run [#41]" in comment(state)
    # no lookup and no green log again: only the learn offer reads the failing job's log
    later = [r.path for r in state.requests[seen:] if "/actions/" in r.path]
    assert later and all(p.endswith("/actions/jobs/101/logs") for p in later)


def test_no_successful_base_run_changes_nothing(tmp_path, gh):
    server, facts = gh
    state = server.state
    other = gha([*SCRIPT[:2], "Error: registry token expired", "##[error]exit 1"], "2026-02-26")
    base_run(state, 902, 42, "failure", other)
    base_run(state, 901, 41, "cancelled", None)
    run = act(tmp_path, server, facts)
    assert verdict(run)["evidence"][0]["text"] == PROBE
    assert "Compared with the last green run" not in comment(state)
    # the failed base job's log for the origin decision; no green log to download
    assert {r.path.rsplit("/", 2)[-2] for r in log_downloads(state)} == {"101", "9020"}
    assert run.outputs["origin"] == "undetermined"


def test_a_green_run_without_the_job_or_with_it_skipped_is_not_compared(tmp_path, gh):
    server, facts = gh
    state = server.state
    base_run(state, 901, 41, "skipped", None)
    add_run(
        state,
        902,
        branch="main",
        head_sha="c" * 40,
        jobs=[{"id": 9021, "name": "lint", "conclusion": "success"}],
        conclusion="success",
        number=42,
    )
    run = act(tmp_path, server, facts)
    assert verdict(run)["evidence"][0]["text"] == PROBE
    assert "Compared with the last green run" not in comment(state)
    assert len(log_downloads(state)) == 1


def test_a_lost_green_log_changes_nothing(tmp_path, gh):
    server, facts = gh
    state = server.state
    base_run(state, 901, 41, "success", None)  # expired: the log endpoint answers 404
    run = act(tmp_path, server, facts)
    assert verdict(run)["evidence"][0]["text"] == PROBE
    assert "Compared with the last green run" not in comment(state)
    assert state.calls("GET", r"/repos/.*/actions/jobs/9010/logs")
    assert run.outputs["origin"] == "this_pr"


@pytest.mark.parametrize(("budget", "compared"), [("2", False), ("3", True)])
def test_the_download_is_within_the_request_budget(tmp_path, gh, budget, compared):
    """Base runs (1), their jobs (1), the green job's log (1): with 2 left the log is not
    asked for; with 3 it is, and the origin lookups after it find the budget spent."""
    server, facts = gh
    state = server.state
    base_run(state, 901, 41, "success", GREEN)
    run = act(tmp_path, server, facts, origin_budget=budget)
    asked = bool(state.calls("GET", r"/repos/.*/actions/jobs/9010/logs"))
    assert asked is compared
    first = verdict(run)["evidence"][0]["text"]
    assert first == (CAUSE if compared else PROBE)
    assert ("Compared with the last green run [#41]" in comment(state)) is compared
    assert run.outputs["origin"] in ("this_pr", "undetermined")
    lookups = state.calls(
        "GET", r"/repos/.*/actions/(workflows/.*/runs|runs/9\d\d/jobs|runs/\d+/attempts)"
    )
    assert len(lookups) + int(asked) <= int(budget)


def test_the_green_log_is_cut_at_the_log_cap(tmp_path, gh):
    """REPOPILOT_MAX_LOG_BYTES holds for the green log too: lines past the cap are not read, so
    a probe printed only there is not recognised (the failing log fits under the cap)."""
    server, facts = gh
    state = server.state
    cap = len(FAILING) + 100
    padding = [f"compiling module {i} of 400" for i in range(400)]
    late = gha([*padding, *SCRIPT, "Published mypkg@1.4.1"], "2026-02-26")
    assert len(late) > 4 * cap
    base_run(state, 901, 41, "success", late)
    run = act(tmp_path, server, facts, env={"REPOPILOT_MAX_LOG_BYTES": str(cap)})
    assert state.calls("GET", r"/repos/.*/actions/jobs/9010/logs")
    assert verdict(run)["evidence"][0]["text"] == PROBE
    # the same log under the default cap: compared whole, the probe is demoted
    state.comments.clear()
    run = act(tmp_path / "whole", server, facts)
    assert verdict(run)["evidence"][0]["text"] == CAUSE
