"""The issue-10 seams as a user meets them: `--assume-failed`, RESULT `job`/`step`, the gh format
with a BOM in its timestamp column, and `repopilot eval` refusing a wrong corpus directory."""

from __future__ import annotations

import json

import pytest

from repopilot.logs.reader import open_logs
from tests.engine_support import cli
from tests.paths import FIXTURES

pytestmark = pytest.mark.integration

SHAPES = FIXTURES / "shapes"


def results(*args: str) -> list[dict]:
    proc = cli("classify", "--format", "json", *args)
    assert proc.returncode == 0, proc.stderr.decode()
    return json.loads(proc.stdout)["results"]


def test_assume_failed_flag_on_classify():
    (plain,) = results(str(SHAPES / "passing-tolerated.log"))
    (forced,) = results("--assume-failed", str(SHAPES / "passing-tolerated.log"))
    assert plain["category"] == "no_failure"
    assert forced["category"] != "no_failure" and forced["evidence"]


def test_assume_failed_flag_on_context():
    proc = cli("context", "--format", "json", str(SHAPES / "passing-tolerated.log"))
    assert json.loads(proc.stdout)["results"] == []
    proc = cli(
        "context", "--assume-failed", "--format", "json", str(SHAPES / "passing-tolerated.log")
    )
    assert proc.returncode == 0 and len(json.loads(proc.stdout)["results"]) == 1


def test_result_carries_job_and_step():
    lint, unit = results(str(SHAPES / "ghcli-multijob.log"))
    assert (lint["job"], lint["step"], lint["category"]) == ("lint", None, "no_failure")
    assert (unit["job"], unit["step"]) == ("unit", "Run tests")
    (raw,) = results(str(SHAPES / "go-assertion.log"))
    assert raw["job"] is None and raw["step"] == "Run go test ./..."  # a raw log names no job


def test_gh_file_with_bom_in_timestamp_column_is_gh_format():
    jobs = open_logs(str(SHAPES / "ghcli-unknown-step-pytest.log"))
    assert [(j.fmt, j.name) for j in jobs] == [("ghcli", "test (3.12)")]


def test_format_is_the_majority_of_the_first_lines(tmp_path):
    log = tmp_path / "pasted.log"
    ts = "2025-06-01T10:00:00.0000000Z "
    log.write_text("copied from the web UI:\n" + "".join(f"{ts}line {i}\n" for i in range(5)))
    assert open_logs(str(log))[0].fmt == "gha"


def test_eval_with_a_wrong_directory_is_one_line_exit_2(tmp_path):
    labels = tmp_path / "labels.csv"
    labels.write_text("id,ecosystem,category,key_line_no\na,python,test_failure,3\n")
    proc = cli("eval", "gha", str(tmp_path), str(labels))  # no DIR/logs
    err = proc.stderr.decode().strip()
    assert proc.returncode == 2 and len(err.splitlines()) == 1 and "logs" in err
    (tmp_path / "logs").mkdir()
    labels.write_text(labels.read_text() + "b,python,test_failure,4\n")
    proc = cli("eval", "gha", str(tmp_path), str(labels))  # every labelled log missing
    err = proc.stderr.decode().strip()
    assert proc.returncode == 2 and "none of the 2 labelled logs" in err
