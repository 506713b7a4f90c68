"""Attacks on the repository's memory (issue 28, docs/MEMORY.md) through what a fork controls:
its workflow (a fork's `pull_request` run uses the PR's own workflow file, so it chooses how many
jobs fail and what they print) and its log lines. End to end: the real entry point and PyGithub
against the loopback GitHub, whose contents API keeps `seen.json` on `repopilot-memory`.

- Flooding: one run of a matrix of 205 failed jobs, each failing its own way, wrote 205 records;
  a reader uses only the newest 200, so one push of a fork erased every other PR's and the default
  branch's memory ("seen before" and origin rule 4b gone for everyone). A run now adds at most
  `MAX_RUN_RECORDS`, one per distinct signature first.
- A default branch that is not one: a `pull_request_target` (or `issue_comment`, ...) run of the
  watched workflow has the default branch as its head branch, this repository as its head
  repository and no PR in the payload, but a fork's PR (or any commenter) started it and chose
  what fails. It was recorded as the default branch failing, so every later PR failing that way
  heard "on `main` since ..." and got origin `base_branch`: "not caused by this PR". Only runs
  started by a push, a schedule or a writer's dispatch are the default branch's.
"""

from __future__ import annotations

import dataclasses

import pytest

from repopilot.action.memory_records import MAX_RUN_RECORDS
from tests.action.test_seen_before import (
    JOB,
    act,
    add_pr,
    add_run,
    comment,
    event,
    memory,
    push_on_main,
)
from tests.loopback.github_action import FORK, LOG, STEPS, Facts

pytestmark = pytest.mark.integration

FLOOD = 205  # more failed jobs than the 200 records a reader uses


def _flood_run(state, facts: Facts, pr: int, run_id: int, jobs: int, distinct: bool) -> Facts:
    """PR `pr`'s run `run_id` whose matrix of `jobs` jobs all fail (each its own test when
    `distinct`, else all the same way)."""
    other = add_pr(state, facts, pr, run_id, f"flood-{pr}")
    listed = []
    for i in range(jobs):
        job_id = run_id * 1000 + i
        name = f"{JOB} [{i}]"
        listed.append({"id": job_id, "name": name, "conclusion": "failure", "steps": STEPS})
        log = LOG.replace(b"test_add", f"test_add_{i}".encode()) if distinct else LOG
        state.job_logs[job_id] = log
    state.runs[run_id]["jobs"] = listed
    return other


def test_one_run_of_many_failed_jobs_does_not_erase_the_memory(tmp_path, gh):
    server, facts = gh
    state = server.state
    act(tmp_path / "first", server, facts)  # PR #7 fails: the memory has its record
    flood = _flood_run(state, facts, 9, 700, FLOOD, distinct=True)
    act(tmp_path / "flood", server, flood)
    added = [r for r in memory(state) if r["run_id"] == 700]
    assert 0 < len(added) <= MAX_RUN_RECORDS
    assert len({r["signature"] for r in added}) == len(added)  # distinct signatures kept
    # another PR failing like PR #7 still hears about it
    other = add_pr(state, facts, 8, 556, "other")
    act(tmp_path / "other", server, other)
    assert "also failed on PR #7" in comment(state, 8)


def test_a_matrix_failing_one_way_keeps_one_record_per_signature_first(tmp_path, gh):
    server, facts = gh
    state = server.state
    many = _flood_run(state, facts, 9, 701, MAX_RUN_RECORDS + 5, distinct=False)
    act(tmp_path, server, many)
    added = [r for r in memory(state) if r["run_id"] == 701]
    assert len(added) == MAX_RUN_RECORDS  # the same failure: the cap, no more
    assert [r["job"] for r in added] == [f"{JOB} [{i}]" for i in range(MAX_RUN_RECORDS)]


def test_a_run_with_few_failed_jobs_records_each(tmp_path, gh):
    """The control: below the cap every failed job is one record, as docs/MEMORY.md says."""
    server, facts = gh
    state = server.state
    few = _flood_run(state, facts, 9, 702, 3, distinct=True)
    act(tmp_path, server, dataclasses.replace(few))
    assert len([r for r in memory(state) if r["run_id"] == 702]) == 3


@pytest.mark.parametrize("trigger", ["pull_request_target", "issue_comment", "workflow_run"])
def test_a_run_others_started_on_the_default_branch_is_not_the_default_branch(
    tmp_path, gh, trigger
):
    server, facts = gh
    state = server.state
    main, ev = push_on_main(state, facts)
    ev["workflow_run"]["event"] = trigger
    act(tmp_path / "target", server, main, ev)
    [rec] = memory(state)
    assert rec["on_default"] is False
    run = act(tmp_path / "pr", server, facts)
    assert run.outputs["origin"] != "base_branch"
    assert "since" not in comment(state, 7)


@pytest.mark.parametrize("trigger", ["push", "schedule", "workflow_dispatch"])
def test_a_push_or_a_schedule_on_the_default_branch_is_the_default_branch(tmp_path, gh, trigger):
    """The control: these run the default branch's own code, started by its writers or a clock."""
    server, facts = gh
    state = server.state
    main, ev = push_on_main(state, facts)
    ev["workflow_run"]["event"] = trigger
    act(tmp_path / "main", server, main, ev)
    [rec] = memory(state)
    assert rec["on_default"] is True
    run = act(tmp_path / "pr", server, facts)
    assert run.outputs["origin"] == "base_branch"


def _from_fork(ev: dict) -> None:
    head = ev["workflow_run"]["head_repository"]
    head.update(full_name=FORK)
    head["owner"]["login"] = FORK.split("/")[0]


def test_a_forks_own_earlier_run_is_not_another_pr(tmp_path, gh):
    """A fork's run names no PR, so its own records are told apart by branch, which the memory
    stores cleaned and cut to 200 characters: a longer branch name (git allows 255) made the
    fork's PR read its own earlier failure as "also failed on PR #7" in its own comment."""
    server, facts = gh
    state = server.state
    long = "fix/" + "x" * 230
    state.pulls[7].update(head_repo=FORK, head_ref=long)
    state.refs[FORK] = {"main": facts.base_sha, long: facts.head_sha}
    ev = event(facts, branch=long, pr=False)
    _from_fork(ev)
    act(tmp_path / "first", server, facts, ev)
    [rec] = memory(state)
    assert rec["pr"] == 7 and len(rec["branch"]) == 200
    again = dataclasses.replace(facts, run_id=557, job_id=5570)
    add_run(state, 557, facts.head_sha)
    ev = event(again, branch=long, pr=False)
    _from_fork(ev)
    act(tmp_path / "again", server, again, ev)
    assert "also failed on PR #7" not in comment(state, 7)
