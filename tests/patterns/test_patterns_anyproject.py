"""Formats issue 20 found unread (test2json, TBPL, sanitizers behind a prefix, Swift Testing,
Linux XCTest, Ansible, stestr, tox 4, LLVM crash reports, plain GNU-form lint lines): each composed
log in tests/fixtures/anyproject/ is decided by the pattern written from that tool's format, with
the specific line first and the wrapper never first."""

from __future__ import annotations

import csv

import pytest

from repopilot.engine.classify import Classifier
from repopilot.engine.library.loader import load_library
from tests.paths import FIXTURES, REPO_ROOT

pytestmark = pytest.mark.unit

HERE = FIXTURES / "anyproject"
CASES = list(csv.DictReader((HERE / "cases.csv").open(encoding="utf-8")))


@pytest.fixture(scope="module")
def classifier() -> Classifier:
    return Classifier(load_library(REPO_ROOT / "patterns"))


@pytest.mark.parametrize("case", CASES, ids=[c["file"] for c in CASES])
def test_composed_log_is_decided_by_its_tools_pattern(classifier, case) -> None:
    (v,) = classifier.classify_path(HERE / case["file"], assume_failed=True)
    assert (v.category, v.pattern_id) == (case["category"], case["pattern"])
    assert case["first"] in v.evidence[0].text
    if case["not_first"]:
        assert case["not_first"] not in v.evidence[0].text
