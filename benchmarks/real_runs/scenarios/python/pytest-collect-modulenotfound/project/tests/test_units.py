from weather.units import kelvin


def test_kelvin():
    assert kelvin(0) == 273.15
