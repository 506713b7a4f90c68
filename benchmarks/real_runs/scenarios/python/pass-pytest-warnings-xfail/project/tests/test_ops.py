import sys

import pytest

from calc.ops import CalcError, divide, legacy_mean, parse_int


def test_divide():
    assert divide(6, 3) == 2


def test_divide_by_zero_raises():
    with pytest.raises(CalcError, match="division by zero"):
        divide(1, 0)


@pytest.mark.parametrize("text", ["x", "1.5", ""])
def test_parse_int_error(text):
    with pytest.raises(CalcError) as info:
        parse_int(text)
    assert isinstance(info.value.__cause__, ValueError)


def test_legacy_mean():
    assert legacy_mean([1, 2, 3]) == 2


def test_legacy_mean_empty():
    with pytest.raises(ZeroDivisionError):
        legacy_mean([])


@pytest.mark.xfail(reason="float rounding: known issue #42", strict=False)
def test_float_exact():
    assert divide(1, 3) * 3 == 1.0000000001


@pytest.mark.skipif(sys.platform != "win32", reason="windows only")
def test_windows_paths():
    pass
