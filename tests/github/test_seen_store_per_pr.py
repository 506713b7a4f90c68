"""One pull request keeps at most PER_PR records in the memory (github/seen_keep.merge): a fork
PR pushed again and again cannot push every other PR's and the default branch's records out of
the newest READ that a reader uses."""

from __future__ import annotations

import pytest

from repopilot.github.seen_keep import PER_PR, READ, merge
from repopilot.run_records import SeenRecord

pytestmark = pytest.mark.unit


def rec(run_id: int, pr: int | None, on_default: bool = False) -> SeenRecord:
    return SeenRecord(
        signature=f"python.pytest|test=t{run_id}",
        category="test_failure",
        decided_by="pattern",
        pr=pr,
        branch="main" if on_default else f"pr-{pr}",
        on_default=on_default,
        run_id=run_id,
        run_url=f"https://github.com/o/r/actions/runs/{run_id}",
        job="test",
        head_sha="c" * 40,
        at="2026-12-01T10:00:00Z",
    )


def test_a_flooding_pull_request_keeps_only_its_newest_records():
    others = [rec(1, pr=7), rec(2, pr=None, on_default=True)]
    store = list(others)
    for push in range(15):  # 15 runs of 20 records each, the per-run cap
        store = merge(store, [rec(1000 + 20 * push + j, pr=99) for j in range(20)])
    flood = [r for r in store if r.pr == 99]
    assert len(flood) == PER_PR
    assert [r.run_id for r in flood] == list(range(1300 - PER_PR, 1300))  # the newest
    assert all(r in store[-READ:] for r in others)  # still read by the next PR's run


def test_the_default_branch_is_not_capped():
    store = merge([], [rec(n, pr=None, on_default=True) for n in range(PER_PR + 10)])
    assert len(store) == PER_PR + 10
