"""Forged, replayed and smuggled approvals against the Action (SECURITY.md §7, §8): the entry
point in-process through `main(env)`, real PyGithub, the loopback GitHub. Complements
tests/action/test_action_approval.py (reader, stranger, bots, edited/deleted events, quotes and fences,
human-posted marker, replay, moved head, hash mismatch, wrong key, closed PR): the cases here are
the ones it does not cover.
Every refusal must leave every branch where it was and create no git object.
"""

from __future__ import annotations

import hashlib
import re

import pytest

from repopilot.comment.marker import Marker, MarkerProposal, dump_marker, encode_diff, sign
from repopilot.comment.status import status_block
from tests.loopback.github_action import BOT, FIX, REPO, comment_event, run_action
from tests.loopback.github_server import Fault, State

pytestmark = pytest.mark.integration

PID = "fix-calc-add"
WORKFLOW = (
    "diff --git a/.github/workflows/ci.yml b/.github/workflows/ci.yml\nnew file mode 100644\n"
    "--- /dev/null\n+++ b/.github/workflows/ci.yml\n@@ -0,0 +1 @@\n+on: pull_request_target\n"
)
ESCAPE = "--- a/../../etc/cron.d/x\n+++ b/../../etc/cron.d/x\n@@ -1 +1 @@\n-a\n+b\n"


def bot_comment(
    facts, *, diff: str = FIX, key: str | None = None, pr: int = 7, repo: str = REPO
) -> str:
    prop = MarkerProposal(
        id=PID,
        sha256=hashlib.sha256(diff.encode()).hexdigest(),
        head_sha=facts.head_sha,
        diff_z=encode_diff(diff),
    )
    marker = sign(
        Marker(repo=repo, pr=pr, run_id=facts.run_id, head_sha=facts.head_sha, proposals=(prop,)),
        key,
    )
    return f"{dump_marker(marker)}\n{status_block(marker)}\n```diff\n{diff}```\n"


@pytest.fixture
def gh(gh):
    """tests/conftest.py's loopback GitHub, with a triager and a maintainer."""
    server, _facts = gh
    server.state.permissions.update(triager="triage", maint="maintain")
    return gh


def command(tmp_path, server, body=f"/repopilot apply {PID}", inputs=None, **kw):
    event = comment_event(body, **kw)
    return run_action(tmp_path, server.url, "issue_comment", event, **(inputs or {}))


def replies(state: State) -> list[str]:
    return [c["body"] for c in state.issue_comments(7) if not c["body"].startswith("<!--")]


def refused(state, before, run, why: str) -> str:
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Traceback" not in run.stderr
    assert state.refs == before, "a refused command moved a branch"
    assert not state.calls("POST", r"/repos/.*/git/.*"), "a git object was created"
    assert not state.calls("PATCH", r"/repos/.*/git/refs/.*")
    [reply] = replies(state)
    assert why in reply, reply
    assert run.trace and run.trace["outcome"] == "refused"
    return reply


def snapshot(state):
    return {k: dict(v) for k, v in state.refs.items()}


def test_triage_role_cannot_approve(tmp_path, gh):
    server, facts = gh
    state = server.state
    state.add_comment(7, bot_comment(facts), BOT, "Bot")
    before = snapshot(state)
    run = command(tmp_path, server, login="triager")
    refused(state, before, run, "has the role `triage`")


def test_maintainer_can_approve(tmp_path, gh):
    """The control case for the role checks: `maintain` is an approver by default."""
    server, facts = gh
    state = server.state
    state.add_comment(7, bot_comment(facts), BOT, "Bot")
    run = command(tmp_path, server, login="maint")
    assert run.returncode == 0, run.stderr
    assert state.refs[REPO]["feature"] != facts.head_sha
    assert len(state.calls("PATCH", r"/repos/.*/git/refs/heads/feature")) == 1


def test_approvers_input_narrows_the_roles(tmp_path, gh):
    server, facts = gh
    state = server.state
    state.add_comment(7, bot_comment(facts), BOT, "Bot")
    before = snapshot(state)
    run = command(tmp_path, server, login="writer", inputs={"approvers": "admin"})
    refused(state, before, run, "has the role `write`")


@pytest.mark.parametrize(
    "where,why",
    [({"pr": 8}, "no proposal"), ({"repo": "mallory/octo-repo"}, "no proposal")],
    ids=["marker-of-another-pr", "marker-of-another-repo"],
)
def test_a_bot_marker_copied_from_elsewhere_proves_nothing(tmp_path, gh, where, why):
    server, facts = gh
    state = server.state
    state.add_comment(7, bot_comment(facts, **where), BOT, "Bot")
    before = snapshot(state)
    refused(state, before, command(tmp_path, server), why)


