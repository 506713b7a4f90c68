"""One-click `suggestion` review comments for a proposal that fits inside the PR's own diff.

GitHub only accepts review comments on lines of the PR's diff, and a multi-line comment must stay
within one hunk. So a proposal becomes suggestions only when each of its change blocks replaces
lines that all lie in one RIGHT-side hunk of the PR's patch for that file; otherwise None and the
PR comment alone carries the fix. Pure function: the GitHub edge posts the result as one review.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from unidiff.errors import UnidiffParseError
from unidiff.patch import PatchSet

from repopilot.comment.markdown import fence_ticks
from repopilot.run_records import Proposal

_HUNK = re.compile(r"^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@", re.MULTILINE)


@dataclass(frozen=True)
class PRFile:
    """A file of the PR's diff as `GET /pulls/{n}/files` gives it (`patch` holds the hunks)."""

    filename: str
    patch: str | None
    status: str = "modified"


@dataclass(frozen=True)
class ReviewComment:
    """One comment of a pull request review, on the head (RIGHT) side."""

    path: str
    body: str
    line: int
    start_line: int | None = None

    def wire(self) -> dict[str, Any]:
        """The shape `POST /pulls/{n}/reviews` takes in `comments[]`."""
        out: dict[str, Any] = {"path": self.path, "body": self.body, "line": self.line}
        out["side"] = "RIGHT"
        if self.start_line is not None:
            out.update(start_line=self.start_line, start_side="RIGHT")
        return out


@dataclass(frozen=True)
class _Block:
    start: int  # first and last line of the head file that the suggestion replaces
    end: int
    lines: tuple[str, ...]  # the replacement, each with its line ending


def right_ranges(patch: str | None) -> list[tuple[int, int]]:
    """The RIGHT-side line ranges [first, last] of the hunks of a PR file's `patch`."""
    ranges = []
    for match in _HUNK.finditer(patch or ""):
        first, count = int(match.group(1)), int(match.group(2) or 1)
        if count > 0:
            ranges.append((first, first + count - 1))
    return ranges


def _strip(path: str | None) -> str:
    path = path or ""
    return path[2:] if path.startswith(("a/", "b/")) else path


def _blocks(hunk: Any) -> list[_Block] | None:
    rows = list(hunk)
    blocks: list[_Block] = []
    i = 0
    while i < len(rows):
        if rows[i].is_context:
            i += 1
            continue
        j = i
        while j < len(rows) and not rows[j].is_context:
            j += 1
        removed = [r for r in rows[i:j] if r.is_removed]
        added = tuple(r.value for r in rows[i:j] if r.is_added)
        if removed:
            blocks.append(_Block(removed[0].source_line_no, removed[-1].source_line_no, added))
        elif i > 0:  # pure insertion: anchor on the line before it
            before = rows[i - 1]
            blocks.append(
                _Block(before.source_line_no, before.source_line_no, (before.value,) + added)
            )
        elif j < len(rows):  # at the top of the hunk: anchor on the line after it
            after = rows[j]
            blocks.append(
                _Block(after.source_line_no, after.source_line_no, added + (after.value,))
            )
        else:
            return None
        i = j
    return blocks


def _body(proposal_id: str, lines: tuple[str, ...]) -> str:
    content = "".join(lines)
    ticks = fence_ticks(content)
    return f"RepoPilot fix `{proposal_id}` (see the RepoPilot comment):\n\n{ticks}suggestion\n{content}{ticks}"


def suggestion_for(proposal: Proposal, pr_files: Sequence[PRFile]) -> list[ReviewComment] | None:
    """Suggestion comments reproducing `proposal` exactly, or None when it cannot be expressed
    as suggestions on the PR's diff (new/deleted/renamed files, lines outside the PR's hunks,
    end-of-file newline changes, CR characters, unparsable diff)."""
    try:
        patch = PatchSet(proposal.diff)
    except (UnidiffParseError, ValueError):
        return None
    hunks = {f.filename: right_ranges(f.patch) for f in pr_files if f.status != "removed"}
    comments: list[ReviewComment] = []
    for pf in patch:
        path = _strip(pf.target_file)
        if (
            pf.is_added_file
            or pf.is_removed_file
            or pf.is_binary_file
            or path != _strip(pf.source_file)
        ):
            return None
        ranges = hunks.get(path)
        if not ranges:
            return None
        for hunk in pf:
            if any(r.line_type == "\\" or "\r" in r.value for r in hunk):
                return None
            blocks = _blocks(hunk)
            if blocks is None:
                return None
            for b in blocks:
                if not any(lo <= b.start and b.end <= hi for lo, hi in ranges):
                    return None
                if any(not line.endswith("\n") for line in b.lines):
                    return None
                start = b.start if b.start != b.end else None
                comments.append(ReviewComment(path, _body(proposal.id, b.lines), b.end, start))
    return comments or None
