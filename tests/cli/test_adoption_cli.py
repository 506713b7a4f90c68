"""CLI rough edges a new user hits (issue 13 point 10): colour only on a terminal and never with
NO_COLOR, a decision that reads as words, a `.gz` through stdin, `triage` saying where its
traces went, and `--help` without internal contract numbers. Real subprocesses; the terminal is
a real pseudo-terminal."""

from __future__ import annotations

import gzip
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

from tests.adoption_logs import gha, pytest_log
from tests.paths import REPO_ROOT

pytestmark = pytest.mark.integration
ROOT = REPO_ROOT
COMMANDS = ("classify", "triage", "context", "patterns", "eval", "trace", "action")


def cli(*args: str, cwd: Path, stdin: bytes | None = None, **env: str):
    full = {k: v for k, v in os.environ.items() if not k.startswith(("REPOPILOT_", "NO_COLOR"))}
    full.update(PYTHONPATH=str(ROOT), **env)
    return subprocess.run(
        [sys.executable, "-m", "repopilot", *args],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        env=full,
        timeout=120,
    )


def on_a_terminal(args: list[str], cwd: Path, **env: str) -> str:
    """stdout of the command when it is a pseudo-terminal."""
    full = {k: v for k, v in os.environ.items() if not k.startswith(("REPOPILOT_", "NO_COLOR"))}
    full.update(PYTHONPATH=str(ROOT), **env)
    master, slave = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "repopilot", *args], cwd=cwd, stdout=slave, env=full
    )
    os.close(slave)
    out = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO once the child closed its end
            break
        if not chunk:
            break
        out += chunk
    proc.wait(timeout=120)
    os.close(master)
    return out.decode("utf-8", "replace")


@pytest.fixture
def log(tmp_path: Path) -> Path:
    path = tmp_path / "job.log"
    path.write_bytes(pytest_log())
    return path


def test_colour_only_on_a_terminal_and_never_with_no_color(tmp_path, log):
    coloured = on_a_terminal(["classify", str(log)], tmp_path)
    assert "\x1b[31mtest_failure\x1b[0m" in coloured
    assert "\x1b[" not in on_a_terminal(["classify", str(log)], tmp_path, NO_COLOR="1")
    piped = cli("classify", str(log), cwd=tmp_path)
    assert piped.returncode == 0 and b"\x1b[" not in piped.stdout


def test_the_decision_reads_as_words(tmp_path, log):
    green = tmp_path / "green.log"
    green.write_bytes(b"".join(gha([("pytest -q", ["4 passed in 0.10s"])]).splitlines(True)[:-1]))
    done = cli("triage", str(green), str(log), "--repo", str(tmp_path), cwd=tmp_path)
    out = done.stdout.decode()
    assert done.returncode == 0, done.stderr
    assert "no_failure (no failure found in the log)" in out
    assert "test_failure (pattern python.pytest.failed-test, confidence" in out
    assert "decided by none" not in out


def test_gz_through_stdin(tmp_path):
    done = cli("classify", "-", cwd=tmp_path, stdin=gzip.compress(pytest_log()))
    assert done.returncode == 0, done.stderr
    assert b"test_failure" in done.stdout


def test_triage_says_where_it_wrote_its_traces(tmp_path, log):
    done = cli("triage", str(log), "--repo", str(tmp_path), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    runs = (tmp_path / ".runs").resolve()
    assert f"wrote 1 trace to {runs}/".encode() in done.stderr
    assert len(list(runs.glob("*.json"))) == 1


def test_help_names_no_internal_contract(tmp_path):
    for command in COMMANDS:
        done = cli(command, "--help", cwd=tmp_path)
        assert done.returncode == 0, command
        assert b"Contract" not in done.stdout and b"DESIGN.md" not in done.stdout, command
    assert b"Contract" not in cli("--help", cwd=tmp_path).stdout
