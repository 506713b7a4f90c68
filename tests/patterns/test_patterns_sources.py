"""Every pattern names where its format comes from; wrappers and reasons rank where they should.

`source:` is a documentation URL or `owner/repo:path` (a tool's output test, its baseline, the
code that prints the message, or a problem matcher). The composed logs in tests/fixtures/tools/
are written from those formats; `cases.csv` says which pattern must decide each one, which line
must be among the evidence and which wrapper line must not lead it.
"""

from __future__ import annotations

import csv
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from repopilot.engine.classify import Classifier
from repopilot.engine.library.loader import (
    Pattern,
    PatternError,
    load_file,
    load_library,
)
from repopilot.engine.library.schema import SOURCE_RE
from tests.paths import FIXTURES as FIXTURES_ROOT
from tests.paths import REPO_ROOT

ROOT = REPO_ROOT
PATTERNS = ROOT / "patterns"
FIXTURES = FIXTURES_ROOT / "tools"
# The problem matchers the setup-* actions ship (../shared/problem-matchers/INDEX.tsv lists them).
MATCHER_FILES = {
    "actions/setup-python:.github/python.json",
    "actions/setup-node:.github/tsc.json",
    "actions/setup-node:.github/eslint-stylish.json",
    "actions/setup-node:.github/eslint-compact.json",
    "actions/setup-node:.github/tslint-prose.json",
    "actions/setup-go:matchers.json",
    "actions/setup-go:.github/go.json",
    "actions/setup-dotnet:.github/csc.json",
    "actions/setup-dotnet:.github/dotnet-format.json",
    "actions/setup-dotnet:.github/msbuild.json",
    "actions/setup-java:.github/java.json",
    "actions/setup-java:.github/checkstyle.json",
}


def source_kind(source: str) -> str:
    """`docs` (a URL), `matcher` (a setup-* problem matcher) or `repo` (any other repo file)."""
    if source.startswith(("http://", "https://")):
        return "docs"
    return "matcher" if source in MATCHER_FILES else "repo"


@pytest.fixture(scope="module")
def library() -> list[Pattern]:
    return load_library(PATTERNS)


@pytest.fixture(scope="module")
def by_id(library: list[Pattern]) -> dict[str, Pattern]:
    return {p.id: p for p in library}


@pytest.mark.unit
def test_every_pattern_has_a_source(library: list[Pattern]) -> None:
    missing = [p.id for p in library if not p.spec.source]
    assert missing == []


@pytest.mark.unit
def test_sources_are_urls_or_repository_files(library: list[Pattern]) -> None:
    bad = [(p.id, p.spec.source) for p in library if not SOURCE_RE.match(p.spec.source or "")]
    assert bad == []
    for p in library:
        src = p.spec.source or ""
        if source_kind(src) != "docs":
            repo, _, path = src.partition(":")
            # A file, not a repository or a folder: its last segment has an extension.
            assert repo.count("/") == 1 and "." in path.rsplit("/", 1)[-1], (p.id, src)


@pytest.mark.unit
def test_counts_by_source_kind(library: list[Pattern]) -> None:
    counts = Counter(source_kind(p.spec.source or "") for p in library)
    print(f"\npatterns by source kind: {dict(sorted(counts.items()))} of {len(library)}")
    assert sum(counts.values()) == len(library)
    assert counts["docs"] >= 300
    assert counts["repo"] >= 15
    assert counts["matcher"] >= 8


@pytest.mark.unit
def test_problem_matcher_sources_are_the_shipped_ones() -> None:
    index = ROOT.parent / "shared" / "problem-matchers" / "INDEX.tsv"
    if not index.is_file():
        pytest.skip("../shared/problem-matchers is not present")
    rows = list(csv.DictReader(index.open(encoding="utf-8"), delimiter="\t"))
    shipped = {f"{r['repo']}:{r['path']}" for r in rows}
    used = {p.spec.source for p in load_library(PATTERNS)} & MATCHER_FILES
    assert used and used <= shipped, used - shipped


def _write(path: Path, source_line: str) -> None:
    path.write_text(
        "ecosystem: x\npatterns:\n  - id: x.one\n    category: other\n"
        f"{source_line}    regex: 'boom happened'\n    title: t\n"
        "    examples: {match: ['boom happened'], no_match: ['all fine']}\n",
        encoding="utf-8",
    )


@pytest.mark.unit
@pytest.mark.parametrize("source", ["'see the docs'", "'owner/repo'", "'http://localhost'"])
def test_loader_refuses_a_malformed_source(tmp_path: Path, source: str) -> None:
    _write(tmp_path / "a.yaml", f"    source: {source}\n")
    with pytest.raises(PatternError) as err:
        load_file(tmp_path / "a.yaml")
    assert str(err.value).startswith(f"{tmp_path / 'a.yaml'}:3: ")
    assert "source" in str(err.value) and "\n" not in str(err.value)


def _lint(directory: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "repopilot", "patterns", "lint", "--patterns", str(directory)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )


