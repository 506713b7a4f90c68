"""The key line of a failure no pattern knows, chosen by the engine (issue 19): the last thing the
failing command printed before the runner's exit line, then the command itself; `repopilot
eval`, `triage` and the comment all read it as evidence[0]."""

from __future__ import annotations

import pytest

from repopilot.engine.classify import Classifier
from repopilot.engine.verdict.fallback import last_said
from repopilot.engine.verdict.line_score import Line
from tests.adoption_logs import gha, unknown_log

pytestmark = pytest.mark.unit


@pytest.fixture(scope="module")
def classifier() -> Classifier:
    return Classifier()


def _verdict(classifier, tmp_path, log: bytes):
    path = tmp_path / "job.log"
    path.write_bytes(log)
    [verdict] = classifier.classify_path(path, assume_failed=True)
    return verdict


def test_the_scripts_last_words_go_first_and_the_command_second(classifier, tmp_path):
    v = _verdict(classifier, tmp_path, unknown_log())
    assert v.category == "unknown" and v.decided_by == "none"
    key, header = v.evidence[:2]
    assert key.text == "release-check: the versions differ; add a CHANGELOG.md entry for 1.4.0"
    assert header.text == "Run node scripts/release-check.js" and header.line < key.line


def test_noise_blank_lines_and_the_echo_are_never_the_key_line(classifier, tmp_path):
    out = ["deploy: bucket gone", "Downloading tool 1.2 (40 kB)", "", "   "]
    v = _verdict(classifier, tmp_path, gha([("./deploy.sh", out)], 4))
    assert [e.text for e in v.evidence] == ["deploy: bucket gone", "Run ./deploy.sh"]


def test_a_command_that_printed_nothing_is_its_own_key_line(classifier, tmp_path):
    v = _verdict(classifier, tmp_path, gha([("./deploy.sh", [])], 4))
    assert [e.text for e in v.evidence] == ["Run ./deploy.sh"]


def test_last_said_skips_runner_lines_and_stops_at_the_header():
    lines = [
        Line(1, "##[group]Run make release", False),
        Line(2, "make release", False),
        Line(3, "##[endgroup]", False),
        Line(4, "release: tag v1 exists", False),
        Line(5, "ok 3 - tags are unique", False),
        Line(6, "Post job cleanup.", False),
        Line(7, "##[error]Process completed with exit code 2.", False),
    ]
    said = last_said(lines, header=1, end=7, command="Run make release")
    assert said is not None and said.number == 4
    assert last_said(lines[:3] + lines[6:], header=1, end=7, command="Run make release") is None
