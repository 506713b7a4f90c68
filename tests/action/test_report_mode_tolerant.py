"""`mode: report` never fails the user's workflow (issue 28): a memory that cannot be read is one
`::warning::` naming it and an empty report with exit 0; `memory: false` reads nothing and says
so; a store of more than 200 records is reported whole. Against the loopback GitHub."""

from __future__ import annotations

import pytest

from repopilot.github.seen_keep import dump
from repopilot.github.seen_store import BRANCH
from repopilot.run_records import SeenRecord
from tests.loopback.github_action import REPO, run_action
from tests.loopback.github_server import Fault

pytestmark = pytest.mark.integration

SCHEDULE = {"schedule": "23 6 * * 1", "repository": {"full_name": REPO, "name": "octo-repo"}}
CONTENTS = r"/repos/octo-org/octo-repo/contents/seen\.json"
WHERE = "repopilot-memory:seen.json"


def _put(state, data: bytes) -> None:
    tree = state.git.tree_of_files({"seen.json": data})
    state.refs[REPO][BRANCH] = state.git.put_commit(tree, [], "by hand")


def _lines(run, prefix: str) -> list[str]:
    return [line for line in run.stdout.splitlines() if line.startswith(prefix)]


def test_a_corrupt_memory_is_one_warning_and_an_empty_report(tmp_path, gh):
    server, _ = gh
    _put(server.state, b"[1, 2")
    run = run_action(tmp_path, server.url, "schedule", SCHEDULE, mode="report")
    assert run.returncode == 0, run.stdout + run.stderr
    assert _lines(run, "::error::") == []
    [warning] = _lines(run, "::warning::")
    assert WHERE in warning and "not a memory file" in warning
    assert "No failures recorded from " in run.summary and "Traceback" not in run.stderr


def test_a_refused_token_is_one_warning_and_an_empty_report(tmp_path, gh):
    server, _ = gh
    server.state.faults.append(Fault("GET", CONTENTS, 403, {"message": "Resource not accessible"}))
    run = run_action(tmp_path, server.url, "schedule", SCHEDULE, mode="report")
    assert run.returncode == 0, run.stdout + run.stderr
    [warning] = _lines(run, "::warning::")
    assert WHERE in warning and "403" in warning and "contents: read" in warning
    assert _lines(run, "::error::") == [] and "No failures recorded from " in run.summary


def test_an_unknown_repository_is_one_warning_not_a_failed_job(tmp_path, gh):
    server, _ = gh
    server.state.faults.append(Fault("GET", r"/repos/octo-org/octo-repo", 404, {"message": "x"}))
    run = run_action(tmp_path, server.url, "schedule", SCHEDULE, mode="report")
    assert run.returncode == 0, run.stdout + run.stderr
    [warning] = _lines(run, "::warning::")
    assert REPO in warning and "not found" in warning
    assert "No failures recorded from " in run.summary


@pytest.mark.parametrize("how", ["input", "env"])
def test_memory_false_reads_nothing_and_says_so(tmp_path, gh, how):
    server, _ = gh
    _put(server.state, dump([_record(1)]).encode())
    if how == "input":
        run = run_action(tmp_path, server.url, "schedule", SCHEDULE, mode="report", memory="false")
    else:
        env = {"REPOPILOT_MEMORY": "false"}
        run = run_action(tmp_path, server.url, "schedule", SCHEDULE, mode="report", env=env)
    assert run.returncode == 0, run.stdout + run.stderr
    assert server.state.calls("GET", CONTENTS) == []
    assert [x for x in run.summary.splitlines() if "memory is off" in x] == [
        f"The memory is off (`memory: false` or `REPOPILOT_MEMORY=false`): the report read "
        f"nothing from `{WHERE}`."
    ]
    assert "1 failure" not in run.summary and _lines(run, "::warning::") == []


def _record(n: int) -> SeenRecord:
    return SeenRecord(
        signature=f"go.test.failed|test=TestThing{n % 2}",
        category="test_failure",
        decided_by="pattern",
        pr=40 + n % 3,
        branch="feature",
        on_default=False,
        run_id=2000 + n,
        run_url=f"https://github.com/{REPO}/actions/runs/{2000 + n}",
        job="test",
        head_sha="c" * 40,
        at="2026-12-01T09:00:00Z",  # within the report's last 8 weeks for a long while
    )


def test_the_report_counts_every_record_the_memory_keeps(tmp_path, gh):
    server, _ = gh
    _put(server.state, dump([_record(n) for n in range(321)]).encode())
    run = run_action(tmp_path, server.url, "schedule", SCHEDULE, mode="report")
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.summary.startswith("## RepoPilot report\n\n321 failures, 2 signatures"), run.summary


def test_no_memory_yet_is_one_warning_and_the_short_report(tmp_path, gh):
    server, _ = gh
    run = run_action(tmp_path, server.url, "schedule", SCHEDULE, mode="report")
    assert run.returncode == 0, run.stdout + run.stderr
    [warning] = _lines(run, "::warning::")
    assert f"{REPO} has no {WHERE} yet" in warning
    assert "No failures recorded from " in run.summary
