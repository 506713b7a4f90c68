import pytest

from sync.retry import TransientError, sync_records, with_retries


def flaky(fails):
    state = {"n": 0}

    def call():
        state["n"] += 1
        if state["n"] <= fails:
            raise TransientError(f"HTTP 503 Service Unavailable (try {state['n']})")
        return "ok"

    return call


def test_recovers_after_two_errors():
    assert with_retries(flaky(2)) == "ok"


def test_gives_up():
    with pytest.raises(TransientError):
        with_retries(flaky(5))


def test_sync_counts_failures():
    def upload(rec):
        if rec == "r2":
            raise TransientError("connection reset by peer")

    assert sync_records(["r1", "r2", "r3"], upload) == 1
