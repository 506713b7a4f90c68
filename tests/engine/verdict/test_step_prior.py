"""The failing step's command as a category prior (engine/verdict/step_prior.py): the table is
data with a source per entry, the header decides before the script and a human step name only
when no command is known, and a verdict reached this way says so at a low confidence."""

from __future__ import annotations

import pytest

from repopilot.engine.classify import Classifier
from repopilot.engine.library.loader import load_library
from repopilot.engine.verdict.step_prior import (
    CONFIDENCE,
    RECAST_CONFIDENCE,
    SAYS,
    entries,
    guess_category,
    header_and_script,
    prior,
    recast,
    tie_break,
)
from repopilot.records import CATEGORIES
from tests.paths import FIXTURES, REPO_ROOT

pytestmark = pytest.mark.unit

HERE = FIXTURES / "anyproject"


@pytest.fixture(scope="module")
def classifier() -> Classifier:
    return Classifier(load_library(REPO_ROOT / "patterns"))


def test_every_entry_names_its_source_and_a_category():
    table = entries()
    assert len(table) >= 15
    for e in table:
        assert e.category in CATEGORIES
        assert e.source.startswith("https://")


@pytest.mark.parametrize(
    ("step", "category"),
    [
        ("Run npm publish --access public", "permission_secret"),
        ("Run twine upload dist/*", "permission_secret"),
        ("Run cargo fmt --all -- --check", "lint_format"),
        ("Run npx eslint .", "lint_format"),
        ("Run pre-commit/action@v3.0.1", "lint_format"),
        ("Run mypy src", "type_check"),
        ("Run npm ci", "dependency_resolution"),
        ("Run pip install -r requirements.txt", "dependency_resolution"),
        ("Run docker build -t app .", "docker_build"),
        ("Run go test ./...", "test_failure"),
        ("Run make test", "test_failure"),
        ("Run make", "compile_error"),
        ("Run ./gradlew assembleDebug", "compile_error"),
        ("Run actions/checkout@v4", "runner_infra"),
        ("Run terraform plan -out tf.plan", "config_error"),
        ("$ bundle exec rspec", "test_failure"),
    ],
)
def test_the_header_command_names_the_family(step, category):
    p = prior(step)
    assert p is not None and p.category == category


def test_a_command_alone_never_matches_a_step_name_word():
    assert prior("Run ./deploy.sh") is None  # `deploy` names a publish step, not a script
    assert prior("Run ./scripts/check-release-notes.sh") is None


def test_a_human_step_name_counts_when_no_command_is_known():
    assert prior("Publish to npm").category == "permission_secret"
    assert prior("Lint").category == "lint_format"


def test_the_script_under_an_unknown_header_decides_by_its_last_command():
    head, script = header_and_script(
        [
            "##[group]Run set -euo pipefail",
            "set -euo pipefail",
            "pip install -e .",
            "cargo fmt --all -- --check",
            "shell: /usr/bin/bash -e {0}",
            "npm publish",
        ]
    )
    assert head == "Run set -euo pipefail"
    assert script == ["set -euo pipefail", "pip install -e .", "cargo fmt --all -- --check"]
    p = prior(head, script)
    assert p is not None and (p.category, p.command) == ("lint_format", script[-1])


def test_a_guess_is_replaced_only_when_it_is_weak():
    p = prior("Run npm publish")
    assert guess_category("network", 0.35, lambda: p) == ("network", 0.35, "")
    cat, conf, note = guess_category("unknown", 0.2, lambda: p)
    assert (cat, conf) == ("permission_secret", CONFIDENCE)
    assert note.startswith(SAYS)


def test_tie_break_moves_the_prior_family_first_only_among_ties():
    ranked = [("a", 80, "test_failure"), ("b", 80, "lint_format"), ("c", 70, "type_check")]
    got = tie_break(ranked, lambda g: (g[1],), lambda g: g[2], lambda: prior("Run ruff check"))
    assert [g[0] for g in got] == ["b", "a", "c"]
    got = tie_break(ranked, lambda g: (g[1],), lambda g: g[2], lambda: prior("Run mypy ."))
    assert [g[0] for g in got] == ["a", "b", "c"]  # the prior's family is not among the tied


def test_unknown_publish_failure_is_read_from_its_command(classifier):
    (v,) = classifier.classify_path(HERE / "prior-publish.log")
    assert v.decided_by == "none"
    assert v.category == "permission_secret"
    assert v.confidence == CONFIDENCE
    assert SAYS in v.title
    assert v.evidence[0].text == "the registry did not take the package"


def test_a_wrapper_only_verdict_takes_the_commands_family(classifier):
    (v,) = classifier.classify_path(HERE / "prior-tox-wrapper.log")
    assert v.pattern_id == "python.tox.invocation-error"
    assert v.category == "test_failure"
    assert v.confidence <= CONFIDENCE + 0.1
    assert SAYS in v.title


def test_a_registry_404_in_a_publish_step_is_not_a_missing_dependency(classifier):
    # without npm's `404 Not Found - PUT <url>` line, which node.npm.publish-denied decides alone
    (v,) = classifier.classify_path(HERE / "prior-publish-404-noput.log")
    assert v.pattern_id == "node.npm.dependency-code"
    assert v.category == "permission_secret"
    assert v.confidence <= RECAST_CONFIDENCE
    assert SAYS in v.title


def test_the_same_404_in_an_install_step_stays_a_dependency_failure(classifier):
    (v,) = classifier.classify_path(HERE / "prior-install-404.log")
    assert (v.pattern_id, v.category) == ("node.npm.dependency-code", "dependency_resolution")
    assert SAYS not in v.title


def test_recast_asks_for_the_prior_only_for_a_recast_category():
    asked = []

    def get():
        asked.append(1)
        return prior("Run npm publish")

    assert recast("test_failure", get) is None and asked == []
    assert recast("dependency_resolution", get)[0] == "permission_secret"
    assert recast("dependency_resolution", lambda: prior("Run npm ci")) is None
