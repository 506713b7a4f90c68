"""Passing logs of other CI systems stay quiet (issue 27, item 5), failing ones stay detected.

tests/fixtures/passing_ci/ holds one passing log per CI system and situation (a handled error, a
retried download, tests that print expected exceptions, a linter's zero counts, ...) and the same
job failing for real, written from each system's and tool's documented output (cases.csv says
which is which). The last word (engine/verdict/closing.py) decides: a passing job's closing line
or final summary is success, a failing one's is not.
"""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest

from repopilot.engine.classify import Classifier
from repopilot.engine.library.loader import load_library
from repopilot.engine.verdict.closing import died, last_word
from repopilot.evidence.runners import closing_lines
from repopilot.logs.reader import open_logs
from repopilot.records import Verdict
from tests.paths import FIXTURES

pytestmark = pytest.mark.unit

CI = FIXTURES / "passing_ci"
CASES = list(csv.DictReader((CI / "cases.csv").open(encoding="utf-8")))
PASSING = [c["file"] for c in CASES if c["expect"] == "no_failure"]
FAILING = [c["file"] for c in CASES if c["expect"] != "no_failure"]


@pytest.fixture(scope="module")
def engine() -> Classifier:
    return Classifier(load_library())


def one(engine: Classifier, path: Path, assume_failed: bool = False) -> Verdict:
    (v,) = engine.classify_path(path, assume_failed)
    return v


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_every_fixture_is_listed_once_and_both_kinds_cover_every_system():
    listed = [c["file"] for c in CASES]
    assert sorted(listed) == sorted(p.name for p in CI.glob("*.log"))
    assert len(set(listed)) == len(listed)
    systems = {c["system"] for c in CASES}
    for system in systems:
        kinds = {c["expect"] == "no_failure" for c in CASES if c["system"] == system}
        assert kinds == {True, False}, system


@pytest.mark.parametrize("name", PASSING)
def test_a_passing_job_is_no_failure(engine, name):
    v = one(engine, CI / name)
    assert v.category == "no_failure", (v.category, v.pattern_id, v.evidence[:1])


@pytest.mark.parametrize("name", FAILING)
def test_the_same_job_failing_for_real_is_detected(engine, name):
    v = one(engine, CI / name)
    assert v.category != "no_failure"
    assert v.evidence, "a detected failure points at a line"


@pytest.mark.parametrize("name", PASSING[:3])
def test_a_job_known_to_have_failed_is_never_no_failure(engine, name):
    assert one(engine, CI / name, assume_failed=True).category != "no_failure"


# The rules, each on a small log


def test_a_ci_systems_success_outweighs_a_failed_command_before_it(engine, tmp_path):
    # Travis runs after_script whatever happens and does not fail the build for it
    log = write(
        tmp_path,
        "t.log",
        '$ make test\nok\nThe command "make test" exited with 0.\n'
        "$ ./upload-coverage.sh\nError: token missing\n"
        'The command "./upload-coverage.sh" exited with 1.\n\nDone. Your build exited with 0.\n',
    )
    assert one(engine, log).category == "no_failure"


def test_a_ci_systems_failure_as_last_word_is_a_failure(engine, tmp_path):
    log = write(
        tmp_path,
        "g.log",
        "$ ./deploy.sh\nuploading...\nJob succeeded\n$ ./notify.sh\nERROR: Job failed: exit code 3\n",
    )
    assert one(engine, log).category != "no_failure"


def test_a_summary_of_success_then_a_later_failure_is_a_failure(engine, tmp_path):
    log = write(
        tmp_path,
        "s.log",
        "$ pytest -q\n....\n4 passed in 0.10s\n$ python deploy.py\nTraceback (most recent call "
        'last):\n  File "deploy.py", line 3, in <module>\n    raise SystemExit(boom())\n'
        "RuntimeError: registry refused the upload\n",
    )
    assert one(engine, log).category != "no_failure"


def test_a_pasted_traceback_with_no_end_is_a_failure(engine):
    v = one(engine, CI / "terminal-traceback-excerpt.fail.log")
    assert v.category != "no_failure"


