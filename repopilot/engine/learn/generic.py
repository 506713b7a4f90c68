"""Lines every failure of a tool prints (docs/CONTRACTS.md Contract 6): a learned pattern takes none.

A learned pattern ranks above every built-in one (engine/library/layers.py), so one that takes a
tool's header, separator or summary line (`Traceback (most recent call last):`, pytest's
`= FAILURES =` rule, Gradle's `* What went wrong:`) would decide EVERY later failure of that tool
on that line, with the category and title it was taught: a real import error or test failure
silenced as whatever the one log said. The line to learn from may be a fork's log line chosen for
exactly that (the comment offers to learn the key line of a failure no pattern knew), so the
learner treats these lines like the library's `no_match` examples: a pattern that takes one is
specialised, and refused when even the literal line is one of them.

`SUMMARY` holds the tools' summary and wrapper lines (`npm ERR! Exit status 1`, `Ran 3 tests in
0.001s`): no pattern the comment OFFERS to learn may take one (action/learn.py).

Each line is written from the tool's documented output format, as the tool prints it; values
(counts, durations, names) vary in real logs, which the generalised classes take anyway.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Generic:
    tool: str
    source: str
    lines: tuple[str, ...]


GENERIC: tuple[Generic, ...] = (
    Generic(
        "Python",
        "https://docs.python.org/3/library/traceback.html",
        (
            "Traceback (most recent call last):",
            "During handling of the above exception, another exception occurred:",
            "The above exception was the direct cause of the following exception:",
        ),
    ),
    Generic(
        "pytest",
        "https://docs.pytest.org/en/stable/how-to/output.html",
        (
            "=================================== FAILURES ===================================",
            "==================================== ERRORS ====================================",
            "=========================== short test summary info ============================",
        ),
    ),
    Generic(
        "Gradle",
        "https://docs.gradle.org/current/userguide/troubleshooting.html",
        ("FAILURE: Build failed with an exception.", "* What went wrong:", "* Try:"),
    ),
    Generic(
        "Maven",
        "https://maven.apache.org/guides/mini/guide-configuring-maven.html",
        (
            "[INFO] BUILD FAILURE",
            "[ERROR] -> [Help 1]",
            "[ERROR] To see the full stack trace of the errors, re-run Maven with the -e switch.",
        ),
    ),
    Generic(
        "npm",
        "https://docs.npmjs.com/cli/v10/using-npm/logging",
        ("npm ERR! A complete log of this run can be found in:",),
    ),
    Generic(
        "go test",
        "https://pkg.go.dev/cmd/go#hdr-Test_packages",
        ("FAIL", "FAIL\tgithub.com/octo/app/pkg\t0.012s", "goroutine 1 [running]:"),
    ),
    Generic(
        "Rust",
        "https://doc.rust-lang.org/book/ch09-01-unrecoverable-errors-with-panic.html",
        (
            "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace",
            "stack backtrace:",
        ),
    ),
    Generic(
        "Jest",
        "https://jestjs.io/docs/cli",
        ("Test Suites: 1 failed, 3 passed, 4 total",),
    ),
)


# Summary and wrapper lines: what a tool prints after (or around) the line that says why, the same
# for every failure. An offer in the comment must take none of them: the engine offers to learn
# the key line of a failure it could not decide, and when that failure's only error-looking line
# is one of these, the pattern would take every later failure of the tool. (The learner itself
# does not refuse them yet: a maintainer who names such a line chooses it; moving them into
# GENERIC changes what `eval --learn` measures and needs its run.)
SUMMARY: tuple[Generic, ...] = (
    Generic(
        "npm",
        "https://docs.npmjs.com/cli/v10/using-npm/scripts",
        (
            "npm ERR! errno 1",
            "npm ERR! Exit status 1",
            "npm ERR! Failed at the app@1.0.0 test script.",
            "npm ERR! This is probably not a problem with npm. There is likely additional "
            "logging output above.",
            "npm ERR! Test failed.  See above for more details.",
        ),
    ),
    Generic(
        "Yarn",
        "https://classic.yarnpkg.com/en/docs/cli/run",
        (
            "error Command failed with exit code 1.",
            "info Visit https://yarnpkg.com/en/docs/cli/run for documentation about this command.",
        ),
    ),
    Generic(
        "GNU make",
        "https://www.gnu.org/software/make/manual/html_node/Errors.html",
        ("make: *** [Makefile:5: all] Error 1", "make[1]: *** [test] Error 2"),
    ),
    Generic(
        "unittest",
        "https://docs.python.org/3/library/unittest.html",
        ("Ran 3 tests in 0.001s", "FAILED (failures=1)"),
    ),
    Generic(
        "Maven Surefire",
        "https://maven.apache.org/surefire/maven-surefire-plugin/",
        (
            "Tests run: 5, Failures: 1, Errors: 0, Skipped: 0",
            "[ERROR] Tests run: 5, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0.1 s "
            "<<< FAILURE!",
        ),
    ),
    Generic(
        "Gradle and Ant",
        "https://docs.gradle.org/current/userguide/command_line_interface.html",
        ("BUILD FAILED in 3s", "BUILD FAILED"),
    ),
    Generic(
        "Cargo",
        "https://doc.rust-lang.org/cargo/commands/cargo-test.html",
        (
            "test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; "
            "finished in 0.00s",
            "error: could not compile `app` (lib) due to 2 previous errors",
            "warning: build failed, waiting for other jobs to finish...",
        ),
    ),
    Generic("go", "https://pkg.go.dev/os/exec#ExitError", ("exit status 1",)),
    Generic("Mocha", "https://mochajs.org/#reporters", ("1 failing",)),
    Generic("Jest", "https://jestjs.io/docs/cli", ("Tests:       1 failed, 4 passed, 5 total",)),
    Generic("Rake", "https://ruby.github.io/rake/", ("rake aborted!",)),
    Generic(
        "RSpec",
        "https://rspec.info/features/3-12/rspec-core/command-line/",
        ("Failures:", "Failed examples:", "1 example, 1 failure"),
    ),
    Generic(
        "tsc and Ruff",
        "https://docs.astral.sh/ruff/linter/",
        ("Found 2 errors.",),
    ),
    Generic(
        "ESLint",
        "https://eslint.org/docs/latest/use/formatters/",
        ("\u2716 3 problems (3 errors, 0 warnings)",),
    ),
    Generic(
        "MSBuild and dotnet test",
        "https://learn.microsoft.com/en-us/dotnet/core/tools/dotnet-test",
        ("Build FAILED.", "Test Run Failed."),
    ),
    Generic(
        "GitHub Actions",
        "https://docs.github.com/en/actions/managing-workflow-runs/canceling-a-workflow",
        ("Error: The operation was canceled.",),
    ),
    Generic(
        "GitLab Runner",
        "https://docs.gitlab.com/ee/ci/jobs/job_troubleshooting.html",
        ("ERROR: Job failed: exit code 1",),
    ),
)


def summary_lines() -> list[tuple[str, str]]:
    """(line, where) for every summary or wrapper line (`SUMMARY`)."""
    return [(line, f"a line every {g.tool} failure prints") for g in SUMMARY for line in g.lines]


def generic_lines() -> list[tuple[str, str]]:
    """(line, where) for every generic line: `where` names the tool for a refusal."""
    return [(line, f"a line every {g.tool} failure prints") for g in GENERIC for line in g.lines]
