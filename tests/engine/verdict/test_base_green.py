"""Did a base log pass? (engine/verdict/base_green.py, baseline.green): a green GitHub job's log
that holds errors its job tolerated (`continue-on-error`, `|| true`) counts as passing; a failed
job's, whatever steps ran after its failure, does not. Logs built here in the runner's raw shape;
the fixtures' README says where each line's form comes from."""

from __future__ import annotations

import pytest

from repopilot.engine.classify import Classifier
from repopilot.engine.library.loader import load_library
from repopilot.engine.verdict.baseline import base_from_path, base_verdicts, green
from repopilot.logs.reader import open_logs
from tests.gha_job import END, EXIT1, HEAD, write_log
from tests.gha_job import run_step as _step
from tests.paths import FIXTURES

pytestmark = pytest.mark.unit

HERE = FIXTURES / "base_log_tolerated"


@pytest.fixture(scope="module")
def engine() -> Classifier:
    return Classifier(load_library())


def _job(tmp_path, *lines: str):
    [job] = open_logs(write_log(tmp_path / "base.log", *lines))
    return job


PASSED = "12 passed in 0.81s"


@pytest.mark.parametrize("name", ["continue-on-error.pass.log", "or-true.pass.log"])
def test_green_logs_with_tolerated_errors_pass(engine, name):
    [job] = open_logs(str(HERE / name))
    if name == "continue-on-error.pass.log":  # its exit line: the failure rule alone says failed
        assert engine.classify(job).failed
    else:  # a `run:` step's FAIL line with no exit line after it: no failure at all
        assert not engine.classify(job).failed
    assert green(engine, job)


def test_a_failure_in_the_last_step_is_the_jobs_final_state(engine):
    [job] = open_logs(str(HERE / "continue-on-error-last.pass.log"))
    assert not green(engine, job)
    assert base_from_path(engine, str(HERE / "continue-on-error-last.pass.log")) is None
    told = base_from_path(engine, str(HERE / "continue-on-error-last.pass.log"), passed=True)
    assert told is not None and told.has("docs/intro.md:4: 'recieve' is misspelt")


def test_the_failed_log_is_not_green(engine):
    [job] = open_logs(str(HERE / "tests.fail.log"))
    assert not green(engine, job)


def test_steps_that_always_run_after_a_failure_do_not_make_it_green(engine, tmp_path):
    # `if: always()` steps of a script's own after the failing one: no summary of success
    job = _job(tmp_path, *HEAD, *_step("make test", "FAILED tests/t.py::test_a - assert 0", EXIT1),
               *_step("mkdir -p /tmp/logs", "copied 3 files"), *END)  # fmt: skip
    assert not green(engine, job)


def test_a_tolerated_failure_needs_a_later_summary_of_success(engine, tmp_path):
    tolerated = _step("./ci/spellcheck.sh", "##[error]spellcheck: 1 word misspelt", EXIT1)
    job = _job(tmp_path, *HEAD, *tolerated, *_step("make test", PASSED), *END)
    assert green(engine, job)
    # the summary must be printed after the failure: one before it is an earlier run's
    job = _job(tmp_path, *HEAD, *_step("make test", PASSED), *tolerated, *_step("make docs", "ok"),
               *END)  # fmt: skip
    assert not green(engine, job)


def test_a_cancelled_or_unfinished_job_is_not_green(engine, tmp_path):
    cancelled = _step("make lint", "##[error]The operation was canceled.")
    job = _job(tmp_path, *HEAD, *cancelled, *_step("make test", PASSED), *END)
    assert not green(engine, job)
    # no end of the job: an excerpt says nothing about how the job ended
    tolerated = _step("./ci/spellcheck.sh", "##[error]spellcheck: 1 word misspelt", EXIT1)
    job = _job(tmp_path, *HEAD, *tolerated, *_step("make test", PASSED))
    assert not green(engine, job)


def test_silence_of_an_actions_step_proves_nothing(engine, tmp_path):
    # a container action may die without the runner's exit line; a `run:` step cannot
    said = "FAILED tests/test_docs.py::test_refs - AssertionError: 2 undefined references"
    job = _job(tmp_path, *HEAD, "##[group]Run acme/docs-action@v2", "##[endgroup]", said, *END)
    assert engine.classify(job).failed and not green(engine, job)
    job = _job(tmp_path, *HEAD, *_step("make docs || true", said), *END)
    assert not engine.classify(job).failed
    assert green(engine, job)


def test_the_origin_sees_a_green_base_log_as_passing(engine):
    [v] = base_verdicts(engine, str(HERE / "continue-on-error.pass.log"))
    assert v.category == "no_failure"
    [v] = base_verdicts(engine, str(HERE / "continue-on-error-last.pass.log"))
    assert v.failed
    [v] = base_verdicts(engine, str(HERE / "continue-on-error-last.pass.log"), passed=True)
    assert v.category == "no_failure"