def test_a_summary_does_not_cover_an_earlier_runs_failed_summary(engine, tmp_path):
    # `go test ./...` cut before its last `FAIL`: one package failed, a later one passed
    log = write(
        tmp_path,
        "go.log",
        "=== RUN   TestA\n    a_test.go:9: want 2, got 3\n--- FAIL: TestA (0.00s)\nFAIL\n"
        "FAIL\texample.com/m/a\t0.01s\nok  \texample.com/m/b\t0.02s\n",
    )
    assert one(engine, log).category == "test_failure"


def test_a_summary_does_not_cover_a_program_that_died_before_it(engine, tmp_path):
    # many suites in a row: one crashed (no summary of its own), the last one passed
    log = write(
        tmp_path,
        "php.log",
        "Testing suite A\n....\nOK (4 tests, 9 assertions)\n+phpunit\n"
        "bash: line 1: 28142 Segmentation fault      (core dumped) phpunit\n"
        "Testing suite C\n....\nOK (4 tests, 8 assertions)\n",
    )
    assert one(engine, log).category != "no_failure"


def test_a_summary_covers_the_errors_its_own_run_logged(engine, tmp_path):
    log = write(
        tmp_path,
        "u.log",
        "+ python -m unittest\nERROR:app:job 3 failed\nTraceback (most recent call last):\n"
        '  File "app.py", line 4, in run\nValueError: bad payload\n.....\n'
        + "-" * 70
        + "\nRan 5 tests in 0.01s\n\nOK\n",
    )
    assert one(engine, log).category == "no_failure"


def test_unittest_ok_counts_only_right_after_its_ran_line(engine, tmp_path):
    log = write(
        tmp_path,
        "o.log",
        'Traceback (most recent call last):\n  File "x.py", line 1, in <module>\n'
        "KeyError: 'id'\nOK\n",
    )
    assert one(engine, log).category != "no_failure"


def test_a_github_log_has_no_closing_success(engine, tmp_path):
    # GitHub's runner prints no end-of-job success: a tool's words there decide nothing
    log = write(
        tmp_path,
        "gha.log",
        "2026-12-02T10:00:00.0000000Z ##[group]Run make\n"
        "2026-12-02T10:00:01.0000000Z Traceback (most recent call last):\n"
        "2026-12-02T10:00:01.1000000Z ValueError: bad\n"
        "2026-12-02T10:00:02.0000000Z ##[error]Process completed with exit code 1.\n"
        "2026-12-02T10:00:03.0000000Z Job succeeded\n",
    )
    assert one(engine, log).category != "no_failure"


# closing.py directly


def test_last_word_reads_the_teamcity_step_column(engine):
    job = open_logs(str(CI / "teamcity-cargo-warnings.fail.log"))[0]
    res = engine.scanner.scan(job)
    w = last_word(job, res, [])
    assert w is not None and not w.success and w.id == "teamcity-process-failed"


def test_last_word_of_a_log_that_says_nothing_is_none(engine, tmp_path):
    job = open_logs(str(write(tmp_path, "n.log", "hello\nworld\n")))[0]
    assert last_word(job, engine.scanner.scan(job), []) is None


def test_died_reads_fatal_ends_not_handled_words():
    assert died("PHP Fatal error:  Uncaught Error: Call to undefined function f()")
    assert died("panic: runtime error: index out of range [3] with length 3")
    assert died("bash: line 1:  4242 Killed                  ./build.sh")
    assert not died("    worker_test.go:77: recovered: panic: nil map write in handler")
    assert not died("fatal: not a git repository (or any of the parent directories): .git")


def test_every_closing_line_has_a_source_and_both_says_occur():
    found = closing_lines()
    assert all(c.source for c in found)
    assert {c.says for c in found} == {"success", "failure"}
    assert {c.level for c in found} == {"job", "runner"}
    # tried as one alternation at the line's start: each anchored, none with a backreference
    assert all(c.regex.pattern.startswith("^") for c in found)
    assert not [c.id for c in found if re.search(r"\\[1-9]|\(\?P=", c.regex.pattern)]


def test_gitlab_timestamps_are_read_as_a_gitlab_log_not_a_github_one():
    from repopilot.logs.textnorm import display

    job = open_logs(str(CI / "gitlab-timestamps.fail.log"))[0]
    assert job.fmt == "plain"
    assert display("2026-12-02T10:14:03.288512Z 00O+ERROR: Job failed: exit code 1") == (
        "ERROR: Job failed: exit code 1"
    )
    assert display("2026-12-02T10:14:03.288512Z 01E curl: (22) error") == "curl: (22) error"
    # a GitHub line keeps its text
    assert display("2026-12-02T10:14:03.2885123Z 00 files changed") == "00 files changed"


