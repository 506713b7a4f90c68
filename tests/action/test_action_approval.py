"""`/repopilot apply|reject <id>` end to end: the entry point in-process through its
`main(env)` (one test in a subprocess), real PyGithub, the loopback GitHub. Every refusal must leave the branch untouched and answer with a reply."""

from __future__ import annotations

import hashlib

import pytest

from repopilot.comment.marker import (
    Marker,
    MarkerProposal,
    dump_marker,
    encode_diff,
    parse_marker,
    sign,
)
from repopilot.comment.status import status_block
from tests.loopback.github_action import (
    BOT,
    FIX,
    HEAD_FILES,
    REPO,
    comment_event,
    run_action,
)
from tests.loopback.github_server import Fault, State

pytestmark = pytest.mark.integration

PID = "fix-calc-add"


def proposal_body(
    facts, *, diff: str = FIX, sha: str | None = None, key: str | None = None, pr: int = 7
) -> str:
    prop = MarkerProposal(
        id=PID,
        sha256=sha or hashlib.sha256(diff.encode()).hexdigest(),
        head_sha=facts.head_sha,
        diff_z=encode_diff(diff),
    )
    marker = sign(
        Marker(repo=REPO, pr=pr, run_id=facts.run_id, head_sha=facts.head_sha, proposals=(prop,)),
        key,
    )
    return f"{dump_marker(marker)}\n{status_block(marker)}\n```diff\n{diff}```\n"


def _apply(tmp_path, server, body=f"/repopilot apply {PID}", process=False, **kw):
    inputs = kw.pop("inputs", {})
    event = comment_event(body, **kw)
    return run_action(tmp_path, server.url, "issue_comment", event, process=process, **inputs)


def _replies(state: State) -> list[str]:
    return [c["body"] for c in state.issue_comments(7) if not c["body"].startswith("<!--")]


def _expected_tree(state: State) -> dict:
    files = {p: (v if isinstance(v, tuple) else ("100644", v)) for p, v in HEAD_FILES.items()}
    files["src/calc.py"] = ("100644", b"def add(a, b):\n    return a + b\n")
    return files


def _assert_refused(state, before, run, why):
    assert run.returncode == 0, run.stderr
    assert state.refs == before, "a refused command must not move any branch"
    assert not state.calls("PATCH", r"/repos/.*/git/refs/.*")
    assert not state.calls("POST", r"/repos/.*/git/commits")
    replies = _replies(state)
    assert len(replies) == 1 and why in replies[0], replies
    assert run.trace and run.trace["outcome"] == "refused"


def test_apply_by_writer_is_one_commit_on_the_head(tmp_path, gh):
    pytest.importorskip(
        "repopilot.proposal.validate", reason="repopilot/proposal.py (apply_to_files) not landed"
    )
    server, facts = gh
    state = server.state
    cid = state.add_comment(7, proposal_body(facts), BOT, "Bot")
    run = _apply(tmp_path, server, process=True)  # end to end, as the runner starts it
    assert run.returncode == 0, run.stderr
    new = state.refs[REPO]["feature"]
    assert new != facts.head_sha
    commit = state.git.commits[new]
    assert commit.parents == [facts.head_sha]
    assert state.git.files(commit.tree) == _expected_tree(state)
    assert len(state.calls("PATCH", r"/repos/octo-org/octo-repo/git/refs/heads/feature")) == 1
    patch = state.calls("PATCH", r"/repos/octo-org/octo-repo/git/refs/heads/feature")[0]
    assert patch.body == {"sha": new, "force": False}
    marker = parse_marker(state.comments[cid]["body"])
    assert marker.proposals[0].status == f"applied {new}"
    assert any(new in r for r in _replies(state))
    assert run.outputs["proposal-id"] == PID
    assert run.trace["outcome"] == "applied"


