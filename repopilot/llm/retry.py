"""Bounded retries for provider calls, shared by the adapters.

Adapters turn their SDK's exceptions into a `Failure` (kind, retryable, Retry-After); this module owns
the waiting. The SDKs' own retries are switched off so that what happens is ours, visible and testable:
`sleep` is a plain parameter, and a test passes a function that records the waits instead of sleeping.
"""

from __future__ import annotations

import email.utils
import re
import time
import urllib.parse
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TypeVar

from repopilot.llm.base import LLMError, LLMErrorKind, ToolsUnsupported

T = TypeVar("T")

# Servers say "this model/server cannot call tools" in their own words, and the text is the only
# signal: Ollama (native and /v1) HTTP 400 "<model> does not support tools"; vLLM without
# --enable-auto-tool-choice HTTP 400; llama.cpp's server without --jinja HTTP 500.
_TOOLS_UNSUPPORTED = re.compile(
    r"does not support (?:tools|tool[ _]calling|function[ _]calling)"
    r"|tools? (?:are|is) not supported"
    r"|tool choice requires --enable-auto-tool-choice"
    r"|tools param requires --jinja",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Failure:
    """One failed attempt, classified. `kind` becomes `LLMError.kind` when we give up."""

    kind: LLMErrorKind
    message: str
    retryable: bool
    retry_after: float | None = None  # seconds the provider asked us to wait, if it said


@dataclass(frozen=True)
class RetryPolicy:
    """How long a provider may keep us waiting.

    max_attempts: total tries including the first (1 = no retry).
    base_delay: first backoff wait in seconds; doubles on each retry.
    max_delay: cap on one backoff wait.
    max_retry_after: the longest provider-requested wait (Retry-After) we honour; a longer one means
        "come back much later" (a spent quota), so we give up at once instead of waiting.
    max_total_wait: cap on the sum of all waits for one call; a wait that would exceed it ends the call.
    """

    max_attempts: int = 4
    base_delay: float = 1.0
    max_delay: float = 20.0
    max_retry_after: float = 30.0
    max_total_wait: float = 60.0

    def backoff(self, attempt: int) -> float:
        """Wait after failed attempt number `attempt` (1-based) when the provider gave no hint."""
        delay: float = self.base_delay * 2 ** (attempt - 1)  # (int ** int is Any to typeshed)
        return min(delay, self.max_delay)


def call_with_retry(
    attempt: Callable[[], T],
    classify: Callable[[Exception], Failure | None],
    policy: RetryPolicy,
    sleep: Callable[[float], None] = time.sleep,
) -> T:
    """Run `attempt` until it succeeds or the policy says stop, then raise `LLMError(kind)`.

    `classify` maps a provider exception to a Failure; None means "not a provider failure" (our own
    bug) and the exception propagates untouched. An `LLMError` raised by `attempt` (for instance an
    empty response) is final and is not retried.
    """
    waited = 0.0
    number = 0
    while True:
        number += 1
        try:
            return attempt()
        except LLMError:
            raise
        except Exception as exc:
            failure = classify(exc)
            if failure is None:
                raise
            wait, why_not = _next_wait(policy, failure, number, waited)
            if wait is None:
                raise _give_up(failure, number, why_not) from exc
        sleep(wait)
        waited += wait


def _next_wait(
    policy: RetryPolicy, failure: Failure, number: int, waited: float
) -> tuple[float | None, str]:
    """(seconds to wait before attempt `number + 1`, "") or (None, why we stop here)."""
    if not failure.retryable or number >= max(policy.max_attempts, 1):
        return None, ""
    if failure.retry_after is None:
        wait = policy.backoff(number)
    elif failure.retry_after > policy.max_retry_after:
        return None, f"provider asked to wait {failure.retry_after:g} s"
    else:
        wait = failure.retry_after
    if waited + wait > policy.max_total_wait:
        return None, f"retry budget {policy.max_total_wait:g} s spent"
    return wait, ""


def _give_up(failure: Failure, attempts: int, why: str) -> LLMError:
    if failure.kind == "tools-unsupported":
        return ToolsUnsupported(failure.message)
    detail = f"after {attempts} attempt{'s' if attempts != 1 else ''}"
    if why:
        detail += f"; {why}"
    return LLMError(failure.kind, f"{failure.message} ({detail})")


def http_failure(
    status: int, message: str, headers: Mapping[str, str] | None = None, where: str = ""
) -> Failure:
    """Classify an HTTP error answer the same way for every adapter."""
    message = " ".join(message.split())[:300] or f"HTTP {status}"
    text = f"HTTP {status}{f' from {where}' if where else ''}: {message}"
    if status in (400, 422, 500, 501) and _TOOLS_UNSUPPORTED.search(message):
        return Failure("tools-unsupported", message, retryable=False)
    if status == 429:
        return Failure("rate-limited", text, True, parse_retry_after(headers or {}))
    if status == 408:
        return Failure("timeout", text, retryable=True)
    if status >= 500:
        return Failure("server-error", text, True, parse_retry_after(headers or {}))
    if status in (401, 403):
        return Failure("auth", text, retryable=False)
    if status == 404:
        return Failure("not-found", text, retryable=False)
    return Failure("bad-request", text, retryable=False)


def display_url(url: str) -> str:
    """The URL for messages and traces: without user:password@ or a query (keys hide there)."""
    parts = urllib.parse.urlsplit(url)
    host = parts.netloc.rpartition("@")[2]
    return urllib.parse.urlunsplit((parts.scheme, host, parts.path, "", ""))


def parse_retry_after(headers: Mapping[str, str], now: float | None = None) -> float | None:
    """Seconds from `retry-after-ms`, or `Retry-After` as seconds or an HTTP date; None if absent."""
    lowered = {k.lower(): v for k, v in headers.items()}
    raw_ms = lowered.get("retry-after-ms")
    if raw_ms is not None:
        try:
            return max(float(raw_ms) / 1000.0, 0.0)
        except ValueError:
            pass
    raw = lowered.get("retry-after")
    if raw is None:
        return None
    try:
        return max(float(raw), 0.0)
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(raw)
    except (TypeError, ValueError, IndexError):
        return None
    if when is None:  # pragma: no cover - older Pythons returned None
        return None
    current = time.time() if now is None else now
    return max(when.timestamp() - current, 0.0)
