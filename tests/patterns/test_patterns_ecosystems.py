"""The JVM, Go, Rust, .NET, C/C++ and Docker pattern files, run through the real engine.

Fixture logs in tests/fixtures/ecosystems/ are written by hand from each tool's output format;
`cases.csv` gives the expected category, evidence line and (where one pattern must decide) the
pattern id. The corpus checks need ../shared and skip without it.
"""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest

from repopilot.engine.classify import Classifier
from repopilot.engine.library.loader import Pattern, check_examples, load_file
from repopilot.logs.textnorm import body, display
from tests.paths import FIXTURES as FIXTURES_ROOT
from tests.paths import REPO_ROOT

ROOT = REPO_ROOT
PATTERNS = ROOT / "patterns"
FIXTURES = FIXTURES_ROOT / "ecosystems"
FILES = ("jvm", "go", "rust", "dotnet", "cpp", "docker")
MIN_COUNT = {"jvm": 40, "go": 20, "rust": 12, "dotnet": 8, "cpp": 20, "docker": 10}


def _cases() -> list[dict[str, str]]:
    with (FIXTURES / "cases.csv").open(newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


@pytest.fixture(scope="module")
def library(classifier: Classifier) -> list[Pattern]:
    """The library of the session's classifier (tests/conftest.py: the bundled patterns/)."""
    return classifier.patterns


@pytest.fixture(scope="module")
def by_id(library: list[Pattern]) -> dict[str, Pattern]:
    return {p.id: p for p in library}


@pytest.mark.unit
@pytest.mark.parametrize("name", FILES)
def test_file_loads_with_enough_patterns_and_namespaced_ids(name: str) -> None:
    patterns = load_file(PATTERNS / f"{name}.yaml")
    assert len(patterns) >= MIN_COUNT[name]
    assert all(p.id.startswith(f"{name}.") for p in patterns), [p.id for p in patterns]
    assert all(p.literals or p.spec.prefilter_regex for p in patterns)


@pytest.mark.unit
@pytest.mark.parametrize("name", FILES)
def test_every_example_passes(name: str) -> None:
    problems = [msg for p in load_file(PATTERNS / f"{name}.yaml") for msg in check_examples(p)]
    assert problems == []


@pytest.mark.unit
def test_library_total_meets_the_issue() -> None:
    total = sum(len(load_file(PATTERNS / f"{n}.yaml")) for n in FILES)
    assert total >= 70


@pytest.mark.unit
@pytest.mark.parametrize("case", _cases(), ids=lambda c: c["file"])
def test_fixture_log_is_classified(classifier: Classifier, case: dict[str, str]) -> None:
    [verdict] = classifier.classify_path(FIXTURES / case["file"])
    assert verdict.category == case["category"], (verdict.pattern_id, verdict.title)
    if case["line"]:
        assert verdict.evidence, verdict
        # Contract 1 (issue 10): a failing test's assertion first, the test's own line second
        lead = 1 if verdict.assertion_first else 0
        assert verdict.evidence[lead].line == int(case["line"]), verdict.evidence[:2]
    else:
        assert verdict.evidence == () or verdict.category == "no_failure"
    if case["pattern"]:
        assert verdict.pattern_id == case["pattern"]


@pytest.mark.unit
def test_every_fixture_is_listed_once() -> None:
    listed = [c["file"] for c in _cases()]
    assert sorted(listed) == sorted(p.name for p in FIXTURES.glob("*.log"))
    assert len(set(listed)) == len(listed)


# Root causes outrank the summaries that follow them: the arbitration relies on it.
RANKED = [
    ("jvm.javac.error", "jvm.gradle.compile-task-failed"),
    ("jvm.gradle.compile-task-failed", "jvm.gradle.build-failed"),
    ("jvm.gradle.test-failed", "jvm.gradle.tests-completed"),
    ("jvm.gradle.tests-completed", "jvm.gradle.test-task-failed"),
    ("jvm.surefire.class-failed", "jvm.surefire.totals"),
    ("jvm.surefire.totals", "jvm.surefire.goal-test-failures"),
    ("jvm.surefire.goal-test-failures", "jvm.maven.failed-goal"),
    ("jvm.maven.compiler-error", "jvm.maven.compiler-plugin-failed"),
    ("jvm.maven.non-resolvable-pom", "jvm.maven.pom-invalid"),
    ("go.test.fail", "go.test.fail-package"),
    ("go.compile.error", "go.test.build-failed"),
    ("rust.cargo.network", "rust.cargo.select-version"),
    ("go.mod.network", "go.compile.error"),
    ("rust.rustc.error-code", "rust.cargo.could-not-compile"),
    ("rust.test.failed", "rust.test.result"),
    # the panic (message and location) explains a failed test better than its name
    ("rust.panic.test-thread", "rust.test.failed"),
    ("go.panic.in-test", "go.test.fail"),
    ("dotnet.test.failed", "dotnet.test.summary"),
    ("dotnet.compiler.error", "dotnet.build-failed"),
    ("cpp.compiler.error", "cpp.make.error"),
    ("cpp.linker.undefined", "cpp.linker.failed"),
    # the symbol the linker could not find says more than rustc's "linking with `cc` failed"
    ("cpp.linker.undefined", "rust.linker"),
    ("cpp.cmake.find-package", "cpp.cmake.error"),
    ("cpp.cmake.error", "cpp.cmake.incomplete"),
    ("docker.buildkit.step-error", "docker.buildkit.failed-to-solve"),
    ("docker.buildkit.failed-to-solve", "docker.buildkit.failed-to-solve-process"),
    # a tool failing inside a RUN step decides over BuildKit's summary of it
    ("jvm.maven.could-not-resolve-dependencies", "docker.buildkit.process-failed"),
    ("go.compile.error", "docker.buildkit.process-failed"),
]


@pytest.mark.unit
@pytest.mark.parametrize(("cause", "summary"), RANKED)
def test_root_cause_outranks_summary(by_id: dict[str, Pattern], cause: str, summary: str) -> None:
    assert by_id[cause].spec.priority > by_id[summary].spec.priority


@pytest.mark.unit
def test_summaries_are_marked_ambiguous(by_id: dict[str, Pattern]) -> None:
    banners = [
        "jvm.maven.build-failure",
        "jvm.gradle.build-failed",
        "jvm.gradle.action-failed",
        "jvm.maven.failed-goal",
        "cpp.make.error",
        "dotnet.build-failed",
    ]
    for pid in banners:
        assert by_id[pid].spec.ambiguous and by_id[pid].spec.priority <= 30, pid


# A line names something of its project (a path, a dotted name, a number) or it is a tool's fixed
# message (`FAILURE: Build failed with an exception.`), which every project's log shares.
_SPECIFIC = re.compile(r"[\w-]+/[\w.-]+|\w+\.\w+\.\w+|\d{2,}")


def _corpus_lines(gha: Path) -> set[str]:
    lines: set[str] = set()
    for path in sorted(gha.glob("**/*.log")):
        with path.open("rb") as fh:
            for raw in fh:
                text = body(display(raw))
                if len(text) >= 40:
                    lines.add(text.strip())
    return lines


@pytest.mark.corpus
def test_examples_and_fixtures_are_not_copied_from_the_corpus(corpus: Path) -> None:
    corpus = _corpus_lines(corpus / "gha")
    copied = []
    for name in FILES:
        for p in load_file(PATTERNS / f"{name}.yaml"):
            for ex in p.spec.examples.match:
                line = ex if isinstance(ex, str) else ex.line
                text = body(display(line)).strip()
                if _SPECIFIC.search(text) and text in corpus:
                    copied.append((p.id, line))
    for path in FIXTURES.glob("*.log"):
        for raw in path.read_bytes().splitlines():
            text = body(display(raw)).strip()
            if len(text) >= 40 and _SPECIFIC.search(text) and text in corpus:
                copied.append((path.name, text))
    assert copied == []


# These ecosystems' rows of ../shared/corpus/gha/labels.csv (the eval command reports the rest).
OWNED = ("java", "go", "latex")


@pytest.mark.corpus
def test_corpus_accuracy_for_owned_ecosystems(corpus: Path, corpus_classify) -> None:
    gha = corpus / "gha"
    with (gha / "labels.csv").open(newline="", encoding="utf-8") as fh:
        rows = [r for r in csv.DictReader(fh) if r["ecosystem"].startswith(("java", "go"))]
    assert rows
    right = keyed = 0
    for row in rows:
        [verdict] = corpus_classify(gha / "logs" / f"{row['id']}.log")
        allowed = {row["category"]}
        if row["ambiguous"] == "yes" and row["secondary"]:
            allowed.add(row["secondary"])
        right += verdict.category in allowed
        keyed += bool(verdict.evidence) and str(verdict.evidence[0].line) == row["key_line_no"]
    assert right / len(rows) >= 0.9
    assert keyed / len(rows) >= 0.75