def test_second_apply_answers_already_applied(tmp_path, gh):
    pytest.importorskip(
        "repopilot.proposal.validate", reason="repopilot/proposal.py (apply_to_files) not landed"
    )
    server, facts = gh
    state = server.state
    state.add_comment(7, proposal_body(facts), BOT, "Bot")
    assert _apply(tmp_path / "1", server).returncode == 0
    after_first = {k: dict(v) for k, v in state.refs.items()}
    run = _apply(tmp_path / "2", server, cid=901)
    assert run.returncode == 0
    assert state.refs == after_first
    assert len(state.calls("PATCH", r"/repos/.*/git/refs/.*")) == 1
    assert "already applied" in _replies(state)[-1]


@pytest.mark.parametrize(
    "login,user_type,why",
    [
        ("reader", "User", "has the role `read`"),
        ("stranger", "User", "has the role `none`"),
        ("dependabot[bot]", "Bot", "bots are not accepted"),
        ("writer", "Bot", "bots are not accepted"),
    ],
)
def test_wrong_commenter_is_refused(tmp_path, gh, login, user_type, why):
    server, facts = gh
    state = server.state
    state.add_comment(7, proposal_body(facts), BOT, "Bot")
    before = {k: dict(v) for k, v in state.refs.items()}
    run = _apply(tmp_path, server, login=login, user_type=user_type)
    _assert_refused(state, before, run, why)


def test_moved_head_is_refused(tmp_path, gh):
    server, facts = gh
    state = server.state
    state.add_comment(7, proposal_body(facts), BOT, "Bot")
    moved = state.git.put_commit(state.git.commits[facts.head_sha].tree, [facts.head_sha], "more")
    state.refs[REPO]["feature"] = moved
    state.pulls[7]["head_sha"] = moved
    before = {k: dict(v) for k, v in state.refs.items()}
    run = _apply(tmp_path, server)
    _assert_refused(state, before, run, "head moved")


def test_marker_posted_by_a_human_is_not_trusted(tmp_path, gh):
    server, facts = gh
    state = server.state
    state.add_comment(7, proposal_body(facts), "mallory", "User")  # a perfect copy, wrong author
    before = {k: dict(v) for k, v in state.refs.items()}
    run = _apply(tmp_path, server)
    _assert_refused(state, before, run, f"no proposal `{PID}` in a RepoPilot comment by `{BOT}`")


def test_diff_not_matching_its_hash_is_refused(tmp_path, gh):
    server, facts = gh
    state = server.state
    evil = FIX.replace("return a + b", "return __import__('os').system('id')")
    state.add_comment(
        7, proposal_body(facts, diff=evil, sha=hashlib.sha256(FIX.encode()).hexdigest()), BOT, "Bot"
    )
    before = {k: dict(v) for k, v in state.refs.items()}
    run = _apply(tmp_path, server)
    _assert_refused(state, before, run, "does not match the hash")


def test_unsigned_marker_is_refused_when_a_signing_key_is_set(tmp_path, gh):
    server, facts = gh
    state = server.state
    state.add_comment(7, proposal_body(facts, key="other-key"), BOT, "Bot")
    before = {k: dict(v) for k, v in state.refs.items()}
    run = _apply(tmp_path, server, inputs={"signing_key": "the-real-key"})
    _assert_refused(state, before, run, "signature does not verify")


def test_closed_pr_is_refused(tmp_path, gh):
    server, facts = gh
    state = server.state
    state.add_comment(7, proposal_body(facts), BOT, "Bot")
    state.pulls[7]["state"] = "closed"
    before = {k: dict(v) for k, v in state.refs.items()}
    run = _apply(tmp_path, server)
    _assert_refused(state, before, run, "the pull request is closed")


def test_reject_marks_the_proposal_and_blocks_apply(tmp_path, gh):
    server, facts = gh
    state = server.state
    cid = state.add_comment(7, proposal_body(facts), BOT, "Bot")
    run = _apply(tmp_path / "1", server, body=f"/repopilot reject {PID}")
    assert run.returncode == 0, run.stderr
    assert parse_marker(state.comments[cid]["body"]).proposals[0].status == "rejected"
    assert "rejected" in _replies(state)[-1]
    before = {k: dict(v) for k, v in state.refs.items()}
    run = _apply(tmp_path / "2", server, cid=902)
    assert run.returncode == 0 and state.refs == before
    assert "was rejected" in _replies(state)[-1]


