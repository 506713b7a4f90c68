"""The last green log as evidence (engine/verdict/baseline.py): volatile parts are normalised,
lines the green log prints are demoted, a failed base log demotes nothing, and without a base log
a recurring infrastructure line is weak evidence."""

from __future__ import annotations

import pytest

from repopilot.engine.classify import Classifier
from repopilot.engine.library.loader import load_library
from repopilot.engine.verdict.baseline import (
    NOTE,
    REPEATED,
    Baseline,
    base_from_path,
    demote,
    normalise,
    noted,
)
from repopilot.records import Verdict
from tests.paths import FIXTURES, REPO_ROOT

pytestmark = pytest.mark.unit

HERE = FIXTURES / "anyproject"
FAIL = HERE / "base-publish-fail.log"
GREEN = HERE / "pass-base-publish.log"


@pytest.fixture()
def classifier() -> Classifier:
    return Classifier(load_library(REPO_ROOT / "patterns"))


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("2026-11-30T10:00:01.123Z fetched in 0.41s", "2026-12-01T08:12:59Z fetched in 1.20s"),
        ("commit 3f2a9c1d0e resolved", "commit 9b8e7d6c5f resolved"),
        ("wrote /tmp/tmp.x8Yq2/package/a.tgz", "wrote /tmp/tmp.Q7pLm/package/a.tgz"),
        ("listening on 127.0.0.1:40123 (pid 811)", "listening on 127.0.0.1:38871 (pid 96)"),
        (
            "run 550e8400-e29b-41d4-a716-446655440000 done",
            "run 123e4567-e89b-12d3-a456-426614174000 done",
        ),
        ("##[error]took 3 minutes", "took 12 min"),
    ],
)
def test_volatile_parts_do_not_tell_runs_apart(a, b):
    assert normalise(a) == normalise(b)


def test_words_still_tell_lines_apart():
    assert normalise("error: dist/index.d.ts is missing") != normalise(
        "error: dist/index.js is missing"
    )


def test_demote_prefers_new_lines_and_says_when_all_are_old():
    base = Baseline("green", frozenset({normalise("npm ERR! code E404")}))
    items = ["npm ERR! code E404", "error: tarball check failed"]
    assert demote(base, items, str) == (["error: tarball check failed"], False)
    assert demote(base, items[:1], str) == (items[:1], True)
    assert demote(base, [], str) == ([], False)


def test_without_a_base_a_retry_loop_yields_to_what_failed_after_it():
    retry = "ECONNRESET while fetching https://example.test/a (attempt 1)"
    items = [(i, retry.replace("1", str(i))) for i in range(REPEATED)] + [(99, "real error")]

    def run(weakens, items=items):
        return demote(None, items, lambda x: x[1], weakens, lambda x: x[0])

    assert run(lambda x: "ECONNRESET" in x[1]) == ([(99, "real error")], False)
    # lines the predicate does not weaken (a compiler's same error at many places) stay
    assert run(lambda x: False) == (items, False)
    # a repeated error that is the last thing printed stays the cause
    last = [(0, "real error")] + items[:-1]
    assert run(lambda x: "ECONNRESET" in x[1], last) == (last, False)


def test_noted_says_the_base_log_was_used():
    v = Verdict(source="x", category="test_failure", hint="Run it.")
    assert noted(v, None) is v
    assert noted(v, Baseline("g", frozenset())).hint == f"Run it. {NOTE}"


def test_a_failed_base_log_demotes_nothing(classifier):
    assert base_from_path(classifier, str(FAIL)) is None


def test_green_log_sets_aside_the_handled_probe(classifier):
    (before,) = classifier.classify_path(FAIL)
    assert before.evidence[0].text == "npm ERR! code E404"  # the probe the script handled
    classifier.baseline = base_from_path(classifier, str(GREEN))
    assert classifier.baseline is not None
    (after,) = classifier.classify_path(FAIL)
    assert after.evidence[0].line == 14
    assert "dist/index.d.ts is missing" in after.evidence[0].text
    assert NOTE in after.hint
