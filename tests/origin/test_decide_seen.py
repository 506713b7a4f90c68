"""Rule 4b of the origin decision (issue 28): RepoPilot's memory of the default branch is one
more fact, weaker than the live runs (repopilot/origin/decide.py)."""

from __future__ import annotations

import pytest

from repopilot.origin.decide import BaseJob, OriginFacts, Remembered, decide

pytestmark = pytest.mark.unit

SIG = "python.pytest.failed-test|test=tests/test_calc.py::test_add"
SEEN = Remembered("main", "2026-11-30T10:00:00Z", "https://github.com/o/r/actions/runs/800", 3)


def facts(**kw) -> OriginFacts:
    kw.setdefault("base_branch", "main")
    return OriginFacts("test_failure", SIG, **kw)


def test_the_default_branch_in_memory_makes_it_base_branch():
    without = decide(facts())
    assert without.origin == "undetermined"  # nothing to compare: no base run looked at
    got = decide(facts(remembered=SEEN))
    assert got.origin == "base_branch"
    assert got.reason == "the same failure is on main since 2026-11-30"
    assert got.base_run_url == SEEN.run_url and got.base_run_number is None


def test_it_decides_even_when_the_lookups_were_cut_short():
    got = decide(facts(remembered=SEEN, incomplete="the request budget (30) ran out"))
    assert got.origin == "base_branch"


def test_a_passing_latest_base_run_makes_the_memory_undetermined():
    """main passes the job now: the failure may have been fixed there and come back with this
    PR, or be flaky; the memory clears no one and blames no one."""
    green = (BaseJob(42, "https://github.com/o/r/actions/runs/902", "success"),)
    assert decide(facts(base=green)).origin == "this_pr"  # the control
    got = decide(facts(base=green, remembered=SEEN))
    assert got.origin == "undetermined"
    assert "seen on main on 2026-11-30" in got.reason and "run #42" in got.reason


def test_the_live_runs_outrank_the_memory():
    failing = (BaseJob(41, "https://github.com/o/r/actions/runs/901", "failure", SIG),)
    got = decide(facts(base=failing, remembered=SEEN))
    assert got.origin == "base_branch" and got.base_run_number == 41
    retried = decide(facts(attempts=("success",), remembered=SEEN))
    assert retried.origin == "flaky"


def test_an_infrastructure_failure_stays_infra():
    got = decide(OriginFacts("network", SIG, base_branch="main", remembered=SEEN))
    assert got.origin == "infra"


def test_a_pr_into_another_branch_ignores_the_default_branchs_memory():
    got = decide(facts(base_branch="release-1.x", remembered=SEEN))
    assert got.origin == "undetermined"


def test_no_signature_no_memory():
    got = decide(OriginFacts("unknown", None, base_branch="main", remembered=SEEN))
    assert got.origin == "undetermined"
