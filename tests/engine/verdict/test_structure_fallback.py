"""The unknown fallback and the structure rules with a library that knows nothing about these
logs (tests/fixtures/engine/patterns): only generic signals can decide."""

from __future__ import annotations

from pathlib import Path

import pytest

from repopilot.engine.classify import Classifier
from repopilot.engine.library.loader import load_library
from repopilot.engine.verdict.fallback import Line, best_block, guess, score
from repopilot.engine.verdict.passing import is_passing_test
from tests.engine_support import PATTERNS
from tests.paths import FIXTURES

pytestmark = pytest.mark.unit

SHAPES = FIXTURES / "shapes"
TS = "2025-06-01T10:00:00.0000000Z "


@pytest.fixture(scope="module")
def bare() -> Classifier:
    return Classifier(load_library(PATTERNS))


def gha(tmp_path: Path, *body: str) -> Path:
    lines = ["Current runner version: '2.325.0'", "##[group]Run ./ci.sh", "./ci.sh", "##[endgroup]"]
    lines += list(body)
    path = tmp_path / "job.log"
    path.write_text("".join(TS + ln + "\n" for ln in lines), encoding="utf-8")
    return path


def test_unknown_network_block_with_ansi_red_and_a_guess(bare):
    (v,) = bare.classify_path(SHAPES / "unknown-network.log")
    assert v.decided_by == "none" and v.pattern_id is None
    assert v.evidence[0].line == 13 and "connection reset by peer" in v.evidence[0].text
    assert v.category == "network" and v.confidence < 0.5 and v.ambiguous  # a guess, marked so


def test_fallback_is_unknown_without_a_keyword_family(bare, tmp_path):
    path = gha(
        tmp_path,
        "step 1 done",
        "error: widget misaligned at src/w.c:4:2",
        "cleanup",
        "##[error]Process completed with exit code 2.",
    )
    (v,) = bare.classify_path(path)
    assert v.category == "unknown" and v.evidence[0].line == 6
    assert all("Process completed" not in e.text for e in v.evidence)


def test_the_last_error_block_wins_over_an_earlier_one(bare, tmp_path):
    path = gha(
        tmp_path,
        "warning: old error handling is deprecated",
        "error: first attempt failed, retrying",
        "retry ok",
        "step a",
        "step b",
        "step c",
        "step d",
        "fatal: could not read Username for 'https://example.invalid': terminal prompts disabled",
        "##[error]Process completed with exit code 128.",
    )
    (v,) = bare.classify_path(path)
    assert v.evidence[0].line == 12


def test_script_echo_is_never_fallback_evidence(bare, tmp_path):
    path = gha(tmp_path, "quiet", "##[error]Process completed with exit code 1.")
    (v,) = bare.classify_path(path)
    assert v.failed and all(e.line != 3 for e in v.evidence)  # `./ci.sh` is the script echo


def test_score_signals():
    red = Line(1, "boom", True)
    assert score(Line(1, "src/a.py:3:1: error: bad thing", False), 1, 10) > score(red, 1, 10)
    assert score(Line(1, "Process completed with exit code 1.", False), 1, 10) == 0
    assert score(Line(1, "0 errors, 0 failures", False), 1, 10) == 0
    assert score(Line(1, "tests/a.py::test_error PASSED", False), 1, 10) == 0
    warn = score(Line(1, "warning: something failed quietly", False), 1, 10)
    err = score(Line(1, "error: something failed", False), 1, 10)
    assert err > warn
    wrapper = score(Line(1, "error Command failed with exit code 1.", False), 1, 10)
    assert err > wrapper


def test_best_block_takes_the_last_strong_block():
    rows = [
        Line(1, "error: early", False),
        Line(2, "", False),
        Line(3, "", False),
        Line(4, "", False),
        Line(5, "", False),
        Line(6, "RuntimeError: late", False),
        Line(7, "  at x.py:3", False),
    ]
    block = best_block(rows, 7)
    assert [ln.number for _, ln in block] == [6, 7]
    g = guess(rows, 7)
    assert g.lines[0].number == 6 and g.category == "unknown"


@pytest.mark.parametrize(
    "text",
    [
        "tests/test_x.py::test_fails_nicely PASSED                 [ 50%]",
        "(pass) cart > failure path [0.1ms]",
        "ok  \tacme.dev/x\t0.01s",
        "    ✓ reports failures (3 ms)",
        "--- PASS: TestFailureCase (0.00s)",
        "Tests run: 4, Failures: 0, Errors: 0, Skipped: 0",
    ],
)
def test_passing_test_lines(text):
    assert is_passing_test(text)


@pytest.mark.parametrize(
    "text",
    [
        "FAILED tests/test_x.py::test_y - assert 1 == 2",
        "(fail) cart > totals [0.3ms]",
        "--- FAIL: TestTotal (0.00s)",
        "Tests run: 4, Failures: 1, Errors: 0, Skipped: 0",
        "    ✕ totals (3 ms)",
    ],
)
def test_failing_test_lines_are_not_passing(text):
    assert not is_passing_test(text)


def test_warning_annotations_are_never_evidence(bare, tmp_path):
    path = gha(
        tmp_path,
        "##[warning]cache: No space left on device for the optional cache; continuing",
        "FAILED tests/a.py::test_b - boom",
        "##[error]Process completed with exit code 1.",
    )
    (v,) = bare.classify_path(path)
    assert v.pattern_id == "t.pytest.failed" and v.evidence[0].line == 6
    assert all(not e.text.startswith("##[warning]") for e in v.evidence)


def test_a_script_error_goes_before_a_wrapper(tmp_path):
    engine = Classifier(load_library())
    path = gha(
        tmp_path,
        "yarn run v1.22.22",
        "$ node scripts/size.js",
        "##[error]Bundle size 187 kB exceeds the 150 kB budget",
        "error Command failed with exit code 1.",
        "##[error]Process completed with exit code 1.",
    )
    (v,) = engine.classify_path(path)
    assert v.failed and v.evidence[0].line == 7
    assert v.evidence[0].text.startswith("##[error]Bundle size")


def test_free_text_error_annotation_is_not_tolerated_but_a_matcher_line_is(bare, tmp_path):
    def job(annotation: str) -> Path:
        return gha(
            tmp_path,
            annotation,
            "##[group]Run make test",
            "make test",
            "##[endgroup]",
            "all tests passed",
            "Post job cleanup.",
            "Cleaning up orphan processes",
        )

    (v,) = bare.classify_path(job("##[error]Release notes are missing for this change"))
    assert v.failed and v.evidence[0].line == 5
    (v,) = bare.classify_path(job("##[error]src/app.py:3:1: F401 'os' imported but unused"))
    assert v.category == "no_failure"  # a problem matcher's line in a step that went on


def test_the_failing_steps_tool_is_the_last_category_guess(bare, tmp_path):
    path = tmp_path / "lint.log"
    rows = [
        "##[group]Run npx eslint .",
        "npx eslint .",
        "##[endgroup]",
        "/src/app.js",
        "  3:7  something unusual happened here",
        "##[error]Process completed with exit code 1.",
    ]
    path.write_text("".join(TS + r + "\n" for r in rows), encoding="utf-8")
    (v,) = bare.classify_path(path)
    assert v.decided_by == "none" and v.category == "lint_format" and v.confidence == 0.25
    assert v.ambiguous and "looks like lint format" in v.title
