"""How tool calls travel: native function calling, or JSON-in-text for models without it.

The loop speaks to one `Protocol`; `NativeTools` is the default and `TextActions` takes over for
the rest of a run once the provider raises ToolsUnsupported. Both turn a reply into ToolCalls (or
None: the reply is the final answer) and an observation into a message.
"""

from __future__ import annotations

import json
from typing import Protocol as _Protocol

from repopilot.agent.answer import FormatError, json_object
from repopilot.agent.schema import tool_specs
from repopilot.llm import jsontext
from repopilot.llm.base import LLM, ChatResponse, Message, ToolCall

TEXT_FINAL_NOTE = (
    f'For "{jsontext.FINAL_ACTION}" the action_input may be '
    '{"diagnosis": "...", "category": "...", "confidence": 0.0}; to propose a diff use propose_fix.'
)


class Protocol(_Protocol):
    name: str

    def send(self, llm: LLM, messages: list[Message], *, final: bool) -> ChatResponse: ...

    def tool_calls(self, response: ChatResponse, step: int) -> list[ToolCall] | None:
        """The calls in a reply, None if it is the final answer; FormatError if unusable."""
        ...

    def assistant(self, response: ChatResponse, calls: list[ToolCall]) -> Message: ...

    def observation(self, call: ToolCall, text: str) -> Message: ...

    def final_text(self, response: ChatResponse) -> str:
        """The text holding the final answer of a reply that `tool_calls` called final."""
        ...


class NativeTools:
    name = "tools"

    def send(self, llm: LLM, messages: list[Message], *, final: bool) -> ChatResponse:
        return llm.chat(messages) if final else llm.chat_with_tools(messages, tool_specs())

    def tool_calls(self, response: ChatResponse, step: int) -> list[ToolCall] | None:
        return list(response.tool_calls) or None

    def assistant(self, response: ChatResponse, calls: list[ToolCall]) -> Message:
        return Message(role="assistant", content=response.text, tool_calls=tuple(calls))

    def observation(self, call: ToolCall, text: str) -> Message:
        return Message(role="tool", content=text, tool_call_id=call.id, name=call.name)

    def final_text(self, response: ChatResponse) -> str:
        return response.text


class TextActions:
    name = "json-text"

    def send(self, llm: LLM, messages: list[Message], *, final: bool) -> ChatResponse:
        system = messages[0].content + "\n\n" + jsontext.render_tools(tool_specs())
        system += "\n" + TEXT_FINAL_NOTE
        return llm.chat([messages[0].model_copy(update={"content": system}), *messages[1:]])

    def tool_calls(self, response: ChatResponse, step: int) -> list[ToolCall] | None:
        parsed = jsontext.parse_action(response.text)
        if isinstance(parsed, jsontext.ParseFailure):
            if "diagnosis" in (json_object(response.text) or {}):
                return None  # the plain JSON answer the system prompt describes
            raise FormatError(parsed.observation())
        if parsed.is_final:
            return None
        return [parsed.to_tool_call(f"text-{step}")]

    def assistant(self, response: ChatResponse, calls: list[ToolCall]) -> Message:
        return Message(role="assistant", content=response.text)

    def observation(self, call: ToolCall, text: str) -> Message:
        return jsontext.observation_message(call.name, text)

    def final_text(self, response: ChatResponse) -> str:
        parsed = jsontext.parse_action(response.text)
        if isinstance(parsed, jsontext.ParseFailure) or not parsed.is_final:
            return response.text  # a final request may be answered in prose
        data = parsed.action_input
        if "diagnosis" in data:
            return json.dumps(data)
        answer = data.get("answer")
        return answer if isinstance(answer, str) else ""