# Each tool's closing line, as its documentation prints it: (line, says success)
CLOSINGS = [
    ("Job succeeded", True),
    ("ERROR: Job failed: exit code 1", False),
    ("Finished: UNSTABLE", False),
    ("Done. Your build exited with 0.", True),
    ("Build success", True),
    ("DONE", True),
    ('ERROR: build step 1 "gcr.io/cloud-builders/docker" failed: step exited with non-zero', False),
    ("🚨 Error: The command exited with status 1", False),
    ("Exited with code exit status 1", False),
    ("Process exited with code 101 (Step: Test (Command Line))", False),
    ("======================== 6 passed, 1 warning in 0.84s =========================", True),
    ("========================= 1 failed, 5 passed in 0.91s ==========================", False),
    ("Tests:       11 passed, 11 total", True),
    ("Tests:       1 failed, 10 passed, 11 total", False),
    ("      Tests  10 passed (10)", True),
    ("  5 passing (20ms)", True),
    ("ok  \texample.com/m/b\t0.02s", True),
    ("FAIL\texample.com/m/a\t0.01s", False),
    ("test result: ok. 5 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out", True),
    ("test result: FAILED. 4 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out", False),
    ("[INFO] BUILD SUCCESS", True),
    ("[INFO] BUILD FAILURE", False),
    ("BUILD SUCCESSFUL in 31s", True),
    ("37 examples, 0 failures", True),
    ("37 examples, 1 failure", False),
    ("OK (231 tests, 679 assertions)", True),
    ("Passed!  - Failed:     0, Passed:     3, Skipped:     0, Total:     3", True),
    ("Failed!  - Failed:     1, Passed:     2, Skipped:     0, Total:     3", False),
    ("100% tests passed, 0 tests failed out of 3", True),
    ("67% tests passed, 1 tests failed out of 3", False),
    ("Success: no issues found in 14 source files", True),
    ("Found 3 errors in 2 files (checked 14 source files)", False),
    ("All checks passed!", True),
    ("0 issues.", True),
    ("svelte-check found 1 error and 0 warnings in 1 file", False),
    ("Merged test suites, total number tests is 3, with 0 failures and 0 errors.", True),
    ("Merged test suites, total number tests is 3, with 1 failures and 0 errors.", False),
    ("** TEST SUCCEEDED **", True),
    ("** BUILD FAILED **", False),
    ("[success] Total time: 12 s, completed Dec 2, 2026, 10:00:00 AM", True),
    ("INFO: Build completed successfully, 412 total actions", True),
    ("congratulations :) (10.20 seconds)", True),
    ("evaluation failed :( (10.48 seconds)", False),
    ("12 tests, 0 failures", True),
    ("12 tests, 2 failures", False),
    ("ok | 12 passed | 0 failed (1s)", True),
    ("Apply complete! Resources: 1 added, 0 changed, 0 destroyed.", True),
    ("web-1   : ok=3    changed=1    unreachable=0    failed=0    skipped=0", True),
    ("web-1   : ok=1    changed=0    unreachable=0    failed=1    skipped=0", False),
    ("ruff.....................................................................Failed", False),
    ("make: *** [Makefile:12: check] Error 1", False),
    ("Successfully installed flask-3.0.3 requests-2.32.3", True),
    ("added 412 packages, and audited 413 packages in 9s", True),
    ("webpack 5.90.0 compiled with 2 errors in 1234 ms", False),
    ("[  PASSED  ] 12 tests.", True),
    ("[  FAILED  ] 1 test, listed below:", False),
    ("All tests passed (12 assertions in 3 test cases)", True),
    ("12 specs, 0 failures", True),
    ("TEST COMPLETE, 12 ok, 1 failed of 13 test cases", False),
    ("[info] Passed: Total 12, Failed 0, Errors 0, Passed 12", True),
    ("[ FAIL 1 | WARN 0 | SKIP 0 | PASS 11 ]", False),
    ("Summary [   0.012s] 12 tests run: 12 passed, 0 skipped", True),
    ("12 scenarios (12 passed)", True),
    ("  Tests:    12 passed (30 assertions)", True),
    ("All 12 tests passed.", True),
]


