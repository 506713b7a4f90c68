from decimal import Decimal

from pricing.tax import with_tax


def test_with_tax_de():
    assert with_tax(Decimal("100"), "DE") == Decimal("119.00")


def test_with_tax_unknown_us_state():
    assert with_tax(Decimal("100"), "US-OR") == Decimal("100.00")
