from decimal import ROUND_HALF_UP, Decimal


class DiscountError(ValueError):
    pass


def percent_off(price: Decimal, percent: int) -> Decimal:
    if not 0 <= percent <= 100:
        raise DiscountError(f"percent out of range: {percent}")
    cut = price * Decimal(percent) / Decimal(100)
    return (price - cut).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def bulk_price(unit: Decimal, quantity: int) -> Decimal:
    if quantity >= 100:
        return percent_off(unit * quantity, 15)
    if quantity >= 10:
        return percent_off(unit * quantity, 5)
    return unit * quantity
