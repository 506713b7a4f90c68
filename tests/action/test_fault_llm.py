"""Fault matrix, LLM side: the Action on a failed run whose failure no pattern decides, with the
real openai client against a loopback model that fails in every way a provider fails. For each:
the deterministic verdict is still posted (one comment), the trace records the failure, nothing is
written to the repository and no secret of the log appears anywhere.

The Action runs in-process through its `triage` seam (repopilot.action.entry.main(env, triage)) so the
client's timeout and retry waits can be short; GitHub is the loopback server, as in production.
Adapter-level behaviour (which faults are retried, how often) is tests/llm/test_llm_openai.py's.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from repopilot import pipeline
from repopilot.action import entry
from repopilot.comment.marker import parse_marker
from repopilot.llm.retry import RetryPolicy
from repopilot.proposal.validate import validator_for
from tests.adversarial.corpus import SECRETS, leaked
from tests.adversarial.harness import hostile_log, hostile_repo, library, read_traces, tool_reply
from tests.loopback.github_action import BOT, CLIENT_WAITS, parse_outputs, run_event, seed
from tests.loopback.github_contents import repository_writes
from tests.loopback.github_server import GitHubServer, State
from tests.loopback.llm_servers import OpenAIServer, Reply, closed_port, openai_completion

pytestmark = pytest.mark.integration

openai_adapter = pytest.importorskip("repopilot.llm.openai")

EXTRAHEADER = next(s for s in SECRETS if s.kind == "auth-header extraheader")
FAST = RetryPolicy(max_attempts=3, base_delay=0.01, max_delay=0.02, max_retry_after=0.05)
RETRY_AFTER = {"Retry-After": "0"}
BAD_ARGS = Reply(
    body=openai_completion(tool_calls=[("call_1", "read_file", '{"path": "src/calc.py"')])
)


def _faults() -> dict[str, list[Reply]]:
    return {
        "timeout": [Reply(body=openai_completion("late"), delay=1.5)] * FAST.max_attempts,
        "429": [Reply(429, {"error": {"message": "rate"}}, RETRY_AFTER)] * FAST.max_attempts,
        "500": [Reply(500, {"error": {"message": "boom"}})] * FAST.max_attempts,
        "502-html": [Reply(502, "<html>bad gateway</html>")] * FAST.max_attempts,
        "dropped-connection": [Reply(close=True)] * FAST.max_attempts,
        "truncated-json": [Reply(body='{"id": "chatcmpl-1", "object": "chat.comp')],
        "empty-choices": [
            Reply(body={"id": "c", "object": "chat.completion", "created": 1, "choices": []})
        ],
        "not-json": [Reply(body="Service Unavailable")],
        "bad-tool-arguments": [BAD_ARGS] * 3,
        "unknown-tool": [tool_reply(("exec_shell", {"cmd": "env"}))] * 3,
        "repeated-call": [tool_reply(("list_files", {}))] * 3,
        "after-a-good-step": [
            tool_reply(("read_file", {"path": "src/calc.py"})),
            Reply(500, {"error": {"message": "boom"}}),
        ]
        + [Reply(500, {"error": {"message": "boom"}})] * FAST.max_attempts,
    }


FAULTS = _faults()


@pytest.fixture
def world(tmp_path, monkeypatch):
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "HTTP_PROXY", "HTTPS_PROXY"):
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.lower(), raising=False)
    monkeypatch.chdir(tmp_path)
    state = State(bot=BOT)
    with GitHubServer(state) as gh, OpenAIServer() as llm:
        facts = seed(state)
        state.job_logs[101] = hostile_log(tmp_path / "job.log").read_bytes()
        repo = hostile_repo(tmp_path / "checkout", EXTRAHEADER.line)
        yield tmp_path, gh, llm, facts, repo
    assert state.errors == []


def run_in_process(tmp: Path, gh, facts, llm_client, repo: Path):
    event = tmp / "event.json"
    event.write_text(json.dumps(run_event(facts)), encoding="utf-8")
    out, summary = tmp / "out.txt", tmp / "summary.md"
    out.write_text("")
    summary.write_text("")
    env = {
        "GITHUB_API_URL": gh.url,
        "GITHUB_SERVER_URL": gh.url,
        "GITHUB_REPOSITORY": "octo-org/octo-repo",
        "GITHUB_EVENT_NAME": "workflow_run",
        "GITHUB_EVENT_PATH": str(event),
        "GITHUB_OUTPUT": str(out),
        "GITHUB_STEP_SUMMARY": str(summary),
        "GITHUB_RUN_ID": "9000",
        "GITHUB_WORKFLOW_REF": "octo-org/octo-repo/.github/workflows/repopilot.yml@refs/heads/main",
        "INPUT_GITHUB-TOKEN": "ghs_loopbacktesttoken0123456789",
        **CLIENT_WAITS,
        "REPOPILOT_GITHUB_PACE": "0",  # main(env) reads these from env, not from os.environ
        "REPOPILOT_TRACE_DIR": str(tmp / "runs"),
    }
    classifier = pipeline.load_classifier(library(tmp))

    def triage(path: str):
        how = pipeline.Escalation(llm_client, validator=validator_for)
        return pipeline.triage(path, repo, how, classifier=classifier, trace_dir=tmp / "runs")

    code = entry.main(env, triage)
    return code, parse_outputs(out.read_text()), summary.read_text()


def client(base_url: str):
    return openai_adapter.OpenAIChat(
        "faulty", base_url=base_url, api_key="sk-unused", timeout=0.5, retry=FAST
    )


@pytest.mark.parametrize("fault", list(FAULTS), ids=list(FAULTS))
def test_llm_fault_still_posts_the_deterministic_verdict_once(world, fault, capsys):
    tmp_path, gh, llm, facts, repo = world
    state = gh.state
    llm.queue(*FAULTS[fault])
    code, outputs, summary = run_in_process(tmp_path, gh, facts, client(llm.base_url), repo)
    console = capsys.readouterr()
    assert code == 0, console.out + console.err
    assert llm.chat_requests, "the model was asked"
    # the deterministic verdict stands and is posted, once
    [comment] = [c for c in state.issue_comments(7) if c["login"] == BOT]
    assert parse_marker(comment["body"]) is not None
    assert outputs["category"] == "unknown" and outputs["decided-by"] == "none"
    assert "deploy: step 3 went wrong" in comment["body"].replace("\\", "")
    assert len(state.calls("POST", r"/repos/.*/issues/7/comments")) == 1
    # no write to the repository (but RepoPilot's memory branch, issue 28)
    assert not repository_writes(state)
    # the trace records the failure
    traces = read_traces(tmp_path / "runs")
    agent = [json.loads(p.read_text()) for p in (tmp_path / "runs").glob("*.json")]
    stops = [
        s["result"]["stop_reason"]
        for t in agent
        for s in t["steps"]
        if s["type"] == "decision"
        and isinstance(s["result"], dict)
        and "stop_reason" in s["result"]
    ]
    assert stops and stops[0] in ("llm-unavailable", "format-errors", "repeated-call"), stops
    assert any(s["type"] == "error" for t in agent for s in t["steps"])
    # no secret anywhere
    written = comment["body"] + summary + json.dumps(outputs) + console.out + console.err
    assert leaked(written) == [] and leaked(traces) == []


def test_connection_refused_still_posts_the_deterministic_verdict(world, capsys):
    tmp_path, gh, _llm, facts, repo = world
    state = gh.state
    dead = client(f"http://127.0.0.1:{closed_port()}/v1")
    code, outputs, _ = run_in_process(tmp_path, gh, facts, dead, repo)
    assert code == 0, capsys.readouterr().out
    assert len([c for c in state.issue_comments(7) if c["login"] == BOT]) == 1
    assert outputs["decided-by"] == "none"
    assert "llm-unavailable" in read_traces(tmp_path / "runs")
