"""Annotations: a failure whose key line names a file and line of the repository (a compiler
error, a test assertion, a linter finding) also shows on that line, in the pull request's "Files
changed" view and on the run page, through an `::error file=...,line=...,title=...::` workflow
command.

Where: the pattern's `file`/`line` captures (with `col`), else the first `path:line[:col]` (or
`path(line,col)`) in the verdict's evidence lines, else pytest's `path:line: SomeError` location
among the explaining lines. Only paths inside the repository: relative ones (a runner workspace
prefix such as `/home/runner/work/<repo>/<repo>/` is removed first), with no `..`, no backslash, no
control character and not under a vendored tree. Everything written comes from logs, so it is
redacted, kept on one line and escaped as the runner's command parser expects: `%`, CR and LF in
the message, and also `:` and `,` in property values, so nothing can end a property or start a
second command.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from repopilot.action.result_file import JobResult
from repopilot.safety.redact import clean_for_model

_LOCATION = re.compile(
    r"(?<![\w./-])(?P<file>/?(?:[\w.@+-]+/)*[\w.@+-]*[A-Za-z_][\w@+-]*\.[A-Za-z]\w{0,9})"
    r"(?:(?P<colon>:)|\()(?P<line>\d{1,7})(?(colon)(?::(?P<col>\d{1,5}))?|(?:,(?P<col2>\d{1,5}))?\))"
)
# pytest's location line under a failure ("tests/test_x.py:12: AssertionError"), among the
# explaining lines when the key line itself is the assertion
_RAISED_AT = re.compile(r"^(?P<file>[\w./@+-]+\.py):(?P<line>\d{1,7}): \w*(?:Error|Exception)\b")
_URL = re.compile(r"\b[a-z][a-z0-9+.-]*://\S+", re.IGNORECASE)
# workspace prefixes of GitHub's runners: hosted Linux/macOS, and container jobs
_WORKSPACES = (
    re.compile(r"^/home/runner/work/[^/]+/[^/]+/"),
    re.compile(r"^/Users/runner/work/[^/]+/[^/]+/"),
    re.compile(r"^/__w/[^/]+/[^/]+/"),
)
_VENDORED = ("node_modules/", ".venv/", "venv/", "site-packages/", "vendor/", ".git/")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


@dataclass(frozen=True)
class Annotation:
    """One `::error` annotation on a repository file's line."""

    file: str
    line: int
    title: str
    message: str
    col: int | None = None


def repo_path(raw: str, workspace: str = "") -> str | None:
    """`raw` as a path relative to the repository root, or None when it is not one."""
    path = raw.strip()
    if workspace and path.startswith(workspace.rstrip("/") + "/"):
        path = path[len(workspace.rstrip("/")) + 1 :]
    for prefix in _WORKSPACES:
        path = prefix.sub("", path, count=1)
    while path.startswith("./"):
        path = path[2:]
    if not path or path.startswith("/") or "\\" in path or _CONTROL.search(path):
        return None
    parts = path.split("/")
    if any(p in ("", ".", "..") for p in parts) or re.match(r"^[A-Za-z]:", path):
        return None
    if any(path.startswith(v) or f"/{v}" in path for v in _VENDORED):
        return None
    return path


def _from_captures(
    captures: Mapping[str, str], workspace: str
) -> tuple[str, int, int | None] | None:
    raw, line = captures.get("file") or captures.get("path"), captures.get("line")
    if not raw or not line or not line.isdigit() or int(line) < 1:
        return None
    path = repo_path(raw, workspace)
    col = captures.get("col", "")
    return (path, int(line), int(col) if col.isdigit() else None) if path else None


def _from_text(texts: Iterable[str], workspace: str) -> tuple[str, int, int | None] | None:
    for text in texts:
        for m in _LOCATION.finditer(_URL.sub(" ", text)):
            path = repo_path(m["file"], workspace)
            line = int(m["line"])
            if path and line >= 1:
                col = m["col"] or m["col2"]
                return path, line, int(col) if col else None
    return None


def _raised_at(texts: Iterable[str], workspace: str) -> tuple[str, int, int | None] | None:
    for text in texts:
        m = _RAISED_AT.match(text.strip())
        path = repo_path(m["file"], workspace) if m else None
        if m and path:
            return path, int(m["line"]), None
    return None


def annotation_for(job: JobResult, workspace: str = "") -> Annotation | None:
    """The annotation for one failed job's key line, or None when it names no repository file."""
    v = job.result.verdict
    if not v.evidence:
        return None
    found = (
        _from_captures(v.captures, workspace)
        or _from_text((e.text for e in v.evidence), workspace)
        or _raised_at((e.text for e in v.context), workspace)
    )
    if found is None:
        return None
    path, line, col = found
    message = " ".join(clean_for_model(v.evidence[0].text).text.split())[:500]
    name = " ".join(clean_for_model(job.name).text.split())[:80]
    title = f"RepoPilot: {v.category.replace('_', ' ')} in {name}"
    return Annotation(path, line, title, message or v.title, col)


def _data(value: str) -> str:
    return value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _prop(value: str) -> str:
    return _data(value).replace(":", "%3A").replace(",", "%2C")


def workflow_command(a: Annotation) -> str:
    """The `::error file=...,line=...[,col=...],title=...::message` line for `a`."""
    props = [f"file={_prop(a.file)}", f"line={a.line}"]
    if a.col is not None:
        props.append(f"col={a.col}")
    props.append(f"title={_prop(a.title)}")
    return f"::error {','.join(props)}::{_data(a.message)}"


def annotation_lines(jobs: Iterable[JobResult], workspace: str = "") -> list[str]:
    """One command per distinct (file, line, message): a matrix that failed the same way once."""
    seen: set[tuple[str, int, str]] = set()
    out = []
    for job in jobs:
        a = annotation_for(job, workspace)
        if a is None or (a.file, a.line, a.message) in seen:
            continue
        seen.add((a.file, a.line, a.message))
        out.append(workflow_command(a))
    return out


def emit(jobs: Iterable[JobResult], workspace: str = "") -> int:
    """Print the annotations to the Action's log (the runner reads them there); how many."""
    lines = annotation_lines(jobs, workspace)
    for line in lines:
        print(line, flush=True)
    return len(lines)
