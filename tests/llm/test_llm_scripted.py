"""The scripted provider, and provider selection from Contract 2's environment."""

from __future__ import annotations

import pytest

from repopilot.llm.base import (
    LLM,
    ChatResponse,
    LLMError,
    Message,
    ToolCall,
    ToolSpec,
    ToolsUnsupported,
)
from repopilot.llm.factory import make_llm, resolve_provider
from repopilot.llm.scripted import ScriptedLLM
from repopilot.settings import ConfigError, Settings

pytestmark = pytest.mark.unit


def llm_from(env: dict[str, str]):
    """make_llm as the entry points call it: the settings read from `env` (no os.environ)."""
    return make_llm(Settings.from_env(env).llm)


TOOL = ToolSpec(name="list_files", description="List files.", parameters={"type": "object"})
CALL = ToolCall(id="c1", name="list_files", arguments={"path": "src"})


def test_replays_in_order_and_records_what_it_was_shown():
    llm = ScriptedLLM(
        [ChatResponse(tool_calls=(CALL,)), ChatResponse(text="done", model="recorded-model")]
    )
    assert isinstance(llm, LLM)
    first_messages = [Message(role="user", content="why?")]
    assert llm.chat_with_tools(first_messages, [TOOL]).tool_calls == (CALL,)
    second = llm.chat([*first_messages, Message(role="assistant", tool_calls=(CALL,))])
    assert second.text == "done"
    assert second.model == "recorded-model"  # a recorded model name is kept
    assert llm.remaining == 0
    assert [c.tools for c in llm.calls] == [(TOOL,), None]
    assert llm.calls[0].messages == tuple(first_messages)
    assert llm.calls[1].messages[1].tool_calls == (CALL,)


def test_fills_in_its_model_name():
    assert ScriptedLLM([ChatResponse(text="x")], model="m1").chat([]).model == "m1"


def test_exceptions_are_raised_in_turn():
    llm = ScriptedLLM(
        [LLMError("timeout", "slow"), ToolsUnsupported("no tools"), ChatResponse(text="ok")]
    )
    with pytest.raises(LLMError) as first:
        llm.chat([])
    assert first.value.kind == "timeout"
    with pytest.raises(ToolsUnsupported):
        llm.chat_with_tools([], [TOOL])
    assert llm.chat([]).text == "ok"
    assert len(llm.calls) == 3


def test_exhausted_script_is_an_llm_error_not_a_crash():
    llm = ScriptedLLM([])
    with pytest.raises(LLMError) as info:
        llm.chat([Message(role="user", content="hi")])
    assert info.value.kind == "script-exhausted"
    assert len(llm.calls) == 1


def test_from_texts_and_push():
    llm = ScriptedLLM.from_texts(['{"action": "list_files", "action_input": {}}'])
    llm.push(ChatResponse(text="later"))
    assert llm.chat([]).text.startswith('{"action"')
    assert llm.chat([]).text == "later"


# -- provider selection (Contract 2) ------------------------------------------------------------


def test_none_is_the_default():
    assert llm_from({}) is None
    assert llm_from({"REPOPILOT_LLM": " None "}) is None
    assert llm_from({"REPOPILOT_LLM": ""}) is None


def test_unknown_provider_is_one_clear_line():
    with pytest.raises(ConfigError) as info:
        llm_from({"REPOPILOT_LLM": "gemini"})
    message = str(info.value)
    assert "'gemini'" in message and "REPOPILOT_LLM" in message and "openai" in message
    assert "\n" not in message
    with pytest.raises(ValueError, match=r"\(provider\)"):
        resolve_provider("claude")


def test_openai_from_environment_with_default_and_chosen_model():
    pytest.importorskip("openai")
    env = {
        "REPOPILOT_LLM": "OpenAI",
        "OPENAI_BASE_URL": "http://127.0.0.1:9/v1",
        "OPENAI_API_KEY": "k",
    }
    llm = llm_from(env)
    assert type(llm).__name__ == "OpenAIChat"
    assert llm.model == "gpt-4o-mini"
    assert llm.base_url == "http://127.0.0.1:9/v1"
    assert llm_from({**env, "REPOPILOT_MODEL": "gpt-4.1"}).model == "gpt-4.1"
    assert llm_from({**env, "REPOPILOT_MODEL": "gpt-4.1", "INPUT_MODEL": "o4-mini"}).model == (
        "o4-mini"
    )


def test_ollama_from_the_input_over_the_variable():
    pytest.importorskip("ollama")
    llm = llm_from(
        {"REPOPILOT_LLM": "none", "INPUT_LLM": "ollama", "OLLAMA_HOST": "http://127.0.0.1:9"}
    )
    assert type(llm).__name__ == "OllamaChat"
    assert llm.model == "llama3.1"
    assert llm.host == "http://127.0.0.1:9"
