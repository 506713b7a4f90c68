"""The OpenAI adapter with the real `openai` client against a scripted loopback server.

Also the retry policy itself (pure functions), since the adapters only classify failures.
"""

from __future__ import annotations

import email.utils
import json
import time

import pytest

from repopilot.llm.base import LLM, LLMError, Message, ToolCall, ToolSpec, ToolsUnsupported
from repopilot.llm.factory import make_llm
from repopilot.llm.openai import OpenAIChat, parse_arguments
from repopilot.llm.retry import Failure, RetryPolicy, call_with_retry, parse_retry_after
from repopilot.settings import Settings
from tests.loopback.llm_servers import (
    OpenAIServer,
    RecordingSleep,
    Reply,
    closed_port,
    openai_completion,
    openai_error,
)

pytest.importorskip("openai")

READ_FILE = ToolSpec(
    name="read_file",
    description="Read a file of the checkout.",
    parameters={
        "type": "object",
        "properties": {"path": {"type": "string"}, "start_line": {"type": "integer"}},
        "required": ["path"],
        "additionalProperties": False,
    },
)
LIST_FILES = ToolSpec(
    name="list_files",
    description="List files.",
    parameters={"type": "object", "properties": {"path": {"type": "string"}}},
)
GOAL = [
    Message(role="system", content="You triage CI failures."),
    Message(role="user", content="Why did test_parse fail?"),
]


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch):
    for name in ("OPENAI_BASE_URL", "OPENAI_API_KEY", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"):
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.lower(), raising=False)


@pytest.fixture
def server():
    with OpenAIServer() as srv:
        yield srv


@pytest.fixture
def sleep():
    return RecordingSleep()


def client(server, sleep, **kwargs) -> OpenAIChat:
    kwargs.setdefault("timeout", 5.0)
    return OpenAIChat(
        "gpt-4o-mini", base_url=server.base_url, api_key="sk-test-key", sleep=sleep, **kwargs
    )


# -- normalization ------------------------------------------------------------------------------


@pytest.mark.integration
def test_tool_calls_round_trip(server, sleep):
    server.queue(
        Reply(
            body=openai_completion(
                None,
                [
                    ("call_abc", "read_file", '{"path": "src/app.py", "start_line": 3}'),
                    ("call_def", "list_files", ""),
                ],
                prompt_tokens=123,
                completion_tokens=45,
            )
        ),
        Reply(body=openai_completion("The fixture path is wrong.", prompt_tokens=200)),
    )
    llm = client(server, sleep)
    assert isinstance(llm, LLM)

    first = llm.chat_with_tools(GOAL, [READ_FILE, LIST_FILES])
    assert first.tool_calls == (
        ToolCall(
            id="call_abc", name="read_file", arguments={"path": "src/app.py", "start_line": 3}
        ),
        ToolCall(id="call_def", name="list_files", arguments={}),
    )
    assert first.finish_reason == "tool_calls"
    assert first.model == "gpt-4o-mini-2024-07-18"
    assert (first.usage.prompt_tokens, first.usage.completion_tokens) == (123, 45)
    assert first.text == ""

    history = [
        *GOAL,
        Message(role="assistant", tool_calls=first.tool_calls),
        Message(role="tool", tool_call_id="call_abc", name="read_file", content="1: import os"),
        Message(role="tool", tool_call_id="call_def", name="list_files", content="src/app.py"),
    ]
    second = llm.chat_with_tools(history, [READ_FILE, LIST_FILES])
    assert second.text == "The fixture path is wrong."
    assert second.tool_calls == ()
    assert second.finish_reason == "stop"

    sent_first, sent_second = (r.json() for r in server.chat_requests)
    assert sent_first["model"] == "gpt-4o-mini"
    assert sent_first["tools"][0] == {
        "type": "function",
        "function": {
            "name": "read_file",
            "description": READ_FILE.description,
            "parameters": READ_FILE.parameters,
        },
    }
    assistant, tool_a, tool_b = sent_second["messages"][2:]
    assert "content" not in assistant  # optional with tool_calls; some servers reject ""
    assert [c["id"] for c in assistant["tool_calls"]] == ["call_abc", "call_def"]
    # arguments go back on the wire as JSON text, as OpenAI sends them
    assert json.loads(assistant["tool_calls"][0]["function"]["arguments"]) == {
        "path": "src/app.py",
        "start_line": 3,
    }
    assert tool_a == {"role": "tool", "tool_call_id": "call_abc", "content": "1: import os"}
    assert tool_b["tool_call_id"] == "call_def"
    assert server.requests[0].headers.get("authorization") == "Bearer sk-test-key"


