"""Issue 12, item 1: an approved fix for a fork PR never writes the fork's tree into the base
repository (SECURITY.md §15). With maintainer edits allowed it is one commit on the fork's own
head branch; otherwise the diff is handed back as a patch (and as suggestions where it fits).

The entry point runs in a subprocess against the loopback GitHub; the fork is `forker/octo-repo`.
"""

from __future__ import annotations

import hashlib

import pytest

from repopilot.comment.marker import Marker, MarkerProposal, dump_marker, encode_diff, sign
from repopilot.comment.status import status_block
from tests.loopback.github_action import (
    BOT,
    FIX,
    FORK,
    HEAD_FILES,
    REPO,
    comment_event,
    run_action,
    seed,
)
from tests.loopback.github_server import Fault, GitHubServer, State

pytestmark = pytest.mark.integration

PID = "fix-calc-add"
PR_PATCH = "@@ -1,2 +1,2 @@\n def add(a, b):\n-    return a + b\n+    return a - b"
BASE_WRITES = r"/repos/octo-org/octo-repo/git/(blobs|trees|commits|refs.*)"


def _body(facts) -> str:
    prop = MarkerProposal(
        id=PID,
        sha256=hashlib.sha256(FIX.encode()).hexdigest(),
        head_sha=facts.head_sha,
        diff_z=encode_diff(FIX),
    )
    marker = sign(
        Marker(repo=REPO, pr=7, run_id=facts.run_id, head_sha=facts.head_sha, proposals=(prop,)),
        None,
    )
    return f"{dump_marker(marker)}\n{status_block(marker)}\n```diff\n{FIX}```\n"


def _world(state: State, *, can_modify: bool):
    facts = seed(state, fork=True)
    state.pulls[7]["maintainer_can_modify"] = can_modify
    state.pull_files[7] = [{"filename": "src/calc.py", "patch": PR_PATCH, "status": "modified"}]
    state.add_comment(7, _body(facts), BOT, "Bot")
    return facts


def _replies(state: State) -> list[str]:
    return [c["body"] for c in state.issue_comments(7) if not c["body"].startswith("<!--")]


def _base_untouched(state: State, facts) -> None:
    assert state.refs[REPO] == {"main": facts.base_sha}, "no branch may appear in the base repo"
    for method in ("POST", "PATCH"):
        assert not state.calls(method, BASE_WRITES), "nothing written to the base repository's git"


def _apply(tmp_path, server):
    event = comment_event(f"/repopilot apply {PID}", login="maint")
    return run_action(tmp_path, server.url, "issue_comment", event)


def test_fork_with_maintainer_edits_gets_one_commit_on_its_own_branch(tmp_path):
    state = State(bot=BOT)
    with GitHubServer(state) as server:
        facts = _world(state, can_modify=True)
        run = _apply(tmp_path, server)
    assert run.returncode == 0, run.stderr
    new = state.refs[FORK]["feature"]
    assert new != facts.head_sha
    commit = state.git.commits[new]
    assert commit.parents == [facts.head_sha]
    files = state.git.files(commit.tree)
    assert files["src/calc.py"] == ("100644", b"def add(a, b):\n    return a + b\n")
    assert {p for p in files} == set(HEAD_FILES)
    [patch] = state.calls("PATCH", r"/repos/forker/octo-repo/git/refs/heads/feature")
    assert patch.body == {"sha": new, "force": False}
    _base_untouched(state, facts)
    assert run.trace["outcome"] == "applied"
    assert new in _replies(state)[-1] and "fork" in _replies(state)[-1]
    assert state.errors == []


@pytest.mark.parametrize("can_modify", [False, True], ids=["no-maintainer-edits", "push-refused"])
def test_fork_that_cannot_be_pushed_to_gets_the_patch_and_suggestions(tmp_path, can_modify):
    state = State(bot=BOT)
    with GitHubServer(state) as server:
        facts = _world(state, can_modify=can_modify)
        if can_modify:  # allowed in the PR, but this token cannot write to the fork
            state.faults.append(
                Fault("POST", r"/repos/forker/octo-repo/git/blobs", status=403, times=99)
            )
        run = _apply(tmp_path, server)
    assert run.returncode == 0, run.stderr
    assert state.refs[FORK]["feature"] == facts.head_sha, "the fork's branch did not move"
    assert not state.calls("PATCH", r".*/git/refs/.*") and not state.calls("POST", r".*/git/refs")
    _base_untouched(state, facts)
    assert run.trace["outcome"] == "handed-back"
    reply = _replies(state)[-1]
    assert "nothing was committed" in reply and "git apply" in reply
    assert FIX in reply, "the approved diff is in the reply, verbatim"
    [review] = state.reviews
    assert review["commit_id"] == facts.head_sha
    assert "```suggestion" in review["comments"][0]["body"]
    assert "suggestions in a review" in reply
    assert state.errors == []


def test_a_patch_is_not_handed_back_when_it_does_not_apply_at_the_head(tmp_path):
    state = State(bot=BOT)
    with GitHubServer(state) as server:
        facts = seed(state, fork=True)
        stale = FIX.replace("-    return a - b", "-    return a * b")
        prop = MarkerProposal(
            id=PID,
            sha256=hashlib.sha256(stale.encode()).hexdigest(),
            head_sha=facts.head_sha,
            diff_z=encode_diff(stale),
        )
        marker = Marker(repo=REPO, pr=7, run_id=555, head_sha=facts.head_sha, proposals=(prop,))
        body = f"{dump_marker(marker)}\n{status_block(marker)}\n```diff\n{stale}```\n"
        state.add_comment(7, body, BOT, "Bot")
        run = _apply(tmp_path, server)
    assert run.returncode == 0, run.stderr
    assert run.trace["outcome"] == "refused"
    assert "does not apply" in _replies(state)[-1]
    _base_untouched(state, facts)