@pytest.mark.parametrize(
    "body,kw",
    [
        (f"/repopilot apply {PID}", {"action": "edited"}),
        (f"/repopilot apply {PID}", {"action": "deleted"}),
        (f"/repopilot apply {PID}", {"on_pr": False}),
        (f"> /repopilot apply {PID}", {}),
        (f"```\n/repopilot apply {PID}\n```", {}),
        (f"/repopilot apply {PID} please", {}),
        (f"/repopilot  apply {PID}", {}),
        (f"/RepoPilot apply {PID}", {}),
        (f"/repopilot apply {PID}", {"login": BOT, "user_type": "Bot"}),
    ],
)
def test_non_commands_are_ignored_silently(tmp_path, gh, body, kw):
    server, facts = gh
    state = server.state
    state.add_comment(7, proposal_body(facts), BOT, "Bot")
    before = {k: dict(v) for k, v in state.refs.items()}
    run = _apply(tmp_path, server, body=body, **kw)
    assert run.returncode == 0, run.stderr
    assert state.refs == before
    assert not state.calls("POST", r".*") and not state.calls("PATCH", r".*")
    assert _replies(state) == []


def test_ref_update_refused_by_github_answers_head_moved(tmp_path, gh):
    pytest.importorskip(
        "repopilot.proposal.validate", reason="repopilot/proposal.py (apply_to_files) not landed"
    )
    server, facts = gh
    state = server.state
    cid = state.add_comment(7, proposal_body(facts), BOT, "Bot")
    state.faults.append(
        Fault(
            "PATCH",
            r"/repos/.*/git/refs/heads/feature",
            422,
            {"message": "Update is not a fast forward"},
        )
    )
    run = _apply(tmp_path, server)
    assert run.returncode == 0, run.stderr
    assert state.refs[REPO]["feature"] == facts.head_sha
    assert "moved while the commit was being made" in _replies(state)[-1]
    assert parse_marker(state.comments[cid]["body"]).proposals[0].status == "proposed"


def test_dry_run_checks_but_changes_nothing(tmp_path, gh):
    server, facts = gh
    state = server.state
    cid = state.add_comment(7, proposal_body(facts), BOT, "Bot")
    before = {k: dict(v) for k, v in state.refs.items()}
    run = _apply(tmp_path, server, inputs={"dry_run": "true"})
    assert run.returncode == 0, run.stderr
    assert state.refs == before and _replies(state) == []
    assert parse_marker(state.comments[cid]["body"]).proposals[0].status == "proposed"
    assert "passed every check" in run.summary


def test_marker_from_another_pr_is_not_trusted(tmp_path, gh):
    server, facts = gh
    state = server.state
    state.add_comment(7, proposal_body(facts, pr=8), BOT, "Bot")  # the bot's comment, copied over
    before = {k: dict(v) for k, v in state.refs.items()}
    run = _apply(tmp_path, server)
    _assert_refused(state, before, run, f"no proposal `{PID}`")


def test_status_is_marked_on_the_comment_as_it_is_now(tmp_path, gh):
    pytest.importorskip(
        "repopilot.proposal.validate", reason="repopilot/proposal.py (apply_to_files) not landed"
    )
    server, facts = gh
    state = server.state
    cid = state.add_comment(7, proposal_body(facts), BOT, "Bot")

    def rerendered(st: State) -> None:  # a re-run edits the comment while the apply runs
        st.comments[cid]["body"] += "\nre-rendered by run 556\n"

    state.faults.append(Fault("GET", rf"/repos/.*/issues/comments/{cid}", hook=rerendered))
    run = _apply(tmp_path, server)
    assert run.returncode == 0, run.stderr
    body = state.comments[cid]["body"]
    assert "re-rendered by run 556" in body
    assert parse_marker(body).proposals[0].status == f"applied {state.refs[REPO]['feature']}"