@pytest.mark.integration
def test_plain_chat_offers_no_tools(server, sleep):
    server.queue(Reply(body=openai_completion("Answer without tools.", finish_reason="length")))
    reply = client(server, sleep).chat(GOAL)
    assert reply.text == "Answer without tools."
    assert reply.finish_reason == "length"
    assert "tools" not in server.chat_requests[0].json()


@pytest.mark.integration
def test_invalid_json_arguments_are_kept_raw_and_sent_back_as_written(server, sleep):
    broken = '{"path": "src/app.py",'
    server.queue(
        Reply(body=openai_completion(None, [("call_1", "read_file", broken)])),
        Reply(body=openai_completion(None, [("call_2", "read_file", "[1, 2]")])),
        Reply(body=openai_completion("ok")),
    )
    llm = client(server, sleep)
    call = llm.chat_with_tools(GOAL, [READ_FILE]).tool_calls[0]
    assert call.arguments == {}
    assert call.raw_arguments == broken
    assert "not valid JSON" in (call.arguments_error or "")

    not_object = llm.chat_with_tools(GOAL, [READ_FILE]).tool_calls[0]
    assert not_object.arguments == {}
    assert "must be a JSON object" in (not_object.arguments_error or "")

    llm.chat_with_tools([*GOAL, Message(role="assistant", tool_calls=(call,))], [READ_FILE])
    echoed = server.chat_requests[2].json()["messages"][2]["tool_calls"][0]
    assert echoed["function"]["arguments"] == broken


@pytest.mark.integration
def test_missing_tool_call_id_is_synthesized(server, sleep):
    server.queue(Reply(body=openai_completion(None, [(None, "list_files", "{}")])))
    call = client(server, sleep).chat_with_tools(GOAL, [LIST_FILES]).tool_calls[0]
    assert call.id == "call_0"
    assert call.name == "list_files"


@pytest.mark.integration
def test_missing_usage_counts_as_zero(server, sleep):
    body = openai_completion("hi")
    del body["usage"]
    server.queue(Reply(body=body))
    reply = client(server, sleep).chat(GOAL)
    assert (reply.usage.prompt_tokens, reply.usage.completion_tokens) == (0, 0)


# -- failures and retries -----------------------------------------------------------------------


@pytest.mark.integration
def test_429_honours_retry_after_then_succeeds(server, sleep):
    server.queue(
        Reply(429, openai_error("Rate limit reached", "requests"), {"Retry-After": "2"}),
        Reply(429, openai_error("Rate limit reached", "requests"), {"retry-after-ms": "250"}),
        Reply(body=openai_completion("done")),
    )
    assert client(server, sleep).chat(GOAL).text == "done"
    assert sleep.waits == [2.0, 0.25]
    assert len(server.chat_requests) == 3
    # the SDK's own retries are off: every attempt is ours and says so
    assert {r.headers.get("x-stainless-retry-count", "0") for r in server.chat_requests} == {"0"}


@pytest.mark.integration
def test_429_asking_for_a_long_wait_gives_up_at_once(server, sleep):
    server.queue(
        Reply(429, openai_error("quota exceeded", "insufficient_quota"), {"Retry-After": "3600"})
    )
    with pytest.raises(LLMError) as info:
        client(server, sleep).chat(GOAL)
    assert info.value.kind == "rate-limited"
    assert "3600" in str(info.value)
    assert sleep.waits == []
    assert len(server.chat_requests) == 1


@pytest.mark.integration
def test_500_then_500_then_success_backs_off_exponentially(server, sleep):
    server.queue(
        Reply(500, openai_error("The server had an error", "server_error")),
        Reply(502, "<html>Bad Gateway</html>"),
        Reply(body=openai_completion("recovered")),
    )
    assert client(server, sleep).chat(GOAL).text == "recovered"
    assert sleep.waits == [1.0, 2.0]


@pytest.mark.integration
def test_server_that_stays_down_raises_server_error_after_bounded_attempts(server, sleep):
    server.queue(*[Reply(503, openai_error("overloaded", "server_error"))] * 5)
    with pytest.raises(LLMError) as info:
        client(server, sleep, max_retries=2).chat(GOAL)
    assert info.value.kind == "server-error"
    assert "after 3 attempts" in str(info.value)
    assert len(server.chat_requests) == 3
    assert sleep.waits == [1.0, 2.0]


