"""The hidden marker, the status block and the approval command.

The marker must survive anything a diff can hold (exact bytes back, sha256 equal), must never
end its own HTML comment early, must be found only where RepoPilot puts it (first line), and its
HMAC must bind everything an apply depends on. Commands are accepted in exactly two forms.
"""

from __future__ import annotations

import hashlib
import json
import re
import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from repopilot.comment.command import parse_command
from repopilot.comment.marker import (
    MARKER_PREFIX,
    MAX_DIFF_BYTES,
    Marker,
    MarkerProposal,
    decode_diff,
    dump_marker,
    encode_diff,
    extract_diff,
    parse_marker,
    sign,
    verify_marker,
)
from repopilot.comment.render import CommentContext, render
from repopilot.comment.sections import JobReport
from repopilot.comment.status import mark_status
from repopilot.records import Evidence, Verdict
from repopilot.run_records import Proposal, TriageResult

pytestmark = pytest.mark.unit

HEAD = "89abcdef0123456789abcdef0123456789abcdef"


def body_for(diff: str, pid: str = "abc-123", key: str | None = None) -> str:
    sha = hashlib.sha256(diff.encode("utf-8")).hexdigest()
    v = Verdict(
        source="log",
        category="test_failure",
        decided_by="pattern",
        pattern_id="p",
        title="t",
        evidence=(Evidence(line=3, text="boom"),),
    )
    p = Proposal(id=pid, diff=diff, sha256=sha, files=("a.py",), confidence=0.5)
    job = JobReport(
        name="test",
        html_url="https://github.com/o/r/actions/runs/1/job/2",
        result=TriageResult(verdict=v, proposal=p),
    )
    return render(
        [job], CommentContext(repo="o/r", run_id=1, head_sha=HEAD, pr_number=3, signing_key=key)
    )


AWKWARD = [
    "--- a/a.py\n+++ b/a.py\n@@ -1 +1 @@\n-x\n+y",  # no final newline
    "--- a/a.py\r\n+++ b/a.py\r\n@@ -1 +1 @@\r\n-x\r\n+y\r\n",  # CRLF
    "--- a/a.md\n+++ b/a.md\n@@ -1 +1 @@\n-```\n+````` <!-- x --> --> --!> -->\n",
    "--- a/a.py\n+++ b/a.py\n@@ -1 +1 @@\n-x  \n+y\t \n",  # trailing whitespace
    "--- a/a.py\n+++ b/a.py\n@@ -1 +1 @@\n-x\n+y\n\\ No newline at end of file\n",
    "--- a/a.py\n+++ b/a.py\n@@ -1 +1 @@\n-x\n+s = 'é 😀 \\u002d <!-- repopilot:{} -->'\n",
]


@pytest.mark.parametrize("diff", AWKWARD)
def test_diff_round_trips_exactly(diff: str) -> None:
    body = body_for(diff)
    got = extract_diff(body, "abc-123")
    assert got == diff
    marker = parse_marker(body)
    assert hashlib.sha256(got.encode("utf-8")).hexdigest() == marker.proposals[0].sha256


@settings(max_examples=200, deadline=None)
@given(diff=st.text(min_size=1, max_size=300))
def test_property_any_text_round_trips_through_the_marker(diff: str) -> None:
    marker = Marker(
        run_id=1,
        head_sha=HEAD,
        proposals=(
            MarkerProposal(id="abc-123", sha256="0" * 64, head_sha=HEAD, diff_z=encode_diff(diff)),
        ),
    )
    line = dump_marker(marker)
    # nothing inside can end or nest the HTML comment
    inner = line[len(MARKER_PREFIX) : -len(" -->")]
    assert "-" not in inner and ">" not in inner and "<" not in inner
    assert parse_marker(line + "\n" + diff) == marker
    assert extract_diff(line, "abc-123") == diff


def test_marker_only_counts_at_the_top() -> None:
    body = body_for("--- a/a.py\n+++ b/a.py\n@@ -1 +1 @@\n-x\n+y\n")
    marker_line = body.split("\n", 1)[0]
    assert parse_marker("  \n" + body) is not None
    assert parse_marker("quoted:\n" + marker_line) is None
    assert parse_marker("> " + marker_line) is None


@pytest.mark.parametrize(
    "text",
    [
        "<!-- repopilot:{} -->",
        "<!-- repopilot:not json -->",
        '<!-- repopilot:{"run_id":1} -->',
        '<!-- repopilot:{"run_id":1,"head_sha":"'
        + HEAD
        + '","proposals":[{"id":"UPPER","sha256":"'
        + "0" * 64
        + '","head_sha":"'
        + HEAD
        + '"}]} -->',
        '<!-- repopilot:{"run_id":1,"head_sha":"' + HEAD + '","extra":1} -->',
        "<!-- repopilot:" + "[" * 100_000 + " -->",
        '<!-- repopilot:{"run_id":1,"head_sha":"' + HEAD + '"}',  # unterminated
    ],
)
def test_malformed_markers_are_none(text: str) -> None:
    assert parse_marker(text) is None


def test_zlib_bomb_is_refused() -> None:
    import base64

    bomb = base64.b64encode(zlib.compress(b"a" * (MAX_DIFF_BYTES + 10))).decode()
    assert decode_diff(bomb) is None
    assert decode_diff("not base64!") is None
    assert decode_diff(base64.b64encode(zlib.compress(b"\xff\xfe")).decode()) is None


