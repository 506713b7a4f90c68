"""Novelty feeds the confidence (issue 27 item 4): when the passing base log prints evidence[0]
too, the line did not fail the job by itself, so the verdict is at best even odds and never
decided, whatever the model says of it (engine/verdict/confidence.capped, OLD_LINE). The pair
is tests/fixtures/base_log_pairs/old-line.*: the failing run prints nothing the green one does
not. The base log is read as the Action reads the last green run's log (`from_jobs`)."""

from __future__ import annotations

import pytest

from repopilot.engine.classify import Classifier
from repopilot.engine.library.layers import load_layers
from repopilot.engine.library.loader import load_library
from repopilot.engine.verdict.baseline import from_jobs
from repopilot.engine.verdict.confidence import OLD_LINE, bundled
from repopilot.logs.reader import open_logs
from repopilot.records import Verdict
from tests.paths import FIXTURES

pytestmark = pytest.mark.unit

PASS = FIXTURES / "base_log_pairs" / "old-line.pass.log"
FAIL = FIXTURES / "base_log_pairs" / "old-line.fail.log"


def classify(with_base: bool) -> Verdict:
    engine = Classifier(load_library())
    if with_base:
        engine.baseline = from_jobs(str(PASS), open_logs(str(PASS)))
    (v,) = engine.classify_path(FAIL)
    return v


def test_without_the_base_log_the_pattern_decides():
    v = classify(with_base=False)
    assert v.decided_by == "pattern" and v.pattern_id == "infra.net.dns"
    assert v.confidence >= bundled().threshold


def test_a_line_the_green_log_prints_too_is_a_guess_not_a_decision():
    v = classify(with_base=True)
    assert "Could not resolve host" in v.evidence[0].text  # nothing new to point at instead
    assert v.decided_by == "none" and v.ambiguous
    assert v.confidence <= OLD_LINE < bundled().threshold
    # the pattern's reading stays as the best guess
    assert v.category == "network" and v.pattern_id == "infra.net.dns"


def test_a_learned_patterns_line_the_green_log_prints_too_is_a_guess_as_well(tmp_path):
    # a maintainer learned the DNS line as this repository's cause; a green run printing it too
    # says it did not fail this job by itself
    learned = tmp_path / "learned.yaml"
    learned.write_text(
        "ecosystem: ours\n"
        "patterns:\n"
        "  - id: ours.assets-dns\n"
        "    category: network\n"
        "    source: learned from old-line.fail.log:11\n"
        "    regex: '^fatal: unable to access .*: Could not resolve host: (?P<host>\\S+)$'\n"
        "    title: assets host unreachable\n"
        "    examples:\n"
        "      match: ['fatal: unable to access ''https://x.test/a.git/'': Could not resolve host: x.test']\n"
        "      no_match: ['Cloning into assets...']\n",
        encoding="utf-8",
    )
    engine = Classifier(load_layers([tmp_path], builtin=True))
    (v,) = engine.classify_path(FAIL)
    assert v.learned_from is not None and v.decided_by == "pattern"  # without the base log
    engine.baseline = from_jobs(str(PASS), open_logs(str(PASS)))
    (v,) = engine.classify_path(FAIL)
    assert v.pattern_id == "ours.assets-dns" and v.learned_from is not None
    assert v.decided_by == "none" and v.confidence <= OLD_LINE
