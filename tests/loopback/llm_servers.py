"""Scriptable loopback LLM servers for tests: OpenAI-compatible and Ollama-compatible.

Each server listens on 127.0.0.1 (port 0) in a thread, answers its chat endpoint from a queue of
`Reply` objects (status, headers, body, a delay to force a client timeout, or a dropped connection),
and records every request so tests can assert on what was sent (e.g. that no secret canary left).
The real `openai` and `ollama` clients talk to them over HTTP; nothing is patched.

Response bodies follow the providers' documented wire shapes (OpenAI Chat Completions object,
Ollama /api/chat non-streaming response).
"""

from __future__ import annotations

import json
import socket
import sys
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass(frozen=True)
class Reply:
    """One scripted answer. `body` may be a dict/list (sent as JSON) or raw text (sent verbatim,
    e.g. a truncated JSON document). `delay` sleeps before answering; `close` drops the connection
    without any answer."""

    status: int = 200
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0
    close: bool = False


@dataclass(frozen=True)
class Recorded:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


class _QuietOnHangUp(ThreadingHTTPServer):
    """A client that hung up mid-exchange (past its timeout, a dropped reply) is no error of the
    fake: nothing printed to stderr, which in-process Action runs capture as their own."""

    def handle_error(self, request: Any, client_address: Any) -> None:
        if not isinstance(sys.exc_info()[1], OSError):
            super().handle_error(request, client_address)


class _LoopbackServer:
    chat_path = ""
    static_gets: dict[str, Any] = {}

    def __init__(self) -> None:
        self._replies: deque[Reply] = deque()
        self._lock = threading.Lock()
        self.requests: list[Recorded] = []
        self.unscripted = 0  # chat requests that found the queue empty
        self._httpd = _QuietOnHangUp(("127.0.0.1", 0), self._handler_class())
        self._httpd.daemon_threads = True
        # a short poll interval keeps shutdown (once per test) fast
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )

    # -- scripting -------------------------------------------------------------------------------
    def queue(self, *replies: Reply) -> None:
        with self._lock:
            self._replies.extend(replies)

    @property
    def pending(self) -> int:
        return len(self._replies)

    @property
    def chat_requests(self) -> list[Recorded]:
        return [r for r in self.requests if r.path == self.chat_path]

    def all_bodies_text(self) -> str:
        """Every recorded request body, decoded, joined: for "this secret was never sent" checks."""
        return "\n".join(r.body.decode("utf-8", "replace") for r in self.requests)

    # -- lifecycle -------------------------------------------------------------------------------
    @property
    def port(self) -> int:
        return self._httpd.server_address[1]

    @property
    def root(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> _LoopbackServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- HTTP ------------------------------------------------------------------------------------
    def _next_reply(self) -> Reply:
        with self._lock:
            if self._replies:
                return self._replies.popleft()
            self.unscripted += 1
        return Reply(500, {"error": "loopback script exhausted"})

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            # headers and body are two writes: without TCP_NODELAY the body waits for the
            # client's delayed ACK (40 ms on Linux loopback) on every keep-alive response
            disable_nagle_algorithm = True

            def log_message(self, *args: object) -> None:  # keep test output quiet
                pass

            def _record(self) -> Recorded:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                rec = Recorded(self.command, self.path.split("?")[0], dict(self.headers), body)
                with server._lock:
                    server.requests.append(rec)
                return rec

            def do_GET(self) -> None:
                rec = self._record()
                if rec.path in server.static_gets:
                    self._send(Reply(200, server.static_gets[rec.path]))
                else:
                    self._send(Reply(404, {"error": f"no route {rec.path}"}))

            def do_POST(self) -> None:
                rec = self._record()
                if rec.path != server.chat_path:
                    self._send(Reply(404, {"error": f"no route {rec.path}"}))
                    return
                self._send(server._next_reply())

            def _send(self, reply: Reply) -> None:
                if reply.delay:
                    time.sleep(reply.delay)
                if reply.close:
                    self.close_connection = True
                    try:
                        self.connection.shutdown(socket.SHUT_RDWR)
                    except OSError:
                        pass
                    return
                if isinstance(reply.body, str | bytes):
                    raw = reply.body.encode() if isinstance(reply.body, str) else reply.body
                else:
                    raw = json.dumps(reply.body).encode()
                try:
                    self.send_response(reply.status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(raw)))
                    for name, value in reply.headers.items():
                        self.send_header(name, value)
                    self.end_headers()
                    self.wfile.write(raw)
                except OSError:  # the client gave up (timeout test): nothing to answer
                    self.close_connection = True

        return Handler


