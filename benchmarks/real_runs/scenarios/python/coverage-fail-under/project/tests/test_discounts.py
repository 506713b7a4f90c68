from decimal import Decimal

import pytest

from pricing.discounts import DiscountError, bulk_price, percent_off


def test_percent_off():
    assert percent_off(Decimal("10.00"), 15) == Decimal("8.50")


def test_percent_off_range():
    with pytest.raises(DiscountError):
        percent_off(Decimal("1"), 120)


@pytest.mark.parametrize("qty, want", [(1, "2.50"), (10, "23.75"), (100, "212.50")])
def test_bulk_price(qty, want):
    assert bulk_price(Decimal("2.50"), qty) == Decimal(want)
