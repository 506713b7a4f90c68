"""The comment's learning offers (issue 21/28) against a fork that chooses how many jobs fail and
how large their logs are: each offer downloads the job's log AGAIN and runs the learner over all
of it (several passes while it specialises), before the comment is posted. A matrix of undecided
failures made one offer per job (N more log downloads of up to 512 MiB each, N learner runs); a
run now makes at most `MAX_OFFERS`, and a log larger than `MAX_LEARN_LOG` gets none (the CLI can
still learn from it). And the offer itself: where the only error-looking line of an undecided
failure is a tool's summary or wrapper line (`npm ERR! Exit status 1`, yarn's `error Command failed
with exit code 1.`, `Ran 3 tests in 0.001s`), the comment offered a pattern that would take EVERY
later failure of that tool, above every built-in pattern, with this one's category: no offer
takes a summary line (engine/learn/generic.py `SUMMARY`). End to end against the loopback
GitHub, no LLM (an undecided failure is offered too).
"""

from __future__ import annotations

import re

import pytest

from repopilot.action.learn import MAX_LEARN_LOG, MAX_OFFERS
from tests.adoption_logs import gha
from tests.loopback.github_action import BOT, STEPS, run_action, run_event

pytestmark = pytest.mark.integration

JOB_LOGS = r"/repos/octo-org/octo-repo/actions/jobs/\d+/logs"


def _undecided(n: int, build: int = 1) -> bytes:
    out = [
        "release-check: reading package.json",
        f"release-check: version 1.{n}.0",
        f"release-check: the versions differ; add a CHANGELOG.md entry for 1.{n}.0",
    ]
    steps = [f"compiled module {i} of the bundle" for i in range(build)]
    return gha([("npm run build", steps), ("node scripts/release-check.js", out)])


def _matrix(state, logs: list[bytes]) -> None:
    jobs = []
    for i, log in enumerate(logs):
        job_id = 3000 + i
        jobs.append({"id": job_id, "name": f"check [{i}]", "conclusion": "failure", "steps": STEPS})
        state.job_logs[job_id] = log
    state.runs[555]["jobs"] = jobs


def _comment(state) -> str:
    [c] = [c for c in state.comments.values() if c["login"] == BOT]
    return c["body"]


def test_a_matrix_of_undecided_failures_gets_a_bounded_number_of_offers(tmp_path, gh):
    server, facts = gh
    state = server.state
    jobs = MAX_OFFERS + 4
    _matrix(state, [_undecided(i) for i in range(jobs)])
    run = run_action(tmp_path, server.url, "workflow_run", run_event(facts))
    assert run.returncode == 0, run.stderr
    offered = set(re.findall(r"/repopilot learn (learn-\d+-\d+)", _comment(state)))
    assert 0 < len(offered) <= MAX_OFFERS
    # triage reads each log once; learning reads at most MAX_OFFERS of them again
    assert len(state.calls("GET", JOB_LOGS)) <= jobs + MAX_OFFERS


def test_a_log_larger_than_the_learning_cap_gets_no_offer(tmp_path, gh):
    server, facts = gh
    state = server.state
    big = _undecided(1, build=MAX_LEARN_LOG // 50)  # each line is longer than 50 bytes
    assert len(big) > MAX_LEARN_LOG
    _matrix(state, [big])
    run = run_action(tmp_path, server.url, "workflow_run", run_event(facts))
    assert run.returncode == 0, run.stderr
    body = _comment(state)
    assert "the versions differ" in body  # the failure is reported
    assert "/repopilot learn learn-" not in body


def test_one_undecided_failure_is_still_offered(tmp_path, gh):
    """The control: what the caps leave alone."""
    server, facts = gh
    state = server.state
    _matrix(state, [_undecided(1)])
    run = run_action(tmp_path, server.url, "workflow_run", run_event(facts))
    assert run.returncode == 0, run.stderr
    assert "/repopilot learn learn-3000-" in _comment(state)


@pytest.mark.parametrize(
    "line",
    [
        "npm ERR! Exit status 1",
        "error Command failed with exit code 1.",
        "Ran 3 tests in 0.001s",
        "1 failing",
        "ERROR: Job failed: exit code 1",
    ],
)
def test_no_offer_takes_a_tools_summary_line(tmp_path, gh, line):
    server, facts = gh
    state = server.state
    steps = ["> app@1.0.0 test", "> zork-runner", "zork: running 5 checks", line]
    _matrix(state, [gha([("npm ci", ["added 12 packages in 2s"]), ("npm test", steps)])])
    run = run_action(tmp_path, server.url, "workflow_run", run_event(facts))
    assert run.returncode == 0, run.stderr
    body = _comment(state)
    assert "zork" in body  # the failure is reported
    assert "/repopilot learn learn-" not in body
