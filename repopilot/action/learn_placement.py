"""Where `/repopilot learn`'s pattern goes on the default branch (`.github/repopilot/patterns/`,
as `repopilot learn --out` places it: engine/learn/placement.py) and what its pull request says:
what it adds, what it takes out, and the pattern files it could not read."""

from __future__ import annotations

import tempfile
from pathlib import Path

from repopilot.engine.learn.placement import Placed, place
from repopilot.github.client import Repository
from repopilot.github.events import CommentEvent
from repopilot.github.learn_api import fetch_patterns


def placed_on_default(
    repo: Repository, text: str, pattern_id: str, retired: tuple[str, ...]
) -> tuple[Placed, tuple[str, ...]]:
    """The changes to the default branch's `.github/repopilot/patterns/`, and the files there it
    could not read (too many, too large: a pattern with this id in one is not replaced).
    GithubException when the directory cannot be read: the caller's refusal."""
    with tempfile.TemporaryDirectory(prefix="repopilot-learn-dir-") as tmp:
        fetched = fetch_patterns(repo, Path(tmp))
        files = {f.name: f.read_text(encoding="utf-8", errors="replace") for f in fetched.files}
    return place(files, text, pattern_id, retired), tuple(fetched.warnings)


def _unread(warnings: tuple[str, ...]) -> str:
    """The pattern files the placement could not read, for the pull request's description."""
    if not warnings:
        return ""
    head = (
        "\n\nNot read, so a pattern with this id in them is neither replaced nor removed "
        "(check them before merging):"
    )
    return head + "".join(f"\n- `{w}`" for w in warnings)


_DUPLICATE = "a second pattern with this id"
_CONTRADICTED = "it decided that failure on another line than the one named"


def _removals(placed: Placed, pattern_id: str) -> str:
    """What the pull request takes out, for its description."""
    lines = [
        f"\n- removes `{pid}` from `{name}`: "
        + (_DUPLICATE if pid == pattern_id else _CONTRADICTED)
        for pid, name in placed.removed
    ]
    return "\n" + "".join(lines) if lines else ""


def pull_body(event: CommentEvent, pattern_id: str, placed: Placed, unread: tuple[str, ...]) -> str:
    """The learn pull request's description: what it adds, what it takes out, what it could
    not read."""
    return _adds(event, pattern_id) + _removals(placed, pattern_id) + _unread(unread)


def _adds(event: CommentEvent, pattern_id: str) -> str:
    return (
        f"Adds the pattern `{pattern_id}` that RepoPilot learned, as asked by "
        f"@{event.comment.user.login} in #{event.issue.number}. Review it like code: it decides "
        "this repository's failures of that shape without the LLM once it is on the default branch."
    )
