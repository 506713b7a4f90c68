"""`go test -json` (test2json) events decoded into the output lines they carry, in place.

test2json writes one JSON object per line (`{"Time":..., "Action":"output", "Package":...,
"Test":..., "Output":"--- FAIL: TestX (0.01s)\\n"}`; documented at https://pkg.go.dev/cmd/test2json,
`go build -json` adds `build-output` events with the same `Output` field). The patterns are written
for the text Go prints, so each event line is replaced by its `Output` text, and an event with no
output (`run`, `pass`, `fail`, `start`, `skip`, ...) by an empty line: one line in, one line out,
so the 1-based physical line numbers of Contract 1 stay those of the file. Whatever precedes the
object on its line (the runner's timestamp, gh's job and step columns) is kept.
"""

from __future__ import annotations

import json
import re

# A cheap test first: most chunks of most logs hold no event.
_MARK = b'"Action"'
# An event line: optional prefix (timestamp, gh columns), then one object to the end of the line.
_EVENT = re.compile(rb'^(?P<prefix>[^{\n]*?)(?P<obj>\{"[^\n]*"Action": ?"[^\n]*\})\r?$', re.M)


def decode(data: bytes) -> bytes:
    """`data` (whole lines) with every test2json event line replaced by its output text."""
    if _MARK not in data:
        return data
    return _EVENT.sub(_line, data)


def _line(m: re.Match[bytes]) -> bytes:
    text = output_of(m.group("obj"))
    if text is None:  # not an event after all: the line stays as it was
        return m.group(0)
    return m.group("prefix") + text.encode("utf-8", "replace")


def output_of(obj: bytes) -> str | None:
    """The event's output as one line (an event with no output: ""), or None when `obj` is not a
    test2json event."""
    try:
        event = json.loads(obj)
    except ValueError:
        return None
    if not isinstance(event, dict) or not isinstance(event.get("Action"), str):
        return None
    out = event.get("Output")
    if not isinstance(out, str):
        return ""
    # An event carries one line of output, its LF at the end; an LF inside would add a line.
    return out.rstrip("\r\n").replace("\r\n", " ").replace("\n", " ")
