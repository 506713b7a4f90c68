"""The Ollama adapter with the real `ollama` client against a scripted loopback server."""

from __future__ import annotations

import pytest

from repopilot.llm.base import LLM, LLMError, Message, ToolCall, ToolSpec, ToolsUnsupported
from repopilot.llm.factory import make_llm
from repopilot.llm.ollama import DEFAULT_NUM_CTX, OllamaChat
from repopilot.settings import Settings
from tests.loopback.llm_servers import (
    OllamaServer,
    RecordingSleep,
    Reply,
    closed_port,
    ollama_chat,
)

pytestmark = pytest.mark.integration

pytest.importorskip("ollama")

SEARCH = ToolSpec(
    name="search_code",
    description="Search the checkout.",
    parameters={
        "type": "object",
        "properties": {"pattern": {"type": "string"}, "path": {"type": "string"}},
        "required": ["pattern"],
    },
)
GOAL = [
    Message(role="system", content="You triage CI failures."),
    Message(role="user", content="Why did the build fail?"),
]


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch):
    for name in ("OLLAMA_HOST", "OLLAMA_API_KEY", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"):
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.lower(), raising=False)


@pytest.fixture
def server():
    with OllamaServer() as srv:
        yield srv


@pytest.fixture
def sleep():
    return RecordingSleep()


def client(server, sleep, **kwargs) -> OllamaChat:
    kwargs.setdefault("timeout", 5.0)
    return OllamaChat("llama3.1", host=server.host, sleep=sleep, **kwargs)


def test_tool_calls_get_stable_unique_ids_and_round_trip(server, sleep):
    server.queue(
        Reply(
            body=ollama_chat(
                "",
                [
                    ("search_code", {"pattern": "def parse"}),
                    ("search_code", {"pattern": "x", "path": "src"}),
                ],
                prompt_eval_count=321,
                eval_count=12,
            )
        ),
        Reply(body=ollama_chat("", [("search_code", {"pattern": "import"})])),
        Reply(body=ollama_chat("It is a missing import.")),
    )
    llm = client(server, sleep)
    assert isinstance(llm, LLM)

    first = llm.chat_with_tools(GOAL, [SEARCH])
    assert first.tool_calls == (
        ToolCall(id="call_1_0", name="search_code", arguments={"pattern": "def parse"}),
        ToolCall(id="call_1_1", name="search_code", arguments={"pattern": "x", "path": "src"}),
    )
    assert (first.usage.prompt_tokens, first.usage.completion_tokens) == (321, 12)
    assert first.model == "llama3.1"
    assert first.finish_reason == "stop"

    history = [
        *GOAL,
        Message(role="assistant", tool_calls=first.tool_calls),
        Message(role="tool", tool_call_id="call_1_0", name="search_code", content="src/p.py:3"),
    ]
    second = llm.chat_with_tools(history, [SEARCH])
    assert [c.id for c in second.tool_calls] == ["call_2_0"]  # unique across the conversation
    third = llm.chat(history)
    assert third.text == "It is a missing import."

    sent_first, sent_second, sent_third = (r.json() for r in server.chat_requests)
    assert sent_first["model"] == "llama3.1"
    assert sent_first["stream"] is False
    assert sent_first["options"] == {"num_ctx": DEFAULT_NUM_CTX}
    assert sent_first["tools"][0]["function"]["name"] == "search_code"
    assert sent_first["tools"][0]["function"]["parameters"]["required"] == ["pattern"]
    assistant, tool = sent_second["messages"][2:]
    assert assistant["tool_calls"][0] == {
        "function": {"name": "search_code", "arguments": {"pattern": "def parse"}}
    }
    assert tool == {"role": "tool", "content": "src/p.py:3", "tool_name": "search_code"}
    assert not sent_third.get("tools")  # the SDK sends [] for "no tools"


