"""The ECE floor (engine/measure/reliability.ece_floor): what a perfectly calibrated model shows on
as many rows, so a fold's ECE can be read against it."""

from __future__ import annotations

import pytest

from repopilot.engine.measure.reliability import Scored, ece, ece_floor, summarise

pytestmark = pytest.mark.unit


def test_certain_confidences_leave_no_floor():
    rows = [Scored(1.0, True), Scored(0.0, False)] * 20
    assert ece_floor(rows) == 0.0


def test_a_hundred_even_odds_leave_a_floor_above_zero_and_the_same_every_run():
    rows = [Scored(0.5, i % 2 == 0) for i in range(100)]
    floor = ece_floor(rows)
    assert 0.0 < floor < 0.15
    assert ece_floor(rows) == floor  # a fixed seed: the same figure every run


def test_the_floor_shrinks_with_more_rows():
    few = [Scored(0.7, True)] * 50
    many = [Scored(0.7, True)] * 2000
    assert ece_floor(many) < ece_floor(few)


def test_an_overconfident_model_is_well_above_its_floor():
    rows = [Scored(0.9, i % 2 == 0) for i in range(200)]  # says 90%, right half the time
    assert ece(rows) > 0.35 > 3 * ece_floor(rows)


def test_the_summary_carries_the_floor():
    rows = [Scored(0.5, i % 2 == 0) for i in range(100)]
    s = summarise(rows)
    assert s.ece_floor == ece_floor(rows) and s.as_dict()["ece_floor"] == round(s.ece_floor, 4)
