"""`repopilot patterns import-matcher FILE.json` (issue 21): a problem matcher as patterns."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.paths import REPO_ROOT

pytestmark = pytest.mark.integration

# The shape `setup-*` actions register with ::add-matcher:: (a made-up tool's format)
MATCHER = {
    "problemMatcher": [
        {
            "owner": "zorkc",
            "pattern": [
                {
                    "regexp": "^zorkc: ([^\\s:]+):(\\d+):(\\d+): (error|warning) (ZK\\d+): (.*)$",
                    "file": 1,
                    "line": 2,
                    "column": 3,
                    "severity": 4,
                    "code": 5,
                    "message": 6,
                }
            ],
        },
        {
            "owner": "zork-trace",
            "pattern": [
                {"regexp": "^Trace: (.*)$", "message": 1},
                {"regexp": "^  at (.*):(\\d+)$", "file": 1, "line": 2, "loop": True},
            ],
        },
    ]
}


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "repopilot", *args],
        capture_output=True,
        text=True,
        cwd=REPO_ROOT,
        timeout=300,
    )


def test_single_line_matcher_becomes_a_pattern(tmp_path: Path):
    src = tmp_path / "zorkc.json"
    src.write_text(json.dumps(MATCHER))
    out = tmp_path / "patterns"
    proc = _run("patterns", "import-matcher", str(src), "--category", "compile_error",
                "--source", "zork/setup-zork:.github/zorkc.json", "--out", str(out))  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert "skipped zork-trace: a multi-line matcher (2 lines)" in proc.stderr
    [written] = out.glob("*.yaml")
    text = written.read_text()
    assert "(?P<file>" in text and "(?P<severity>error)" in text and "warning" not in text
    assert _run("patterns", "test", "--patterns", str(out)).returncode == 0
    log = tmp_path / "build.log"
    log.write_text(
        "$ zorkc build\n"
        "zorkc: src/a.zk:3:1: warning ZK100: unused value\n"
        "zorkc: src/b.zk:12:7: error ZK204: no such slot 'width'\n"
        "build failed\n"
    )
    proc = _run("classify", "--format", "json", "--assume-failed", "--patterns", str(out), str(log))
    assert proc.returncode == 0, proc.stderr
    [got] = json.loads(proc.stdout)["results"]
    assert got["pattern_id"] == "matcher.zorkc" and got["category"] == "compile_error"
    assert got["evidence"][0]["line"] == 3  # the error, not the warning above it
    assert got["captures"]["file"] == "src/b.zk" and got["captures"]["code"] == "ZK204"


def test_not_a_matcher_is_one_line(tmp_path: Path):
    src = tmp_path / "x.json"
    src.write_text('{"nope": 1}')
    proc = _run("patterns", "import-matcher", str(src))
    assert proc.returncode == 2 and "not a problem matcher file" in proc.stderr
    assert "Traceback" not in proc.stderr
