"""The jobs of one `gh run view --log` file shared out over processes (engine/fanout.py
`classify_jobs`): the same output as one process, masks included (issue 19)."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from repopilot.engine.fanout import classify_jobs
from repopilot.logs.reader import JobLog
from repopilot.safety.masks import forget_masks
from tests.engine_support import LOGS, cli

pytestmark = pytest.mark.integration

SECRET = "hunter2-correct-horse"
TS = "2024-05-01T10:00:00.0000000Z"


def _gh_file(path: Path, jobs: int, mask_in: int | None = None) -> Path:
    """A gh file of `jobs` failing pytest jobs; job `mask_in` registers SECRET, every job prints it."""
    lines = []
    for k in range(jobs):
        name = f"test ({k})"
        body = ["##[group]Run pytest", "##[endgroup]"]
        if k == mask_in:
            body.insert(0, f"::add-mask::{SECRET}")
        body += [
            f"E   AssertionError: token {SECRET} rejected in job {k}",
            f"FAILED tests/test_{k}.py::test_b - AssertionError",
            "##[error]Process completed with exit code 1.",
        ]
        lines += [f"{name}\tRun pytest\t{TS} {text}" for text in body]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_the_jobs_of_one_gh_file_on_several_processes_print_what_one_prints(
    tmp_path: Path,
) -> None:
    gh = _gh_file(tmp_path / "run.log", 6, mask_in=2)
    other = _gh_file(tmp_path / "other.log", 3)
    plain = sorted(LOGS.glob("*.log"))[:2]
    for paths in ([gh], [other, gh, *plain], [*plain, gh, other]):
        args = [str(p) for p in paths]
        one = cli("classify", "--format", "json", "--jobs", "1", *args)
        assert one.returncode in (0, 1), one.stderr.decode()
        for jobs in ("2", "3"):
            many = cli("classify", "--format", "json", "--jobs", jobs, *args)
            assert (many.returncode, many.stdout) == (one.returncode, one.stdout)
    # the run registers the value before any job is classified: no job prints it
    assert SECRET.encode() not in cli("classify", "--jobs", "1", str(gh)).stdout


def test_an_unreadable_log_after_a_gh_file_stops_the_run_at_its_place(tmp_path: Path) -> None:
    gh = _gh_file(tmp_path / "run.log", 4)
    order = [str(gh), str(tmp_path / "missing.log"), str(sorted(LOGS.glob("*.log"))[0])]
    one = cli("classify", "--jobs", "1", *order)
    many = cli("classify", "--jobs", "2", *order)
    assert one.returncode != 0
    assert (many.returncode, many.stdout, many.stderr) == (one.returncode, one.stdout, one.stderr)


def test_the_jobs_of_one_file_go_to_several_processes_and_come_back_in_order(
    tmp_path: Path,
) -> None:
    gh = _gh_file(tmp_path / "run.log", 6)

    def classify(job: JobLog):  # type: ignore[no-untyped-def]
        time.sleep(0.1)  # long enough that every process takes some
        return (job.name, os.getpid())

    forget_masks()
    try:
        got = classify_jobs(classify, [str(gh)], jobs=3)
    finally:
        forget_masks()
    assert [name for name, _ in got] == [f"test ({k})" for k in range(6)]
    assert len({pid for _, pid in got}) == 3
