from fastsum import kahan_sum


def test_small_values():
    assert kahan_sum([0.1] * 10) == 1.0
