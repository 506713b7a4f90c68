from weather.http_client import parse


def test_parse():
    r = parse("EGLL, 12.5")
    assert r.station == "EGLL"
    assert r.fahrenheit == 54.5
