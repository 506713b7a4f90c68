"""One context and one key line for a log, whatever the entry point (issue 19): `repopilot
triage --format json` and the Action's result file (mode analyze, the loopback GitHub serving
the same log as the job's) carry the same evidence and the same context, both decided in the
pipeline (pipeline.explained)."""

from __future__ import annotations

import json

import pytest

from repopilot.cli import main
from tests.adoption_logs import gha, pytest_log, unknown_log
from tests.loopback.github_action import run_action, run_event
from tests.loopback.github_server import FIXTURES

pytestmark = pytest.mark.integration

QUIET = gha([("make release", ["Downloading release-tools 1.2 (40 kB)", "", "", ""])], 2)
LOGS = {
    "pytest": pytest_log(),
    "unknown": unknown_log(),
    "no-output": QUIET,
    "fixture": (FIXTURES / "logs" / "gha_pytest_failed.log").read_bytes(),
}


def _triage_json(tmp_path, log: bytes, capsys, monkeypatch) -> dict:
    path = tmp_path / "job.log"
    path.write_bytes(log)
    monkeypatch.setenv("REPOPILOT_TRACE_DIR", str(tmp_path / "runs"))
    monkeypatch.setenv("REPOPILOT_LLM", "none")
    args = ["triage", "--format", "json", "--assume-failed", "--repo", str(tmp_path)]
    # the Action's `patterns` input is the whole library; the CLI's --patterns goes on top of
    # the built-in one unless --no-builtin
    code = main([*args, "--no-builtin", "--patterns", str(FIXTURES / "patterns"), str(path)])
    assert code == 0
    [result] = json.loads(capsys.readouterr().out)["results"]
    return result


def _action_result(tmp_path, gh, log: bytes) -> dict:
    server, facts = gh
    server.state.job_logs[facts.job_id] = log
    result_file = tmp_path / "shared" / "result.json"
    run = run_action(
        tmp_path / "a",
        server.url,
        "workflow_run",
        run_event(facts),
        mode="analyze",
        result_file=str(result_file),
    )
    assert run.returncode == 0, run.stderr + run.stdout
    [job] = json.loads(result_file.read_text())["jobs"]
    return job["result"]["verdict"]


@pytest.mark.parametrize("name", sorted(LOGS))
def test_triage_and_the_action_carry_the_same_evidence_and_context(
    name, tmp_path, gh, capsys, monkeypatch
):
    log = LOGS[name]
    action = _action_result(tmp_path, gh, log)
    cli = _triage_json(tmp_path, log, capsys, monkeypatch)
    pairs = [(e["line"], e["text"]) for e in cli["evidence"]]
    assert pairs == [(e["line"], e["text"]) for e in action["evidence"]]
    context = [(e["line"], e["text"]) for e in cli["context"]]
    assert context == [(e["line"], e["text"]) for e in action["context"]]
    assert pairs[0][0] in {n for n, _ in context}  # the key line is shown in its context
    assert (cli["category"], cli["decided_by"]) == (action["category"], action["decided_by"])


def test_an_unknown_failure_shows_what_the_script_said_last(tmp_path, gh, capsys, monkeypatch):
    cli = _triage_json(tmp_path, unknown_log(), capsys, monkeypatch)
    assert cli["category"] == "unknown"
    key, header = cli["evidence"][:2]
    assert key["text"].startswith("release-check: the versions differ")
    assert header["text"] == "Run node scripts/release-check.js"
    shown = [e["text"] for e in cli["context"]]
    assert "release-check: top entry is 1.3.9" in shown  # the script's last lines, not the echo
    assert not any(t.startswith("shell: ") for t in shown)
