"""`repopilot calibrate`'s rows and folds on ../shared/corpus/gha (skipped when it is absent):
every row carries its features and label, the folds never share a project, and the bundled
model's decided verdicts there are mostly right."""

from __future__ import annotations

from pathlib import Path

import pytest

from repopilot.engine.library.loader import load_library
from repopilot.engine.measure.calibrate import Options, calibrate
from repopilot.engine.measure.calibration_rows import build

pytestmark = pytest.mark.corpus


@pytest.fixture(scope="module")
def gha(corpus: Path) -> Path:
    d = corpus / "gha"
    if not (d / "labels.csv").is_file():
        pytest.skip("../shared/corpus/gha is not present")
    return d


def test_rows_and_repository_disjoint_folds(gha):
    rows = build(load_library(), (gha, gha / "labels.csv"), None)
    assert len(rows.rows) >= 60 and len(rows.negatives) >= 50
    assert all(r.corpus == "gha" and r.left_out is None for r in rows.rows)
    assert sum(r.right for r in rows.rows) >= 0.8 * len(rows.rows)
    passing = [(o.repository, o.got != "no_failure") for o in rows.negatives]
    cal = calibrate(rows.rows, passing, Options(augment=False))
    owner: dict[str, int] = {}
    for f in cal.folds:
        for repo in f.repositories:
            assert repo not in owner, f"{repo} in folds {owner[repo]} and {f.index}"
            owner[repo] = f.index
    assert {r.repository for r in rows.rows} <= set(owner)
    assert sum(f.summary.rows for f in cal.folds) == len(rows.rows)
    assert 0.0 <= cal.model.threshold <= 1.0
