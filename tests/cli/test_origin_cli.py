"""`repopilot triage --base-log PATH` reports each failure's origin offline (issue 14)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.paths import REPO_ROOT

pytestmark = pytest.mark.integration

ROOT = REPO_ROOT
PYTEST = """\
=================================== FAILURES ===================================
E   assert 3 == 4
=========================== short test summary info ============================
FAILED tests/test_calc.py::{test} - assert 3 == 4
========================= 1 failed, 3 passed in {secs}s =========================
##[error]Process completed with exit code 1.
"""
GREEN = "========================= 4 passed in 0.31s =========================\n"
DISK = "OSError: [Errno 28] No space left on device\n##[error]Process completed with exit code 1.\n"


def triage(tmp_path: Path, log: str, base: str | None, *extra: str) -> subprocess.CompletedProcess:
    (tmp_path / "job.log").write_text(log, encoding="utf-8")
    args = [sys.executable, "-m", "repopilot", "triage", "job.log", "--repo", "."]
    if base is not None:
        (tmp_path / "base.log").write_text(base, encoding="utf-8")
        args += ["--base-log", "base.log"]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("REPOPILOT_", "OPENAI_"))}
    env.update(PYTHONPATH=str(ROOT), REPOPILOT_LLM="none", REPOPILOT_TRACE_DIR=str(tmp_path / "r"))
    return subprocess.run(
        [*args, *extra], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
    )


def origin(proc: subprocess.CompletedProcess) -> dict:
    assert proc.returncode == 0, proc.stderr
    [result] = json.loads(proc.stdout)["results"]
    return result


@pytest.mark.parametrize(
    ("base", "expected"),
    [
        (PYTEST.format(test="test_add", secs="2.75"), "base_branch"),
        (GREEN, "this_pr"),
        (PYTEST.format(test="test_sub", secs="0.05"), "undetermined"),
    ],
)
def test_origin_from_a_base_log(tmp_path, base, expected):
    got = origin(
        triage(tmp_path, PYTEST.format(test="test_add", secs="0.05"), base, "--format", "json")
    )
    assert got["origin"] == expected
    assert (
        got["origin_detail"]["signature"]
        == "python.pytest.failed-test|test=tests/test_calc.py::test_add"
    )
    trace = json.loads(Path(tmp_path, got["trace"]).read_text())
    assert any((s["result"] or {}).get("origin") == expected for s in trace["steps"])


def test_infra_needs_no_base_comparison(tmp_path):
    assert origin(triage(tmp_path, DISK, GREEN, "--format", "json"))["origin"] == "infra"


def test_text_output_names_the_origin(tmp_path):
    proc = triage(tmp_path, PYTEST.format(test="test_add", secs="0.05"), GREEN)
    assert proc.returncode == 0, proc.stderr
    assert "origin:     this_pr (the job passes on the base branch" in proc.stdout


def test_without_a_base_log_there_is_no_origin(tmp_path):
    got = origin(
        triage(tmp_path, PYTEST.format(test="test_add", secs="0.05"), None, "--format", "json")
    )
    assert "origin" not in got


def test_a_missing_base_log_is_one_line(tmp_path):
    proc = triage(tmp_path, GREEN, None, "--base-log", "nope.log")
    assert proc.returncode == 2
    assert proc.stderr.strip().count("\n") == 0 and "--base-log" in proc.stderr
    assert "Traceback" not in proc.stderr
