"""Lines every failure of a tool prints (docs/CONTRACTS.md Contract 6): a learned pattern takes none.

A learned pattern ranks above every built-in one (engine/library/layers.py), so one that takes a
tool's header, separator or summary line (`Traceback (most recent call last):`, pytest's
`= FAILURES =` rule, Gradle's `* What went wrong:`) would decide EVERY later failure of that tool
on that line, with the category and title it was taught: a real import error or test failure
silenced as whatever the one log said. The line to learn from may be a fork's log line chosen for
exactly that (the comment offers to learn the key line of a failure no pattern knew), so the
learner treats these lines like the library's `no_match` examples: a pattern that takes one is
specialised, and refused when even the literal line is one of them.

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


def generic_lines() -> list[tuple[str, str]]:
    """(line, where) for every generic line: `where` names the tool for a refusal."""
    return [(line, f"a line every {g.tool} failure prints") for g in GENERIC for line in g.lines]
