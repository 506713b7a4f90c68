import warnings


class CalcError(ValueError):
    pass


def divide(a: float, b: float) -> float:
    if b == 0:
        raise CalcError("division by zero is not allowed")
    return a / b


def legacy_mean(xs):
    warnings.warn("legacy_mean() is deprecated, use statistics.fmean", DeprecationWarning, stacklevel=2)
    if not xs:
        raise ZeroDivisionError("mean of empty data")
    return sum(xs) / len(xs)


def parse_int(text: str) -> int:
    try:
        return int(text)
    except ValueError as exc:
        raise CalcError(f"not an integer: {text!r}") from exc
