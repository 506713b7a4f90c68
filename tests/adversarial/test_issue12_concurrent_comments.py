"""Issue 12, item 14: two runs for one PR at once (two workflows failing together, a re-run racing
the first) must converge on ONE marker comment (SECURITY.md §18): after creating, the comments are
listed again and the oldest marker comment is kept; newer ones are deleted or folded into a
pointer. A later run also cleans up duplicates an earlier race left.

Duplicates are deleted; where GitHub refuses the delete (a 403 injected here), they are folded
into a pointer without a marker.
"""

from __future__ import annotations

import threading

import pytest

from repopilot.comment.marker import MARKER_PREFIX, Marker, dump_marker, parse_marker
from tests.loopback.github_action import BOT, REPO, run_action, run_event, seed
from tests.loopback.github_server import Fault, GitHubServer, State

pytestmark = pytest.mark.integration

COMMENTS = r"/repos/octo-org/octo-repo/issues/7/comments"
ONE_COMMENT = r"/repos/octo-org/octo-repo/issues/comments/\d+"


def _refuse_deletes(state: State) -> None:
    state.faults.append(
        Fault("DELETE", ONE_COMMENT, 403, {"message": "Resource not accessible"}, times=99)
    )


def _marker_comments(state: State) -> list[dict]:
    return [
        c
        for c in state.issue_comments(7)
        if c["login"] == BOT and c["body"].lstrip().startswith(MARKER_PREFIX)
    ]


def _other_run_body(facts) -> str:
    marker = Marker(repo=REPO, pr=7, run_id=554, head_sha=facts.head_sha)
    return f"{dump_marker(marker)}\nRepoPilot: the other workflow's findings\n"


def _race(tmp_path, state: State):
    """One run whose create races the other run's: its comment lands between our lookup (none
    found) and our create."""
    with GitHubServer(state) as server:
        facts = seed(state)
        state.faults.append(
            Fault(
                "POST",
                COMMENTS,
                hook=lambda st: st.add_comment(7, _other_run_body(facts), BOT, "Bot"),
            )
        )
        return run_action(tmp_path, server.url, "workflow_run", run_event(facts)), facts


def test_a_comment_created_by_a_racing_run_converges_on_the_oldest(tmp_path):
    state = State(bot=BOT)
    _refuse_deletes(state)
    run, facts = _race(tmp_path, state)
    assert run.returncode == 0, run.stderr
    [kept] = _marker_comments(state)
    others = [c for c in state.issue_comments(7) if c["id"] != kept["id"]]
    assert kept["id"] == min(c["id"] for c in state.issue_comments(7)), "the oldest is kept"
    assert parse_marker(kept["body"]).run_id == facts.run_id, "with this run's findings"
    assert all(c["body"].startswith("RepoPilot: a duplicate of") for c in others)
    assert run.outputs["comment-url"].endswith(f"#issuecomment-{kept['id']}")
    assert state.errors == []


def test_a_later_run_folds_duplicates_an_earlier_race_left(tmp_path):
    state = State(bot=BOT)
    _refuse_deletes(state)
    with GitHubServer(state) as server:
        facts = seed(state)
        first = state.add_comment(7, _other_run_body(facts), BOT, "Bot")
        state.add_comment(7, _other_run_body(facts), BOT, "Bot")
        run = run_action(tmp_path, server.url, "workflow_run", run_event(facts))
    assert run.returncode == 0, run.stderr
    [kept] = _marker_comments(state)
    assert kept["id"] == first and parse_marker(kept["body"]).run_id == facts.run_id
    assert not state.calls("POST", COMMENTS), "edited in place, nothing new posted"


def test_duplicates_are_deleted_where_github_allows_it(tmp_path):
    state = State(bot=BOT)
    run, facts = _race(tmp_path, state)
    assert run.returncode == 0, run.stderr
    [kept] = state.issue_comments(7)  # the newer duplicate is gone, not folded
    assert parse_marker(kept["body"]).run_id == facts.run_id
    assert len(state.calls("DELETE", ONE_COMMENT)) == 1
    assert state.errors == []


def test_two_runs_at_once_leave_one_marker_comment(tmp_path):
    state = State(bot=BOT)
    with GitHubServer(state) as server:
        facts = seed(state)
        runs: dict[int, object] = {}

        def go(i: int) -> None:
            runs[i] = run_action(tmp_path / str(i), server.url, "workflow_run", run_event(facts))

        threads = [threading.Thread(target=go, args=(i,)) for i in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=120)
    assert all(r.returncode == 0 for r in runs.values()), [r.stderr for r in runs.values()]
    assert len(_marker_comments(state)) == 1
