"""`repopilot learn` and `--patterns DIR` / `--no-builtin` as a user runs them (Contracts 1, 6)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.paths import REPO_ROOT

pytestmark = pytest.mark.integration

FAILING = "QQ-CHECK module alpha diverged at offset 21 (budget 3 ms)"
LOG = ["$ ./qq-check all", "QQ-CHECK module alpha-ok verified in 3 ms", FAILING, "exit 1"]


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "repopilot", *args],
        capture_output=True,
        text=True,
        cwd=REPO_ROOT,
        timeout=300,
    )


def _classify(*args: str) -> dict:
    proc = _run("classify", "--format", "json", "--assume-failed", *args)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)["results"][0]


def test_learn_out_then_classify_with_the_directory(tmp_path: Path):
    log = tmp_path / "a.log"
    log.write_text("\n".join(LOG) + "\n")
    out = tmp_path / "patterns"
    proc = _run("learn", str(log), "--line", "3", "--category", "test_failure",
                "--id", "repo.qq.diverged", "--hint", "Run ./qq-check {name}", "--out", str(out))  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    text = (out / "repo.qq.diverged.yaml").read_text()
    assert "source: learned from a.log:3" in text
    assert _run("patterns", "lint", "--patterns", str(out)).returncode == 0
    assert _run("patterns", "test", "--patterns", str(out)).returncode == 0
    # another build, another module: the built-in library alone does not decide it
    other = tmp_path / "b.log"
    other.write_text("\n".join(LOG).replace("alpha", "gamma").replace("21", "9944") + "\n")
    assert _classify(str(other))["pattern_id"] != "repo.qq.diverged"
    got = _classify("--patterns", str(out), str(other))
    assert got["pattern_id"] == "repo.qq.diverged"
    assert got["category"] == "test_failure"
    assert got["evidence"][0]["line"] == 3
    # --no-builtin: that directory alone
    assert _classify("--no-builtin", "--patterns", str(out), str(other))["pattern_id"] == (
        "repo.qq.diverged"
    )


def test_learn_prints_json_and_refuses_with_exit_1(tmp_path: Path):
    log = tmp_path / "a.log"
    log.write_text("\n".join(LOG) + "\n\n")
    proc = _run("learn", str(log), "--line", "3", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    spec = json.loads(proc.stdout)["patterns"][0]
    assert spec["category"] == "other" and spec["examples"]["match"]
    proc = _run("learn", str(log), "--line", "5")
    assert proc.returncode == 1
    assert "empty" in proc.stderr and "Traceback" not in proc.stderr


def test_same_id_replaces_the_builtin_pattern(tmp_path: Path):
    lib = tmp_path / "patterns"
    lib.mkdir()
    (lib / "mine.yaml").write_text(
        "ecosystem: mine\npatterns:\n"
        "  - id: python.pytest.failed-test\n    category: other\n"
        "    source: 'learned from x.log:1'\n    regex: '^FAILED (?P<test>\\S+::\\S+)'\n"
        "    title: 'mine'\n    examples:\n      match: ['FAILED a.py::b']\n"
        "      no_match: ['PASSED a.py::b']\n"
    )
    log = tmp_path / "p.log"
    log.write_text("FAILED tests/test_x.py::test_y - assert 1 == 2\n")
    assert _classify(str(log))["category"] == "test_failure"
    got = _classify("--patterns", str(lib), str(log))
    assert (got["pattern_id"], got["category"], got["title"]) == (
        "python.pytest.failed-test", "other", "mine")  # fmt: skip


def test_no_builtin_needs_a_directory(tmp_path: Path):
    log = tmp_path / "p.log"
    log.write_text("x\n")
    proc = _run("classify", "--no-builtin", str(log))
    assert proc.returncode == 2
    assert "--no-builtin needs" in proc.stderr
