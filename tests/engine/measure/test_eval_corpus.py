"""The issue's targets on ../shared/corpus (skipped when the shared corpus is absent).

Every log is classified with the whole library through the session's one classification of the
corpus (tests/conftest.py `corpus_classify`), which the other corpus tests share.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from repopilot.engine.measure.evaluate import evaluate_gha, evaluate_logchunks

pytestmark = pytest.mark.corpus


def test_gha_targets(corpus: Path, corpus_classify):
    if not (corpus / "gha" / "labels.csv").is_file():
        pytest.skip("../shared/corpus/gha is not present")
    report = evaluate_gha(corpus_classify, corpus / "gha", corpus / "gha" / "labels.csv")
    assert len(report.outcomes) >= 70 and len(report.negatives) >= 50
    assert not [o.error for o in report.outcomes + report.negatives if o.error]
    assert report.rate("category_ok").value >= 0.90
    # Contract 1 (issue 10) puts a failing test's assertion first and the test's line second;
    # the corpus labels the test's line in 8 of those logs (5 of them terraform's Go tests,
    # 2 unittest, 1 Gradle): met at evidence[1] (key_ok_contract), a strict miss (key_ok).
    assert report.rate("key_ok_contract").value >= 0.80
    assert report.rate("key_ok").value >= 0.70
    # issue 27: decided only at a calibrated confidence chosen for 95% precision on the folds
    # (in-corpus, with the data file fitted on these logs too: 39/71 decided, 37 right)
    assert report.decided().value >= 0.50
    decided = [o for o in report.outcomes if o.decided]
    assert sum(o.right for o in decided) >= 0.9 * len(decided)
    assert report.false_positives().value <= 0.03


@pytest.fixture(scope="module")
def logchunks(corpus: Path, corpus_classify):
    if not (corpus / "logchunks" / "chunks.csv").is_file():
        pytest.skip("../shared/corpus/logchunks is not present")
    chunks = corpus / "logchunks" / "chunks.csv"
    return evaluate_logchunks(corpus_classify, corpus / "logchunks", chunks)


def test_logchunks_evidence_anywhere(logchunks):
    # Also guards the evidence-anywhere share, which the target below does not cover.
    assert len(logchunks.outcomes) >= 410
    assert logchunks.rate("any_inside").value >= 0.80


def test_logchunks_target(logchunks):
    assert logchunks.rate("first_inside").value >= 0.75
