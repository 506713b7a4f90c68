"""Ollama /api/chat adapter (non-streaming) with the `ollama` SDK, imported in the constructor only.

Ollama sends tool arguments as objects and gives tool calls no ids; ids are synthesized here,
unique within one adapter (`call_<turn>_<index>`) so results can be matched and traces read.
A model without tool calling makes Ollama answer HTTP 400 "... does not support tools": that
becomes `ToolsUnsupported`, and the loop falls back to the JSON-in-text protocol.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from repopilot.llm.adapter import RetryingAdapter
from repopilot.llm.base import ChatResponse, LLMError, Message, ToolCall, response
from repopilot.llm.retry import Failure, RetryPolicy, display_url, http_failure
from repopilot.safety.jsonbound import MAX_JSON_DEPTH, depth_of, json_limit

INSTALL_HINT = "the ollama provider needs the ollama package: pip install 'repopilot[ollama]'"
DEFAULT_NUM_CTX = 16384
DEFAULT_HOST = "http://localhost:11434"  # the SDK's own default


class OllamaChat(RetryingAdapter):
    """`LLM` over Ollama. `host`: the settings' OLLAMA_HOST, else localhost:11434.

    `num_ctx` sets the context window: Ollama's default (2-4k tokens) silently drops the start of a
    longer prompt, which is where the system prompt and the evidence are. None leaves the server's.
    `timeout` is per HTTP attempt; local models can be slow to load, hence the long default.
    `max_retries`, `retry` and `sleep` as in `RetryingAdapter`.
    """

    def __init__(
        self,
        model: str,
        *,
        host: str | None = None,
        timeout: float = 180.0,
        num_ctx: int | None = DEFAULT_NUM_CTX,
        max_retries: int | None = None,
        retry: RetryPolicy | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        try:
            import httpx
            import ollama
        except ImportError as exc:
            raise ImportError(INSTALL_HINT) from exc
        self._ollama = ollama
        self._httpx = httpx
        self.host = host or DEFAULT_HOST
        super().__init__(model, self.host, max_retries=max_retries, retry=retry, sleep=sleep)
        # The SDK's ResponseError drops the headers; a response hook keeps them for Retry-After.
        self._last_headers: dict[str, str] = {}
        self._client = ollama.Client(
            host=self.host, timeout=timeout, event_hooks={"response": [self._remember_headers]}
        )
        self._options = {"num_ctx": num_ctx} if num_ctx else None
        self._turn = 0

    def _request(
        self, messages: list[Message], tools: list[dict[str, Any]] | None
    ) -> dict[str, Any]:
        return {
            "model": self.model,
            "messages": [to_wire(m) for m in messages],
            "tools": tools,
            "stream": False,
            "options": self._options,
        }

    def _send(self, request: dict[str, Any]) -> Any:
        self._last_headers = {}
        try:
            return self._client.chat(**request)
        except (TypeError, ValueError, RecursionError) as exc:
            # The SDK builds its response object straight from the body: a truncated or
            # misshapen body surfaces as JSONDecodeError, TypeError or a ValidationError.
            raise LLMError(
                "bad-response", f"unreadable answer from {display_url(self.host)}: {exc}"
            ) from exc

    def _response(self, raw: Any) -> ChatResponse:
        self._turn += 1
        return from_wire(raw, self.model, self._turn)

    def _remember_headers(self, response: Any) -> None:
        self._last_headers = dict(response.headers)
        # The SDK parses the body itself: bound its nesting first (docs/THREAT_MODEL.md §17); the
        # ValueError becomes a "bad-response" LLMError in `_send`.
        if too_big := json_limit(response.read().decode("utf-8", "replace"), 48, 2**23):
            raise ValueError(f"response body refused: {too_big}")

    def _classify(self, exc: Exception) -> Failure | None:
        if isinstance(exc, self._ollama.ResponseError):
            if exc.status_code < 0:  # an error reported inside a 200 stream
                return Failure("bad-response", f"{self.where}: {exc.error}", retryable=False)
            return http_failure(exc.status_code, str(exc.error), self._last_headers, self.where)
        if isinstance(exc, self._httpx.TimeoutException):
            return self._timeout()
        if isinstance(exc, ConnectionError | self._httpx.TransportError):
            return self._unreachable(exc)
        return None


def to_wire(message: Message) -> dict[str, Any]:
    """One Message in Ollama's form: dict arguments, tool results named by `tool_name`."""
    wire: dict[str, Any] = {"role": message.role, "content": message.content}
    if message.role == "tool" and message.name:
        wire["tool_name"] = message.name
    if message.role == "assistant" and message.tool_calls:
        wire["tool_calls"] = [
            {"function": {"name": call.name, "arguments": dict(call.arguments)}}
            for call in message.tool_calls
        ]
    return wire


def from_wire(raw: Any, requested_model: str, turn: int) -> ChatResponse:
    message = getattr(raw, "message", None)
    content = getattr(message, "content", None)
    calls = tuple(
        _tool_call(call, f"call_{turn}_{index}")
        for index, call in enumerate(getattr(message, "tool_calls", None) or [])
    )
    return response(
        content,
        calls,
        getattr(raw, "prompt_eval_count", 0),
        getattr(raw, "eval_count", 0),
        getattr(raw, "model", None),
        getattr(raw, "done_reason", None),
        requested_model,
    )


def _tool_call(raw: Any, call_id: str) -> ToolCall:
    function = getattr(raw, "function", None)
    name = getattr(function, "name", "") or ""
    arguments = getattr(function, "arguments", None)
    if arguments is None:
        return ToolCall(id=call_id, name=name)
    if depth_of(arguments) > MAX_JSON_DEPTH:
        error = f"arguments are nested too deeply (more than {MAX_JSON_DEPTH} levels)"
        return ToolCall(id=call_id, name=name, raw_arguments="(too deep)", arguments_error=error)
    try:
        # The SDK hands us a Mapping; round-trip through JSON so the record holds plain data.
        return ToolCall(id=call_id, name=name, arguments=json.loads(json.dumps(dict(arguments))))
    except (TypeError, ValueError) as exc:
        return ToolCall(
            id=call_id,
            name=name,
            raw_arguments=repr(arguments)[:2000],
            arguments_error=f"arguments are not a JSON object: {exc}",
        )
