"""`go test -json` (test2json events) is read as the output lines it carries, on the original
physical lines; lines that are not events stay as they are."""

from __future__ import annotations

import json

import pytest

from repopilot.engine.classify import Classifier
from repopilot.logs.go_test_json import decode, output_of
from repopilot.logs.reader import iter_lines, open_logs
from tests.paths import FIXTURES

pytestmark = pytest.mark.unit

LOG = FIXTURES / "anyproject" / "go-test-json.log"


def _event(action: str, **kw: object) -> bytes:
    return json.dumps({"Time": "2026-11-30T10:00:01Z", "Action": action, **kw}).encode()


def test_output_event_becomes_its_text_and_others_blank():
    data = b"\n".join(
        [
            _event("run", Package="p", Test="TestA"),
            _event("output", Package="p", Test="TestA", Output="--- FAIL: TestA (0.01s)\n"),
            b"plain line",
            _event("fail", Package="p", Test="TestA", Elapsed=0.01),
        ]
    )
    assert decode(data) == b"\n--- FAIL: TestA (0.01s)\nplain line\n"


def test_prefix_is_kept_and_line_count_never_changes():
    ts = b"2026-11-30T10:00:01.0000000Z "
    inner = _event("output", Package="p", Output="a\nb\r\n")  # an LF inside must not add a line
    data = ts + inner + b"\r\n" + ts + b'{not json} "Action":\n'
    got = decode(data)
    assert got.count(b"\n") == data.count(b"\n")
    assert got.startswith(ts + b"a b\n")
    assert got.endswith(b'{not json} "Action":\n')


def test_build_output_event_and_non_events():
    line = json.dumps({"ImportPath": "x", "Action": "build-output", "Output": "x.go:3:1: bad\n"})
    assert output_of(line.encode()) == "x.go:3:1: bad"
    assert output_of(b'{"Action": 3}') is None
    assert output_of(b"[1, 2]") is None
    assert decode(b"no events here\n") == b"no events here\n"


def test_reader_keeps_physical_line_numbers():
    (job,) = open_logs(str(LOG))
    lines = {ln.number: ln.text for ln in iter_lines(job)}
    raw = LOG.read_text().splitlines()
    assert len(lines) == len(raw)
    assert lines[21] == "--- FAIL: TestDiscount (0.00s)"
    assert '"Action":"output"' in raw[20]  # the file's line 21 is the JSON event
    assert lines[19] == "=== RUN   TestDiscount"
    assert lines[22] == ""  # the `fail` event carries no output


def test_classify_points_at_the_event_lines():
    (v,) = Classifier().classify_path(LOG)
    assert v.category == "test_failure"
    assert v.pattern_id == "go.test.fail"
    assert v.evidence[0].line == 20
    assert v.evidence[0].text.strip().startswith("discount_test.go:21:")
    assert v.evidence[1].line == 21
