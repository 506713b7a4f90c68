"""Fitting the calibrated confidence (engine/measure/logistic.py, reliability.py, calibrate.py) on
small synthetic data: the fit recovers a known model, the folds never share a repository, the
threshold keeps the precision asked for on the data it is chosen from."""

from __future__ import annotations

import math
import random
from pathlib import Path

import pytest

from repopilot.engine.measure.calibrate import Options, assign_folds, calibrate, out_of_fold
from repopilot.engine.measure.calibration_rows import Row
from repopilot.engine.measure.evaluate import Outcome
from repopilot.engine.measure.logistic import fit
from repopilot.engine.measure.reliability import (
    Scored,
    decide,
    ece,
    reliability,
    summarise,
    threshold_for,
)
from repopilot.engine.verdict.calibration_features import Features

pytestmark = pytest.mark.unit


def _sigmoid(z: float) -> float:
    return 1 / (1 + math.exp(-z))


def test_the_fit_recovers_a_known_model():
    rnd = random.Random(7)
    x, y = [], []
    for _ in range(3000):
        a, b = rnd.random(), rnd.random()
        x.append([a, b])
        y.append(int(rnd.random() < _sigmoid(4 * a - 2 * b - 0.5)))
    f = fit(x, y, l2=0.01)
    assert f.weights[0] == pytest.approx(4, abs=0.6)
    assert f.weights[1] == pytest.approx(-2, abs=0.6)
    assert f.intercept == pytest.approx(-0.5, abs=0.4)


def test_the_fit_separates_two_classes():
    x = [[1.0, 0.0]] * 50 + [[0.0, 1.0]] * 50
    y = [1] * 50 + [0] * 50
    f = fit(x, y, l2=1.0)
    assert f.score([1.0, 0.0]) > 0.8 > 0.2 > f.score([0.0, 1.0])


def _row(repo: str, right: bool, signal: float, left_out: str | None = None) -> Row:
    o = Outcome(
        id=f"{repo}-{signal}",
        family="x",
        expected="",
        accepted=frozenset(),
        got="compile_error",
        decided_by="pattern",
        pattern_id="p",
        evidence=(5,) if right else (1,),
        span=(5, 6),
        repository=repo,
    )
    return Row(Features(pattern=1.0, in_step=signal), o, "logchunks", Path("x"), left_out)


def _rows(n_repos: int = 12, per: int = 20) -> list[Row]:
    rnd = random.Random(3)
    rows = []
    for r in range(n_repos):
        for _ in range(per):
            s = rnd.random()
            rows.append(_row(f"repo{r}", rnd.random() < 0.3 + 0.7 * s, s))
    return rows


def test_folds_never_share_a_repository():
    rows = _rows()
    sizes: dict[str, int] = {}
    for r in rows:
        sizes[r.repository] = sizes.get(r.repository, 0) + 1
    folds = assign_folds(sizes, 5)
    assert set(folds) == set(sizes) and set(folds.values()) == set(range(5))
    cal = calibrate(rows, opts=Options(augment=False, features=("pattern", "in_step")))
    seen: dict[str, int] = {}
    for f in cal.folds:
        for repo in f.repositories:
            assert repo not in seen, f"{repo} in folds {seen[repo]} and {f.index}"
            seen[repo] = f.index
    assert set(seen) == set(sizes)
    assert sum(f.summary.rows for f in cal.folds) == len(rows)


def test_out_of_fold_scores_no_row_with_its_own_repository():
    # A repository whose rows are all right with signal 0 and all others wrong with signal 0:
    # a model that saw it would score it high; out of fold it cannot.
    rows = [_row("odd", True, 0.0) for _ in range(30)]
    rows += [_row(f"r{i}", False, 0.0) for i in range(4) for _ in range(30)]
    rows += [_row(f"r{i}", True, 1.0) for i in range(4) for _ in range(30)]
    folds = assign_folds({r.repository: 30 for r in rows}, 5)
    opts = Options(augment=False, features=("in_step",))
    odd = [s.p for r, s in out_of_fold(rows, folds, opts) if r.outcome.repository == "odd"]
    assert odd and max(odd) < 0.2


def test_the_threshold_keeps_the_precision_it_is_chosen_for():
    rnd = random.Random(11)
    rows = []
    for _ in range(2000):
        p = rnd.random()
        rows.append(Scored(p, rnd.random() < p))
    for target in (0.8, 0.9, 0.95):
        t = threshold_for(rows, target)
        s = summarise(decide(rows, t))
        assert s.decided > 0 and s.precision >= target
        # a step lower would not keep it (the threshold is the lowest that does)
        lower = [r for r in rows if r.p < t]
        if lower:
            below = max(r.p for r in lower)
            assert summarise(decide(rows, below)).precision < target


def test_no_threshold_reaches_an_impossible_precision():
    rows = [Scored(0.9, False), Scored(0.8, True)]
    assert threshold_for(rows, 0.95) == 1.0
    assert summarise(decide(rows, 1.0)).decided == 0


def test_reliability_table_and_ece():
    rows = [Scored(0.95, True)] * 19 + [Scored(0.95, False)] + [Scored(0.15, False)] * 10
    bins = reliability(rows)
    top = bins[9]
    assert (top.count, top.predicted, top.observed) == (20, pytest.approx(0.95), 0.95)
    assert bins[1].count == 10 and bins[1].observed == 0.0
    assert ece(rows) == pytest.approx(10 * 0.15 / 30)


def test_the_cost_counts_a_wrong_decision_as_three_guesses():
    rows = [Scored(0.9, False, True, True), Scored(0.9, True, True, True), Scored(0.2, True)]
    assert summarise(rows).cost == pytest.approx((3 + 0 + 1) / 3)
