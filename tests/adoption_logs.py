"""Job logs for the adoption tests, composed from each tool's documented output format
(pytest's terminal report, a script that prints its own messages and exits non-zero) in the
raw GitHub Actions shape: timestamps, `##[group]Run` step headers, `##[error]` exit lines."""

from __future__ import annotations


def gha(steps: list[tuple[str, list[str]]], exit_code: int = 1) -> bytes:
    """A job log: each (command, output lines) is one step; the last one fails."""
    lines = ["##[group]Runner Image", "Image: ubuntu-24.04", "##[endgroup]"]
    for command, output in steps:
        lines += [f"##[group]Run {command}", command, "shell: /usr/bin/bash -e {0}", "##[endgroup]"]
        lines += output
    lines.append(f"##[error]Process completed with exit code {exit_code}.")
    stamped = [
        f"2026-03-01T10:{i // 60 % 60:02d}:{i % 60:02d}.1234567Z {line}"
        for i, line in enumerate(lines)
    ]
    return ("\n".join(stamped) + "\n").encode("utf-8")


def pytest_log() -> bytes:
    """pytest -q with one failed assertion; the `E` lines and `file:line` sit far above the
    short test summary (warnings in between), as in a real run."""
    warnings = []
    for i in range(30):
        warnings += [
            f"tests/test_core.py::test_span[{i}]",
            "  /opt/venv/lib/python3.12/site-packages/lib/image.py:167: DeprecationWarning: "
            "`np.int` is a deprecated alias",
        ]
    out = [
        "============================= test session starts ==============================",
        "collected 12 items",
        "",
        "tests/test_core.py ...........F                                        [100%]",
        "",
        "=================================== FAILURES ===================================",
        "__________________________________ test_span ___________________________________",
        "",
        "    def test_span():",
        "        spans = normalize('ok 2:30pm now')",
        ">       assert (spans.start, spans.end) in {(1, 1), (2, 2)}",
        "E       assert (1, 2) in {(1, 1), (2, 2)}",
        "E        +  where (1, 2) = Span(start=1, end=2)",
        "",
        "tests/test_core.py:430: AssertionError",
        "=============================== warnings summary ===============================",
        *warnings,
        "-- Docs: https://docs.pytest.org/en/stable/how-to/capture-warnings.html",
        "=========================== short test summary info ============================",
        "FAILED tests/test_core.py::test_span - assert (1, 2) in {(1, 1), (2, 2)}",
        "================= 1 failed, 11 passed, 60 warnings in 3.21s ===================",
    ]
    return gha([("pip install -e .", ["Successfully installed app-1.0"]), ("pytest -q", out)])


def unknown_log() -> bytes:
    """A project script that fails in its own words: nothing a pattern knows."""
    out = [
        "release-check: reading package.json",
        "release-check: version 1.4.0",
        "release-check: reading CHANGELOG.md",
        "release-check: top entry is 1.3.9",
        "release-check: the versions differ; add a CHANGELOG.md entry for 1.4.0",
    ]
    return gha([("npm ci", ["added 12 packages in 2s"]), ("node scripts/release-check.js", out)], 3)
