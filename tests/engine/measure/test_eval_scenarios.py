"""End-to-end verdicts on hand-written GitHub Actions logs for the Python, Node, infra and CI-lint
patterns: the category, the deciding pattern and the evidence line, with realistic noise around
the cause (network chatter in test output, npm wrapper lines, hook summaries) to exercise
arbitration with the real library.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytestmark = pytest.mark.unit

TS = "2024-05-02T08:00:{:02d}.1234567Z "


def gha(step: str, body: list[str], trailer: str | None = "exit") -> str:
    lines = [
        "##[group]Run actions/checkout@v4",
        "Fetching the repository",
        "##[endgroup]",
        f"##[group]Run {step}",
        step,
        "shell: /usr/bin/bash -e {0}",
        "##[endgroup]",
        *body,
    ]
    if trailer == "exit":
        lines.append("##[error]Process completed with exit code 1.")
    return "".join(TS.format(i % 60) + line + "\n" for i, line in enumerate(lines))


SCENARIOS = {
    "pytest-with-network-noise": (
        "pytest -q",
        [
            "....F",
            "----- Captured log call -----",
            "WARNING urllib3: Retrying after connection broken by 'read: connection reset by peer'",
            "E       AssertionError: totals differ",
            "tests/test_cart.py:9: AssertionError",
            "=========================== short test summary info ============================",
            "FAILED tests/test_cart.py::test_total - AssertionError: totals differ",
            "========================= 1 failed, 4 passed in 1.02s ==========================",
        ],
        "test_failure",
        "python.pytest.failed-test",
        "FAILED tests/test_cart.py::test_total",
    ),
    "pytest-collection-import": (
        "pytest",
        [
            "_____________ ERROR collecting tests/test_api.py _____________",
            "tests/test_api.py:1: in <module>",
            "    import httpx",
            "E   ModuleNotFoundError: No module named 'httpx'",
            "!!!!!!!!!!!!!!!!!!!! Interrupted: 1 error during collection !!!!!!!!!!!!!!!!!!!!",
        ],
        "import_error",
        "python.import.module-not-found",
        "No module named 'httpx'",
    ),
    "unittest": (
        "python -m unittest",
        [
            "..F",
            "======================================================================",
            "FAIL: test_parse (tests.test_cli.CliTest.test_parse)",
            "----------------------------------------------------------------------",
            "AssertionError: 2 != 3",
            "Ran 3 tests in 0.004s",
            "FAILED (failures=1)",
        ],
        "test_failure",
        "python.unittest.fail",
        "FAIL: test_parse",
    ),
    "mypy": (
        "mypy src",
        [
            'src/app/core.py:41: error: Argument 1 to "f" has incompatible type "str"; expected "int"  [arg-type]',
            "Found 1 error in 1 file (checked 12 source files)",
        ],
        "type_check",
        "python.mypy.error",
        "src/app/core.py:41: error:",
    ),
    "pre-commit-black": (
        "pre-commit run --all-files",
        [
            "black....................................................................Failed",
            "- hook id: black",
            "- files were modified by this hook",
            "",
            "would reformat src/app/core.py",
            "",
            "Oh no! 💥 💔 💥",
            "1 file would be reformatted, 20 files would be left unchanged.",
        ],
        "lint_format",
        "python.black.would-reformat",
        "would reformat src/app/core.py",
    ),
    "pip-no-version": (
        "pip install -r requirements.txt",
        [
            "Collecting numpy==1.19.5",
            "ERROR: Could not find a version that satisfies the "
            "requirement numpy==1.19.5 (from versions: 1.26.0, 1.26.4)",
            "ERROR: No matching distribution found for numpy==1.19.5",
        ],
        "dependency_resolution",
        "python.pip.no-matching-version",
        "Could not find a version",
    ),
    "jest-then-npm-wrapper": (
        "npm test",
        [
            "FAIL src/cart.test.ts",
            "  ● Cart › adds items",
            "",
            "    expect(received).toBe(expected) // Object.is equality",
            "Tests:       1 failed, 12 passed, 13 total",
            "npm error Lifecycle script `test` failed with error:",
            "npm error code 1",
        ],
        "test_failure",
        "node.jest.failed-test",
        # no `Expected:` line under it: the `expect(...)` header is the test's message
        "expect(received).toBe(expected)",
    ),
    "npm-ci-out-of-sync": (
        "npm ci",
        [
            "npm error code EUSAGE",
            "npm error",
            "npm error `npm ci` can only install packages when your package.json and "
            "package-lock.json or npm-shrinkwrap.json are in sync. Please update your lock file "
            "with `npm install` before continuing.",
            "npm error Missing: left-pad@1.3.0 from lock file",
        ],
        "dependency_resolution",
        "node.npm.lockfile-out-of-sync",
        "`npm ci` can only install",
    ),
    "tsc": (
        "npx tsc --noEmit",
        [
            "src/api.ts(14,7): error TS2322: Type 'string' is not assignable to type 'number'.",
            "src/api.ts(20,1): error TS2304: Cannot find name 'fetchUser'.",
        ],
        "type_check",
        "node.tsc.error",
        "src/api.ts(14,7): error TS2322",
    ),
    "eslint": (
        "npx eslint .",
        [
            "/home/runner/work/web/web/src/a.js",
            "  3:10  error  'unused' is defined but never used  no-unused-vars",
            "",
            "✖ 1 problem (1 error, 0 warnings)",
        ],
        "lint_format",
        "node.eslint.problem",
        "3:10  error",
    ),
    "node-heap": (
        "npm run build",
        [
            "<--- Last few GCs --->",
            "[1234:0x5d1e]   90000 ms: Mark-Compact 4000.1 (4100.2) MB",
            "FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory",
        ],
        "oom_disk",
        "node.heap-out-of-memory",
        "<--- Last few GCs --->",
    ),
    "cancelled": (
        "go test ./...",
        ["ok  \texample.com/a\t0.1s", "##[error]The operation was canceled."],
        "timeout_cancelled",
        "infra.runner.cancelled",
        "The operation was canceled.",
    ),
    "max-execution-time": (
        "make e2e",
        [
            "running e2e suite",
            "##[error]The job running on runner GitHub Actions 7 has exceeded "
            "the maximum execution time of 60 minutes.",
            "##[error]The operation was canceled.",
        ],
        "timeout_cancelled",
        "infra.runner.max-execution-time",
        "maximum execution time",
    ),
    "integration-permission": (
        "gh pr comment",
        ["##[error]HttpError: Resource not accessible by integration"],
        "permission_secret",
        "infra.perm.integration",
        "Resource not accessible by integration",
    ),
    "disk-full": (
        "docker build .",
        [
            "#8 12.3 ERROR: Could not install packages due to an OSError: [Errno 28] No space "
            "left on device"
        ],
        "oom_disk",
        "infra.disk.no-space",
        "No space left on device",
    ),
    "shellcheck": (
        "shellcheck scripts/*.sh",
        [
            "",
            "In scripts/release.sh line 4:",
            "rm -rf $DIR/build",
            "       ^--^ SC2086 (info): Double quote to prevent globbing and word splitting.",
        ],
        "lint_format",
        "cilint.shellcheck.tty",
        "SC2086",
    ),
}


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_scenario(classifier, tmp_path: Path, name: str):
    step, body, category, pattern_id, evidence = SCENARIOS[name]
    log = tmp_path / f"{name}.log"
    log.write_text(gha(step, body), encoding="utf-8")
    (verdict,) = classifier.classify_path(log)
    assert (verdict.category, verdict.pattern_id) == (category, pattern_id)
    assert evidence in verdict.evidence[0].text
    assert verdict.decided_by == "pattern"


def test_passing_log_is_no_failure(classifier, tmp_path: Path):
    log = tmp_path / "ok.log"
    # Error-looking words in a passing job's output are not failures.
    log.write_text(
        gha(
            "pytest",
            ["tests/test_errors.py::test_connection_reset PASSED", "5 passed in 0.3s"],
            trailer=None,
        ),
        encoding="utf-8",
    )
    (verdict,) = classifier.classify_path(log)
    assert verdict.category == "no_failure"