@pytest.mark.parametrize("diff", [WORKFLOW, ESCAPE], ids=["workflow-file", "path-escape"])
def test_a_harmful_diff_in_a_genuine_bot_marker_is_still_refused(tmp_path, gh, diff):
    """Defence in depth: the hash and signature match, but apply re-checks the policy."""
    server, facts = gh
    state = server.state
    state.add_comment(7, bot_comment(facts, diff=diff, key="k"), BOT, "Bot")
    before = snapshot(state)
    run = command(tmp_path, server, inputs={"signing_key": "k"})
    reply = refused(state, before, run, "was not carried out")
    assert re.search(r"protected-path|path-escape", reply), reply


def test_a_signed_marker_whose_diff_and_hash_were_swapped_is_refused(tmp_path, gh):
    server, facts = gh
    state = server.state
    body = bot_comment(facts, key="k")
    evil = FIX.replace("return a + b", "return eval(input())")
    swapped = body.replace(
        encode_diff(FIX), encode_diff(evil)
    ).replace(  # the marker JSON escapes `-`; hashes are plain hex
        hashlib.sha256(FIX.encode()).hexdigest(), hashlib.sha256(evil.encode()).hexdigest()
    )
    assert swapped != body
    state.add_comment(7, swapped, BOT, "Bot")
    before = snapshot(state)
    run = command(tmp_path, server, inputs={"signing_key": "k"})
    refused(state, before, run, "signature does not verify")


@pytest.mark.parametrize(
    "body",
    [
        f"/repopilot apply {PID}\u200b",
        f"/repopilot\u00a0apply {PID}",
        f"\u2215repopilot apply {PID}",
        f"/repopilot apply {PID.upper()}",
        f"/repopilot apply {PID}\n/repopilot apply {PID}",
        f"<!-- /repopilot apply {PID} -->",
    ],
    ids=["zero-width", "nbsp", "lookalike-slash", "upper-id", "twice", "html-comment"],
)
def test_smuggled_commands_do_nothing_and_say_nothing(tmp_path, gh, body):
    server, facts = gh
    state = server.state
    state.add_comment(7, bot_comment(facts), BOT, "Bot")
    before = snapshot(state)
    run = command(tmp_path, server, body=body)
    assert run.returncode == 0, run.stderr
    assert state.refs == before and replies(state) == []
    assert not state.calls("POST", r".*") and not state.calls("PATCH", r".*")


def test_a_redelivered_command_applies_once(tmp_path, gh):
    """The same `created` webhook delivered twice (same comment id): one commit, then a reply
    that it was already applied."""
    server, facts = gh
    state = server.state
    state.add_comment(7, bot_comment(facts), BOT, "Bot")
    assert command(tmp_path / "1", server, cid=4242).returncode == 0
    after = snapshot(state)
    run = command(tmp_path / "2", server, cid=4242)
    assert run.returncode == 0, run.stderr
    assert state.refs == after
    assert len(state.calls("POST", r"/repos/.*/git/commits")) == 1
    assert "already applied" in replies(state)[-1]


def test_the_commenter_permission_lookup_failing_is_not_a_yes(tmp_path, gh):
    server, facts = gh
    state = server.state
    state.add_comment(7, bot_comment(facts), BOT, "Bot")
    state.faults.append(Fault("GET", r"/repos/.*/collaborators/writer/permission", 502, times=50))
    before = snapshot(state)
    run = command(tmp_path, server)
    assert state.refs == before
    assert not state.calls("POST", r"/repos/.*/git/.*")
    assert "Traceback" not in run.stderr
    if run.returncode:  # the API stayed down: the action's own failure, one ::error:: line
        errors = [ln for ln in run.stdout.splitlines() if ln.startswith("::error")]
        assert len(errors) == 1


def test_a_branch_name_cannot_inject_markdown_into_a_reply(tmp_path, gh):
    server, facts = gh
    state = server.state
    branch = "fix`@octo-org/admins`x"
    state.refs[REPO][branch] = state.refs[REPO].pop("feature")
    state.pulls[7]["head_ref"] = branch
    state.add_comment(7, bot_comment(facts), BOT, "Bot")
    state.faults.append(
        Fault("PATCH", r"/repos/.*/git/refs/heads/.*", 422, {"message": "not a fast forward"})
    )
    run = command(tmp_path, server)
    assert run.returncode == 0, run.stderr
    [reply] = replies(state)
    assert "moved while the commit was being made" in reply
    from markdown_it import MarkdownIt

    texts = [
        t.content
        for tok in MarkdownIt("commonmark").parse(reply)
        for t in (tok.children or ())
        if t.type == "text"
    ]
    assert not any(re.search(r"(?:^|\W)@[A-Za-z0-9]", t) for t in texts), texts
