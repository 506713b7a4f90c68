"""OpenAI Chat Completions adapter (non-streaming), for OpenAI and any compatible server.

`OPENAI_BASE_URL` points it at vLLM, llama.cpp's server, LM Studio, Ollama's /v1 or Gemini's
OpenAI-compatible endpoint. The SDK is imported in the constructor only, and its own retries are
off: retries go through `RetryingAdapter` so their behaviour is ours and testable.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from repopilot.llm.adapter import RetryingAdapter
from repopilot.llm.base import ChatResponse, LLMError, Message, ToolCall, response
from repopilot.llm.retry import Failure, RetryPolicy, http_failure
from repopilot.safety.jsonbound import json_limit

DEFAULT_BASE_URL = "https://api.openai.com/v1"
INSTALL_HINT = "the openai provider needs the openai package: pip install 'repopilot[openai]'"


class OpenAIChat(RetryingAdapter):
    """`LLM` over Chat Completions. `api_key`/`base_url`: the settings' OPENAI_API_KEY and
    OPENAI_BASE_URL (repopilot/settings.py); no key is needed when a base URL is given.

    `timeout` is per HTTP attempt in seconds; `max_retries`, `retry` and `sleep` as in
    `RetryingAdapter`.
    """

    def __init__(
        self,
        model: str,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        timeout: float = 60.0,
        max_retries: int | None = None,
        retry: RetryPolicy | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        try:
            import openai
        except ImportError as exc:
            raise ImportError(INSTALL_HINT) from exc
        self._openai = openai
        base_url, api_key = base_url or None, api_key or None
        if api_key is None:
            if base_url is None:
                raise ValueError(
                    "OPENAI_API_KEY is not set (needed for REPOPILOT_LLM=openai; "
                    "set OPENAI_BASE_URL to use a compatible server without a key)"
                )
            api_key = "unused"  # local compatible servers ignore it, the SDK insists on one
        self.base_url = base_url or DEFAULT_BASE_URL
        super().__init__(model, self.base_url, max_retries=max_retries, retry=retry, sleep=sleep)
        self._client = openai.OpenAI(
            api_key=api_key, base_url=self.base_url, timeout=timeout, max_retries=0
        )

    def _request(
        self, messages: list[Message], tools: list[dict[str, Any]] | None
    ) -> dict[str, Any]:
        request: dict[str, Any] = {"model": self.model, "messages": [to_wire(m) for m in messages]}
        if tools:
            request["tools"] = tools
        return request

    def _send(self, request: dict[str, Any]) -> Any:
        return self._client.chat.completions.create(**request)

    def _response(self, raw: Any) -> ChatResponse:
        return from_wire(raw, self.model)

    def _classify(self, exc: Exception) -> Failure | None:
        openai = self._openai
        if isinstance(exc, openai.APITimeoutError):
            return self._timeout()
        if isinstance(exc, openai.APIConnectionError):
            return self._unreachable(exc.__cause__ or exc)
        if isinstance(exc, openai.APIStatusError):
            headers = dict(exc.response.headers)
            return http_failure(exc.status_code, _error_text(exc), headers, self.where)
        if isinstance(exc, openai.OpenAIError | json.JSONDecodeError | RecursionError):
            # A JSON body cut short (or not JSON at all) surfaces as a JSONDecodeError.
            return Failure("bad-response", f"unreadable answer from {self.where}: {exc}", False)
        return None


def _error_text(exc: Any) -> str:
    body = getattr(exc, "body", None)
    if isinstance(body, dict):
        inner = body.get("error", body)
        if isinstance(inner, dict) and isinstance(inner.get("message"), str):
            message: str = inner["message"]
            return message
        if isinstance(inner, str):
            return inner
    return str(getattr(exc, "message", "") or exc)


def to_wire(message: Message) -> dict[str, Any]:
    """One Message in Chat Completions form; tool arguments go back as the JSON text they were."""
    if message.role == "tool":
        return {
            "role": "tool",
            "tool_call_id": message.tool_call_id or "",
            "content": message.content,
        }
    wire: dict[str, Any] = {"role": message.role, "content": message.content}
    if message.role == "assistant" and message.tool_calls:
        wire["tool_calls"] = [
            {
                "id": call.id,
                "type": "function",
                "function": {"name": call.name, "arguments": _arguments_text(call)},
            }
            for call in message.tool_calls
        ]
        if not message.content:
            del wire["content"]  # optional with tool_calls; some servers reject ""
    return wire


def _arguments_text(call: ToolCall) -> str:
    if call.raw_arguments is not None and call.arguments_error:
        return call.raw_arguments  # show the model what it actually sent
    return json.dumps(call.arguments, ensure_ascii=False)


def from_wire(completion: Any, requested_model: str) -> ChatResponse:
    """Normalize a ChatCompletion; the SDK does not validate, so every field is checked here."""
    choices = getattr(completion, "choices", None)
    if not isinstance(choices, list):
        error = getattr(completion, "error", None)
        detail = f": {error}" if error else ""
        raise LLMError("bad-response", f"answer has no 'choices'{detail}")
    if not choices:
        raise LLMError("empty-response", "answer has an empty 'choices' list")
    choice = choices[0]
    message = getattr(choice, "message", None)
    content = getattr(message, "content", None)
    calls = tuple(
        _tool_call(raw, index)
        for index, raw in enumerate(getattr(message, "tool_calls", None) or [])
    )
    usage = getattr(completion, "usage", None)
    return response(
        content,
        calls,
        getattr(usage, "prompt_tokens", 0),
        getattr(usage, "completion_tokens", 0),
        getattr(completion, "model", None),
        getattr(choice, "finish_reason", None),
        requested_model,
    )


def _tool_call(raw: Any, index: int) -> ToolCall:
    call_id = getattr(raw, "id", None)
    call_id = call_id if isinstance(call_id, str) and call_id else f"call_{index}"
    function = getattr(raw, "function", None)
    name = getattr(function, "name", None)
    if not isinstance(name, str) or not name:
        return ToolCall(id=call_id, name="", arguments_error="tool call without a function name")
    text = getattr(function, "arguments", None)
    arguments, error = parse_arguments(text)
    if error is None:
        return ToolCall(id=call_id, name=name, arguments=arguments)
    raw_text = text if isinstance(text, str) else json.dumps(text, default=str)
    return ToolCall(
        id=call_id, name=name, arguments={}, raw_arguments=raw_text, arguments_error=error
    )


def parse_arguments(text: Any) -> tuple[dict[str, Any], str | None]:
    """OpenAI sends arguments as JSON text: parse it into an object, or say why it is not one."""
    if text is None or (isinstance(text, str) and not text.strip()):
        return {}, None  # a call with no parameters
    if isinstance(text, dict):
        return text, None  # a lenient server sent an object
    if not isinstance(text, str):
        return {}, f"arguments must be JSON text, got {type(text).__name__}"
    if (
        too_big := json_limit(text)
    ) is not None:  # bounded before parsing (docs/THREAT_MODEL.md §17)
        return {}, f"arguments refused: {too_big}"
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        return (
            {},
            f"arguments are not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}",
        )
    except RecursionError:
        return {}, "arguments are nested too deeply"
    if value is None:
        return {}, None
    if not isinstance(value, dict):
        return {}, f"arguments must be a JSON object, got {type(value).__name__}"
    return value, None
