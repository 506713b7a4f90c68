import pytest

from imgtools.buffer import make_buffer, pixel_sum, row_view


@pytest.mark.parametrize('w, h', [(1, 1), (4, 3), (16, 9)])
def test_sum_2_0(w, h):
    buf = make_buffer(w, h, fill=0)
    assert pixel_sum(buf, w, h) == 0 * w * h


@pytest.mark.parametrize('w, h', [(1, 1), (4, 3), (16, 9)])
def test_sum_2_1(w, h):
    buf = make_buffer(w, h, fill=1)
    assert pixel_sum(buf, w, h) == 1 * w * h


@pytest.mark.parametrize('w, h', [(1, 1), (4, 3), (16, 9)])
def test_sum_2_2(w, h):
    buf = make_buffer(w, h, fill=2)
    assert pixel_sum(buf, w, h) == 2 * w * h


@pytest.mark.parametrize('w, h', [(1, 1), (4, 3), (16, 9)])
def test_sum_2_3(w, h):
    buf = make_buffer(w, h, fill=3)
    assert pixel_sum(buf, w, h) == 3 * w * h


@pytest.mark.parametrize('w, h', [(1, 1), (4, 3), (16, 9)])
def test_sum_2_4(w, h):
    buf = make_buffer(w, h, fill=4)
    assert pixel_sum(buf, w, h) == 4 * w * h


@pytest.mark.parametrize('w, h', [(1, 1), (4, 3), (16, 9)])
def test_sum_2_5(w, h):
    buf = make_buffer(w, h, fill=5)
    assert pixel_sum(buf, w, h) == 5 * w * h


@pytest.mark.parametrize('w, h', [(1, 1), (4, 3), (16, 9)])
def test_sum_2_6(w, h):
    buf = make_buffer(w, h, fill=6)
    assert pixel_sum(buf, w, h) == 6 * w * h


@pytest.mark.parametrize('w, h', [(1, 1), (4, 3), (16, 9)])
def test_sum_2_7(w, h):
    buf = make_buffer(w, h, fill=7)
    assert pixel_sum(buf, w, h) == 7 * w * h


@pytest.mark.parametrize('w, h', [(1, 1), (4, 3), (16, 9)])
def test_sum_2_8(w, h):
    buf = make_buffer(w, h, fill=8)
    assert pixel_sum(buf, w, h) == 8 * w * h


@pytest.mark.parametrize('w, h', [(1, 1), (4, 3), (16, 9)])
def test_sum_2_9(w, h):
    buf = make_buffer(w, h, fill=9)
    assert pixel_sum(buf, w, h) == 9 * w * h


@pytest.mark.parametrize('w, h', [(1, 1), (4, 3), (16, 9)])
def test_sum_2_10(w, h):
    buf = make_buffer(w, h, fill=10)
    assert pixel_sum(buf, w, h) == 10 * w * h


@pytest.mark.parametrize('w, h', [(1, 1), (4, 3), (16, 9)])
def test_sum_2_11(w, h):
    buf = make_buffer(w, h, fill=11)
    assert pixel_sum(buf, w, h) == 11 * w * h
