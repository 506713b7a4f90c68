"""Issue 12, item 10: a `new mode 100755` in an approved diff is applied as shown (SECURITY.md §16),
not dropped into an empty commit that keeps 100644; an `old mode` that is not the head's refuses.

Chosen: apply rather than refuse. The mode lines are part of the diff the comment shows, so what
is committed is what the reviewer saw; symlink and submodule modes stay refused by the policy.
"""

from __future__ import annotations

import hashlib

import pytest

from repopilot.comment.marker import Marker, MarkerProposal, dump_marker, encode_diff
from repopilot.comment.status import status_block
from repopilot.proposal.apply import ModeChange, file_modes
from tests.loopback.github_action import BOT, HEAD_FILES, REPO, comment_event, run_action, seed
from tests.loopback.github_server import GitHubServer, State

EXEC_AND_FIX = (
    "diff --git a/src/calc.py b/src/calc.py\nold mode 100644\nnew mode 100755\n"
    "--- a/src/calc.py\n+++ b/src/calc.py\n@@ -1,2 +1,2 @@\n def add(a, b):\n"
    "-    return a - b\n+    return a + b\n"
)
MODE_ONLY = "diff --git a/run.sh b/run.sh\nold mode 100755\nnew mode 100644\n"
WRONG_OLD = "diff --git a/run.sh b/run.sh\nold mode 100644\nnew mode 100755\n"


@pytest.mark.unit
def test_file_modes_reads_what_the_diff_sets():
    assert file_modes(EXEC_AND_FIX) == {"src/calc.py": ModeChange("100644", "100755")}
    assert file_modes(MODE_ONLY + EXEC_AND_FIX) == {
        "run.sh": ModeChange("100755", "100644"),
        "src/calc.py": ModeChange("100644", "100755"),
    }
    new_file = "diff --git a/x.sh b/x.sh\nnew file mode 100755\n--- /dev/null\n+++ b/x.sh\n@@ -0,0 +1 @@\n+echo\n"
    assert file_modes(new_file) == {"x.sh": ModeChange(None, "100755")}


def _apply(tmp_path, diff):
    state = State(bot=BOT)
    with GitHubServer(state) as server:
        facts = seed(state)
        prop = MarkerProposal(
            id="fix-modes",
            sha256=hashlib.sha256(diff.encode()).hexdigest(),
            head_sha=facts.head_sha,
            diff_z=encode_diff(diff),
        )
        marker = Marker(repo=REPO, pr=7, run_id=555, head_sha=facts.head_sha, proposals=(prop,))
        body = f"{dump_marker(marker)}\n{status_block(marker)}\n```diff\n{diff}```\n"
        state.add_comment(7, body, BOT, "Bot")
        event = comment_event("/repopilot apply fix-modes", login="maint")
        run = run_action(tmp_path, server.url, "issue_comment", event)
    assert run.returncode == 0, run.stderr
    return state, facts, run


@pytest.mark.parametrize(
    ("diff", "path", "mode", "content"),
    [
        (EXEC_AND_FIX, "src/calc.py", "100755", b"def add(a, b):\n    return a + b\n"),
        (MODE_ONLY, "run.sh", "100644", HEAD_FILES["run.sh"][1]),
    ],
    ids=["content-and-mode", "mode-only"],
)
@pytest.mark.integration
def test_the_mode_the_diff_sets_is_committed(tmp_path, diff, path, mode, content):
    state, facts, run = _apply(tmp_path, diff)
    new = state.refs[REPO]["feature"]
    assert new != facts.head_sha and run.trace["outcome"] == "applied"
    commit = state.git.commits[new]
    assert commit.parents == [facts.head_sha]
    assert commit.tree != state.git.commits[facts.head_sha].tree, "not an empty commit"
    assert state.git.files(commit.tree)[path] == (mode, content)


@pytest.mark.integration
def test_an_old_mode_that_is_not_the_head_s_is_refused(tmp_path):
    state, facts, run = _apply(tmp_path, WRONG_OLD)
    assert state.refs[REPO]["feature"] == facts.head_sha
    assert run.trace["outcome"] == "refused"
    reply = [c["body"] for c in state.issue_comments(7) if not c["body"].startswith("<!--")][-1]
    assert "has mode 100755 at the head" in reply
