"""suggestion_for(): review suggestions that reproduce a proposal exactly, or None.

"Exactly" is checked against git itself: the head file with every suggestion applied must equal
the head file after `git apply` of the proposal's diff.
"""

from __future__ import annotations

import hashlib
import re
import subprocess
from pathlib import Path

import pytest

from repopilot.comment.suggest import PRFile, ReviewComment, suggestion_for
from repopilot.run_records import Proposal

HEAD_FILE = "".join(f"line {n}\n" for n in range(1, 41))
# The PR changed lines 10..22 of the head (RIGHT side 8..24 is inside its hunk).
PR_PATCH = "@@ -8,14 +8,17 @@ def f():\n" + "".join(f" line {n}\n" for n in range(8, 25))
# A second hunk at the top of the file, so an insertion before line 1 has a hunk to sit in.
PR_PATCH += "@@ -1,3 +1,3 @@\n line 1\n line 2\n line 3\n"


def proposal(diff: str) -> Proposal:
    sha = hashlib.sha256(diff.encode()).hexdigest()
    return Proposal(id="fix-1234", diff=diff, sha256=sha, files=("app.py",))


def git_applied(tmp_path: Path, diff: str) -> str:
    (tmp_path / "app.py").write_text(HEAD_FILE)
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    subprocess.run(["git", "apply", "-"], input=diff.encode(), cwd=tmp_path, check=True)
    return (tmp_path / "app.py").read_text()


def suggested(comments: list[ReviewComment]) -> str:
    lines = HEAD_FILE.splitlines(keepends=True)
    for c in sorted(comments, key=lambda c: c.line, reverse=True):
        body = re.search(r"(`{3,})suggestion\n(.*?)\1\Z", c.body, re.S)
        assert body, c.body
        start = c.start_line or c.line
        lines[start - 1 : c.line] = body.group(2).splitlines(keepends=True)
    return "".join(lines)


def unified(*hunks: str) -> str:
    return "--- a/app.py\n+++ b/app.py\n" + "".join(hunks)


CASES = {
    "replace one line": unified("@@ -11,3 +11,3 @@\n line 11\n-line 12\n+LINE 12\n line 13\n"),
    "replace two with three": unified(
        "@@ -11,4 +11,5 @@\n line 11\n-line 12\n-line 13\n+a\n+b\n+c\n line 14\n"
    ),
    "pure insertion": unified("@@ -15,2 +15,3 @@\n line 15\n+inserted\n line 16\n"),
    "insertion at file top": unified("@@ -1,1 +1,2 @@\n+inserted\n line 1\n"),
    "deletion": unified("@@ -17,3 +17,2 @@\n line 17\n-line 18\n line 19\n"),
    "two hunks": unified(
        "@@ -9,3 +9,3 @@\n line 9\n-line 10\n+ten\n line 11\n",
        "@@ -20,3 +20,3 @@\n line 20\n-line 21\n+```python\n line 22\n",
    ),
}


@pytest.mark.integration
@pytest.mark.parametrize("name", sorted(CASES))
def test_suggestions_reproduce_the_diff(name: str, tmp_path: Path) -> None:
    diff = CASES[name]
    comments = suggestion_for(proposal(diff), [PRFile("app.py", PR_PATCH)])
    assert comments, name
    assert suggested(comments) == git_applied(tmp_path, diff)
    for c in comments:
        assert c.path == "app.py" and (c.start_line or c.line) <= c.line


@pytest.mark.unit
def test_wire_shape_and_fence_length() -> None:
    comments = suggestion_for(proposal(CASES["two hunks"]), [PRFile("app.py", PR_PATCH)])
    single, fenced = comments
    assert single.wire() == {"path": "app.py", "body": single.body, "line": 10, "side": "RIGHT"}
    assert "\n````suggestion\n```python\n````" in fenced.body
    multi = suggestion_for(proposal(CASES["replace two with three"]), [PRFile("app.py", PR_PATCH)])
    assert multi[0].wire() == {
        "path": "app.py",
        "body": multi[0].body,
        "line": 13,
        "side": "RIGHT",
        "start_line": 12,
        "start_side": "RIGHT",
    }
    deletion = suggestion_for(proposal(CASES["deletion"]), [PRFile("app.py", PR_PATCH)])
    assert deletion[0].body.endswith("```suggestion\n```")


@pytest.mark.unit
@pytest.mark.parametrize(
    "diff, files",
    [
        (
            unified("@@ -29,2 +29,2 @@\n-line 29\n+x\n line 30\n"),
            [PRFile("app.py", PR_PATCH)],
        ),  # outside
        (
            unified("@@ -23,3 +23,3 @@\n line 23\n-line 24\n-line 25\n+x\n+y\n"),
            [PRFile("app.py", PR_PATCH)],
        ),  # straddles
        (CASES["replace one line"], [PRFile("other.py", PR_PATCH)]),  # file not in the PR
        (CASES["replace one line"], [PRFile("app.py", None)]),  # no patch (binary or too large)
        (CASES["replace one line"], [PRFile("app.py", "@@ -1,0 +0,0 @@\n")]),
        (
            "--- /dev/null\n+++ b/new.py\n@@ -0,0 +1 @@\n+x\n",
            [PRFile("new.py", "@@ -0,0 +1 @@\n+x")],
        ),
        (
            unified("@@ -12 +12 @@\n-line 12\n+x\n\\ No newline at end of file\n"),
            [PRFile("app.py", PR_PATCH)],
        ),
        (unified("@@ -12 +12 @@\n-line 12\n+x\r\n"), [PRFile("app.py", PR_PATCH)]),
        ("--- a/old.py\n+++ b/app.py\n@@ -12 +12 @@\n-line 12\n+x\n", [PRFile("app.py", PR_PATCH)]),
        ("not a diff at all", [PRFile("app.py", PR_PATCH)]),
        ("", [PRFile("app.py", PR_PATCH)]),
    ],
)
def test_no_suggestion_when_it_cannot_be_exact(diff: str, files: list[PRFile]) -> None:
    assert suggestion_for(proposal(diff), files) is None
