"""The seam between the agent loop and any LLM provider.

Adapters (openai.py, ollama.py, scripted.py) own their wire formats and normalize into these records:
OpenAI's JSON-string arguments and `tool_call_id`, Ollama's dict arguments and missing ids.
"""

from __future__ import annotations

from typing import Any, Literal, Protocol, get_args, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field


class _Rec(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ToolCall(_Rec):
    """A tool call as the model asked for it. `arguments` is parsed; `raw_arguments` keeps the
    text when parsing failed (`arguments_error` says why) so the loop can tell the model."""

    id: str
    name: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    raw_arguments: str | None = None
    arguments_error: str | None = None


class Message(_Rec):
    role: Literal["system", "user", "assistant", "tool"]
    content: str = ""
    tool_calls: tuple[ToolCall, ...] = ()
    tool_call_id: str | None = None  # for role == "tool"
    name: str | None = None  # tool name for role == "tool"


class ToolSpec(_Rec):
    """A JSON-schema function tool offered to the model."""

    name: str
    description: str
    parameters: dict[str, Any]


def function_tool(tool: ToolSpec) -> dict[str, Any]:
    """The function-tool JSON both OpenAI-compatible servers and Ollama accept."""
    return {
        "type": "function",
        "function": {
            "name": tool.name,
            "description": tool.description,
            "parameters": tool.parameters,
        },
    }


class TokenUsage(_Rec):
    prompt_tokens: int = 0
    completion_tokens: int = 0


class ChatResponse(_Rec):
    text: str = ""
    tool_calls: tuple[ToolCall, ...] = ()
    usage: TokenUsage = TokenUsage()
    model: str = ""
    finish_reason: str | None = None


LLMErrorKind = Literal[
    "timeout",
    "rate-limited",
    "server-error",
    "connection",
    "bad-response",
    "empty-response",
    "auth",
    "not-found",
    "bad-request",
    "tools-unsupported",
    "script-exhausted",  # the scripted provider ran out of answers (tests, replay)
]
"""Why a provider could not answer; in the trace as `<kind>: <message>`."""
LLM_ERROR_KINDS: tuple[str, ...] = get_args(LLMErrorKind)


class LLMError(Exception):
    """The provider could not answer (after retries). `kind` is a short code for the trace."""

    def __init__(self, kind: LLMErrorKind, message: str):
        super().__init__(f"{kind}: {message}")
        self.kind: LLMErrorKind = kind


class ToolsUnsupported(LLMError):
    """The model has no native tool calling; the loop falls back to JSON-in-text."""

    def __init__(self, message: str):
        super().__init__("tools-unsupported", message)


@runtime_checkable
class LLM(Protocol):
    model: str

    def chat(self, messages: list[Message]) -> ChatResponse: ...

    def chat_with_tools(self, messages: list[Message], tools: list[ToolSpec]) -> ChatResponse: ...


def response(
    content: Any,
    calls: tuple[ToolCall, ...],
    prompt_tokens: Any,
    completion_tokens: Any,
    model: Any,
    finish: Any,
    requested_model: str,
) -> ChatResponse:
    """A ChatResponse from loosely typed SDK fields: wrong types become defaults, never errors."""
    return ChatResponse(
        text=content if isinstance(content, str) else "",
        tool_calls=calls,
        usage=TokenUsage(
            prompt_tokens=_count(prompt_tokens), completion_tokens=_count(completion_tokens)
        ),
        model=model if isinstance(model, str) and model else requested_model,
        finish_reason=finish if isinstance(finish, str) else None,
    )


def _count(value: Any) -> int:
    try:
        return max(int(value or 0), 0)
    except (TypeError, ValueError):
        return 0
