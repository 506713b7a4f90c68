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
- `corpus_classifier`: the real classifier for ../shared/corpus, each job classified once per
  session and remembered; `corpus_classify` is its `classify_path` (`Path -> list[Verdict]`, as
  `repopilot.engine.measure.evaluate` takes).
The tests that use `corpus_classifier` run on one xdist worker (group "corpus", carried to the
scheduler by tests/xdist_groups.py), so the corpus is classified once; other corpus tests are
spread like any test. Workers take the corpus, then the integration, then the unit tests.
"""

from __future__ import annotations

import os
import sys
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

# REPOPILOT_TEST_WITHOUT_FAST=1: the suite as a plain install (no `fast` extra) runs it, with
# google-re2 and hyperscan unimportable; .ci/run runs the engine's tests so too.
if os.environ.get("REPOPILOT_TEST_WITHOUT_FAST") == "1":
    sys.modules["re2"] = None  # type: ignore[assignment]
    sys.modules["hyperscan"] = None  # type: ignore[assignment]

from repopilot.engine.classify import Classifier  # noqa: E402
from repopilot.engine.library.loader import Pattern, load_library  # noqa: E402
from repopilot.logs.reader import JobLog  # noqa: E402
from repopilot.records import Verdict  # noqa: E402
from tests import xdist_groups  # noqa: E402
from tests.xdist_groups import (  # noqa: F401,E402  (xdist hooks, registered from this namespace)
    pytest_configure_node,
    pytest_unconfigure,
    pytest_xdist_make_scheduler,
)

ROOT = Path(__file__).resolve().parent.parent
PATTERNS = ROOT / "patterns"
CORPUS = ROOT.parent / "shared" / "corpus"
KINDS = ("unit", "integration", "corpus")

# Keep the assertion-rewritten test modules (and the project's bytecode) in __pycache__/ (ignored
# by git) even where PYTHONDONTWRITEBYTECODE is set: without that cache every xdist worker
# rewrites and compiles ~250 test modules on every run, ~4 s of CPU each before a test starts.
sys.dont_write_bytecode = False


@pytest.hookimpl(tryfirst=True)  # registered after xdist's, so it runs before xdist reads -n
def pytest_cmdline_main(config: pytest.Config) -> None:
    """Several processes by default (`-n auto --dist loadgroup`) when pytest-xdist is loaded and
    no `-n` was given; `-p no:xdist` or `-n0` run in one process (pyproject.toml's addopts holds no
    xdist option, which pytest would refuse without the plugin)."""
    if hasattr(config, "workerinput"):
        # an xdist worker: it must never start workers of its own; it groups tests as the
        # controller schedules them (tests/xdist_groups.py)
        xdist_groups.worker_mode(config)
        return
    if getattr(config.option, "numprocesses", 0) is None:
        config.option.numprocesses = "auto"
        if config.option.dist == "no":
            config.option.dist = "loadgroup"


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
        if "corpus_classifier" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.xdist_group("corpus"))
    if hasattr(config, "workerinput"):
        # xdist hands the tests out in this order: the kinds that may be slow first and the
        # quick unit tests last, so no long test starts on one worker while the other runs dry
        # (stable: file order within a kind; every worker sorts the same way)
        items.sort(key=lambda item: KINDS[::-1].index(_kind(item) or "integration"))
        xdist_groups.record(config, items)
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
    from tests.agent.test_agent_support import make_repo

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


class RememberingClassifier(Classifier):
    """The real classifier, remembering each job's verdict: a job of a log is classified once.

    Only for ../shared/corpus, whose files never change during a run (tests that write logs use
    the plain `classifier`). A job is known by its file, name and job filter; a job that raises is
    not remembered (the next caller sees the same exception)."""

    def __init__(self, patterns: list[Pattern]):
        super().__init__(patterns)
        self.seen: dict[tuple, Verdict] = {}

    def classify(self, job: JobLog, assume_failed: bool = False) -> Verdict:
        key = (os.path.realpath(job.source), job.name, job.fmt, job.job_filter, assume_failed)
        if key not in self.seen:
            self.seen[key] = super().classify(job, assume_failed)
        return self.seen[key]


@pytest.fixture(scope="session")
def corpus_classifier(corpus: Path, classifier: Classifier) -> RememberingClassifier:
    """The session's one classification of ../shared/corpus, as a Classifier (pass it where a
    classifier is taken, e.g. `pipeline.triage(..., classifier=corpus_classifier)`)."""
    return RememberingClassifier(classifier.patterns)


@pytest.fixture(scope="session")
def corpus_classify(corpus_classifier: RememberingClassifier) -> Callable[[Path], list[Verdict]]:
    """The same, as the `Path -> list[Verdict]` callable `repopilot.engine.measure.evaluate` takes."""
    return corpus_classifier.classify_path
