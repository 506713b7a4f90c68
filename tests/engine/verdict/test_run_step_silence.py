"""A complete GitHub Actions log with no failure report (engine/verdict/structure._complete_log):
the runner ends every failed `run:` step with its exit line, so an error a passing `run:` step
printed (a traceback its tests logged, a FAIL line under `|| true`) is no failure. A container
or JavaScript action may die without that line: its own statement of a failure still counts, and
so does a program that died in a `run:` step."""

from __future__ import annotations

import pytest

from repopilot.engine.classify import Classifier
from repopilot.engine.library.loader import load_library
from repopilot.logs.reader import open_logs
from tests.gha_job import END, HEAD, write_log
from tests.gha_job import run_step as _run

pytestmark = pytest.mark.unit

LOGGED = [
    "tests/test_client.py ....",
    "ERROR    app.client:client.py:88 upstream returned 503, retrying",
    "Traceback (most recent call last):",
    '  File "/app/client.py", line 80, in fetch',
    "ConnectionError: upstream unavailable",
    "tests/test_retry.py ...",
    "========== 7 passed in 1.20s ==========",
]


@pytest.fixture(scope="module")
def engine() -> Classifier:
    return Classifier(load_library())


def _job(tmp_path, *lines: str):
    [job] = open_logs(write_log(tmp_path / "job.log", *lines, day="2026-12-01"))
    return job


def test_a_traceback_a_passing_run_step_logged_is_no_failure(engine, tmp_path):
    v = engine.classify(_job(tmp_path, *HEAD, *_run("python -m pytest -q", *LOGGED), *END))
    assert v.category == "no_failure"


def test_the_same_lines_from_an_action_step_still_fail(engine, tmp_path):
    action = ["##[group]Run acme/pytest-action@v3", "##[endgroup]", *LOGGED[:-1]]
    v = engine.classify(_job(tmp_path, *HEAD, *action, *END))
    assert v.failed


def test_a_program_that_died_in_a_run_step_still_fails(engine, tmp_path):
    died = ["running the suite", "Segmentation fault (core dumped)"]
    v = engine.classify(_job(tmp_path, *HEAD, *_run("./run-suite", *died), *END))
    assert v.failed


def test_with_the_runners_exit_line_the_step_fails_as_before(engine, tmp_path):
    out = [*LOGGED[:-1], "##[error]Process completed with exit code 1."]
    v = engine.classify(_job(tmp_path, *HEAD, *_run("python -m pytest -q", *out), *END))
    assert v.failed