def test_model_without_tools_raises_tools_unsupported(server, sleep):
    server.queue(
        Reply(400, {"error": "registry.ollama.ai/library/gemma:2b does not support tools"}),
        Reply(body=ollama_chat('{"action": "final_answer", "action_input": {"answer": "x"}}')),
    )
    llm = client(server, sleep)
    with pytest.raises(ToolsUnsupported) as info:
        llm.chat_with_tools(GOAL, [SEARCH])
    assert info.value.kind == "tools-unsupported"
    assert "does not support tools" in str(info.value)
    assert sleep.waits == []
    # the fallback path: the same model answers plain chat
    assert "final_answer" in llm.chat(GOAL).text


def test_missing_counts_are_zero(server, sleep):
    server.queue(Reply(body=ollama_chat("hi", prompt_eval_count=None, eval_count=None)))
    usage = client(server, sleep).chat(GOAL).usage
    assert (usage.prompt_tokens, usage.completion_tokens) == (0, 0)


def test_num_ctx_can_be_left_to_the_server(server, sleep):
    server.queue(Reply(body=ollama_chat("hi")))
    client(server, sleep, num_ctx=None).chat(GOAL)
    assert "options" not in server.chat_requests[0].json()


def test_500_then_500_then_success(server, sleep):
    server.queue(
        Reply(500, {"error": "llama runner process has terminated"}),
        Reply(503, {"error": "server busy"}),
        Reply(body=ollama_chat("recovered")),
    )
    assert client(server, sleep).chat(GOAL).text == "recovered"
    assert sleep.waits == [1.0, 2.0]


def test_429_honours_retry_after(server, sleep):
    # The SDK's ResponseError has no headers; the adapter's response hook keeps them.
    server.queue(
        Reply(429, {"error": "too many requests"}, {"Retry-After": "3"}),
        Reply(body=ollama_chat("ok")),
    )
    assert client(server, sleep).chat(GOAL).text == "ok"
    assert sleep.waits == [3.0]


def test_timeout_is_retried_then_reported(server, sleep):
    server.queue(
        Reply(delay=0.6, body=ollama_chat("late")), Reply(delay=0.6, body=ollama_chat("late"))
    )
    with pytest.raises(LLMError) as info:
        client(server, sleep, timeout=0.15, max_retries=1).chat(GOAL)
    assert info.value.kind == "timeout"
    assert len(server.chat_requests) == 2
    assert sleep.waits == [1.0]


def test_connection_refused(sleep):
    llm = OllamaChat(
        "llama3.1", host=f"http://127.0.0.1:{closed_port()}", max_retries=1, sleep=sleep
    )
    with pytest.raises(LLMError) as info:
        llm.chat(GOAL)
    assert info.value.kind == "connection"
    assert sleep.waits == [1.0]


def test_dropped_connection_is_retried(server, sleep):
    server.queue(Reply(close=True), Reply(body=ollama_chat("again")))
    assert client(server, sleep).chat(GOAL).text == "again"
    assert sleep.waits == [1.0]


@pytest.mark.parametrize(
    "body",
    ['{"model": "llama3.1", "message": {"role": "assis', '"a string"', {"error": "boom"}],
)
def test_unusable_bodies_are_bad_responses_not_retried(server, sleep, body):
    server.queue(Reply(body=body), Reply(body=ollama_chat("never asked")))
    with pytest.raises(LLMError) as info:
        client(server, sleep).chat(GOAL)
    assert info.value.kind == "bad-response"
    assert len(server.chat_requests) == 1


def test_unknown_model_is_not_found_and_not_retried(server, sleep):
    server.queue(Reply(404, {"error": "model 'llama9' not found, try pulling it first"}))
    with pytest.raises(LLMError) as info:
        client(server, sleep).chat(GOAL)
    assert info.value.kind == "not-found"
    assert "try pulling it first" in str(info.value)
    assert len(server.chat_requests) == 1


def test_ollama_host_from_environment(server):
    env = {"REPOPILOT_LLM": "ollama", "OLLAMA_HOST": server.host}
    server.queue(Reply(body=ollama_chat("via env")))
    llm = make_llm(Settings.from_env(env).llm)
    assert isinstance(llm, OllamaChat) and llm.chat(GOAL).text == "via env"
    assert len(server.chat_requests) == 1