@pytest.mark.integration  # runs `repopilot patterns lint` as a process
def test_lint_reports_a_pattern_without_source(tmp_path: Path) -> None:
    _write(tmp_path / "a.yaml", "")
    res = _lint(tmp_path)
    assert res.returncode == 1
    assert f"{tmp_path / 'a.yaml'}:3: x.one: no `source:`" in res.stdout


@pytest.mark.integration  # runs `repopilot patterns lint` as a process
def test_lint_accepts_a_pattern_with_source(tmp_path: Path) -> None:
    _write(tmp_path / "a.yaml", "    source: 'acme/tool:tests/output.txt'\n")
    res = _lint(tmp_path)
    assert res.returncode == 0, res.stdout + res.stderr


# ---------------------------------------------------------------- wrappers and reasons

WRAPPERS = (
    "jvm.gradle.execution-failed-task",
    "jvm.gradle.build-failed",
    "jvm.gradle.what-went-wrong",
    "jvm.maven.build-failure",
    "jvm.maven.failed-goal",
    "jvm.ant.build-failed",
    "cpp.make.error",
    "cpp.ninja.failed-edge",
    "cpp.gcc.werror",
    "cpp.ctest.errors-while-running",
    "python.tox.invocation-error",
    "infra.actions.exec-failed",
)


@pytest.mark.unit
@pytest.mark.parametrize("pid", WRAPPERS)
def test_wrapper_lines_are_marked_and_rank_low(by_id: dict[str, Pattern], pid: str) -> None:
    p = by_id[pid]
    assert p.spec.wrapper and p.spec.priority <= 30, (p.spec.wrapper, p.spec.priority)


@pytest.mark.unit
def test_every_wrapper_ranks_below_the_specific_errors(library: list[Pattern]) -> None:
    wrappers = [p for p in library if p.spec.wrapper]
    assert len(wrappers) >= 40
    assert max(p.spec.priority for p in wrappers) <= 60
    specific = [p for p in library if not p.spec.wrapper and p.spec.priority >= 75]
    assert len(specific) >= 250


# (reason pattern, the runner's test-name pattern it must rank just below)
REASONS = (
    ("python.pytest.e-exception", "python.pytest.failed-test"),
    ("python.doctest.pytest-failure", "python.pytest.failed-test"),
    ("node.jest.expect-assertion", "node.jest.failed-test"),
    ("node.jest.expect-assertion", "node.bun.failed-test"),
    ("rust.test.assertion", "rust.panic.test-thread"),
    ("jvm.junit.assertion-exception", "jvm.gradle.test-failed"),
    ("jvm.junit.assertion-exception", "jvm.surefire.method-failed"),
    ("cpp.gtest.assertion", "cpp.gtest.failed"),
    ("php.phpunit.assertion", "php.phpunit.numbered-failure"),
    ("beam.exunit.assertion", "beam.exunit.failure"),
    ("dotnet.test.assertion", "dotnet.test.failed"),
    ("node.playwright.expect-failed", "node.playwright.failed-test"),
    ("python.unittest.assertion", "python.unittest.fail"),
)


@pytest.mark.unit
@pytest.mark.parametrize(("reason", "test_line"), REASONS)
def test_reason_lines_rank_below_the_test_line(
    by_id: dict[str, Pattern], reason: str, test_line: str
) -> None:
    r, t = by_id[reason], by_id[test_line]
    assert r.spec.reason and not t.spec.reason
    assert r.spec.category == t.spec.category == "test_failure"
    assert r.spec.priority < t.spec.priority


# ---------------------------------------------------------------- composed tool logs


def _cases() -> list[dict[str, str]]:
    with (FIXTURES / "cases.csv").open(newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


@pytest.fixture(scope="module")
def classifier(library: list[Pattern]) -> Classifier:
    return Classifier(library)


@pytest.mark.unit
@pytest.mark.parametrize("case", _cases(), ids=lambda c: c["file"])
def test_composed_log_is_decided_by_its_tool_pattern(
    classifier: Classifier, case: dict[str, str]
) -> None:
    verdicts = classifier.classify_path(FIXTURES / case["file"])
    assert len(verdicts) == 1
    v = verdicts[0]
    assert v.category == case["category"], (v.pattern_id, v.title)
    if case["category"] == "no_failure":
        return
    assert v.pattern_id == case["pattern"], v.title
    texts = [e.text for e in v.evidence]
    assert any(case["cause"] in t for t in texts), texts
    if case["not_first"]:
        assert case["not_first"] not in texts[0], texts


@pytest.mark.unit
def test_every_composed_log_is_listed_once() -> None:
    listed = [c["file"] for c in _cases()]
    assert len(listed) == len(set(listed))
    assert sorted(listed) == sorted(p.name for p in FIXTURES.glob("*.log"))


@pytest.mark.unit
def test_cause_lines_are_in_their_logs() -> None:
    """A typo in cases.csv must not turn a check into one that cannot fail."""
    for case in _cases():
        text = (FIXTURES / case["file"]).read_text(encoding="utf-8")
        for key in ("cause", "not_first"):
            assert case[key] in text, (case["file"], key)
