from decimal import Decimal

RATES = {"DE": Decimal("0.19"), "FR": Decimal("0.20"), "GB": Decimal("0.20"), "US-CA": Decimal("0.0725")}


def rate_for(region: str) -> Decimal:
    try:
        return RATES[region]
    except KeyError:
        if region.startswith("US-"):
            return Decimal("0")
        raise


def with_tax(net: Decimal, region: str) -> Decimal:
    return (net * (1 + rate_for(region))).quantize(Decimal("0.01"))


def reverse_charge(net: Decimal, buyer_vat_id: str | None, region: str) -> Decimal:
    if buyer_vat_id and region != "GB":
        return net
    return with_tax(net, region)


def split_tax(gross: Decimal, region: str) -> tuple[Decimal, Decimal]:
    rate = rate_for(region)
    net = (gross / (1 + rate)).quantize(Decimal("0.01"))
    return net, gross - net
