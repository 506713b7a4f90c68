import sys

import pytest

from ringbuf.buffer import BufferEmptyError, Ring


def test_push_pop_order():
    r = Ring(3)
    for i in range(3):
        r.push(i)
    assert [r.pop(), r.pop(), r.pop()] == [0, 1, 2]


def test_overflow_drops_oldest(caplog):
    r = Ring(2)
    for i in range(3):
        r.push(i)
    assert r.peek_all() == [1, 2]
    assert "dropping oldest" in caplog.text


def test_pop_empty_raises():
    with pytest.raises(BufferEmptyError, match="empty ring"):
        Ring(1).pop()


def test_bad_size():
    with pytest.raises(ValueError):
        Ring(0)


@pytest.mark.skipif(sys.platform != "win32", reason="Windows-only timing check")
def test_windows_timer_resolution():
    assert Ring(1)
