"""Shared fixtures and the test kinds (README "Quick start": running one kind alone).

Every test is exactly one kind, given by a marker: `unit` (in-process, no server, no git, no child
process), `integration` (loopback servers, git, subprocesses) or `corpus` (needs ../shared/corpus;
skips with a reason without it). A module of one kind says so with `pytestmark =
pytest.mark.<kind>`; a module with tests of several kinds marks each test instead (a module mark
and a test mark of another kind would put the test in both `-m` selections). A test with no kind
mark runs as `integration` (the kind that may be slow) and is named in a warning.

Fixtures here, for any test file:
- `classifier`: the bundled pattern library, compiled once per session.
- `repo`: a git checkout in tmp_path with a `main` base and a `pr` commit that breaks `add`.
- `gh`: the loopback GitHub seeded with tests/loopback/github_action.py's repository, PR #7 and
  failed run 555, as `(server, facts)`; fails the test if the fake met a request it cannot serve.
- `corpus`: the ../shared/corpus directory (skips when absent).
- `corpus_classify`: the classifier over ../shared/corpus, each log classified once per session
  and remembered (a `Path -> list[Verdict]` callable, as `repopilot.engine.evaluate` takes).
All corpus tests run on one xdist worker (group "corpus"), so the corpus is classified once.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

from repopilot.engine.classify import Classifier
from repopilot.engine.library import load_library
from repopilot.records import Verdict

ROOT = Path(__file__).resolve().parent.parent
PATTERNS = ROOT / "patterns"
CORPUS = ROOT.parent / "shared" / "corpus"
KINDS = ("unit", "integration", "corpus")


def _kind(item: pytest.Item) -> str | None:
    """The closest kind mark: the test's own, else its class's, else its module's."""
    return next((m.name for m in item.iter_markers() if m.name in KINDS), None)


@pytest.hookimpl(tryfirst=True)  # before xdist reads the groups and `-m` deselects
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    unmarked: set[str] = set()
    for item in items:
        kind = _kind(item)
        if kind is None:
            unmarked.add(item.nodeid.split("::")[0])
            kind = "integration"
            item.add_marker(pytest.mark.integration)
        if kind == "corpus" or "corpus_classify" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.xdist_group("corpus"))
    if unmarked:
        warnings.warn(
            "no unit/integration/corpus mark (run as integration): " + ", ".join(sorted(unmarked)),
            pytest.PytestWarning,
            stacklevel=1,
        )


# ------------------------------------------------------------------------------ the engine


@pytest.fixture(scope="session")
def classifier() -> Classifier:
    """The bundled library (patterns/ of this checkout), compiled once for the session."""
    return Classifier(load_library(PATTERNS))


# ------------------------------------------------------------------------------ git


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """tests/test_agent_support.make_repo at tmp_path/repo: `main`, then `pr` (HEAD) breaking add."""
    from tests.test_agent_support import make_repo

    return make_repo(tmp_path / "repo")


# ------------------------------------------------------------------------------ loopback GitHub


@pytest.fixture
def gh() -> Iterator[tuple]:
    """The loopback GitHub with the standard repository, PR #7 and failed run 555 seeded."""
    from tests.loopback.github_action import BOT, seed
    from tests.loopback.github_server import GitHubServer, State

    state = State(bot=BOT)
    with GitHubServer(state) as server:
        yield server, seed(state)
    assert state.errors == []


# ------------------------------------------------------------------------------ ../shared/corpus


@pytest.fixture(scope="session")
def corpus() -> Path:
    """../shared/corpus (gha/ and logchunks/); the test skips when it is not there."""
    if not CORPUS.is_dir():
        pytest.skip(f"../shared/corpus is not present (looked at {CORPUS})")
    return CORPUS


class CorpusVerdicts:
    """`classify_path` over the corpus, remembered: every log is classified at most once."""

    def __init__(self, engine: Classifier):
        self.engine = engine
        self.seen: dict[Path, list[Verdict]] = {}

    def __call__(self, path: Path) -> list[Verdict]:
        key = Path(path).resolve()
        if key not in self.seen:
            self.seen[key] = self.engine.classify_path(key)
        return self.seen[key]


@pytest.fixture(scope="session")
def corpus_classify(corpus: Path, classifier: Classifier) -> CorpusVerdicts:
    """The session's one classification of ../shared/corpus, shared by the tests that need it.

    A log that raises is not remembered (the next caller sees the same exception)."""
    return CorpusVerdicts(classifier)
