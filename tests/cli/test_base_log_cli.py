"""`--base-log PATH` on classify and context, as a user runs them (Contract 1)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.paths import FIXTURES, REPO_ROOT

pytestmark = pytest.mark.integration

HERE = FIXTURES / "anyproject"
FAIL = str(HERE / "base-publish-fail.log")
GREEN = str(HERE / "pass-base-publish.log")


def repopilot(*args: str):
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT), "REPOPILOT_LLM": "none"}
    return subprocess.run(
        [sys.executable, "-m", "repopilot", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=REPO_ROOT,
        timeout=120,
    )


def _first(proc) -> dict:
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)["results"][0]


def test_classify_with_a_green_base_log_points_at_the_new_line():
    without = _first(repopilot("classify", FAIL, "--format", "json"))
    assert without["evidence"][0]["line"] == 11
    with_base = _first(repopilot("classify", FAIL, "--base-log", GREEN, "--format", "json"))
    assert with_base["evidence"][0]["line"] == 14
    assert "base log" in with_base["hint"]


def test_a_failed_base_log_changes_nothing():
    same = _first(repopilot("classify", FAIL, "--base-log", FAIL, "--format", "json"))
    assert same["evidence"][0]["line"] == 11


def test_context_takes_the_flag():
    win = _first(repopilot("context", FAIL, "--base-log", GREEN, "--format", "json"))
    assert any(a <= 14 <= b for a, b in win["line_ranges"])


def test_a_missing_base_log_is_one_line():
    proc = repopilot("classify", FAIL, "--base-log", str(HERE / "no-such.log"))
    assert proc.returncode != 0
    assert proc.stderr.strip().count("\n") == 0
    assert "--base-log" in proc.stderr
