"""`repopilot context` as a user runs it: a subprocess, Contract 4 JSON on stdout."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.paths import FIXTURES as FIXTURES_ROOT
from tests.paths import REPO_ROOT

pytestmark = pytest.mark.integration

FIXTURES = FIXTURES_ROOT / "context"
ROOT = REPO_ROOT


def repopilot(*args: str, stdin: bytes | None = None, cwd: Path | None = None):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "REPOPILOT_LLM": "none"}
    return subprocess.run(
        [sys.executable, "-m", "repopilot", *args],
        input=stdin,
        capture_output=True,
        env=env,
        cwd=cwd or ROOT,
        timeout=120,
    )


def test_json_shape_is_contract_4():
    log = str(FIXTURES / "cargo.log")
    proc = repopilot("context", log, "--format", "json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert list(out) == ["results"]
    (result,) = out["results"]
    assert list(result) == ["source", "category", "line_ranges", "tokens", "text"]
    assert result["source"] == log
    assert isinstance(result["category"], str)
    assert all(isinstance(r, list) and len(r) == 2 for r in result["line_ranges"])
    assert any(a <= 597 <= b for a, b in result["line_ranges"])  # error[E0308]
    assert isinstance(result["tokens"], int) and 0 < result["tokens"] <= 6000
    assert "597| error[E0308]: mismatched types" in result["text"]


def test_budget_option_bounds_the_window():
    proc = repopilot("context", str(FIXTURES / "maven.log"), "--budget", "200", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    (result,) = json.loads(proc.stdout)["results"]
    assert result["tokens"] <= 200


def test_only_failed_jobs_are_listed(tmp_path):
    ok = tmp_path / "ok.log"
    ok.write_text(
        "2025-01-01T00:00:00.0000000Z ##[group]Run make\n"
        "2025-01-01T00:00:01.0000000Z make: Nothing to be done for 'all'.\n"
        "2025-01-01T00:00:02.0000000Z Cleaning up orphan processes\n"
    )
    proc = repopilot("context", str(ok), "--format", "json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == {"results": []}


def test_run_zip_gives_one_result_per_failed_job(tmp_path):
    archive = tmp_path / "logs.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("0_build.txt", (FIXTURES / "cargo.log").read_bytes())
        zf.writestr("1_test.txt", (FIXTURES / "gotest.log").read_bytes())
    proc = repopilot("context", str(archive), "--format", "json")
    assert proc.returncode == 0, proc.stderr
    results = json.loads(proc.stdout)["results"]
    assert [r["source"].split("!")[-1] for r in results] == ["0_build.txt", "1_test.txt"]


def test_stdin_and_gzip_work(tmp_path):
    gz = tmp_path / "jest.log.gz"
    gz.write_bytes(gzip.compress((FIXTURES / "jest.log").read_bytes()))
    proc = repopilot("context", str(gz), "--format", "json")
    assert proc.returncode == 0, proc.stderr
    from_gz = json.loads(proc.stdout)["results"][0]
    proc = repopilot("context", "-", "--format", "json", stdin=(FIXTURES / "jest.log").read_bytes())
    assert proc.returncode == 0, proc.stderr
    from_stdin = json.loads(proc.stdout)["results"][0]
    assert from_gz["line_ranges"] == from_stdin["line_ranges"]
    assert from_stdin["source"] == "<stdin>"


def test_text_format_numbers_every_line():
    proc = repopilot("context", str(FIXTURES / "gotest.log"))
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout.decode()
    assert out.startswith(f"== {FIXTURES / 'gotest.log'}: test_failure")
    assert "696| --- FAIL: TestParseDuration (0.00s)" in out


def test_bad_input_is_one_line_not_a_traceback(tmp_path):
    for args in (
        ("context", str(tmp_path / "missing.log")),
        ("context", str(FIXTURES / "cargo.log"), "--budget", "5"),
        ("context", str(FIXTURES / "cargo.log"), "--patterns", str(tmp_path / "nope")),
    ):
        proc = repopilot(*args)
        err = proc.stderr.decode()
        assert proc.returncode == 2, (args, err)
        assert err.startswith("repopilot: ") and err.count("\n") == 1, err
        assert "Traceback" not in err
