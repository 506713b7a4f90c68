"""The repository's own library as the Action reads it (issue 21/28: `.github/*.json` problem
matchers and `.github/repopilot/patterns/` of the default branch): a file there must cost at most
one `::warning::`, never the run. A `.github/` JSON file nested deeper than Python's recursion
limit made `json.loads` raise RecursionError (not a ValueError) out of the classifier's setup:
the whole triage failed with a traceback and no comment was posted. `repopilot patterns
import-matcher` on such a file, or on a matcher whose regexp nests groups past that limit, ended
in a RecursionError traceback instead of one line.
"""

from __future__ import annotations

import pytest

from repopilot.cli import main
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


@pytest.mark.parametrize(
    ("name", "text", "why"),
    [
        ("deep.json", "[" * 100_000 + "]" * 100_000, "not a readable JSON file"),
        (
            "groups.json",
            '{"problemMatcher": [{"owner": "x", "pattern": [{"regexp": "'
            + "(" * 5000
            + "a"
            + ")" * 5000
            + '"}]}]}',
            "no pattern could be made",
        ),
    ],
)
def test_import_matcher_on_a_hostile_file_is_one_line(tmp_path, capsys, name, text, why):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    code = main(["patterns", "import-matcher", str(path)])
    err = capsys.readouterr().err
    assert code in (1, 2) and why in err and "Traceback" not in err
