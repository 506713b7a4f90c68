"""What the network adapters share: the `LLM` methods, the retry policy, one request per call.

A subclass says how to build its wire request (`_request`), send it once (`_send`), read the
answer (`_response`) and classify its SDK's exceptions (`_classify`); this base runs the attempts
through `retry.call_with_retry`. No SDK is imported here: each adapter imports its own, lazily.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from typing import Any

from repopilot.llm.base import ChatResponse, Message, ToolSpec, function_tool
from repopilot.llm.retry import Failure, RetryPolicy, call_with_retry, display_url


class RetryingAdapter:
    """An `LLM` whose every call is one wire request, retried as `retry` says.

    `max_retries` (retries after the first attempt) overrides `retry.max_attempts`; `sleep` is the
    wait function (tests pass a recorder, nothing sleeps)."""

    def __init__(
        self,
        model: str,
        url: str,
        *,
        max_retries: int | None = None,
        retry: RetryPolicy | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.model = model
        self._url = url
        policy = retry or RetryPolicy()
        if max_retries is not None:
            policy = dataclasses.replace(policy, max_attempts=max_retries + 1)
        self.retry = policy
        self._sleep = sleep

    @property
    def where(self) -> str:
        """The server and model for messages: no credentials, no query."""
        return f"{display_url(self._url)} ({self.model})"

    def chat(self, messages: list[Message]) -> ChatResponse:
        return self._complete(messages, None)

    def chat_with_tools(self, messages: list[Message], tools: list[ToolSpec]) -> ChatResponse:
        return self._complete(messages, tools)

    def _complete(self, messages: list[Message], tools: list[ToolSpec] | None) -> ChatResponse:
        request = self._request(messages, [function_tool(t) for t in tools] if tools else None)
        raw = call_with_retry(lambda: self._send(request), self._classify, self.retry, self._sleep)
        return self._response(raw)

    # ---------------------------------------------------------------- per adapter
    def _request(
        self, messages: list[Message], tools: list[dict[str, Any]] | None
    ) -> dict[str, Any]:
        raise NotImplementedError

    def _send(self, request: dict[str, Any]) -> Any:
        """One attempt; raises the SDK's exception (classified by `_classify`) or LLMError."""
        raise NotImplementedError

    def _response(self, raw: Any) -> ChatResponse:
        raise NotImplementedError

    def _classify(self, exc: Exception) -> Failure | None:
        """The Failure for a provider exception, None for one that is not (our own bug)."""
        raise NotImplementedError

    def _timeout(self) -> Failure:
        return Failure("timeout", f"request to {self.where} timed out", retryable=True)

    def _unreachable(self, cause: object) -> Failure:
        return Failure("connection", f"cannot reach {self.where}: {cause}", retryable=True)
