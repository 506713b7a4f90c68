"""Issue 12, item 13: without a signing key, someone allowed to edit the bot's comment can swap the
hidden marker's diff (and its hash) alone. At apply time the marker's diff is compared with the
diff the comment shows; when they differ nothing is applied (SECURITY.md §8).
"""

from __future__ import annotations

import hashlib

import pytest

from repopilot.comment.marker import (
    Marker,
    MarkerProposal,
    dump_marker,
    encode_diff,
    same_diff,
    shown_diff,
    sign,
)
from repopilot.comment.status import status_block
from tests.loopback.github_action import BOT, FIX, REPO, comment_event, run_action, seed
from tests.loopback.github_server import GitHubServer, State

PID = "fix-calc-add"
EVIL = FIX.replace("+    return a + b\n", "+    return a + b  # harmless-looking\n+import os\n")


def _body(facts, *, hidden: str, shown: str, key: str | None = None) -> str:
    prop = MarkerProposal(
        id=PID,
        sha256=hashlib.sha256(hidden.encode()).hexdigest(),
        head_sha=facts.head_sha,
        diff_z=encode_diff(hidden),
    )
    marker = sign(
        Marker(repo=REPO, pr=7, run_id=555, head_sha=facts.head_sha, proposals=(prop,)), key
    )
    return f"{dump_marker(marker)}\n{status_block(marker)}\n```diff\n{shown}```\n"


def _apply(tmp_path, body, **inputs):
    state = State(bot=BOT)
    with GitHubServer(state) as server:
        facts = seed(state)
        state.add_comment(7, body(facts), BOT, "Bot")
        event = comment_event(f"/repopilot apply {PID}", login="maint")
        run = run_action(tmp_path, server.url, "issue_comment", event, **inputs)
    assert run.returncode == 0, run.stderr
    return state, facts, run


@pytest.mark.parametrize(
    ("hidden", "shown", "key"),
    [(EVIL, FIX, None), (FIX, EVIL, "k3y"), (FIX, "", None)],
    ids=["hidden-swapped-unsigned", "shown-swapped-signed", "nothing-shown"],
)
@pytest.mark.integration
def test_a_marker_diff_that_is_not_the_shown_one_is_refused(tmp_path, hidden, shown, key):
    inputs = {"signing_key": key} if key else {}
    state, facts, run = _apply(
        tmp_path, lambda f: _body(f, hidden=hidden, shown=shown, key=key), **inputs
    )
    assert state.refs[REPO]["feature"] == facts.head_sha, "nothing applied"
    assert not state.calls("POST", r"/repos/.*/git/commits")
    assert run.trace["outcome"] == "refused"
    reply = [c["body"] for c in state.issue_comments(7) if not c["body"].startswith("<!--")][-1]
    assert "not the one the comment shows" in reply


@pytest.mark.integration
def test_control_the_same_diff_shown_and_hidden_is_applied(tmp_path):
    state, facts, run = _apply(tmp_path, lambda f: _body(f, hidden=FIX, shown=FIX))
    assert state.refs[REPO]["feature"] != facts.head_sha and run.trace["outcome"] == "applied"


@pytest.mark.unit
def test_the_comparison_ignores_only_line_endings_and_the_final_newline():
    assert same_diff(FIX.replace("\n", "\r\n"), FIX) and same_diff(FIX.rstrip("\n"), FIX)
    assert not same_diff(FIX.replace("a + b", "a +  b"), FIX)
    body = f"`{PID}`\n````diff\n{FIX}```\nstill inside\n````\n`other-id`\n```diff\nx\n```\n"
    assert shown_diff(body, PID, [PID, "other-id"]) == FIX + "```\nstill inside\n"
    assert shown_diff(body, "other-id", [PID, "other-id"]) == "x\n"
