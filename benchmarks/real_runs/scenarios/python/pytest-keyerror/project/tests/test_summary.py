from decimal import Decimal

from invoicing.summary import render, summarize


def test_net():
    assert summarize([(2, "10.00"), (1, "5.50")])["net"] == Decimal("25.50")


def test_tax_rounding():
    s = summarize([(3, "0.333")])
    assert s["tax"] == Decimal("0.20")


def test_gross():
    assert summarize([(1, "100")])["gross"] == Decimal("120.00")


def test_render():
    assert render(summarize([(1, "10")])) == "net 10 / tax 2.00 / gross 12.00"
