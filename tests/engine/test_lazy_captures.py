"""The set engine reads a pattern's captures only for the verdict's own hit (issue 11).

Where RE2's line form is exact, RE2 alone decides that a line matches; `regex` runs once, on
the hit the verdict shows, to fill its named groups. These tests hold the two halves of that:
the scan compiles and runs no `regex` for such a pattern, and the verdict still shows what
the per-pattern path shows, or says the regex timed out.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from repopilot.engine.classify import Classifier
from repopilot.engine.library.loader import load_library
from repopilot.engine.match.scan import Scanner
from repopilot.logs.reader import open_logs
from tests.engine_support import write_library

needs_hyperscan = pytest.mark.skipif(
    importlib.util.find_spec("hyperscan") is None,
    reason="hyperscan is not installed: the set engine falls back to the reference path",
)

# `(a|a)+b` makes `regex` backtrack exponentially on a run of a's; RE2 decides it in linear time
LIB = """\
ecosystem: x
patterns:
  - id: x.tail
    category: other
    regex: '(?:(a|a)+b|(?P<tail>zqxv\\d))$'
    prefilter: ['zqxv']
    title: 'tail {tail}'
    examples: {match: ['see zqxv9'], no_match: ['bbbb']}
  - id: x.disk
    category: oom_disk
    regex: 'No space left on (?P<what>\\w+)'
    title: 'disk {what}'
    examples: {match: ['No space left on device'], no_match: ['x']}
"""
PAD = "ok line\n" * 60000  # past SET_MIN (engine/match/scan.py): the set engine is built


def _library(tmp_path: Path) -> Path:
    return write_library(tmp_path, LIB, "x.yaml")


def _classify(lib: Path, log: Path, engine: str) -> tuple[dict, str]:
    args = [sys.executable, "-m", "repopilot", "classify", "--format", "json"]
    env = dict(os.environ, REPOPILOT_SCAN_ENGINE=engine)
    proc = subprocess.run(
        [*args, "--no-builtin", "--patterns", str(lib), str(log)],
        capture_output=True,
        env=env,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr.decode()
    (r,) = json.loads(proc.stdout)["results"]
    return r, proc.stderr.decode()


@pytest.mark.integration
@needs_hyperscan
def test_captures_are_filled_for_the_verdict_as_the_reference_path_fills_them(tmp_path):
    lib = _library(tmp_path)
    log = tmp_path / "a.log"
    log.write_text(PAD + "write x: No space left on device\n" + PAD)
    got, _ = _classify(lib, log, "set")
    want, _ = _classify(lib, log, "reference")
    assert got == want
    assert got["title"] == "disk device" and got["captures"] == {"what": "device"}


@pytest.mark.unit
@needs_hyperscan
def test_the_scan_runs_no_regex_for_an_exact_pattern(tmp_path):
    patterns = load_library(_library(tmp_path))
    log = tmp_path / "a.log"
    log.write_text(PAD + "No space left on device\n" * 50 + "see zqxv7\n")
    scanner = Scanner(patterns, engine="set", adaptive=False)
    scanner.prepare()
    (job,) = open_logs(str(log))
    res = scanner.scan(job)
    assert [h.pattern.id for h in res.hits] == ["x.disk"] * 50 + ["x.tail"]
    assert all(h.captures is None for h in res.hits)  # nothing read yet
    assert all(not p._regexes for p in patterns)  # and nothing compiled
    assert scanner.captures(res.hits[0]) == {"what": "device"}
    assert scanner.captures(res.hits[-1]) == {"tail": "zqxv7"}
    assert res.hits[0].captures == {"what": "device"}  # read once, kept


@pytest.mark.integration
@needs_hyperscan
def test_a_capture_regex_that_times_out_keeps_the_hit_and_says_so(tmp_path):
    lib = _library(tmp_path)
    log = tmp_path / "evil.log"
    log.write_text(PAD + "a" * 40 + "zqxv9\n")
    got, err = _classify(lib, log, "set")
    # RE2 decided the line matches; `regex` could not read {tail} in time
    assert got["pattern_id"] == "x.tail" and got["title"] == "tail ?"
    assert got["captures"] == {}
    assert "pattern x.tail hit the regex timeout" in err
    # the per-pattern path times out deciding the line itself, and so finds nothing
    ref, err = _classify(lib, log, "reference")
    assert ref["category"] == "no_failure"
    assert "pattern x.tail hit the regex timeout" in err


@pytest.mark.unit
@needs_hyperscan
def test_the_library_api_fills_captures_the_same_way(tmp_path):
    patterns = load_library(_library(tmp_path))
    log = tmp_path / "a.log"
    log.write_text(PAD + "No space left on tmpfs\n")
    c = Classifier(patterns)
    c.scanner = Scanner(patterns, engine="set", adaptive=False)
    c.scanner.prepare()
    (v,) = c.classify_path(log)
    assert v.pattern_id == "x.disk" and v.captures == {"what": "tmpfs"}
    assert v.title == "disk tmpfs" and v.timeouts == ()
