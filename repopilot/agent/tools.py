"""The agent's read-only tools (DESIGN.md Contract 4): argument models, specs, and the Toolbox.

Arguments are pydantic models with extra='forbid', so an invented or missing parameter becomes an
observation naming it (`parse_arguments`). Tools return raw text; the loop redacts and fences every
output before the model sees it. Nothing here executes repository content: git runs with hooks,
fsmonitor, external diff and textconv turned off, from an argument list, with a timeout.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections import deque
from collections.abc import Callable, Iterable
from typing import Any, Protocol

import regex
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from repopilot.agent.sandbox import READ_CAP, Sandbox, SandboxError
from repopilot.llm.base import ToolSpec
from repopilot.records import CATEGORIES

RUN_CAP = 1024 * 1024
"""Bytes of tool output per run; after that every tool answers that the budget is spent."""

MAX_MATCHES = 50
GIT_TIMEOUT_S = 20.0
LOG_LINES = 400
SEARCH_LINE_TIMEOUT_S = 0.05
SEARCH_DEADLINE_S = 10.0


class ToolError(Exception):
    """A tool could not do what was asked (not found, refused, ...); the message goes to the model."""


class _Args(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ReadFile(_Args):
    """Read a file of the checkout, with line numbers. Large files: give start_line/end_line."""

    path: str
    start_line: int | None = Field(default=None, ge=1)
    end_line: int | None = Field(default=None, ge=1)


class ListFiles(_Args):
    """List one directory of the checkout (default: its root). `name/` is a directory."""

    path: str | None = None


class SearchCode(_Args):
    """Search the checkout for a regular expression (or literal text if it is not a valid regex)."""

    pattern: str = Field(min_length=1, max_length=500)
    path: str | None = None


class GitLog(_Args):
    """Recent commits of the checkout (optionally touching one path)."""

    path: str | None = None
    max_count: int | None = Field(default=None, ge=1, le=50)


class GitDiff(_Args):
    """What the pull request changed against its base branch (optionally one path)."""

    path: str | None = None


class GetLog(_Args):
    """Lines of the failing job's log (redacted), numbered as in the original file."""

    start_line: int | None = Field(default=None, ge=1)
    end_line: int | None = Field(default=None, ge=1)


class ProposeFix(_Args):
    """Finish: give the diagnosis, its category, your confidence, and optionally a unified diff."""

    diagnosis: str = Field(min_length=1, max_length=4000, description="what failed and why")
    category: str = Field(json_schema_extra={"enum": list(CATEGORIES)})
    diff: str | None = Field(
        default=None,
        description="unified diff against the checkout; omit if no code change fixes it",
    )
    confidence: float = Field(ge=0.0, le=1.0)


ARGUMENTS: dict[str, type[_Args]] = {
    "read_file": ReadFile,
    "list_files": ListFiles,
    "search_code": SearchCode,
    "git_log": GitLog,
    "git_diff": GitDiff,
    "get_log": GetLog,
    "propose_fix": ProposeFix,
}
TERMINAL = "propose_fix"


def tool_specs() -> list[ToolSpec]:
    """The JSON-schema function tools offered to the model, in a stable order."""
    specs = []
    for name, model in ARGUMENTS.items():
        schema = model.model_json_schema()
        props = {k: _plain(v) for k, v in schema["properties"].items()}
        params: dict[str, Any] = {"type": "object", "properties": props}
        if schema.get("required"):
            params["required"] = schema["required"]
        params["additionalProperties"] = False
        specs.append(ToolSpec(name=name, description=model.__doc__ or name, parameters=params))
    return specs


def _plain(prop: dict[str, Any]) -> dict[str, Any]:
    """A property schema small models read easily: no titles, defaults or `anyOf [T, null]`."""
    options = [o for o in prop.get("anyOf", ()) if o.get("type") != "null"]
    base = dict(options[0]) if len(options) == 1 else dict(prop)
    if "description" in prop:
        base["description"] = prop["description"]
    return {k: v for k, v in base.items() if k not in ("title", "default", "anyOf")}


