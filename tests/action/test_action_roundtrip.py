"""The whole loop: a failed run -> the LLM proposes a fix -> ONE comment with the command ->
a maintainer's `/repopilot apply <id>` -> ONE commit whose tree is the head plus that diff.
Real PyGithub and the real openai client, each against its loopback server; git on a temp repo.
All three runs start `python -m repopilot action` in a subprocess, as the runner does."""

from __future__ import annotations

import json
import re
import subprocess

import pytest

from repopilot.comment.marker import parse_marker
from tests.loopback.github_action import (
    BOT,
    FIX,
    HEAD_FILES,
    REPO,
    comment_event,
    run_action,
    run_event,
    seed,
)
from tests.loopback.github_server import GitHubServer, State
from tests.loopback.llm_servers import OpenAIServer, Reply, openai_completion

pytestmark = pytest.mark.integration


def _checkout(path):
    for name, value in HEAD_FILES.items():
        data = value[1] if isinstance(value, tuple) else value
        (path / name).parent.mkdir(parents=True, exist_ok=True)
        (path / name).write_bytes(data)
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-C", str(path)]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-qm", "head"], check=True)


def _bot(state):
    return [c for c in state.comments.values() if c["login"] == BOT]


def test_failed_run_to_applied_fix(tmp_path, monkeypatch):
    checkout = tmp_path / "head"
    checkout.mkdir()
    _checkout(checkout)
    args = {
        "diagnosis": "add() subtracts",
        "category": "test_failure",
        "diff": FIX,
        "confidence": 0.9,
    }
    state = State(bot=BOT)
    with GitHubServer(state) as gh, OpenAIServer() as llm:
        llm.queue(
            Reply(body=openai_completion(tool_calls=[("c1", "propose_fix", json.dumps(args))]))
        )
        facts = seed(state)
        patch = "@@ -1,2 +1,2 @@\n def add(a, b):\n-    return a + b\n+    return a - b"
        state.pull_files[7] = [{"filename": "src/calc.py", "status": "modified", "patch": patch}]
        monkeypatch.setenv("OPENAI_BASE_URL", llm.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", "sk-loopback")
        run = run_action(
            tmp_path / "run",
            gh.url,
            "workflow_run",
            run_event(facts),
            llm="openai",
            model="gpt-4o-mini",
            escalate="fixable",
            repo_path=str(checkout),
            process=True,
        )
        assert run.returncode == 0, run.stderr
        pid = run.outputs["proposal-id"]
        assert re.fullmatch(r"[a-z0-9-]{6,40}", pid), run.outputs
        [comment] = state.comments.values()
        assert f"/repopilot apply {pid}" in comment["body"]
        assert parse_marker(comment["body"]).proposals[0].head_sha == facts.head_sha
        [review] = state.reviews  # the same fix as a one-click suggestion, in one review
        assert review["commit_id"] == facts.head_sha and pid in review["body"]
        [suggestion] = review["comments"]
        assert suggestion["path"] == "src/calc.py" and suggestion["line"] == 2
        assert "```suggestion\n    return a + b\n```" in suggestion["body"]

        applied = run_action(
            tmp_path / "apply",
            gh.url,
            "issue_comment",
            comment_event(f"/repopilot apply {pid}", login="maint"),
            process=True,
        )
        assert applied.returncode == 0, applied.stderr
        # the old run re-run: the same comment, the applied status kept, no second review
        llm.queue(
            Reply(body=openai_completion(tool_calls=[("c2", "propose_fix", json.dumps(args))]))
        )
        again = run_action(
            tmp_path / "again",
            gh.url,
            "workflow_run",
            run_event(facts),
            llm="openai",
            escalate="fixable",
            repo_path=str(checkout),
            process=True,
        )
        assert again.returncode == 0, again.stderr
    new = state.refs[REPO]["feature"]
    commit = state.git.commits[new]
    assert commit.parents == [facts.head_sha]
    files = state.git.files(commit.tree)
    assert files["src/calc.py"] == ("100644", b"def add(a, b):\n    return a + b\n")
    assert files["run.sh"][0] == "100755"
    assert (
        parse_marker(state.comments[comment["id"]]["body"]).proposals[0].status == f"applied {new}"
    )
