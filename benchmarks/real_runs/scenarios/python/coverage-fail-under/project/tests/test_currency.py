from decimal import Decimal

from pricing.currency import fmt


def test_fmt_eur():
    assert fmt(Decimal("3.5"), "EUR") == "3.50 €"


def test_fmt_usd():
    assert fmt(Decimal("3.5"), "USD") == "$3.50"