def parse_arguments(name: str, arguments: dict[str, Any]) -> _Args:
    """Validated arguments of tool `name`; ToolError naming unknown, missing or bad fields."""
    model = ARGUMENTS[name]
    try:
        return model.model_validate(arguments)
    except ValidationError as exc:
        problems = []
        for err in exc.errors():
            field = ".".join(str(p) for p in err["loc"]) or "arguments"
            if err["type"] == "extra_forbidden":
                problems.append(f"unknown parameter '{field}'")
            elif err["type"] == "missing":
                problems.append(f"missing parameter '{field}'")
            else:
                problems.append(f"parameter '{field}': {err['msg']}")
        allowed = ", ".join(model.model_fields)
        raise ToolError(f"{name}: {'; '.join(problems)} (parameters: {allowed})") from None


class Tools(Protocol):
    """What the loop needs from a tool environment (the Toolbox, or recorded outputs in replay)."""

    def execute(self, name: str, args: BaseModel) -> str: ...


LogSource = Callable[[], Iterable[Any]]
"""Yields the failing job's log lines: `LogLine(number, text, step)` or `(number, text)` pairs."""


class Toolbox:
    """Real tools over a checkout at `root`; `base_ref` is the PR base for git_diff (None: unknown)."""

    def __init__(self, root: str, *, base_ref: str | None = None, log: LogSource | None = None):
        self.sandbox = Sandbox(root)
        self.base_ref = base_ref
        self.log = log
        self.spent = 0

    def execute(self, name: str, args: BaseModel) -> str:
        if self.spent >= RUN_CAP:
            raise ToolError(
                f"the per-run output budget ({RUN_CAP // 1024} KiB) is spent; answer now"
            )
        try:
            out = getattr(self, "_" + name)(args)
        except SandboxError as exc:
            raise ToolError(str(exc)) from None
        out = _cap(out, READ_CAP, "output truncated at 64 KiB; narrow the request")
        self.spent += len(out.encode("utf-8", "replace"))
        return out

    def _read_file(self, a: ReadFile) -> str:
        start, end = a.start_line or 1, a.end_line or 10**9
        if end < start:
            raise ToolError(f"end_line {end} is before start_line {start}")
        out, size, more = [], 0, False
        for number, raw in enumerate(self.sandbox.iter_lines(a.path), 1):
            if number < start:
                continue
            line = f"{number:>6}  {raw.decode('utf-8', 'replace').rstrip()}\n"
            if number > end:
                break
            if size + len(line) > READ_CAP:
                more = True
                break
            out.append(line)
            size += len(line)
        if not out:
            return f"{a.path}: no lines in range {start}-{a.end_line or 'end'}"
        text = "".join(out)
        return text + (f"[truncated at 64 KiB; read on with start_line={number}]\n" if more else "")

    def _list_files(self, a: ListFiles) -> str:
        entries = self.sandbox.list_dir(a.path)
        shown = entries[:500]
        tail = f"\n[{len(entries) - 500} more entries not shown]" if len(entries) > 500 else ""
        return "\n".join(shown) + tail if shown else "(empty directory)"

    def _search_code(self, a: SearchCode) -> str:
        try:
            rx = regex.compile(a.pattern)
        except regex.error:
            rx = regex.compile(regex.escape(a.pattern))
        hits: list[str] = []
        deadline = time.monotonic() + SEARCH_DEADLINE_S
        for rel in self.sandbox.walk_files(a.path):
            if time.monotonic() > deadline:
                hits.append(f"[search stopped after {SEARCH_DEADLINE_S:.0f} s; narrow the path]")
                break
            try:
                lines = list(enumerate(self.sandbox.iter_lines(rel, scan_cap=READ_CAP * 16), 1))
            except SandboxError:
                continue  # binary or unreadable: not searchable
            for number, raw in lines:
                text = raw.decode("utf-8", "replace").rstrip()[:2000]
                try:
                    found = rx.search(text, timeout=SEARCH_LINE_TIMEOUT_S)
                except TimeoutError:
                    raise ToolError("pattern too slow (regex timeout); simplify it") from None
                if found:
                    hits.append(f"{rel}:{number}: {text[:200]}")
                    if len(hits) >= MAX_MATCHES:
                        return "\n".join(hits) + f"\n[stopped at {MAX_MATCHES} matches]"
        return "\n".join(hits) if hits else f"no match for {a.pattern!r}"

    def _git(self, *args: str) -> str:
        git = shutil.which("git") or "git"
        cmd = [git, "--no-pager", "-c", "core.hooksPath=/dev/null", "-c", "core.fsmonitor=false"]
        cmd += ["-c", f"safe.directory={self.sandbox.root}", "-c", "log.showSignature=false"]
        cmd += ["-C", self.sandbox.root, *args]
        # No user or system config: only the checkout's own (which the checkout step wrote).
        env = {"GIT_TERMINAL_PROMPT": "0", "GIT_CONFIG_NOSYSTEM": "1", "HOME": os.devnull}
        env["PATH"] = os.environ.get("PATH", "/usr/bin:/bin")
        try:
            proc = subprocess.run(
                cmd, capture_output=True, timeout=GIT_TIMEOUT_S, env=env, stdin=subprocess.DEVNULL
            )
        except subprocess.TimeoutExpired:
            raise ToolError(f"git {args[0]} timed out after {GIT_TIMEOUT_S:.0f} s") from None
        except OSError as exc:
            raise ToolError(f"git is not available: {exc.strerror}") from None
        if proc.returncode != 0:
            first = proc.stderr.decode("utf-8", "replace").strip().splitlines()[:1]
            raise ToolError(f"git {args[0]} failed: {first[0] if first else proc.returncode}")
        return proc.stdout.decode("utf-8", "replace")

    def _pathspec(self, path: str | None) -> list[str]:
        return ["--", self.sandbox.relative(self.sandbox.resolve(path))] if path else []

    def _git_log(self, a: GitLog) -> str:
        n = str(a.max_count or 10)
        fmt = "--format=%h %ad %an: %s"
        out = self._git("log", "--no-color", "-n", n, "--date=short", fmt, *self._pathspec(a.path))
        return out or "no commits"

    def _git_diff(self, a: GitDiff) -> str:
        if not self.base_ref:
            return (
                "The PR base is unknown for this run, so git_diff cannot show the PR's changes. "
                "Use git_log instead."
            )
        if self.base_ref.startswith("-"):
            raise ToolError("invalid base ref")
        self._git("rev-parse", "--verify", "--quiet", f"{self.base_ref}^{{commit}}")
        args = ["diff", "--no-color", "--no-ext-diff", "--no-textconv", f"{self.base_ref}...HEAD"]
        out = self._git(*args, *self._pathspec(a.path))
        return out or f"no changes between {self.base_ref} and HEAD"

    def _get_log(self, a: GetLog) -> str:
        if self.log is None:
            return "The failing job's log is not available in this run."
        start = a.start_line
        end = a.end_line or (start + LOG_LINES - 1 if start else None)
        tail = start is None and end is None
        # Without a range, the last lines: where a failing job usually says why.
        window: deque[str] = deque(maxlen=LOG_LINES if tail else None)
        for item in self.log():
            number, text = _pair(item)
            if end and number > end:
                break
            if start and number < start:
                continue
            window.append(f"{number:>7}  {text.rstrip()}")
            if not tail and len(window) >= LOG_LINES:
                break
        if not window:
            return "no log lines in that range"
        head = "last lines of the log:\n" if tail else ""
        return head + "\n".join(window)


def _pair(item: Any) -> tuple[int, str]:
    if isinstance(item, tuple):
        return int(item[0]), str(item[1])
    return int(item.number), str(item.text)


def _cap(text: str, limit: int, note: str) -> str:
    data = text.encode("utf-8", "replace")
    if len(data) <= limit:
        return text
    return data[:limit].decode("utf-8", "ignore") + f"\n[{note}]"
