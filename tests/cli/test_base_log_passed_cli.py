"""`repopilot classify --base-log` with a green log that holds tolerated errors (Contract 1): the
log's own end says it passed (a `continue-on-error` step, a `|| true` command), so its lines are
not taken as the cause; `--base-log-passed` says so where the log cannot (the tolerated failure
is the job's last step). As a user runs it."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.paths import FIXTURES, REPO_ROOT

pytestmark = pytest.mark.integration

HERE = FIXTURES / "base_log_tolerated"
FAIL = str(HERE / "tests.fail.log")
OLD, NEW = 12, 15  # the probe's `npm ERR! code E404` (green runs print it too), the cause


def repopilot(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT), "REPOPILOT_LLM": "none"}
    return subprocess.run([sys.executable, "-m", "repopilot", *args], capture_output=True,
                          text=True, env=env, cwd=REPO_ROOT, timeout=120)  # fmt: skip


def _first(*args: str) -> dict:
    proc = repopilot(*args)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)["results"][0]


def test_without_a_base_log_the_old_line_is_taken():
    assert _first("classify", FAIL, "--format", "json")["evidence"][0]["line"] == OLD


@pytest.mark.parametrize("green", ["continue-on-error.pass.log", "or-true.pass.log"])
def test_a_green_log_with_tolerated_errors_is_a_base_log(green):
    got = _first("classify", FAIL, "--base-log", str(HERE / green), "--format", "json")
    assert got["evidence"][0]["line"] == NEW
    assert "base log" in got["hint"]


def test_a_failure_in_the_last_step_needs_the_users_word():
    last = str(HERE / "continue-on-error-last.pass.log")
    got = _first("classify", FAIL, "--base-log", last, "--format", "json")
    assert got["evidence"][0]["line"] == OLD and "base log" not in got["hint"]
    told = _first("classify", FAIL, "--base-log", last, "--base-log-passed", "--format", "json")
    assert told["evidence"][0]["line"] == NEW and "base log" in told["hint"]


def test_context_and_triage_take_the_flag(tmp_path):
    last = str(HERE / "continue-on-error-last.pass.log")
    win = _first("context", FAIL, "--base-log", last, "--base-log-passed", "--format", "json")
    assert any(a <= NEW <= b for a, b in win["line_ranges"])
    env_dir = tmp_path / "runs"
    proc = subprocess.run(
        [sys.executable, "-m", "repopilot", "triage", FAIL, "--repo", str(tmp_path), "--base-log",
         last, "--base-log-passed", "--format", "json"],
        capture_output=True, text=True, cwd=REPO_ROOT, timeout=120,
        env={**os.environ, "PYTHONPATH": str(REPO_ROOT), "REPOPILOT_LLM": "none",
             "REPOPILOT_TRACE_DIR": str(env_dir)},
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    [got] = json.loads(proc.stdout)["results"]
    assert got["evidence"][0]["line"] == NEW
    assert got["origin"] == "this_pr"  # the base log passed: the failure is the PR's


def test_the_flag_without_a_base_log_is_one_line():
    proc = repopilot("classify", FAIL, "--base-log-passed")
    assert proc.returncode == 2
    assert proc.stderr == "repopilot: --base-log-passed: give the log with --base-log PATH\n"


def test_help_says_how_passed_is_decided():
    out = repopilot("classify", "--help").stdout
    assert "--base-log-passed" in out and "continue-on-error" in out
