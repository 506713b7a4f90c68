"""`python -m repopilot report` as a child process, as a scheduled workflow runs it."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.paths import REPO_ROOT
from tests.report.seen_data import sample, trace, write_store, write_trace

pytestmark = pytest.mark.integration


def _run(argv: list[str], cwd, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "REPOPILOT_"))}
    return subprocess.run(
        [sys.executable, "-m", "repopilot", "report", *argv],
        cwd=cwd,
        env={**clean, "PYTHONPATH": str(REPO_ROOT), **env},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_the_report_as_a_scheduled_job_runs_it(tmp_path):
    write_store(tmp_path / "seen.json", sample())
    write_trace(tmp_path / "runs", trace("t1", "2026-11-17T10:00:00.000Z", 1_000_000, 200_000))
    summary = tmp_path / "summary.md"
    argv = ["--traces", "runs", "--until", "2026-11-29", "--weeks", "2", "--summary"]
    done = _run(
        [*argv, "--price-in", "2.5", "--price-out", "10"],
        tmp_path,
        GITHUB_STEP_SUMMARY=str(summary),
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert "cost $4.50" in done.stdout
    md = summary.read_text()
    assert "```mermaid\nxychart-beta" in md and "| 2026-W47 | 2026-11-16 | 3 |" in md


def test_a_missing_store_is_one_line_and_exit_2(tmp_path):
    done = _run([], tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("repopilot: seen.json: no such file (to get it: git fetch ")
    assert len(done.stderr.splitlines()) == 1