@pytest.mark.integration
def test_total_wait_budget_stops_retries(server, sleep):
    server.queue(*[Reply(429, openai_error("slow down"), {"Retry-After": "20"})] * 3)
    policy = RetryPolicy(max_attempts=5, max_total_wait=30.0)
    with pytest.raises(LLMError) as info:
        client(server, sleep, retry=policy).chat(GOAL)
    assert info.value.kind == "rate-limited"
    assert "retry budget 30 s spent" in str(info.value)
    assert sleep.waits == [20.0]
    assert len(server.chat_requests) == 2


@pytest.mark.integration
def test_timeout_is_retried_then_reported(server, sleep):
    server.queue(Reply(delay=0.6, body=openai_completion("late")), Reply(delay=0.6, body="{}"))
    started = time.monotonic()
    with pytest.raises(LLMError) as info:
        client(server, sleep, timeout=0.15, max_retries=1).chat(GOAL)
    assert info.value.kind == "timeout"
    assert len(server.chat_requests) == 2
    assert sleep.waits == [1.0]
    assert time.monotonic() - started < 2.0


@pytest.mark.integration
def test_timeout_then_success(server, sleep):
    server.queue(
        Reply(delay=0.6, body=openai_completion("late")), Reply(body=openai_completion("on time"))
    )
    assert client(server, sleep, timeout=0.15).chat(GOAL).text == "on time"


@pytest.mark.integration
def test_connection_refused_is_a_connection_error(sleep):
    llm = OpenAIChat(
        "m",
        base_url=f"http://127.0.0.1:{closed_port()}/v1",
        api_key="k",
        max_retries=2,
        sleep=sleep,
    )
    with pytest.raises(LLMError) as info:
        llm.chat(GOAL)
    assert info.value.kind == "connection"
    assert sleep.waits == [1.0, 2.0]


@pytest.mark.integration
def test_dropped_connection_is_retried(server, sleep):
    server.queue(Reply(close=True), Reply(body=openai_completion("second try")))
    assert client(server, sleep).chat(GOAL).text == "second try"
    assert sleep.waits == [1.0]


@pytest.mark.integration
@pytest.mark.parametrize(
    ("body", "kind"),
    [
        ('{"id": "chatcmpl-1", "object": "chat.completion", "choi', "bad-response"),
        ({"id": "chatcmpl-1", "object": "chat.completion", "choices": []}, "empty-response"),
        ({"error": "upstream model crashed"}, "bad-response"),
        ('"just a string"', "bad-response"),
    ],
)
def test_unusable_bodies_are_not_retried(server, sleep, body, kind):
    server.queue(Reply(body=body), Reply(body=openai_completion("never asked")))
    with pytest.raises(LLMError) as info:
        client(server, sleep).chat(GOAL)
    assert info.value.kind == kind
    assert len(server.chat_requests) == 1
    assert sleep.waits == []


@pytest.mark.integration
@pytest.mark.parametrize(
    ("status", "kind"), [(401, "auth"), (404, "not-found"), (400, "bad-request")]
)
def test_client_errors_are_not_retried(server, sleep, status, kind):
    server.queue(Reply(status, openai_error("Incorrect API key provided: sk-te**key")))
    with pytest.raises(LLMError) as info:
        client(server, sleep).chat(GOAL)
    assert info.value.kind == kind
    assert "Incorrect API key" in str(info.value)
    assert len(server.chat_requests) == 1


@pytest.mark.integration
@pytest.mark.parametrize(
    ("status", "message"),
    [
        # Ollama's OpenAI-compatible /v1, for a model without tool calling
        (400, "registry.ollama.ai/library/gemma:2b does not support tools"),
        # vLLM started without tool parsing
        (
            400,
            '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set',
        ),
        # llama.cpp's server started without --jinja (a 500 that must not be retried)
        (500, "tools param requires --jinja flag"),
    ],
)
def test_tools_unsupported_through_a_compatible_endpoint(server, sleep, status, message):
    server.queue(Reply(status, openai_error(message, "api_error")))
    with pytest.raises(ToolsUnsupported) as info:
        client(server, sleep).chat_with_tools(GOAL, [READ_FILE])
    assert info.value.kind == "tools-unsupported"
    assert len(server.chat_requests) == 1


# -- configuration ------------------------------------------------------------------------------


@pytest.mark.integration
def test_environment_configures_endpoint_and_key(server):
    env = {"REPOPILOT_LLM": "openai"}
    env.update(OPENAI_BASE_URL=server.base_url, OPENAI_API_KEY="sk-from-env")
    server.queue(Reply(body=openai_completion("via env")))
    llm = make_llm(Settings.from_env(env).llm)
    assert isinstance(llm, OpenAIChat) and llm.chat(GOAL).text == "via env"
    assert server.requests[0].headers.get("authorization") == "Bearer sk-from-env"


