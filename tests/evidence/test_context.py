"""The evidence window (repopilot/agent/context.py) on synthetic job logs of five tool chains.

tests/fixtures/context/<tool>.log are GitHub Actions job logs written for these tests; expected.json
names, per log, the lines a person needs (the failing test or error, its location, the message,
the summary) by their 1-based physical line numbers.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from repopilot.evidence.window import ContextWindow, build_window, estimate_tokens
from repopilot.logs.textnorm import display
from repopilot.pipeline import classified_jobs, evidence_window
from repopilot.records import Evidence, Verdict
from tests.paths import FIXTURES as FIXTURES_ROOT

pytestmark = pytest.mark.unit

FIXTURES = FIXTURES_ROOT / "context"
EXPECTED = json.loads((FIXTURES / "expected.json").read_text())
TOOLS = sorted(EXPECTED)


def plain_lines(path: Path) -> list[tuple[int, str]]:
    raw = path.read_bytes().split(b"\n")
    if raw[-1] == b"":
        raw.pop()
    return [(i, display(b)) for i, b in enumerate(raw, 1)]


def kept(window: ContextWindow, line: int) -> bool:
    return any(a <= line <= b for a, b in window.line_ranges)


def blind(source: str = "x") -> Verdict:
    return Verdict(source=source, category="unknown")


def assert_well_formed(window: ContextWindow, lines: list[tuple[int, str]], budget: int) -> None:
    assert window.tokens <= budget
    assert window.tokens == estimate_tokens(window.text)
    flat = [n for a, b in window.line_ranges for n in range(a, b + 1)]
    assert flat == sorted(set(flat)), "ranges must be sorted and disjoint"
    assert all(a <= b for a, b in window.line_ranges)
    # ranges never touch: adjacent ones would have been merged
    for (_, b1), (a2, _) in zip(window.line_ranges, window.line_ranges[1:], strict=False):
        assert a2 > b1 + 1
    text_by_number = dict(lines)
    for n in flat:
        assert f"{n}| " in window.text
        assert n in text_by_number


@pytest.mark.parametrize("tool", TOOLS)
def test_classified_window_keeps_every_key_line(tool, classifier):
    path = FIXTURES / f"{tool}.log"
    (cj,) = classified_jobs(str(path), classifier)
    window = evidence_window(cj)
    missing = [name for name, n in EXPECTED[tool].items() if not kept(window, n)]
    assert missing == []
    assert_well_formed(window, plain_lines(path), 6000)
    assert window.source == str(path)
    assert window.category == cj.verdict.category
    total = len(plain_lines(path))
    assert sum(b - a + 1 for a, b in window.line_ranges) < total / 4, "the log must be cut"


@pytest.mark.parametrize("tool", TOOLS)
def test_blind_window_keeps_every_key_line(tool):
    """No pattern, no evidence: the line heuristics alone still find what a person needs."""
    lines = plain_lines(FIXTURES / f"{tool}.log")
    window = build_window(lines, blind())
    assert [k for k, n in EXPECTED[tool].items() if not kept(window, n)] == []
    assert_well_formed(window, lines, 6000)


@pytest.mark.parametrize("tool", TOOLS)
@pytest.mark.parametrize("budget", [150, 400, 1500])
def test_small_budgets_are_respected_and_keep_the_evidence(tool, budget, classifier):
    path = FIXTURES / f"{tool}.log"
    (cj,) = classified_jobs(str(path), classifier)
    window = evidence_window(cj, budget)
    assert_well_formed(window, plain_lines(path), budget)
    if cj.verdict.evidence:
        assert kept(window, cj.verdict.evidence[0].line)


def test_lines_after_the_exit_code_are_not_context():
    lines = plain_lines(FIXTURES / "pytest.log")
    window = build_window(lines, blind())
    cleanup = next(n for n, t in lines if t == "Cleaning up orphan processes")
    assert not kept(window, cleanup)


def test_noise_is_dropped_even_next_to_an_error():
    lines = [(i, f"Downloading https://example.org/pkg{i}.tar.gz") for i in range(1, 40)]
    lines += [(40, "error: build script failed"), (41, "src/build.rs:3:1: missing file")]
    lines += [(42, "##[error]Process completed with exit code 1.")]
    window = build_window(lines, blind())
    assert kept(window, 40) and kept(window, 41)
    assert not any(kept(window, n) for n in range(1, 38))


def test_runs_of_one_shape_collapse_to_a_marker():
    lines = [(i, f"ok  \tgithub.com/acme/pkg{i}\t0.0{i % 9}s") for i in range(1, 61)]
    lines += [(61, "--- FAIL: TestX (0.00s)"), (62, "    x_test.go:9: got 1, want 2")]
    lines += [(63, "FAIL"), (64, "##[error]Process completed with exit code 1.")]
    verdict = Verdict(
        source="x", category="test_failure", evidence=(Evidence(line=61, text=lines[60][1]),)
    )
    window = build_window(lines, verdict, budget=6000)
    assert "similar lines ..." in window.text
    assert kept(window, 61) and kept(window, 62)
    assert kept(window, 60) and not kept(window, 30)


def test_secrets_in_the_window_are_redacted():
    token = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
    lines = [(1, "setting up"), (2, f"error: push rejected for https://x:{token}@github.com/a/b")]
    lines += [
        (3, f"Authorization: Bearer {token}"),
        (4, "##[error]Process completed with exit code 1."),
    ]
    window = build_window(lines, blind())
    assert kept(window, 2)
    assert token not in window.text
    assert window.redactions >= 1


def test_long_lines_are_clipped_but_keep_their_number():
    long = "E   AssertionError: " + "x" * 20_000
    window = build_window([(1, "start"), (7, long), (8, "FAIL")], blind())
    assert kept(window, 7)
    assert "7| E   AssertionError: " in window.text
    assert window.tokens < 200


def test_empty_input_gives_an_empty_window():
    window = build_window([], blind("empty.log"))
    assert window.line_ranges == () and window.text == "" and window.tokens == 0
    assert window.contract() == {
        "source": "empty.log",
        "category": "unknown",
        "line_ranges": [],
        "tokens": 0,
        "text": "",
    }


def test_first_failure_of_many_alike_wins_under_pressure():
    """273 failures of one shape: the first ones, not the last, fill a small budget."""
    lines: list[tuple[int, str]] = []
    for k in range(1, 200):
        base = len(lines)
        lines.append((base + 1, f"  {k}) suite case {k}:"))
        lines.append((base + 2, f"      AssertionError: expected {k} to equal {k + 1}"))
        lines.append((base + 3, f"      at test/case{k}.js:{k}:7"))
    window = build_window(lines, blind(), budget=300)
    assert kept(window, 2)  # the first AssertionError
    assert not kept(window, len(lines) - 1)
