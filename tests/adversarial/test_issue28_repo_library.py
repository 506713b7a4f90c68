"""The repository's own library as the Action reads it (issue 21/28: `.github/*.json` problem
matchers and `.github/repopilot/patterns/` of the default branch): a file there must cost at most
one `::warning::`, never the run. A `.github/` JSON file nested deeper than Python's recursion
limit made `json.loads` raise RecursionError (not a ValueError) out of the classifier's setup:
the whole triage failed with a traceback and no comment was posted.
"""

from __future__ import annotations

import pytest

from tests.action.test_repo_matchers import _commit
from tests.loopback.github_action import BOT, run_action, run_event

pytestmark = pytest.mark.integration


def test_a_json_file_nested_too_deep_is_one_warning_and_the_run_posts(tmp_path, gh):
    server, facts = gh
    state = server.state
    _commit(state, "main", {".github/deep.json": b"[" * 100_000 + b"]" * 100_000})
    run = run_action(tmp_path, server.url, "workflow_run", run_event(facts))
    assert run.returncode == 0, run.stderr
    assert "Traceback" not in run.stderr
    warnings = [ln for ln in run.stdout.splitlines() if ln.startswith("::warning::")]
    assert len(warnings) == 1 and "main:.github/deep.json" in warnings[0], run.stdout
    assert [c for c in state.comments.values() if c["login"] == BOT]