class OpenAIServer(_LoopbackServer):
    """POST /v1/chat/completions; `base_url` is what the openai client wants."""

    chat_path = "/v1/chat/completions"
    static_gets = {"/v1/models": {"object": "list", "data": []}}

    @property
    def base_url(self) -> str:
        return f"{self.root}/v1"


class OllamaServer(_LoopbackServer):
    """POST /api/chat; `host` is what the ollama client (or OLLAMA_HOST) wants."""

    chat_path = "/api/chat"
    static_gets = {"/": "Ollama is running", "/api/version": {"version": "0.6.0"}}

    @property
    def host(self) -> str:
        return self.root


def closed_port() -> int:
    """A loopback port with nothing listening (connection refused)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class RecordingSleep:
    """Stands in for time.sleep in retry tests: records each wait, sleeps not at all."""

    def __init__(self) -> None:
        self.waits: list[float] = []

    def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)


# -- wire-shaped bodies -------------------------------------------------------------------------


def openai_completion(
    content: str | None = None,
    tool_calls: list[tuple[str | None, str, str]] | None = None,
    *,
    finish_reason: str | None = None,
    prompt_tokens: int = 11,
    completion_tokens: int = 7,
    model: str = "gpt-4o-mini-2024-07-18",
) -> dict[str, Any]:
    """A Chat Completions object; tool_calls are (id, name, arguments-as-JSON-text)."""
    message: dict[str, Any] = {"role": "assistant", "content": content, "refusal": None}
    if tool_calls:
        message["tool_calls"] = [
            {"id": cid, "type": "function", "function": {"name": name, "arguments": args}}
            for cid, name, args in tool_calls
        ]
    return {
        "id": "chatcmpl-loopback1",
        "object": "chat.completion",
        "created": 1_730_000_000,
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": message,
                "logprobs": None,
                "finish_reason": finish_reason or ("tool_calls" if tool_calls else "stop"),
            }
        ],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        },
        "system_fingerprint": "fp_loopback",
    }


def openai_error(message: str, type_: str = "invalid_request_error", code: str | None = None):
    return {"error": {"message": message, "type": type_, "param": None, "code": code}}


def ollama_chat(
    content: str = "",
    tool_calls: list[tuple[str, dict[str, Any]]] | None = None,
    *,
    prompt_eval_count: int | None = 26,
    eval_count: int | None = 9,
    model: str = "llama3.1",
    done_reason: str = "stop",
) -> dict[str, Any]:
    """An Ollama /api/chat non-streaming response; tool_calls are (name, arguments-dict)."""
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if tool_calls:
        message["tool_calls"] = [
            {"function": {"name": name, "arguments": args}} for name, args in tool_calls
        ]
    body: dict[str, Any] = {
        "model": model,
        "created_at": "2024-07-22T20:33:28.123648Z",
        "message": message,
        "done_reason": done_reason,
        "done": True,
        "total_duration": 885_095_291,
        "load_duration": 3_753_500,
        "prompt_eval_duration": 250_000_000,
        "eval_duration": 630_000_000,
    }
    if prompt_eval_count is not None:
        body["prompt_eval_count"] = prompt_eval_count
    if eval_count is not None:
        body["eval_count"] = eval_count
    return body
