"""The agent's read-only tools over a checkout (docs/CONTRACTS.md Contract 4; docs/THREAT_MODEL.md §6).

The Toolbox answers validated arguments (repopilot.agent.schema) with raw text; the loop redacts and
fences every output before the model sees it, and its guards bound the run's output as a whole.
Paths go through the Sandbox, git through GitReader; each output is capped (`Limits.read_bytes`),
searches and log reads too (`Limits`). Nothing here executes repository content or touches the
network.
"""

from __future__ import annotations

import os
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Protocol

import regex
from pydantic import BaseModel

from repopilot.agent.gitread import GitReader
from repopilot.agent.limits import Limits
from repopilot.agent.sandbox import Sandbox, SandboxError
from repopilot.agent.schema import (
    GetLog,
    GitDiff,
    GitLog,
    ListFiles,
    ReadFile,
    SearchCode,
    ToolError,
)

SEARCH_FILE_CAP = 4 * 1024 * 1024  # bytes of one file searched (memory, not a budget)


class Tools(Protocol):
    """What the loop needs from a tool environment (the Toolbox, or recorded outputs in replay)."""

    def execute(self, name: str, args: BaseModel) -> str: ...


LogSource = Callable[[], Iterable[Any]]
"""Yields the failing job's log lines: `LogLine(number, text, step)` or `(number, text)` pairs."""


class Toolbox:
    """Real tools over a checkout at `root`; `base_ref` is the PR base for git_diff (None: unknown).

    `limits` bounds each call (bytes, matches, lines, seconds); `clock` times the search deadline.
    The Toolbox keeps no per-run state: the loop's guards count the run's output."""

    def __init__(
        self,
        root: str,
        *,
        base_ref: str | None = None,
        log: LogSource | None = None,
        limits: Limits | None = None,
        clock: Callable[[], float] = time.monotonic,
        exec_path: str = os.defpath,
    ):
        self.sandbox = Sandbox(root)
        self.git = GitReader(self.sandbox.root, base_ref, exec_path)  # PATH git is found on
        self.log = log
        self.limits = limits or Limits()
        self.clock = clock

    def execute(self, name: str, args: BaseModel) -> str:
        handler = {
            "read_file": self._read_file,
            "list_files": self._list_files,
            "search_code": self._search_code,
            "git_log": self._git_log,
            "git_diff": self._git_diff,
            "get_log": self._get_log,
        }.get(name)
        if handler is None:  # propose_fix is the loop's, not a tool to run
            raise ToolError(f"{name} is not a read-only tool")
        try:
            out = handler(args)  # type: ignore[operator]
        except SandboxError as exc:
            raise ToolError(str(exc)) from None
        cap = self.limits.read_bytes
        return _cap(out, cap, f"output truncated at {_size(cap)}; narrow the request")

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
            if size + len(line) > self.limits.read_bytes:
                more = True
                break
            out.append(line)
            size += len(line)
        if not out:
            return f"{a.path}: no lines in range {start}-{a.end_line or 'end'}"
        text = "".join(out)
        cut = _size(self.limits.read_bytes)
        return text + (f"[truncated at {cut}; read on with start_line={number}]\n" if more else "")

    def _list_files(self, a: ListFiles) -> str:
        entries = self.sandbox.list_dir(a.path)
        shown = entries[:500]
        tail = f"\n[{len(entries) - 500} more entries not shown]" if len(entries) > 500 else ""
        return "\n".join(shown) + tail if shown else "(empty directory)"

    def _search_code(self, a: SearchCode) -> str:
        try:
            rx = regex.compile(a.pattern, regex.MULTILINE)
        except regex.error:
            rx = regex.compile(regex.escape(a.pattern))
        hits: list[str] = []
        lim = self.limits
        deadline = self.clock() + lim.search_deadline_s
        for rel in self.sandbox.walk_files(a.path):
            if self.clock() > deadline:
                hits.append(
                    f"[search stopped after {lim.search_deadline_s:.0f} s; narrow the path]"
                )
                break
            try:
                text = self.sandbox.read_bytes(rel, SEARCH_FILE_CAP).decode("utf-8", "replace")
            except SandboxError:
                continue  # binary or unreadable: not searchable
            for number, line in _matching_lines(rx, text, lim.search_file_timeout_s):
                hits.append(f"{rel}:{number}: {line.rstrip()[:200]}")
                if len(hits) >= lim.search_matches:
                    return "\n".join(hits) + f"\n[stopped at {lim.search_matches} matches]"
        return "\n".join(hits) if hits else f"no match for {a.pattern!r}"

    def _pathspec(self, path: str | None) -> list[str]:
        return ["--", self.sandbox.relative(self.sandbox.resolve(path))] if path else []

    def _git_log(self, a: GitLog) -> str:
        return self.git.log(self._pathspec(a.path), a.max_count or 10)

    def _git_diff(self, a: GitDiff) -> str:
        return self.git.diff(self._pathspec(a.path))

    def _get_log(self, a: GetLog) -> str:
        if self.log is None:
            return "The failing job's log is not available in this run."
        start, lines = a.start_line, self.limits.log_lines
        end = a.end_line or (start + lines - 1 if start else None)
        tail = start is None and end is None
        # Without a range, the last lines: where a failing job usually says why.
        window: deque[str] = deque(maxlen=lines if tail else None)
        for item in self.log():
            number, text = _pair(item)
            if end and number > end:
                break
            if start and number < start:
                continue
            window.append(f"{number:>7}  {text.rstrip()}")
            if not tail and len(window) >= lines:
                break
        if not window:
            return "no log lines in that range"
        head = "last lines of the log:\n" if tail else ""
        return head + "\n".join(window)


def _matching_lines(
    rx: regex.Pattern[str], text: str, timeout_s: float
) -> Iterator[tuple[int, str]]:
    """(line number, line) of each line holding a match; one whole-file scan with a timeout."""
    number, pos, last = 1, 0, 0
    try:
        for m in rx.finditer(text, timeout=timeout_s):
            number += text.count("\n", pos, m.start())
            pos = m.start()
            if number == last:
                continue
            last = number
            start = text.rfind("\n", 0, m.start()) + 1
            end = text.find("\n", m.start())
            yield number, text[start : end if end != -1 else len(text)]
    except TimeoutError:
        raise ToolError("pattern too slow (regex timeout); simplify it") from None


def _pair(item: Any) -> tuple[int, str]:
    if isinstance(item, tuple):
        return int(item[0]), str(item[1])
    return int(item.number), str(item.text)


def _cap(text: str, limit: int, note: str) -> str:
    data = text.encode("utf-8", "replace")
    if len(data) <= limit:
        return text
    return data[:limit].decode("utf-8", "ignore") + f"\n[{note}]"


def _size(limit: int) -> str:
    return f"{limit // 1024} KiB" if limit % 1024 == 0 else f"{limit} bytes"
