"""`repopilot triage --base-log`: a base log that its end reads as green (base_green.py: a failed
step, then a further `run:` step and a success summary) may be a job that really failed, with an
`if: always()` step after the failure (tests run even when lint fails). When the PR fails the
same way, the origin is `base_branch` (the base log fails that way), not `this_pr`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from repopilot.cli import main
from tests.gha_job import END, EXIT1, HEAD, write_log
from tests.gha_job import run_step as _step

pytestmark = pytest.mark.integration

LINT = "src/app.py:3:1: F401 [*] `os` imported but unused"


def _log(path: Path, day: int, *lines: str) -> str:
    return write_log(path, *lines, day=f"2026-11-{day}")


def _origin(tmp_path: Path, capsys: pytest.CaptureFixture[str], base: str, pr: str) -> str:
    repo = tmp_path / "repo"
    repo.mkdir(exist_ok=True)
    assert main(["triage", pr, "--repo", str(repo), "--base-log", base, "--format", "json"]) == 0
    [result] = json.loads(capsys.readouterr().out)["results"]
    return str(result["origin"])


def test_the_same_failure_in_a_base_log_read_green_by_its_end_is_the_base_branchs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setenv("REPOPILOT_TRACE_DIR", str(tmp_path / "runs"))
    job = [*HEAD, *_step("ruff check .", LINT, "Found 1 error.", EXIT1),
           *_step("pytest -q", "12 passed in 0.81s"), *END]  # fmt: skip
    base = _log(tmp_path / "base.log", 29, *job)
    pr = _log(tmp_path / "pr.log", 30, *job)
    assert _origin(tmp_path, capsys, base, pr) == "base_branch"


def test_another_failure_than_the_tolerated_one_still_reads_the_base_log_as_green(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setenv("REPOPILOT_TRACE_DIR", str(tmp_path / "runs"))
    spell = _step("./ci/spellcheck.sh", "##[error]spellcheck: 1 word misspelt", EXIT1)
    base = _log(
        tmp_path / "base.log", 29, *HEAD, *spell, *_step("pytest -q", "12 passed in 0.81s"), *END
    )
    failing = _step("pytest -q", "FAILED tests/test_x.py::test_y - AssertionError: assert 1 == 2",
                    "1 failed, 11 passed in 0.81s", EXIT1)  # fmt: skip
    pr = _log(tmp_path / "pr.log", 30, *HEAD, *spell, *failing, *END)
    assert _origin(tmp_path, capsys, base, pr) == "this_pr"
