"""The pure origin decision (repopilot/origin/decide.py): each rule, its order, and that missing facts
never turn into blame."""

from __future__ import annotations

import pytest

from repopilot.origin.decide import BaseJob, OriginFacts, decide

pytestmark = pytest.mark.unit

SIG = "python.pytest.failed-test|test=tests/test_api.py::test_fetch_user"
OTHER = "python.pytest.failed-test|test=tests/test_api.py::test_delete_user"


def facts(**kw) -> OriginFacts:
    base = dict(category="test_failure", signature=SIG, base_branch="main")
    base.update(kw)
    return OriginFacts(**base)


def run(n: int, conclusion: str, sig: str | None = None) -> BaseJob:
    return BaseJob(n, f"https://github.com/o/r/actions/runs/{n}", conclusion, sig)


def test_passing_base_branch_means_this_pr():
    got = decide(facts(base=(run(41, "success"), run(40, "success"))))
    assert got.origin == "this_pr" and got.base_run_number == 41
    assert got.signature == SIG and "run #41" in got.reason


def test_same_failure_on_base_branch_since_the_oldest_consecutive_run():
    got = decide(facts(base=(run(41, "failure", SIG), run(40, "failure", SIG), run(39, "success"))))
    assert got.origin == "base_branch" and got.base_run_number == 40
    assert got.base_run_url.endswith("/runs/40")
    assert "since run #40" in got.reason


def test_another_failure_on_base_branch_is_undetermined_not_blame():
    got = decide(facts(base=(run(41, "failure", OTHER), run(40, "success"))))
    assert got.origin == "undetermined"


def test_failure_that_came_and_went_on_base_is_flaky():
    got = decide(facts(base=(run(42, "success"), run(41, "failure", SIG), run(40, "success"))))
    assert got.origin == "flaky" and got.base_run_number == 41


def test_a_pass_on_another_attempt_is_flaky_whatever_the_base_says():
    got = decide(facts(attempts=("success",), base=(run(41, "failure", SIG),)))
    assert got.origin == "flaky" and "another attempt" in got.reason


@pytest.mark.parametrize("category", ["runner_infra", "network", "timeout_cancelled", "oom_disk"])
def test_infra_categories_without_a_sign_in_the_changes(category):
    got = decide(facts(category=category, changed_files=("src/app.py",), incomplete="budget"))
    assert got.origin == "infra"


@pytest.mark.parametrize(
    "changed", [(".github/workflows/ci.yml",), ("docker/Dockerfile",), ("tests/test_big.py",)]
)
def test_infra_with_a_sign_in_the_changes_is_not_called_infra(changed):
    got = decide(
        facts(
            category="oom_disk",
            evidence="Killed: out of memory while running tests/test_big.py",
            changed_files=changed,
            base=(run(41, "success"),),
        )
    )
    assert got.origin == "undetermined" and "the PR changes" in got.reason


def test_infra_when_the_changes_could_not_be_listed_is_undetermined():
    got = decide(facts(category="network", changed_files=None, changes_checked=False))
    assert got.origin == "undetermined"


def test_permission_failures_are_not_infra():
    got = decide(facts(category="permission_secret", base=(run(41, "success"),)))
    assert got.origin == "this_pr"


@pytest.mark.parametrize(
    "kw",
    [
        dict(base=()),
        dict(base=(run(41, "success"),), incomplete="the request budget (30) ran out"),
        dict(base=(run(41, "success"),), signature=None),
        dict(base=(run(41, "failure", None),)),  # its log was gone
        dict(base=(run(41, "cancelled"), run(40, "skipped"))),
    ],
)
def test_missing_facts_are_undetermined(kw):
    assert decide(facts(**kw)).origin == "undetermined"


def test_positive_evidence_survives_incomplete_lookups():
    got = decide(facts(base=(run(41, "failure", SIG),), incomplete="API answered 500"))
    assert got.origin == "base_branch"


def test_cancelled_base_runs_are_skipped_when_comparing():
    got = decide(facts(base=(run(42, "cancelled"), run(41, "success"))))
    assert got.origin == "this_pr" and got.base_run_number == 41
