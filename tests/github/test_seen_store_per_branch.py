"""A run that is neither a PR's nor the default branch's own (no PR resolved: a
`pull_request_target` or `issue_comment` run of the watched workflow on the default branch, which
a fork or any commenter starts, or a branch push) keeps at most PER_PR records per branch in the
memory (github/seen_keep.merge), as a PR does: run again and again, it cannot push every other
PR's and the default branch's records out of the newest READ that a reader uses."""

from __future__ import annotations

import pytest

from repopilot.github.seen_keep import PER_PR, READ, merge
from repopilot.run_records import SeenRecord
from tests.github.test_seen_store_per_pr import rec as pr_rec

pytestmark = pytest.mark.unit


def rec(run_id: int, pr: int | None, branch: str, on_default: bool = False) -> SeenRecord:
    return pr_rec(run_id, pr, on_default).model_copy(update={"branch": branch})


def test_runs_with_no_pr_and_not_the_default_branchs_own_keep_their_newest_per_branch():
    others = [rec(1, 7, "pr-7"), rec(2, None, "main", on_default=True)]
    store = list(others)
    for run in range(15):  # 15 commenter-started runs of 20 records each, the per-run cap
        store = merge(store, [rec(1000 + 20 * run + j, None, "main") for j in range(20)])
    flood = [r for r in store if r.pr is None and not r.on_default]
    assert len(flood) == PER_PR
    assert [r.run_id for r in flood] == list(range(1300 - PER_PR, 1300))  # the newest
    assert all(r in store[-READ:] for r in others)  # still read by the next PR's run


def test_the_cap_is_per_branch_and_the_default_branchs_own_runs_stay_uncapped():
    store = merge([], [rec(n, None, f"b{n % 2}") for n in range(2 * PER_PR)])
    assert len(store) == 2 * PER_PR
    store = merge([], [rec(n, None, "main", on_default=True) for n in range(PER_PR + 10)])
    assert len(store) == PER_PR + 10
