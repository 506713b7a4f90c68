"""Issue 12, items 6 and 7: `GH-123` is defused like `#123` (GitHub autolinks both), refusal replies
show every path as inert code, and a fix touching a file that is not UTF-8 is refused before it is
offered (`binary`), since the apply could never write it.
"""

from __future__ import annotations

import hashlib
import re

import pytest
from markdown_it import MarkdownIt

from repopilot.comment import markdown as md
from repopilot.comment.marker import Marker, MarkerProposal, dump_marker, encode_diff
from repopilot.comment.status import status_block
from repopilot.proposal.validate import validate
from repopilot.run_records import Proposal
from tests.loopback.github_action import BOT, HEAD_FILES, REPO, comment_event, run_action, seed
from tests.loopback.github_server import GitHubServer, State

MD = MarkdownIt("commonmark")
HOSTILE_PATH = "notes/cc @octocat and @org/team re #1 GH-2.txt"
LATIN1 = "caf\xe9 cr\xe8me\n".encode("latin-1")
DIFF = f"--- a/{HOSTILE_PATH}\n+++ b/{HOSTILE_PATH}\n@@ -1 +1 @@\n-caf\xe9 cr\xe8me\n+cafe creme\n"
LIVE = re.compile(r"(?<![\w`])(?:@[A-Za-z0-9]|#[0-9]|GH-[0-9])", re.IGNORECASE)


def live_references(body: str) -> list[str]:
    """Mentions and issue references GitHub would link in `body`: text outside code only."""
    found = []
    for tok in MD.parse(body):
        for t in [tok, *(tok.children or ())]:
            if t.type == "text" and LIVE.search(t.content):
                found.append(t.content)
    return found


@pytest.mark.unit
@pytest.mark.parametrize("ref", ["GH-123", "gh-7", "see GH-2.", "(GH-99)"])
def test_gh_references_are_defused_like_hash_references(ref):
    for rendered in (md.text(ref), md.prose(ref), md.prose(f"`x` {ref}", code=True)):
        assert live_references(rendered) == [], rendered
    assert md.text("sigh-5 SIGH-6") == "sigh\\-5 SIGH\\-6"  # only the autolink shape changes


@pytest.mark.unit
def test_a_fix_to_a_file_that_is_not_utf8_is_refused_before_it_is_offered(tmp_path):
    repo = tmp_path / "repo"
    (repo / HOSTILE_PATH).parent.mkdir(parents=True)
    (repo / HOSTILE_PATH).write_bytes(LATIN1)
    result = validate(DIFF, repo)
    assert not isinstance(result, Proposal)
    assert result.reason == "binary" and "not UTF-8" in result.detail


@pytest.mark.unit
def test_a_utf8_file_is_still_offered(tmp_path):
    repo = tmp_path / "repo"
    (repo / HOSTILE_PATH).parent.mkdir(parents=True)
    (repo / HOSTILE_PATH).write_bytes("café crème\n".encode())
    diff = DIFF.replace("caf\xe9 cr\xe8me", "café crème")
    assert isinstance(validate(diff, repo), Proposal)


@pytest.mark.integration
def test_the_refusal_reply_shows_the_path_as_inert_code(tmp_path):
    state = State(bot=BOT)
    with GitHubServer(state) as server:
        facts = seed(state)
        git = state.git
        files = {**HEAD_FILES, HOSTILE_PATH: LATIN1}
        head = git.put_commit(git.tree_of_files(files), [facts.head_sha], "notes")
        state.refs[REPO]["feature"] = head
        state.pulls[7]["head_sha"] = head
        prop = MarkerProposal(
            id="fix-notes",
            sha256=hashlib.sha256(DIFF.encode()).hexdigest(),
            head_sha=head,
            diff_z=encode_diff(DIFF),
        )
        marker = Marker(repo=REPO, pr=7, run_id=555, head_sha=head, proposals=(prop,))
        body = f"{dump_marker(marker)}\n{status_block(marker)}\n```diff\n{DIFF}```\n"
        state.add_comment(7, body, BOT, "Bot")
        event = comment_event("/repopilot apply fix-notes", login="maint")
        run = run_action(tmp_path, server.url, "issue_comment", event)
    assert run.returncode == 0, run.stderr
    [reply] = [c["body"] for c in state.issue_comments(7) if not c["body"].startswith("<!--")]
    assert "not UTF-8" in reply and run.trace["outcome"] == "refused"
    assert live_references(reply) == [], reply
    codes = [
        t.content for tok in MD.parse(reply) for t in tok.children or () if t.type == "code_inline"
    ]
    assert HOSTILE_PATH in codes
    assert state.refs[REPO]["feature"] == head
