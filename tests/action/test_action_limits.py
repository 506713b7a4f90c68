"""The agent's limits reach the Action (issue 19): REPOPILOT_MAX_STEPS, read once into the
settings by the Action's entry point, bounds the agent the Action itself builds, as it does for
`repopilot triage`. The Action runs against the loopback GitHub with its own pipeline (no triage
passed in) and the real OpenAI client against a loopback model that never stops calling tools."""

from __future__ import annotations

import json

import pytest

from tests.adoption_logs import unknown_log
from tests.adversarial.harness import tool_reply
from tests.loopback.github_action import BOT, run_action, run_event
from tests.loopback.llm_servers import OpenAIServer, Reply, openai_completion

pytestmark = pytest.mark.integration

pytest.importorskip("openai")

ENDLESS = 30  # tool-calling turns queued: far more than the default limit of 12 steps
FINAL = "The CHANGELOG.md entry for 1.4.0 is missing; add one."


def _tool_turns() -> list[Reply]:
    # a different path each turn, so no repeated-call guard ends the run before the step limit
    return [tool_reply(("list_files", {"path": f"dir{i}"})) for i in range(ENDLESS)]


def _run(tmp_path, gh, llm: OpenAIServer, **env: str):
    server, facts = gh
    server.state.job_logs[facts.job_id] = unknown_log()
    checkout = tmp_path / "checkout"
    checkout.mkdir()
    (checkout / "CHANGELOG.md").write_text("## 1.3.9\n")
    variables = {"OPENAI_BASE_URL": llm.base_url, "OPENAI_API_KEY": "sk-loopback", **env}
    return run_action(
        tmp_path / "action",
        server.url,
        "workflow_run",
        run_event(facts),
        env=variables,
        patterns="",  # the bundled library: no pattern knows this failure, so the LLM is asked
        llm="openai",
        repo_path=str(checkout),
    )


def _agent_trace(tmp_path) -> dict:
    runs = tmp_path / "action" / "runs"
    traces = [json.loads(p.read_text()) for p in sorted(runs.glob("*.json"))]
    (agent,) = [t for t in traces if any(s["type"] == "llm_call" for s in t["steps"])]
    return agent


@pytest.mark.parametrize("steps", [2, 4])
def test_max_steps_bounds_the_actions_agent(tmp_path, gh, steps):
    with OpenAIServer() as llm:
        llm.queue(*_tool_turns()[: steps + 5])
        llm.queue(Reply(body=openai_completion(FINAL)))  # never reached with the limit
        run = _run(tmp_path, gh, llm, REPOPILOT_MAX_STEPS=str(steps))
        requests = [r.json() for r in llm.chat_requests]
    assert run.returncode == 0, run.stdout + run.stderr
    # `steps` requests offering tools, then the one request without tools for a final answer
    assert len(requests) == steps + 1
    assert all(r.get("tools") for r in requests[:steps]) and not requests[-1].get("tools")
    trace = _agent_trace(tmp_path)
    assert trace["outcome"] == "max-steps"
    assert trace["usage"]["llm_calls"] == steps + 1
    assert sum(1 for s in trace["steps"] if s["type"] == "tool_call") == steps
    # the verdict is still posted: one comment, the pattern verdict's outputs
    comments = [c for c in server_comments(gh) if c["login"] == BOT]
    assert len(comments) == 1 and "<!-- repopilot:" in comments[0]["body"]
    assert run.outputs["category"] and run.outputs["comment-url"]


def test_without_the_variable_the_default_limit_holds(tmp_path, gh):
    with OpenAIServer() as llm:
        llm.queue(*_tool_turns())
        run = _run(tmp_path, gh, llm)
        asked = len(llm.chat_requests)
    assert run.returncode == 0, run.stdout + run.stderr
    assert asked == 12 + 1  # Limits().max_steps, then the final request


def test_a_bad_limit_fails_the_action_with_one_line(tmp_path, gh):
    with OpenAIServer() as llm:
        run = _run(tmp_path, gh, llm, REPOPILOT_MAX_STEPS="many")
        assert llm.chat_requests == []
    assert run.returncode == 1
    assert "::error::REPOPILOT_MAX_STEPS='many': not a number" in run.stdout
    assert "REPOPILOT_MAX_STEPS" in run.summary


def server_comments(gh) -> list[dict]:
    server, facts = gh
    return server.state.issue_comments(facts.pr)
