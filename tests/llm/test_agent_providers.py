"""The whole loop with the real `openai` and `ollama` clients against scripted loopback servers.

Guards, retries and the JSON-in-text fallback are exercised over HTTP; every request body the
servers recorded is checked for secret canaries planted in a repo file and in the job log.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from repopilot.agent.loop import Agent
from repopilot.agent.tools import Toolbox
from repopilot.trace import TraceWriter
from tests.agent.test_agent_support import CANARY, FIX_DIFF, WORKFLOW_DIFF, policy_validator
from tests.loopback.llm_servers import (
    OllamaServer,
    OpenAIServer,
    RecordingSleep,
    Reply,
    ollama_chat,
    openai_completion,
)

pytestmark = pytest.mark.integration

pytest.importorskip("openai")
pytest.importorskip("ollama")

GOAL = "A CI job failed: tests/test_calc.py::test_add - assert 0 == 4. Diagnose it."
LOG = [(1, "Run pytest"), (2, f"export TOKEN={CANARY}"), (3, "FAILED tests/test_calc.py::test_add")]


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch):
    for name in ("OPENAI_BASE_URL", "OPENAI_API_KEY", "OLLAMA_HOST", "HTTP_PROXY", "HTTPS_PROXY"):
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.lower(), raising=False)


@pytest.fixture
def repo(repo: Path) -> Path:
    """tests/conftest.py's checkout, with a secret in a settings file."""
    root = repo
    (root / "settings.ini").write_text(f"[deploy]\ntoken = {CANARY}\nregion = eu\n")
    return root


def run_agent(llm, repo: Path, tmp_path: Path):
    tools = Toolbox(str(repo), base_ref="main", log=lambda: iter(LOG))
    trace = TraceWriter(directory=str(tmp_path / "runs"))
    return Agent(llm, tools, validate=policy_validator(repo), trace=trace).run(GOAL)


def tc(call_id: str, name: str, **arguments) -> tuple[str, str, str]:
    return (call_id, name, json.dumps(arguments))


def fix_args(diff: str) -> dict:
    return {
        "diagnosis": "add() subtracts",
        "category": "test_failure",
        "diff": diff,
        "confidence": 0.9,
    }


def test_openai_end_to_end_with_faults_guards_and_a_rejected_diff(repo, tmp_path):
    sleep = RecordingSleep()
    with OpenAIServer() as server:
        server.queue(
            Reply(429, {"error": {"message": "slow down"}}, headers={"Retry-After": "1"}),
            Reply(500, {"error": {"message": "boom"}}),
            Reply(body=openai_completion(tool_calls=[tc("a", "read_file", path="settings.ini")])),
            Reply(
                body=openai_completion(tool_calls=[("c", "read_file", '{"path": "src/calc.py"')])
            ),
            Reply(body=openai_completion(tool_calls=[tc("b", "get_log")])),
            Reply(body=openai_completion(tool_calls=[tc("d", "read_file", path="x", mode="r")])),
            Reply(body=openai_completion(tool_calls=[tc("e", "shell", cmd="id")])),
            Reply(body=openai_completion(tool_calls=[tc("f", "git_diff")])),
            Reply(body=openai_completion(tool_calls=[tc("g", "git_diff")])),
            Reply(
                body=openai_completion(
                    tool_calls=[tc("h", "propose_fix", **fix_args(WORKFLOW_DIFF))]
                )
            ),
            Reply(
                body=openai_completion(tool_calls=[tc("i", "propose_fix", **fix_args(FIX_DIFF))])
            ),
        )
        from repopilot.llm.openai import OpenAIChat

        llm = OpenAIChat("gpt-4o-mini", base_url=server.base_url, api_key="sk-test", sleep=sleep)
        out = run_agent(llm, repo, tmp_path)
        bodies = server.all_bodies_text()
        requests = [r.json() for r in server.chat_requests]
    assert out.stop_reason == "proposal" and out.proposal.files == ("src/calc.py",)
    assert [r.reason for r in out.rejected] == ["protected-path"]
    assert len(sleep.waits) == 2 and sleep.waits[0] >= 1  # 429 (Retry-After) then 500, retried
    assert (
        CANARY not in bodies and "region = eu" in bodies and "FAILED tests/test_calc.py" in bodies
    )
    observations = [m for m in requests[-1]["messages"] if m["role"] == "tool"]
    by_id = {m["tool_call_id"]: m["content"] for m in observations}
    assert "not valid JSON" in by_id["c"]
    assert "unknown parameter 'mode'" in by_id["d"]
    assert "unknown tool 'shell'" in by_id["e"]
    assert "already called git_diff" in by_id["g"]
    assert "rejected (protected-path)" in by_id["h"]
    assert CANARY not in Path(out.trace).read_text()


def test_ollama_without_tools_falls_back_to_json_text(repo, tmp_path):
    action = {"thought": "look", "action": "read_file", "action_input": {"path": "settings.ini"}}
    final = {
        "thought": "done",
        "action": "final_answer",
        "action_input": {
            "diagnosis": "add subtracts",
            "category": "test_failure",
            "confidence": 0.7,
        },
    }
    with OllamaServer() as server:
        server.queue(
            Reply(400, {"error": "registry.ollama.ai/library/gemma:2b does not support tools"}),
            Reply(body=ollama_chat("```json\n" + json.dumps(action) + "\n```")),
            Reply(body=ollama_chat(json.dumps(final))),
        )
        from repopilot.llm.ollama import OllamaChat

        llm = OllamaChat("gemma:2b", host=server.host, sleep=RecordingSleep())
        out = run_agent(llm, repo, tmp_path)
        bodies = server.all_bodies_text()
        requests = [r.json() for r in server.chat_requests]
    assert out.stop_reason == "answer" and out.category == "test_failure"
    assert "tools" in requests[0] and not requests[1].get("tools")
    assert "action_input" in requests[1]["messages"][0]["content"]
    assert "region = eu" in requests[2]["messages"][-1]["content"]
    assert CANARY not in bodies
