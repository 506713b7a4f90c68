"""The issue's targets on ../shared/corpus (skipped when the shared corpus is absent).

These classify ~540 real logs with the whole library: slow (about a minute each).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from repopilot.engine.evaluate import default_classifier, evaluate_gha, evaluate_logchunks

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus"
needs_corpus = pytest.mark.skipif(
    not (CORPUS / "gha" / "labels.csv").is_file(), reason="../shared/corpus is not present"
)


@pytest.fixture(scope="module")
def classify():
    return default_classifier(None)


@needs_corpus
def test_gha_targets(classify):
    report = evaluate_gha(classify, CORPUS / "gha", CORPUS / "gha" / "labels.csv")
    assert len(report.outcomes) >= 70 and len(report.negatives) >= 50
    assert not [o.error for o in report.outcomes + report.negatives if o.error]
    assert report.rate("category_ok").value >= 0.90
    assert report.rate("key_ok").value >= 0.80
    assert report.decided().value >= 0.80
    assert report.false_positives().value <= 0.03


@pytest.fixture(scope="module")
def logchunks(classify):
    if not (CORPUS / "logchunks" / "chunks.csv").is_file():
        pytest.skip("../shared/corpus/logchunks is not present")
    return evaluate_logchunks(classify, CORPUS / "logchunks", CORPUS / "logchunks" / "chunks.csv")


@needs_corpus
def test_logchunks_evidence_anywhere(logchunks):
    # Also guards the evidence-anywhere share, which the target below does not cover.
    assert len(logchunks.outcomes) >= 410
    assert logchunks.rate("any_inside").value >= 0.80


@needs_corpus
def test_logchunks_target(logchunks):
    assert logchunks.rate("first_inside").value >= 0.75
