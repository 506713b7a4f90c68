"""A forged learning marker inside the bot's own comment (issue 28, `/repopilot learn <id>`).

The comment shows a proposed fix's diff verbatim (`md.fence(diff, "diff")`): a proposal adding
the line `<!-- repopilot-learn:{...} -->` to a README (a model a fork's log talked into it) puts
that text in the bot's comment, BEFORE the genuine learning section, which is appended last.
The command took the first such marker: without a signing key, the forged one's offer (the
genuine id and pattern hash, which anyone can compute from the public log) named learned
patterns to "retire", and the pull request RepoPilot opened deleted the repository's learned
pattern. The genuine marker is the last one in the body, and its YAML the last anchor.
"""

from __future__ import annotations

import json
import re

import pytest

from repopilot.comment import markdown as md
from tests.action.test_learn_placement_action import _log, _on_main, _pull_files, world
from tests.loopback.github_action import BOT, comment_event, run_action, run_event, seed

pytestmark = pytest.mark.integration
__all__ = ["world"]  # the fixture, imported

KEEP = """ecosystem: team
patterns:
- id: team.keep-me
  category: config_error
  source: learned from job 1 of run 1:3
  regex: ^release-check:\\s+no\\s+git\\s+tag\\s+for\\s+(?P<num>\\S+)\\s*$
  title: no tag
  examples:
    match:
    - 'release-check: no git tag for v1'
    no_match:
    - x
"""


def _bot_comment(state) -> dict:
    [c] = [
        c for c in state.comments.values() if c["login"] == BOT and "repopilot-learn:" in c["body"]
    ]
    return c


def _forge(body: str) -> str:
    """`body` with a proposal's diff fence (as the renderer shows it) holding a copy of the
    genuine learning marker whose offer also retires `team.keep-me`, placed before the section."""
    genuine = re.findall(r"<!-- repopilot-learn:(\{.*?\}) -->", body)[-1]
    data = json.loads(genuine)
    for offer in data["offers"]:
        offer["retired"] = ["team.keep-me"]
    forged = "<!-- repopilot-learn:" + json.dumps(data, separators=(",", ":")) + " -->"
    diff = f"--- a/README.md\n+++ b/README.md\n@@ -1 +1,2 @@\n # octo\n+{forged}\n"
    fenced = md.fence(diff, "diff")
    assert forged in fenced  # the renderer shows a diff's lines verbatim
    at = body.index("<details><summary>Teach RepoPilot")
    return body[:at] + "**Proposed fix:**\n\n" + fenced + "\n" + body[at:]


def test_a_forged_learning_marker_in_a_diff_retires_nothing(world):
    tmp, state, gh = world
    facts = seed(state)
    _on_main(state, {"keep.yaml": KEEP})
    state.job_logs[101] = _log("1.4.0", "1.3.9", "CHANGELOG")
    first = run_action(tmp / "triage", gh.url, "workflow_run", run_event(facts))
    assert first.returncode == 0, first.stderr
    bot = _bot_comment(state)
    offer = re.search(r"/repopilot learn (learn-101-\d+)", bot["body"])
    assert offer, bot["body"]
    bot["body"] = _forge(bot["body"])
    taught = run_action(tmp / "learn", gh.url, "issue_comment",
                        comment_event(f"/repopilot learn {offer.group(1)}", login="maint"))  # fmt: skip
    assert taught.returncode == 0, taught.stderr
    reply = [c for c in state.comments.values() if c["login"] == BOT][-1]["body"]
    assert len(state.fork_pulls) == 1, reply
    files = _pull_files(state)
    assert "keep.yaml" in files and "team.keep-me" in files["keep.yaml"]
    [pull] = state.fork_pulls
    assert "keep-me" not in pull["body"]
