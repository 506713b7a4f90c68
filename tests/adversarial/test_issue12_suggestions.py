"""Issue 12, items 8 and 9: the optional suggestion review. A 403 or 404 on the review listing
must not fail the Action after its comment was posted, and the "already posted" check reads every
page of reviews (a busy PR has more than one), so a re-run never posts a second review.

The Action runs as the `post` job of an analyze/post split: the result file carries a proposal
that fits the PR's own diff, so the post job offers it as suggestions too.
"""

from __future__ import annotations

import hashlib
import json

import pytest

from repopilot.github.suggest import TAG
from tests.loopback.github_action import BOT, FIX, run_action, run_event, seed
from tests.loopback.github_server import Fault, GitHubServer, State
from tests.loopback.github_shapes import shaped, user_obj

pytestmark = pytest.mark.integration

PID = "rp-fixcalcadd"
PR_PATCH = "@@ -1,2 +1,2 @@\n def add(a, b):\n-    return a + b\n+    return a - b"
REVIEWS = r"/repos/octo-org/octo-repo/pulls/7/reviews"


def _result_with_proposal(tmp_path, server, facts) -> str:
    result = tmp_path / "shared" / "result.json"
    first = run_action(
        tmp_path / "a",
        server.url,
        "workflow_run",
        run_event(facts),
        mode="analyze",
        result_file=str(result),
    )
    assert first.returncode == 0, first.stderr
    doc = json.loads(result.read_text())
    doc["jobs"][0]["result"]["proposal"] = {
        "id": PID,
        "diff": FIX,
        "sha256": hashlib.sha256(FIX.encode()).hexdigest(),
        "files": ["src/calc.py"],
        "diagnosis": "add subtracts",
        "confidence": 0.9,
    }
    result.write_text(json.dumps(doc))
    return str(result)


@pytest.fixture
def world(tmp_path):
    state = State(bot=BOT)
    with GitHubServer(state) as server:
        facts = seed(state)
        state.pull_files[7] = [{"filename": "src/calc.py", "patch": PR_PATCH, "status": "modified"}]
        yield tmp_path, server, state, facts, _result_with_proposal(tmp_path, server, facts)


def _post(tmp_path, server, facts, result):
    return run_action(
        tmp_path / "p",
        server.url,
        "workflow_run",
        run_event(facts),
        mode="post",
        result_file=result,
    )


def _bot_comments(state):
    return [c for c in state.issue_comments(7) if c["login"] == BOT]


def test_control_the_post_job_offers_the_fix_as_one_suggestion_review(world):
    tmp_path, server, state, facts, result = world
    run = _post(tmp_path, server, facts, result)
    assert run.returncode == 0, run.stderr
    assert len(_bot_comments(state)) == 1 and len(state.reviews) == 1


@pytest.mark.parametrize("status", [403, 404])
def test_a_refused_review_listing_does_not_fail_the_action(world, status):
    tmp_path, server, state, facts, result = world
    state.faults.append(Fault("GET", REVIEWS, status=status, times=99))
    run = _post(tmp_path, server, facts, result)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "::error::" not in run.stdout
    [comment] = _bot_comments(state)
    assert PID in comment["body"], "the comment, with the fix, was posted"
    assert state.reviews == [] and run.trace["outcome"] == "commented"


def test_an_existing_review_on_a_later_page_is_found(world):
    tmp_path, server, state, facts, result = world
    others = [
        shaped(
            "pull-request-review.json",
            state,
            id=5000 + i,
            body=f"looks good {i}",
            user=user_obj(state, f"reviewer{i}"),
        )
        for i in range(30)
    ]
    ours = shaped(
        "pull-request-review.json",
        state,
        id=6000,
        body=f"{TAG}{PID} -->\nRepoPilot's proposed fixes as suggestions: {PID}.",
        user=user_obj(state, BOT, "Bot"),
    )
    next_page = f'<{state.api}{REVIEWS}?per_page=100&page=2>; rel="next"'
    state.faults += [
        Fault("GET", REVIEWS, status=200, body=others, headers={"Link": next_page}),
        Fault("GET", REVIEWS, status=200, body=[ours]),
    ]
    run = _post(tmp_path, server, facts, result)
    assert run.returncode == 0, run.stderr
    assert len(state.calls("GET", REVIEWS)) >= 2, "the second page was read"
    assert not state.calls("POST", REVIEWS), "no second suggestion review"
