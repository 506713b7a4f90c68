"""A loopback GitHub REST server for the Action's tests: real PyGithub talks HTTP to it.

Bodies are built from the shapes in tests/fixtures/github/ (copied from GitHub's OpenAPI examples),
with URLs pointing back at this server. State lives in memory (`State`); `Fault`s script failures
per route; every request (method, path, headers, which host) is recorded in `State.requests`.
Log downloads redirect (302) to a second server, the "storage host", as GitHub does.
"""

from __future__ import annotations

import json
import re
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, unquote, urlsplit

from tests.loopback import github_routes as routes
from tests.loopback.github_git import GitStore
from tests.loopback.github_shapes import FIXTURES as SHAPES_FIXTURES

FIXTURES = SHAPES_FIXTURES


def fixture(name: str) -> dict:
    """A fixture as stored (event payloads keep their github.com URLs)."""
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


@dataclass
class Fault:
    """Answer matching requests with `status` (or run `hook` first), `times` times.

    `land=True` performs the request anyway and only then answers with the fault: the answer of a
    request that did reach GitHub got lost. `delay` sleeps before answering (timeouts)."""

    method: str
    path: str  # regex, full match against the path without the query string
    status: int | None = None
    body: dict | None = None
    headers: dict[str, str] = field(default_factory=dict)
    times: int = 1
    land: bool = False
    delay: float = 0.0
    hook: Callable[[State], None] | None = None


@dataclass
class Request:
    host: str  # "api" | "storage"
    method: str
    path: str
    query: dict[str, list[str]]
    headers: dict[str, str]
    body: object
    at: float = field(default_factory=time.monotonic)


@dataclass
class State:
    owner: str = "octo-org"
    repo: str = "octo-repo"
    bot: str | None = "repopilot-bot"  # None: GET /user answers 403, like GITHUB_TOKEN
    git: GitStore = field(default_factory=GitStore)
    refs: dict[str, dict[str, str]] = field(default_factory=dict)  # repo -> branch -> sha
    pulls: dict[int, dict] = field(default_factory=dict)  # number -> {head_repo, head_ref, ...}
    comments: dict[int, dict] = field(default_factory=dict)  # id -> {issue, body, login, type}
    permissions: dict[str, str] = field(default_factory=dict)  # login -> role_name
    runs: dict[int, dict] = field(default_factory=dict)  # run id -> {jobs: [...], zip: bytes}
    job_logs: dict[int, bytes | int] = field(default_factory=dict)  # job id -> bytes or status
    errors: list[str] = field(default_factory=list)  # handler crashes (tests assert none)
    faults: list[Fault] = field(default_factory=list)
    requests: list[Request] = field(default_factory=list)
    pull_files: dict[int, list[dict]] = field(default_factory=dict)  # number -> diff entries
    reviews: list[dict] = field(default_factory=list)
    fork_accepts_pulls: bool = False
    fork_pulls: list[dict] = field(default_factory=list)
    next_id: int = 1000
    prefix: str = ""  # e.g. "/api/v3", as GitHub Enterprise Server serves the API
    api: str = ""
    storage: str = ""
    lock: threading.RLock = field(default_factory=threading.RLock)
    # issue 23: each workflow id's file path (for dispatches) and the workflow_dispatch requests
    # received ({"workflow_id", "ref", "inputs"})
    workflow_paths: dict[int, str] = field(default_factory=dict)
    dispatches: list[dict] = field(default_factory=list)

    @property
    def full_name(self) -> str:
        return f"{self.owner}/{self.repo}"

    def new_id(self) -> int:
        self.next_id += 1
        return self.next_id

    def calls(self, method: str, pattern: str, host: str = "api") -> list[Request]:
        return [
            r
            for r in self.requests
            if r.host == host and r.method == method and re.fullmatch(pattern, r.path)
        ]

    def issue_comments(self, issue: int) -> list[dict]:
        return [c for _, c in sorted(self.comments.items()) if c["issue"] == issue]

    def add_comment(self, issue: int, body: str, login: str, type_: str = "User") -> int:
        cid = self.new_id()
        self.comments[cid] = {
            "id": cid,
            "issue": issue,
            "body": body,
            "login": login,
            "type": type_,
        }
        return cid


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # headers and body leave in two writes: with Nagle on, the body waits for the client's delayed
    # ACK of the headers (40 ms on Linux loopback) on every keep-alive response
    disable_nagle_algorithm = True
    state: State
    host_kind: str

    def log_message(self, *args) -> None:  # keep test output clean
        pass

    def _serve(self) -> None:
        state = self.state
        parts = urlsplit(self.path)
        path = unquote(parts.path)
        if self.host_kind == "api" and state.prefix:
            path = path.removeprefix(state.prefix)
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = raw
        with state.lock:
            state.requests.append(
                Request(
                    self.host_kind,
                    self.command,
                    path,
                    parse_qs(parts.query),
                    dict(self.headers.items()),
                    body,
                )
            )
            fault = self._fault(path)
        if fault and fault.delay:
            time.sleep(fault.delay)
        if fault and fault.hook:
            with state.lock:
                fault.hook(state)
        if fault and fault.status and not fault.land:
            return self._send(fault.status, fault.body or {"message": "fault"}, fault.headers)
        with state.lock:
            try:
                status, payload, headers = self._route(path, parse_qs(parts.query), body)
            except Exception as exc:  # a bug in the fake must fail the test, not hang it
                state.errors.append(f"{self.command} {path}: {exc!r}")
                status, payload, headers = 500, {"message": "loopback error"}, {}
        if fault and fault.status:
            return self._send(fault.status, fault.body or {"message": "fault"}, fault.headers)
        self._send(status, payload, headers)

    def _fault(self, path: str) -> Fault | None:
        for fault in self.state.faults:
            if fault.times > 0 and fault.method == self.command and re.fullmatch(fault.path, path):
                fault.times -= 1
                return fault
        return None

    def _route(self, path: str, query: dict, body: object):
        if self.host_kind == "storage":
            return routes.storage(self.state, path)
        for method, pattern, handler in routes.TABLE:
            match = re.fullmatch(pattern, path)
            if match and method == self.command:
                return handler(self.state, match, query, body)
        return 404, {"message": "Not Found", "documentation_url": "loopback"}, {}

    def _send(self, status: int, payload: object, headers: dict[str, str]) -> None:
        if isinstance(payload, bytes):
            data, ctype = payload, "application/octet-stream"
        elif payload is None:
            data, ctype = b"", "application/json"
        else:
            data, ctype = json.dumps(payload).encode(), "application/json; charset=utf-8"
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        for key, value in headers.items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(data)

    do_GET = do_POST = do_PATCH = do_PUT = do_DELETE = _serve


