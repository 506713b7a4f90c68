"""A provider that replays queued responses: for tests and `repopilot trace replay`.

It is a real implementation of the `LLM` protocol, not a patch: the loop under test cannot tell it
from a network provider. Every request is recorded (messages and the tools offered) so a test can
assert what the model was shown, and a replay can report where a new run diverges.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass

from repopilot.llm.base import ChatResponse, LLMError, Message, ToolSpec


@dataclass(frozen=True)
class ScriptedCall:
    """One request the scripted model received; `tools` is None for a plain `chat`."""

    messages: tuple[Message, ...]
    tools: tuple[ToolSpec, ...] | None


class ScriptedLLM:
    """Answers each call with the next queued item; an exception item is raised instead.

    When the queue is empty the call raises `LLMError("script-exhausted")`, which the loop handles
    like any provider failure (a replay treats it as "the new run asked for more than was recorded").
    """

    def __init__(
        self, responses: Iterable[ChatResponse | Exception], model: str = "scripted"
    ) -> None:
        self.model = model
        self._queue: deque[ChatResponse | Exception] = deque(responses)
        self.calls: list[ScriptedCall] = []

    @classmethod
    def from_texts(cls, texts: Iterable[str], model: str = "scripted") -> ScriptedLLM:
        """Plain text replies, e.g. JSON-in-text actions for a model without tool calling."""
        return cls([ChatResponse(text=t, model=model) for t in texts], model=model)

    def chat(self, messages: list[Message]) -> ChatResponse:
        return self._answer(messages, None)

    def chat_with_tools(self, messages: list[Message], tools: list[ToolSpec]) -> ChatResponse:
        return self._answer(messages, tools)

    @property
    def remaining(self) -> int:
        """Queued items not consumed yet."""
        return len(self._queue)

    def push(self, *items: ChatResponse | Exception) -> None:
        """Queue more answers (a test can react to what the loop sent so far)."""
        self._queue.extend(items)

    def _answer(self, messages: list[Message], tools: list[ToolSpec] | None) -> ChatResponse:
        self.calls.append(
            ScriptedCall(tuple(messages), tuple(tools) if tools is not None else None)
        )
        if not self._queue:
            raise LLMError(
                "script-exhausted", f"no scripted response left for call {len(self.calls)}"
            )
        item = self._queue.popleft()
        if isinstance(item, Exception):
            raise item
        if not item.model:
            item = item.model_copy(update={"model": self.model})
        return item