@pytest.mark.parametrize(("line", "success"), CLOSINGS)
def test_a_closing_line_says_what_its_tool_documents(engine, tmp_path, line, success):
    job = open_logs(str(write(tmp_path, "c.log", f"something ran\n{line}\n")))[0]
    w = last_word(job, engine.scanner.scan(job), [])
    assert w is not None and w.level != "stated" and w.success is success, w


@pytest.mark.parametrize(
    "line",
    [
        "OK",  # without unittest's `Ran N tests` right above
        "3 passed, 1 failed",
        "Tests: 0 total",
        "BUILD SUCCESSFUL? no",
        "0 Error(s) expected",
    ],
)
def test_a_line_that_only_looks_like_a_closing_is_none(engine, tmp_path, line):
    job = open_logs(str(write(tmp_path, "c.log", f"something ran\n{line}\n")))[0]
    w = last_word(job, engine.scanner.scan(job), [])
    assert w is None or w.level == "stated", w


def test_an_azure_log_that_reaches_finalize_job_is_complete():
    from repopilot.engine.verdict.job_end import job_complete

    job = open_logs(str(CI / "azure-logged-traceback.pass.log"))[0]
    assert job.fmt == "gha" and job_complete(job, [])
    cut = open_logs(str(CI / "terminal-traceback-excerpt.fail.log"))[0]
    assert not job_complete(cut, [])


def test_a_container_killed_by_composes_teardown_failed_nothing(engine, tmp_path):
    log = write(
        tmp_path,
        "compose.log",
        "tests-1  | 3 passed in 0.10s\ntests-1 exited with code 0\nAborting on container exit...\n"
        " Container ci-cache-1  Stopping\ncache-1 exited with code 137\n Container ci-cache-1  Stopped\n",
    )
    assert one(engine, log).category == "no_failure"
    # a failure after the teardown ended is one
    later = write(
        tmp_path,
        "later.log",
        log.read_text(encoding="utf-8") + "$ ./push.sh\nthe push exited with code 137\n",
    )
    assert one(engine, later).category != "no_failure"


def test_a_bare_done_covers_stated_errors_never_a_failed_command(engine, tmp_path):
    # Cloud Build's DONE is a word any script may echo: it is a tool's summary, not a job's end
    covered = write(
        tmp_path,
        "cb.log",
        'Step #0 - "pull": Error response from daemon: manifest unknown\nFinished Step #0\nDONE\n',
    )
    assert one(engine, covered).category == "no_failure"
    failed = write(
        tmp_path,
        "make.log",
        "cc -o app main.c\nmain.c:3:1: error: expected ';' before '}' token\n"
        "make: *** [Makefile:4: app] Error 1\nDONE\n",
    )
    assert one(engine, failed).category != "no_failure"


def test_teamcitys_time_status_and_step_columns_are_not_the_lines_text():
    from repopilot.logs.textnorm import display

    assert display("[11:40:21]E:\t [Step 2/2] error: test failed") == "error: test failed"
    assert display("[11:40:21] :\t [Step 2/2] test result: ok.") == "test result: ok."
    assert (
        display("[11:40:07] : Step 1/2: Lint (Command Line)")
        == "[11:40:07] : Step 1/2: Lint (Command Line)"
    )
    # another tool's `[time] message` (gulp) keeps its text
    assert display("[10:56:14] Starting 'build'...") == "[10:56:14] Starting 'build'..."


def test_a_teamcity_test_failure_is_read_through_its_columns(engine):
    v = one(engine, CI / "teamcity-cargo-warnings.fail.log")
    assert v.category == "test_failure"


def test_composes_container_column_is_not_the_lines_text(engine):
    from repopilot.logs.textnorm import display

    assert display("tests-1  | FAILED tests/t.py::test_a - assert 1 == 2") == (
        "FAILED tests/t.py::test_a - assert 1 == 2"
    )
    assert display("db_1     | LOG:  received fast shutdown request") == (
        "LOG:  received fast shutdown request"
    )
    assert display("| a | b |") == "| a | b |"
    # the tested container's failure is the cause, not a container the teardown killed
    v = one(engine, CI / "buildkite-compose-teardown.fail.log")
    assert v.category == "test_failure" and v.evidence[0].text.startswith("E       assert 90")
