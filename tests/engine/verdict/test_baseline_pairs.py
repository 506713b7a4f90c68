"""The 12 failed/passing pairs of ../shared/corpus/gha (pairs.csv): with the passing log as the
base log, no verdict gets worse, and every base log is taken as green (a failed one would demote
nothing)."""

from __future__ import annotations

import csv

import pytest

from repopilot.engine.classify import Classifier
from repopilot.engine.verdict.baseline import base_from_path
from tests.paths import REPO_ROOT

pytestmark = pytest.mark.corpus

GHA = REPO_ROOT.parent / "shared" / "corpus" / "gha"


@pytest.fixture(scope="module")
def pairs() -> list[tuple[str, str, dict]]:
    if not (GHA / "pairs.csv").is_file():
        pytest.skip("../shared/corpus/gha is not here")
    labels = {r["id"]: r for r in csv.DictReader((GHA / "labels.csv").open(encoding="utf-8"))}
    rows = csv.DictReader((GHA / "pairs.csv").open(encoding="utf-8"))
    return [
        (
            str(GHA / "logs" / f"{r['failed_id']}.log"),
            str(GHA / "negatives" / f"{r['passing_id']}.log"),
            labels[r["failed_id"]],
        )
        for r in rows
    ]


def _score(c: Classifier, path: str, label: dict) -> tuple[bool, bool]:
    (v,) = c.classify_path(path)
    first = bool(v.evidence) and str(v.evidence[0].line) == label["key_line_no"]
    return v.category == label["category"], first


def test_a_base_log_never_makes_a_pair_worse(pairs) -> None:
    c = Classifier()
    without = [_score(c, failed, label) for failed, _, label in pairs]
    with_base = []
    for failed, passing, label in pairs:
        c.baseline = base_from_path(c, passing)
        assert c.baseline is not None, passing
        with_base.append(_score(c, failed, label))
        c.baseline = None
    for (cat0, key0), (cat1, key1) in zip(without, with_base, strict=True):
        assert cat1 >= cat0 and key1 >= key0
    assert sum(cat for cat, _ in with_base) == len(pairs)
