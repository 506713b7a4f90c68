"""`/repopilot learn`'s pull request names the pattern files it could not read (over
MAX_FILE bytes, or past MAX_FILES): a pattern with the learned id in one of them is neither
replaced nor removed, so the maintainer must check it before merging (loopback world)."""

from __future__ import annotations

import pytest

from repopilot.github.learn_api import MAX_FILE
from tests.action.test_learn_placement_action import (
    CAUSE,
    PATTERN_DIR,
    _log,
    _on_main,
    _teach,
    world,  # noqa: F401  (the fixture)
)
from tests.loopback.github_action import seed

pytestmark = pytest.mark.integration


def test_a_pattern_file_too_large_to_read_is_named_in_the_pull_request(world):  # noqa: F811
    tmp, state, gh = world
    facts = seed(state)
    big = "ecosystem: team\npatterns: []\n" + "# padding\n" * (MAX_FILE // 10 + 10)
    _on_main(state, {"huge.yaml": big})
    state.job_logs[101] = _log("1.4.0", "1.3.9", "CHANGELOG")
    _teach(tmp, gh, state, facts, f"/repopilot learn 101 L{CAUSE} config_error")
    [pull] = state.fork_pulls
    assert "Not read, so a pattern with this id in them" in pull["body"]
    assert f"{PATTERN_DIR}/huge.yaml: skipped" in pull["body"]


def test_without_unread_files_the_pull_request_says_nothing_of_them(world):  # noqa: F811
    tmp, state, gh = world
    facts = seed(state)
    state.job_logs[101] = _log("1.4.0", "1.3.9", "CHANGELOG")
    _teach(tmp, gh, state, facts, f"/repopilot learn 101 L{CAUSE} config_error")
    [pull] = state.fork_pulls
    assert "Not read" not in pull["body"]
