"""`repopilot learn --out DIR` twice on the same failure: one pattern, widened in its file
(issue 28: several examples merge into one pattern, not a pile)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.paths import REPO_ROOT

pytestmark = pytest.mark.integration

HEAD = ["$ ./zork-link all", "zork-link 2.0 ready"]
TAIL = ["zork-link: giving up", "exit 1"]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "repopilot", *args], capture_output=True,
                          text=True, cwd=REPO_ROOT, timeout=300)  # fmt: skip


def _log(tmp_path: Path, name: str, line: str) -> Path:
    path = tmp_path / name
    path.write_text("\n".join([*HEAD, line, *TAIL]) + "\n", encoding="utf-8")
    return path


def test_the_second_example_widens_the_first_pattern_in_its_file(tmp_path: Path):
    out = tmp_path / "patterns"
    a = _log(tmp_path, "a.log", "zork linker lost symbol frobnicate in unit core")
    b = _log(tmp_path, "b.log", "zork linker lost symbol defrag in unit core")
    first = _run("learn", str(a), "--line", "3", "--category", "compile_error", "--out", str(out))
    assert first.returncode == 0, first.stderr
    [file] = list(out.glob("*.yaml"))
    second = _run("learn", str(b), "--line", "3", "--category", "compile_error", "--out", str(out))
    assert second.returncode == 0, second.stderr
    assert "widened" in second.stderr
    assert list(out.glob("*.yaml")) == [file]  # the same file, rewritten
    text = file.read_text()
    assert "source: learned from a.log:3, b.log:3" in text
    assert _run("patterns", "test", "--patterns", str(out)).returncode == 0
    assert _run("patterns", "lint", "--patterns", str(out)).returncode == 0
    for log in (a, b):
        proc = _run("classify", "--format", "json", "--assume-failed", "--patterns", str(out),
                    str(log))  # fmt: skip
        got = json.loads(proc.stdout)["results"][0]
        assert got["pattern_id"] == file.stem and got["evidence"][0]["line"] == 3
        assert got["category"] == "compile_error"
