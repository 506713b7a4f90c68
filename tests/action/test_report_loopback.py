"""`repopilot report` end to end in the loopback world (issue 28): the Action triages failed runs
against the loopback GitHub and records them in `seen.json` on the `repopilot-memory` branch;
the report reads that file, taken from the fake as a maintainer takes it
(`git show origin/repopilot-memory:seen.json > seen.json`), and counts what the Action saw."""

from __future__ import annotations

import copy
import json
from datetime import UTC, datetime

import pytest

from repopilot.cli import main
from tests.loopback.github_action import REPO, run_action, run_event
from tests.loopback.github_server import Fault

pytestmark = pytest.mark.integration

BRANCH = "repopilot-memory"


def _seen_json(state) -> bytes:
    """seen.json at the memory branch's head, from the fake's git store."""
    head = state.refs[REPO][BRANCH]
    _mode, kind, blob = state.git.trees[state.git.commits[head].tree]["seen.json"]
    assert kind == "blob"
    return state.git.blobs[blob]


def _second_run(state, facts, run_id: int) -> None:
    """Run `run_id`: the same failing job as run 555, re-run on the same head (a new run)."""
    state.runs[run_id] = copy.deepcopy(state.runs[facts.run_id])
    for job in state.runs[run_id]["jobs"]:
        job["id"] += run_id
    state.job_logs[101 + run_id] = state.job_logs[facts.job_id]


def test_the_report_counts_what_the_action_recorded(tmp_path, gh, capsys, monkeypatch):
    server, facts = gh
    state = server.state
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    first = run_action(tmp_path / "1", server.url, "workflow_run", run_event(facts))
    assert first.returncode == 0, first.stderr
    _second_run(state, facts, 556)
    event = run_event(facts)
    event["workflow_run"].update(id=556, html_url=f"https://github.com/{REPO}/actions/runs/556")
    second = run_action(tmp_path / "2", server.url, "workflow_run", event)
    assert second.returncode == 0, second.stderr
    assert BRANCH in state.refs[REPO], "the Action recorded nothing in its memory"

    store = tmp_path / "seen.json"
    store.write_bytes(_seen_json(state))
    today = datetime.now(UTC).date().isoformat()
    assert main(["report", "--store", str(store), "--until", today, "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["failures"] == 2 and report["signatures"] == 1 and report["prs"] == 1
    [top] = report["top"]
    assert top["count"] == 2 and top["category"] == "test_failure" and top["prs"] == [7]
    assert "tests/test_calc.py::test_add" in top["signature"]
    assert top["last_run_url"] == f"https://github.com/{REPO}/actions/runs/556"
    shares = {s["decided_by"]: s["count"] for s in report["shares"]}
    assert shares == {"pattern": 2, "learned": 0, "llm": 0, "none": 0}

    assert main(["report", "--store", str(store), "--until", today, "--format", "markdown"]) == 0
    md = capsys.readouterr().out
    assert 'pie title Decided by\n    "patterns" : 2\n```' in md
    assert "| 1 | 2 | ` test_failure ` |" in md


def _api(monkeypatch, url: str) -> None:
    monkeypatch.setenv("GITHUB_API_URL", url)
    monkeypatch.setenv("GITHUB_TOKEN", "ghs_test")
    monkeypatch.setenv("REPOPILOT_GITHUB_PACE", "0")
    monkeypatch.setenv("REPOPILOT_GITHUB_TIMEOUT", "3")
    monkeypatch.setenv("REPOPILOT_GITHUB_MAX_WAIT", "0.1")
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)


def test_the_report_reads_the_memory_through_the_api(tmp_path, gh, capsys, monkeypatch):
    server, facts = gh
    run = run_action(tmp_path / "1", server.url, "workflow_run", run_event(facts))
    assert run.returncode == 0, run.stderr
    _api(monkeypatch, server.url)
    contents = r"/repos/octo-org/octo-repo/contents/seen\.json"
    before = len(server.state.calls("GET", contents))  # the Action's own reads
    today = datetime.now(UTC).date().isoformat()
    assert main(["report", "--repo", REPO, "--until", today, "--format", "json"]) == 0
    out, err = capsys.readouterr()
    report = json.loads(out)
    assert err == "" and report["failures"] == 1 and report["top"][0]["prs"] == [7]
    [read] = server.state.calls("GET", contents)[before:]
    assert read.query.get("ref") == [BRANCH]


def test_no_memory_yet_is_a_quiet_report(gh, capsys, monkeypatch):
    server, _ = gh
    _api(monkeypatch, server.url)
    assert main(["report", "--repo", REPO]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("RepoPilot report: no failures recorded from ") and err == ""


def test_an_unknown_repository_is_one_line_not_an_empty_memory(gh, capsys, monkeypatch):
    server, _ = gh
    # GitHub answers 404 for a repository that does not exist or the token cannot see (the
    # fake serves any name), and its contents 404 too: without asking for the repository first
    # that would read as "nothing recorded yet"
    server.state.faults.append(Fault("GET", r"/repos/octo-org/nope", 404, {"message": "Not Found"}))
    server.state.faults.append(
        Fault("GET", r"/repos/octo-org/nope/contents/.*", 404, {"message": "Not Found"})
    )
    _api(monkeypatch, server.url)
    assert main(["report", "--repo", "octo-org/nope"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == (
        "repopilot: octo-org/nope: the GitHub API answered not found, or the token cannot see it\n"
    )


def test_a_corrupt_memory_is_one_line(gh, capsys, monkeypatch):
    server, _ = gh
    state = server.state
    tree = state.git.tree_of_files({"seen.json": b"{not json"})
    state.refs[REPO][BRANCH] = state.git.put_commit(tree, [], "by hand")
    _api(monkeypatch, server.url)
    assert main(["report", "--repo", REPO]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.splitlines()) == 1
    assert err.startswith(f"repopilot: {REPO}: RepoPilot's memory {BRANCH}:seen.json is not a ")


def test_an_unreachable_api_is_one_line(capsys, monkeypatch):
    _api(monkeypatch, "http://127.0.0.1:9")  # discard port: nothing listens
    assert main(["report", "--repo", REPO]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.splitlines()) == 1 and "Traceback" not in err
    assert err == (
        f"repopilot: {REPO}: the GitHub API at http://127.0.0.1:9 could not be reached "
        "(ConnectionError)\n"
    )