class _Server(ThreadingHTTPServer):
    """Never prints: an Action run in-process captures stderr as its own, so socketserver's
    traceback of a handler's error read as the Action's. A client that hung up mid-exchange
    (after a fault, past its timeout) is no error of the fake; anything else fails the test
    through `State.errors` (the `gh` fixture asserts it is empty)."""

    daemon_threads = True
    state: State

    def handle_error(self, request, client_address) -> None:
        exc = sys.exc_info()[1]
        if isinstance(exc, OSError):
            return
        with self.state.lock:
            self.state.errors.append(f"loopback server: {exc!r}")


class GitHubServer:
    """Two loopback HTTP servers sharing one State: the API and the log storage host."""

    def __init__(self, state: State | None = None):
        self.state = state or State()
        self._servers = []
        for kind in ("api", "storage"):
            handler = type(f"{kind}Handler", (_Handler,), {"state": self.state, "host_kind": kind})
            server = _Server(("127.0.0.1", 0), handler)
            server.state = self.state
            self._servers.append(server)
        self.state.api = f"http://127.0.0.1:{self._servers[0].server_address[1]}{self.state.prefix}"
        self.state.storage = f"http://127.0.0.1:{self._servers[1].server_address[1]}"

    @property
    def url(self) -> str:
        return self.state.api

    def __enter__(self) -> GitHubServer:
        for server in self._servers:
            # a short poll interval keeps shutdown fast (it waits for one poll: 0.5 s by default)
            poll = {"poll_interval": 0.02}
            threading.Thread(target=server.serve_forever, kwargs=poll, daemon=True).start()
        return self

    def __exit__(self, *exc) -> None:
        for server in self._servers:
            server.shutdown()
            server.server_close()
