"""Lengths such as '12px', '1.5em' or '40%'."""

UNITS = ("px", "em", "rem", "%")


def parse(text):
    """Return (value, unit) for a length string."""
    text = text.strip()
    for unit in UNITS:
        if text.endswith(unit):
            return float(text[: -len(unit)]), unit
    return int(text), ""


def to_px(text, base=16):
    value, unit = parse(text)
    if unit in ("em", "rem"):
        return value * base
    if unit == "%":
        return value * base / 100
    return value
