import pytest

from units.length import parse, to_px


@pytest.mark.parametrize(
    "text, want",
    [("12px", (12.0, "px")), ("1.5em", (1.5, "em")), ("40%", (40.0, "%")), ("0", (0, ""))],
)
def test_parse(text, want):
    assert parse(text) == want


def test_to_px_em():
    assert to_px("2em") == 32


def test_to_px_percent():
    assert to_px("50%", base=20) == 10


def test_to_px_pt():
    # 'pt' lengths are common in print stylesheets
    assert to_px("12pt") == 16
