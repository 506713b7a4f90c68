"""Normalize one physical log line for display and matching (no I/O).

`display` is what evidence shows: timestamp, ANSI colour codes and line-ending CR removed, the
`##[error]` marker kept. The timestamp is the GitHub runner's (`2026-11-30T10:00:00.1234567Z `) or
Zuul's job-output.txt prefix (`2026-11-30 10:00:00.123456 | `, and the `<host> | ` column Zuul's
zuul_stream callback puts before a command's output), so patterns anchored at the line start match
in both. `body` is what pattern regexes see: `display` without a leading
`##[error]`/`##[warning]`/`##[notice]`/`##[debug]` marker.
"""

from __future__ import annotations

import re

MAX_LINE = 8192  # bytes of a line that are matched; the rest is ignored

_TS = re.compile(
    r"^\ufeff?\d{4}-\d\d-\d\d(?:T\d\d:\d\d:\d\d(?:\.\d+)?Z ?"
    # GitLab's runner with FF_TIMESTAMPS puts a stream column after its time: two digits, O
    # (stdout) or E (stderr), `+` for a line that goes on (docs.gitlab.com, "CI/CD job log
    # timestamps"; gitlab-org/gitlab-runner: helpers/trace), `2024-05-14T11:19:19.899359Z 00O `.
    r"(?:\d\d[OE](?:\+ ?| |$))?"
    # Zuul (zuul/ansible/base/callback/zuul_stream.py): `{datetime.now()} | {msg}`, where msg is
    # `{host} | {line}` for a command's output (`{host} -> {delegated_host} | ` when delegated).
    # str(datetime) prints `.ffffff` (six digits; none when zero). A host column is an inventory
    # name (no spaces), read only after Zuul's six-digit time: other tools that write `date | `
    # keep a lower-case first column (`error | disk quota exceeded`). TBPL's all-capital
    # `TEST-UNEXPECTED-FAIL | ` and the like are not taken for one.
    r"| \d\d:\d\d:\d\d(?:\.\d{6} \|(?: |$)"
    r"(?:(?=[\w.-]*[a-z0-9])[\w.-]+(?: -> [\w.:-]+)? \|(?: |$))?|(?:\.\d+)? \|(?: |$)))"
)
# TeamCity's build log (https://www.jetbrains.com/help/teamcity/build-log.html): a time column,
# a status letter (` `, `i`, `W`, `E`), the step's nesting `[Step 1/2] `, before each line.
_TEAMCITY = re.compile(r"^\[\d\d:\d\d:\d\d\][A-Za-z ]?:\t ?(?:\[Step \d+/\d+\] ?)?")
# `docker compose up`'s column before a container's output: the service, its index, padding
# and a bar (https://docs.docker.com/reference/cli/docker/compose/up/, `--no-log-prefix` drops
# it): `tests-1  | ` (Compose v2), `tests_1  | ` (v1).
_COMPOSE = re.compile(r"^[a-z0-9][\w.-]*[-_]\d+\s+\| ")
_ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[()][A-Za-z0-9]|\x1b[=>]")
_MARKER = re.compile(r"^##\[(?:error|warning|notice|debug)\]")


def display(raw: bytes | str) -> str:
    if isinstance(raw, bytes):
        text = raw[:MAX_LINE].decode("utf-8", "replace").rstrip()
    else:
        text = raw[:MAX_LINE].rstrip()
    # rstrip: the LF, CRLF, CR CR LF (Travis), trailing blanks: `$` anchors work the same
    if not text:
        return text
    if text[0] == "\ufeff":
        text = text[1:]
    if "\x1b" in text:  # first, as the scanner does on whole chunks: both paths see the same text
        text = _ANSI.sub("", text)
    first = text[:1]
    if first.isdecimal() or first == "\ufeff":  # what a timestamp can start with (`\d` is Nd)
        m = _TS.match(text)
        if m:
            text = text[m.end() :]
    elif first == "[" and text[9:10] == "]":  # (cheap: TeamCity's `[hh:mm:ss]` column)
        m = _TEAMCITY.match(text)
        if m:
            text = text[m.end() :]
    if "  | " in text[:64]:
        m = _COMPOSE.match(text)
        if m:
            text = text[m.end() :]
    if "\r" in text:
        # A lone CR returns the carriage: a terminal shows only what was written after the last one
        # (progress bars, Travis' `travis_time:end:...\rThe command ...`).
        text = next((seg for seg in reversed(text.split("\r")) if seg.strip()), "").rstrip()
    return text


_BUILDKIT = re.compile(r"^#\d+ \d+\.\d+ ")


def body(text: str) -> str:
    """The matchable part of a display line: without the runner's annotation marker or
    BuildKit's `#12 3.456 ` step prefix (so a tool's pattern also works inside `docker build`)."""
    if not text.startswith("#"):
        return text
    if text.startswith("##["):
        text = _MARKER.sub("", text, count=1)
    if text.startswith("#"):
        text = _BUILDKIT.sub("", text, count=1)
    return text


def annotation(text: str) -> str | None:
    """`error`/`warning`/... when the line carries a runner annotation marker."""
    if not text.startswith("##["):
        return None
    m = _MARKER.match(text)
    return m.group(0)[3:-1] if m else None
