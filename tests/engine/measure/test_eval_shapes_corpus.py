"""Issue 20's measurements on ../shared/corpus (skipped when it is absent): every labelled log
lands in exactly one shape, and the 12 pairs of gha/pairs.csv are scored without and with their
passing log as the base log, every base log read as passing and none of them making a pair worse.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from repopilot.commands.eval_tables import pairs_summary, per_shape
from repopilot.engine.classify import Classifier
from repopilot.engine.measure.evaluate import evaluate_gha
from repopilot.engine.measure.pairs import evaluate_pairs, pair_cases, with_base_logs
from repopilot.engine.measure.shapes import BASE, CAUSES, LOG_FORMATS

pytestmark = pytest.mark.corpus


@pytest.fixture(scope="module")
def gha(corpus: Path) -> Path:
    if not (corpus / "gha" / "pairs.csv").is_file():
        pytest.skip("../shared/corpus/gha (labels.csv, pairs.csv) is not present")
    return corpus / "gha"


def test_every_log_has_one_shape(gha: Path, corpus_classify):
    report = evaluate_gha(corpus_classify, gha, gha / "labels.csv")
    assert all(
        o.log_format in LOG_FORMATS and o.log_format != "unreadable" for o in report.outcomes
    )
    assert all(o.cause in CAUSES and not o.cause.endswith(BASE) for o in report.outcomes)
    data = per_shape(report)
    for table in data.values():
        assert sum(v["logs"] for v in table.values()) == len(report.outcomes)
        assert sum(v.get("passing_logs", 0) for v in table.values()) == len(report.negatives)
    # the corpus holds GitHub runner logs and gh run view files, and patterns decide most logs
    assert data["log_formats"]["gha"]["logs"] > len(report.outcomes) / 2
    assert data["causes"]["pattern"]["logs"] > len(report.outcomes) / 2


def test_pairs_with_and_without_a_base_log(gha: Path):
    pairs = pair_cases(gha, gha / "labels.csv", gha / "pairs.csv")
    assert len(pairs) == 12
    report = evaluate_pairs(with_base_logs(Classifier()), pairs)
    data = pairs_summary(report)
    assert data["green_base_logs"] == 12 and data["errors"] == []
    assert all(p.with_base.cause.endswith(BASE) for p in report.pairs)
    assert not [p.without.id for p in report.pairs if p.change == "worse"]
    for metric in ("accuracy", "key_line_contract"):
        assert data["with"][metric] >= data["without"][metric]