def test_hmac_binds_repo_pr_run_head_and_hashes() -> None:
    body = body_for("--- a/a.py\n+++ b/a.py\n@@ -1 +1 @@\n-x\n+y\n", key="key-1")
    marker = parse_marker(body)
    assert verify_marker(marker, "key-1") and verify_marker(marker, None)
    assert not verify_marker(marker, "key-2")
    assert not verify_marker(marker.model_copy(update={"hmac": None}), "key-1")
    p = marker.proposals[0]
    for change in (
        {"repo": "o/other"},
        {"pr": 4},
        {"run_id": 2},
        {"head_sha": "f" * 40},
        {"proposals": (p.model_copy(update={"sha256": "1" * 64}),)},
        {"proposals": (p.model_copy(update={"head_sha": "e" * 40}),)},
        {"proposals": (p.model_copy(update={"id": "other-1"}),)},
    ):
        assert not verify_marker(marker.model_copy(update=change), "key-1"), change
    # the status is deliberately unsigned: mark_status keeps a valid signature
    applied = parse_marker(mark_status(body, p.id, "applied " + "c" * 40))
    assert verify_marker(applied, "key-1")
    assert sign(marker, None).hmac is None


def test_mark_status_updates_marker_and_visible_block_only() -> None:
    diff = "--- a/a.py\n+++ b/a.py\n@@ -1 +1 @@\n-x\n+<!-- /repopilot-status -->\n"
    body = body_for(diff)
    applied = mark_status(body, "abc-123", "applied " + "d" * 40)
    assert parse_marker(applied).proposals[0].status == "applied " + "d" * 40
    assert "Fix `abc-123`: applied in " + "d" * 40 in applied
    assert "waiting for a maintainer" not in applied
    assert extract_diff(applied, "abc-123") == diff
    # after the status block only the commands under the diff change: they become the outcome
    tail = body[body.index("<!-- /repopilot-status -->") :]
    before_cmds = tail[: tail.index("<!-- repopilot-cmd:abc-123 -->")]
    assert before_cmds in applied
    assert "/repopilot apply abc-123" not in applied and "**Applied** in " + "d" * 40 in applied
    assert applied.count("+<!-- /repopilot-status -->") == 1  # the diff's own text untouched
    rejected = mark_status(applied, "abc-123", "rejected")
    assert "Fix `abc-123`: rejected" in rejected and "**Rejected** by a maintainer" in rejected
    with pytest.raises(ValueError):
        mark_status(body, "zzz-999", "rejected")
    with pytest.raises(ValueError):
        mark_status(body, "abc-123", "applied nothex")
    with pytest.raises(ValueError):
        mark_status("no marker here", "abc-123", "rejected")


def test_marker_json_is_plain_json() -> None:
    body = body_for("--- a/a.py\n+++ b/a.py\n@@ -1 +1 @@\n-x\n+y\n")
    raw = body[len(MARKER_PREFIX) : body.index(" -->")]
    doc = json.loads(raw)
    assert doc["proposals"][0]["id"] == "abc-123" and doc["pr"] == 3 and doc["repo"] == "o/r"


# --- commands ---------------------------------------------------------------------------------

ids = st.from_regex(r"[a-z0-9-]{6,40}", fullmatch=True)
space = st.text(alphabet=" \t\r\n", max_size=4)
# Blank lines, then at most 3 spaces: 4 spaces or a tab make an indented code block on GitHub.
lead = st.builds(
    lambda lines, indent: lines + indent,
    st.lists(st.sampled_from(["\n", "\r\n", " \n", "\t\n"]), max_size=2).map("".join),
    st.text(alphabet=" ", max_size=3),
)


@given(verb=st.sampled_from(["apply", "reject"]), pid=ids, before=lead, after=space)
def test_property_exact_commands_are_accepted(verb: str, pid: str, before: str, after: str) -> None:
    cmd = parse_command(f"{before}/repopilot {verb} {pid}{after}")
    assert cmd is not None and cmd.action == verb and cmd.proposal_id == pid
    action, proposal_id = cmd
    assert (action, proposal_id) == (verb, pid)


@given(body=st.text(max_size=80))
def test_property_anything_accepted_is_exactly_one_command(body: str) -> None:
    cmd = parse_command(body)
    if cmd is not None:
        assert body.strip(" \t\r\n") == f"/repopilot {cmd.action} {cmd.proposal_id}"
        assert re.fullmatch(r"[a-z0-9-]{6,40}", cmd.proposal_id)


@given(
    pid=ids,
    wrap=st.sampled_from(
        [
            "> {}",
            "`{}`",
            "```\n{}\n```",
            "{} please",
            "{}\nthanks",
            "please {}",
            "/Repopilot apply {}",
            "\u00a0{}",
            "{}\u200b",
            '"{}"',
            "{}.",
        ]
    ),
)
def test_property_anything_else_is_not_a_command(pid: str, wrap: str) -> None:
    text = wrap.format(f"/repopilot apply {pid}") if "Repopilot" not in wrap else wrap.format(pid)
    assert parse_command(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "/repopilot apply abc12",  # too short
        "/repopilot apply " + "a" * 41,  # too long
        "/repopilot apply ABC123",
        "/repopilot apply abc_123",
        "/repopilot  apply abc123",
        "/repopilot\tapply abc123",
        "/repopilot APPLY abc123",
        "/repopilot merge abc123",
        "/repopilot apply abc123 abc456",
        "/repopilot apply",
        "",
    ],
)
def test_near_misses_are_not_commands(text: str) -> None:
    assert parse_command(text) is None
