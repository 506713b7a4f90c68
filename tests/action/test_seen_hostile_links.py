"""A hostile `seen.json` (anyone with push access can write the memory branch) must not make
RepoPilot's comment link elsewhere: a record's run link is kept only when it is a run page of
this repository (docs/THREAT_MODEL.md §5, docs/MEMORY.md), else the word "run" stays plain."""

from __future__ import annotations

import json

import pytest

from repopilot.github.seen_store import BRANCH
from tests.action.test_seen_before import act, add_pr, comment, gh, memory  # noqa: F401
from tests.loopback.github_action import REPO

pytestmark = pytest.mark.integration


def test_a_stored_link_to_another_site_is_not_linked(tmp_path, gh):  # noqa: F811
    server, facts = gh
    state = server.state
    act(tmp_path, server, facts)
    [rec] = memory(state)
    evil = "https://evil.example/octo-org/octo-repo/actions/runs/555"
    lookalike = f"https://github.com/{REPO}/actions/runs/555/../../../../../evil/phish"
    hostile = [
        {**rec, "run_url": evil},
        {**rec, "run_id": 554, "pr": 6, "run_url": lookalike, "at": "2026-01-01T00:00:00Z"},
    ]
    text = json.dumps({"version": 1, "records": hostile}).encode()
    state.refs[REPO][BRANCH] = state.git.put_commit(
        state.git.tree_of_files({"seen.json": text}), [], "by hand"
    )
    other = add_pr(state, facts, 8, 556, "other")
    act(tmp_path, server, other)
    body = comment(state, 8)
    assert "also failed on PR #7 (run)" in body and "PR #6 (run)" in body
    assert "evil" not in body
