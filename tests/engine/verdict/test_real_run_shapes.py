"""Output shapes the real-runs set (benchmarks/real_runs/) showed the engine misreading, each
written here from the tool's own format: the rule that reads it, tested on its own."""

from __future__ import annotations

import pytest

from repopilot.engine.measure.evaluate import default_classifier

pytestmark = pytest.mark.unit

TS = "2026-12-03T15:00:{:02d}.1000000Z "


def _gha(command: str, output: list[str], failed: bool = True) -> str:
    lines = [
        "##[group]Run actions/checkout@v4",
        "Syncing repository: example/app",
        "##[endgroup]",
        f"##[group]Run {command}",
        command,
        "shell: /usr/bin/bash -e {0}",
        "##[endgroup]",
        *output,
    ]
    if failed:
        lines.append("##[error]Process completed with exit code 1.")
    lines += ["Post job cleanup.", "Cleaning up orphan processes"]
    return "".join(TS.format(i % 60) + line + "\n" for i, line in enumerate(lines))


@pytest.fixture(scope="module")
def classify():
    return default_classifier(None)


def _verdict(classify, tmp_path, text: str):
    path = tmp_path / "job.log"
    path.write_text(text, encoding="utf-8")
    [v] = classify(path)
    return v


def _line(text: str, needle: str) -> int:
    return next(i for i, ln in enumerate(text.split("\n"), 1) if ln.endswith(needle))


def test_a_rust_panic_with_the_thread_id_leads_with_its_message(classify, tmp_path):
    """Newer std prints `thread 'name' (id) panicked at file:L:C:`, the message on the next
    line: the message leads, the panic's line follows (Contract 1)."""
    text = _gha(
        "cargo test",
        [
            "running 2 tests",
            "test slug_trims ... FAILED",
            "test slug_keeps ... ok",
            "",
            "failures:",
            "",
            "---- slug_trims stdout ----",
            "",
            "thread 'slug_trims' (10520) panicked at tests/slug.rs:10:5:",
            "assertion `left == right` failed",
            '  left: "a-"',
            ' right: "a"',
            "",
            "test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out",
            "error: test failed, to rerun pass `--test slug`",
        ],
    )
    v = _verdict(classify, tmp_path, text)
    assert v.category == "test_failure"
    assert v.evidence[0].line == _line(text, "assertion `left == right` failed")
    assert v.evidence[1].line == _line(text, "panicked at tests/slug.rs:10:5:")


def test_a_program_panic_with_the_thread_id_is_a_crash(classify, tmp_path):
    text = _gha(
        "cargo run --quiet",
        [
            "thread 'main' (4411) panicked at src/main.rs:12:9:",
            "attempt to multiply with overflow",
            "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace",
        ],
    )
    v = _verdict(classify, tmp_path, text)
    assert (v.category, v.pattern_id) == ("crash_segfault", "rust.panic.main")


def test_a_jest_deep_equality_failure_leads_with_its_expect_line(classify, tmp_path):
    """`toEqual` prints the `expect(...)` header and a diff, no `Expected:` line."""
    text = _gha(
        "npx jest --ci",
        [
            "FAIL __tests__/cart.test.js",
            "  ● cart › applies the discount",
            "",
            "    expect(received).toEqual(expected) // deep equality",
            "",
            "    - Expected  - 1",
            "    + Received  + 1",
            "",
            "      Object {",
            '    -   "total": 250,',
            '    +   "total": 200,',
            "      }",
            "",
            "Tests:       1 failed, 3 passed, 4 total",
        ],
    )
    v = _verdict(classify, tmp_path, text)
    assert v.category == "test_failure"
    assert v.evidence[0].line == _line(text, "expect(received).toEqual(expected) // deep equality")


def test_a_manifest_that_does_not_parse_is_a_config_error(classify, tmp_path):
    """cargo reports bad TOML like a diagnostic: `error: ...`, then `--> Cargo.toml:L:C`."""
    text = _gha(
        "cargo build --release",
        [
            'error: invalid basic string, expected `"`',
            "  --> Cargo.toml:17:15",
            "   |",
            '17 | opt-level = "3',
            "   |               ^",
        ],
    )
    v = _verdict(classify, tmp_path, text)
    assert v.category == "config_error"
    assert v.evidence[0].line == _line(text, 'error: invalid basic string, expected `"`')


def test_a_json_file_node_cannot_parse_is_a_config_error(classify, tmp_path):
    text = _gha(
        "npm run build",
        [
            "> site@1.0.0 build",
            "> node scripts/build.js",
            "",
            "/w/app/node_modules/loader.js:20",
            "SyntaxError: /w/app/config/site.json: Expected ',' or ']' after array element in "
            "JSON at position 170",
            "    at parse (<anonymous>)",
            "    at Module._extensions..json (node:internal/modules/cjs/loader:1641:39)",
        ],
    )
    v = _verdict(classify, tmp_path, text)
    assert (v.category, v.pattern_id) == ("config_error", "node.json-parse")


@pytest.mark.parametrize(
    ("status", "category"),
    [
        ("***Exception: SegFault", "crash_segfault"),
        ("Subprocess aborted***Exception:", "test_failure"),
    ],
)
def test_ctest_says_which_tests_crashed(classify, tmp_path, status, category):
    """A signal (SIGSEGV) is a crash; an abort is most often the test's own assert()."""
    text = _gha(
        "ctest --test-dir build",
        [
            "Test project /w/app/build",
            "    Start 1: test_lru",
            f"1/2 Test #1: test_lru .........................{status}  0.01 sec",
            "    Start 2: test_ttl",
            "2/2 Test #2: test_ttl .........................   Passed    0.01 sec",
            "",
            "50% tests passed, 1 tests failed out of 2",
        ],
    )
    v = _verdict(classify, tmp_path, text)
    assert v.category == category
    assert v.evidence[0].line == _line(text, "0.01 sec")


def test_a_passing_step_whose_flags_name_a_cache_is_still_the_jobs_work(classify, tmp_path):
    """A complete GitHub log with no exit line passed: the errors its tests logged while they
    passed are no failure, whatever the step's flags (`-p no:cacheprovider`) contain."""
    text = _gha(
        "python -m pytest -p no:cacheprovider -o log_cli=true tests",
        [
            "tests/test_sync.py::test_gives_up ",
            "-------------------------------- live log call ---------------------------------",
            "WARNING  sync:retry.py:19 attempt 1 failed: connection reset by peer; retrying",
            "ERROR    sync:retry.py:17 giving up after 3 attempts: connection reset by peer",
            "PASSED                                                                   [100%]",
            "============================== 1 passed in 0.27s ===============================",
        ],
        failed=False,
    )
    assert _verdict(classify, tmp_path, text).category == "no_failure"


@pytest.mark.parametrize(("failed", "category"), [(False, "no_failure"), (True, "oom_disk")])
def test_a_logged_full_disk_is_no_death_of_a_passing_step(classify, tmp_path, failed, category):
    """`No space left on device` is a write that failed, which the program may report and go
    on after: in a complete GitHub log with no exit line it fails nothing; with one it is the
    cause."""
    text = _gha(
        "make check",
        [
            "INFO store: opened /tmp/store.db",
            "ERROR store: write failed: No space left on device (simulated)",
            "INFO store: write retried on the spare volume",
            "all 4 checks passed",
        ],
        failed=failed,
    )
    assert _verdict(classify, tmp_path, text).category == category
