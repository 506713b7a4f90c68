"""A repository, not a log, is the unit of evidence when fitting the calibrated confidence
(engine/measure/calibrate.py): row weights in the fit, each repository counting once when the
threshold is chosen, and further seeded partitions (`spread`) that never split a repository."""

from __future__ import annotations

import random

import pytest

from repopilot.engine.measure.calibrate import (
    Options,
    assign_folds,
    calibrate,
    repo_weights,
    spread,
)
from repopilot.engine.measure.logistic import fit
from repopilot.engine.measure.reliability import Scored, threshold_for
from tests.engine.measure.test_calibrate import _row, _rows

pytestmark = pytest.mark.unit


def test_a_row_weighed_twice_counts_as_two_copies():
    rnd = random.Random(5)
    x = [[rnd.random()] for _ in range(200)]
    y = [int(rnd.random() < v[0]) for v in x]
    w = [2.0 if i % 3 == 0 else 1.0 for i in range(len(x))]
    copied_x = x + [v for i, v in enumerate(x) if i % 3 == 0]
    copied_y = y + [t for i, t in enumerate(y) if i % 3 == 0]
    weighed, copied = fit(x, y, 0.3, w), fit(copied_x, copied_y, 0.3)
    assert weighed.weights[0] == pytest.approx(copied.weights[0], rel=1e-6)
    assert weighed.intercept == pytest.approx(copied.intercept, rel=1e-6)
    assert fit(x, y, 0.3).weights[0] != pytest.approx(weighed.weights[0], rel=1e-3)


def test_weights_must_be_one_per_row_and_not_negative():
    with pytest.raises(ValueError, match="one weight"):
        fit([[0.0], [1.0]], [0, 1], 1.0, [1.0])
    with pytest.raises(ValueError, match="one weight"):
        fit([[0.0], [1.0]], [0, 1], 1.0, [1.0, -1.0])


def test_repository_weights_shrink_with_its_rows_and_keep_the_total():
    rows = [_row("big", True, 0.5) for _ in range(16)] + [_row("small", True, 0.5)]
    w = repo_weights(rows, 0.5)
    assert sum(w) == pytest.approx(len(rows))
    assert w[0] * 4 == pytest.approx(w[-1])  # 1/sqrt(16) against 1/sqrt(1)
    assert repo_weights(rows, 0.0) == pytest.approx([1.0] * len(rows))


def test_one_repositorys_repeated_wrong_verdicts_count_once_in_the_threshold():
    # nine builds of one project, all wrong at the top; twenty projects right just below
    rows = [Scored(0.99, False)] * 9 + [Scored(0.9, True)] * 20 + [Scored(0.5, False)] * 5
    per_log = threshold_for(rows, 0.95)
    weights = [1 / 9] * 9 + [1.0] * 20 + [1.0] * 5
    per_repository = threshold_for(rows, 0.95, weights)
    assert per_log == 1.0  # counted per log, 20 of 29 right: nothing can be decided
    assert per_repository == 0.9  # counted per project, 20 of 21: the twenty are decided
    with pytest.raises(ValueError):
        threshold_for(rows, 0.95, [1.0])


def test_seeded_partitions_keep_repositories_whole_and_differ_by_seed():
    sizes = {f"repo{i}": 20 for i in range(12)}
    plain = assign_folds(sizes, 5)
    seeded = [assign_folds(sizes, 5, seed) for seed in (1, 2)]
    assert assign_folds(sizes, 5, 1) == seeded[0]  # a seed always deals the same way
    assert seeded[0] != plain and seeded[0] != seeded[1]
    for folds in seeded:
        assert set(folds) == set(sizes) and set(folds.values()) == set(range(5))


def test_spread_scores_every_row_on_each_partition():
    rows = _rows()
    opts = Options(augment=False, features=("pattern", "in_step"))
    parts = spread(rows, opts, 3)
    assert len(parts) == 3 and all(p.rows == len(rows) for p in parts)
    assert spread(rows, opts, 0) == ()
    cal = calibrate(rows, opts=opts, seed=1)
    assert sum(f.summary.rows for f in cal.folds) == len(rows)
    assert parts[0].decided == sum(f.summary.decided for f in cal.folds)
