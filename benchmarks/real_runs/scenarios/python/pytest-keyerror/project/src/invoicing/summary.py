from decimal import Decimal


def summarize(lines, rate=Decimal("0.20")):
    net = sum((Decimal(str(q)) * Decimal(str(p)) for q, p in lines), Decimal("0"))
    vat = (net * rate).quantize(Decimal("0.01"))
    return {"net": net, "vat": vat, "gross": net + vat}


def render(summary):
    return f"net {summary['net']} / tax {summary['tax']} / gross {summary['gross']}"