@pytest.mark.integration
def test_compatible_server_needs_no_key(server, sleep):
    server.queue(Reply(body=openai_completion("local")))
    assert OpenAIChat("qwen", base_url=server.base_url, sleep=sleep).chat(GOAL).text == "local"


@pytest.mark.unit
def test_missing_key_for_openai_itself_is_one_clear_line():
    with pytest.raises(ValueError, match="OPENAI_API_KEY is not set") as info:
        OpenAIChat("gpt-4o-mini")
    assert "\n" not in str(info.value)


# -- the retry policy on its own ----------------------------------------------------------------


@pytest.mark.unit
def test_backoff_doubles_and_is_capped():
    policy = RetryPolicy(base_delay=1.0, max_delay=5.0)
    assert [policy.backoff(n) for n in range(1, 6)] == [1.0, 2.0, 4.0, 5.0, 5.0]


@pytest.mark.unit
def test_retry_after_forms():
    assert parse_retry_after({"Retry-After": "7"}) == 7.0
    assert parse_retry_after({"retry-after-ms": "1500", "retry-after": "9"}) == 1.5
    assert parse_retry_after({}) is None
    assert parse_retry_after({"Retry-After": "soon"}) is None
    now = 1_700_000_000.0
    date = email.utils.formatdate(now + 12, usegmt=True)
    assert parse_retry_after({"Retry-After": date}, now=now) == pytest.approx(12.0)
    past = email.utils.formatdate(now - 100, usegmt=True)
    assert parse_retry_after({"Retry-After": past}, now=now) == 0.0


@pytest.mark.unit
def test_unclassified_exceptions_are_our_bugs_and_propagate():
    sleep = RecordingSleep()

    def attempt():
        raise KeyError("a bug of ours")

    with pytest.raises(KeyError):
        call_with_retry(attempt, lambda exc: None, RetryPolicy(), sleep)
    assert sleep.waits == []


@pytest.mark.unit
def test_retry_returns_first_success_and_counts_attempts():
    outcomes = iter([TimeoutError(), TimeoutError(), "answer"])

    def attempt():
        item = next(outcomes)
        if isinstance(item, Exception):
            raise item
        return item

    def classify(exc):
        return Failure("timeout", "slow", retryable=True)

    sleep = RecordingSleep()
    assert call_with_retry(attempt, classify, RetryPolicy(base_delay=0.5), sleep) == "answer"
    assert sleep.waits == [0.5, 1.0]


@pytest.mark.unit
@pytest.mark.parametrize(
    ("text", "arguments", "error"),
    [
        ('{"path": "a"}', {"path": "a"}, None),
        ("", {}, None),
        ("null", {}, None),
        ({"path": "a"}, {"path": "a"}, None),
        ("[1]", {}, "must be a JSON object"),
        ("{'path': 'a'}", {}, "not valid JSON"),
        ('{"a":' * 30_000, {}, "nested too deeply"),
        (42, {}, "must be JSON text"),
    ],
)
def test_parse_arguments(text, arguments, error):
    parsed, why = parse_arguments(text)
    assert parsed == arguments
    if error is None:
        assert why is None
    else:
        assert error in (why or "")


@pytest.mark.integration
def test_error_messages_never_show_url_credentials(sleep):
    url = f"http://user:s3cret-pw@127.0.0.1:{closed_port()}/v1?api-key=s3cret-key"
    llm = OpenAIChat("m", base_url=url, api_key="k", max_retries=0, sleep=sleep)
    with pytest.raises(LLMError) as info:
        llm.chat(GOAL)
    assert "s3cret" not in str(info.value)
    assert "127.0.0.1" in str(info.value)


@pytest.mark.integration
def test_recorder_sees_every_body_so_canary_checks_are_not_vacuous(server, sleep):
    # The security tests assert a secret is absent from `all_bodies_text()`; that only means
    # something if whatever the adapter sends, including retried attempts, is recorded.
    server.queue(Reply(500, openai_error("boom")), Reply(body=openai_completion("ok")))
    marker = "MARKER-7f3a"
    client(server, sleep).chat([Message(role="user", content=f"log line {marker}")])
    assert server.all_bodies_text().count(marker) == 2
    assert "sk-test-key" not in server.all_bodies_text()  # the key travels in a header only
