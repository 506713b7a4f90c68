"""Learning end to end in the loopback world (issue 21's Done-when).

A failure no pattern knows is diagnosed by the scripted LLM; the comment offers the pattern and
`/repopilot learn <id>`; a maintainer's command opens ONE pull request adding the pattern file;
once that file is on the default branch, the same failure in a new run is decided by the pattern
with zero LLM calls and the same key line. A fork PR carrying a pattern file changes nothing.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace

import pytest

from tests.adoption_logs import gha
from tests.loopback.github_action import (
    BOT,
    FORK,
    REPO,
    comment_event,
    run_action,
    run_event,
    seed,
)
from tests.loopback.github_server import GitHubServer, State
from tests.loopback.llm_servers import OpenAIServer, Reply, openai_completion

pytestmark = pytest.mark.integration

PATTERN_DIR = ".github/repopilot/patterns"


def _log(version: str, top: str) -> bytes:
    out = [
        "release-check: reading package.json",
        f"release-check: version {version}",
        "release-check: reading CHANGELOG.md",
        f"release-check: top entry is {top}",
        f"release-check: the versions differ; add a CHANGELOG.md entry for {version}",
    ]
    return gha([("npm ci", ["added 12 packages in 2s"]), ("node scripts/release-check.js", out)])


def _bot(state) -> list[dict]:
    return [c for c in state.comments.values() if c["login"] == BOT]


def _diagnosis() -> Reply:
    args = {
        "diagnosis": "The CHANGELOG.md has no entry for the new version; add one.",
        "category": "config_error",
        "confidence": 0.8,
    }
    return Reply(body=openai_completion(tool_calls=[("c1", "propose_fix", json.dumps(args))]))


@pytest.fixture
def world(tmp_path, monkeypatch):
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "HTTP_PROXY", "HTTPS_PROXY"):
        monkeypatch.delenv(name, raising=False)
    state = State(bot=BOT, fork_accepts_pulls=True)  # (the loopback's switch for POST /pulls)
    with GitHubServer(state) as gh, OpenAIServer() as llm:
        monkeypatch.setenv("OPENAI_BASE_URL", llm.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", "sk-loopback")
        yield tmp_path, state, gh, llm
    assert state.errors == []


def _triage(tmp, gh, facts, **kw):
    return run_action(tmp, gh.url, "workflow_run", run_event(facts, **kw), llm="openai",
                      model="gpt-4o-mini", repo_path=str(tmp))  # fmt: skip


def test_learn_from_a_diagnosis_then_decide_without_the_llm(world):
    tmp, state, gh, llm = world
    facts = seed(state)
    state.job_logs[101] = _log("1.4.0", "1.3.9")
    llm.queue(_diagnosis())
    first = _triage(tmp / "first", gh, facts)
    assert first.returncode == 0, first.stderr
    assert first.outputs["decided-by"] == "llm"
    [comment] = _bot(state)
    offer = re.search(r"/repopilot learn (learn-101-(\d+))", comment["body"])
    assert offer, comment["body"]
    anchors = re.findall(r"#step:\d+:\d+", comment["body"])
    assert anchors, comment["body"]
    assert "```yaml" in comment["body"] and "<details>" in comment["body"]

    # a reader cannot teach the bot
    refused = run_action(tmp / "reader", gh.url, "issue_comment",
                         comment_event(f"/repopilot learn {offer.group(1)}", login="reader"))  # fmt: skip
    assert refused.returncode == 0 and state.fork_pulls == []
    assert "learning needs one of" in _bot(state)[-1]["body"]

    learned = run_action(tmp / "learn", gh.url, "issue_comment",
                         comment_event(f"/repopilot learn {offer.group(1)}", login="maint"))  # fmt: skip
    assert learned.returncode == 0, learned.stderr
    assert len(state.fork_pulls) == 1, _bot(state)[-1]["body"]
    [pull] = state.fork_pulls
    assert pull["base"] == "main" and pull["head"].startswith("repopilot/learn/")
    branch = pull["head"]
    files = state.git.files(state.git.commits[state.refs[REPO][branch]].tree)
    [(path, (_mode, data))] = [(p, v) for p, v in files.items() if p.startswith(PATTERN_DIR)]
    assert "source: learned from job 101 of run 555:" in data.decode()
    reply = _bot(state)[-1]["body"]
    assert "Opened" in reply and "/pull/" in reply

    # the same command again: still ONE pull request
    again = run_action(tmp / "again", gh.url, "issue_comment",
                       comment_event(f"/repopilot learn {offer.group(1)}", login="maint", cid=901))  # fmt: skip
    assert again.returncode == 0 and len(state.fork_pulls) == 1
    assert "exists already" in _bot(state)[-1]["body"]

    # merged: the default branch now holds the pattern file
    state.refs[REPO]["main"] = state.refs[REPO][branch]
    later = replace(facts, run_id=556, job_id=102)
    state.runs[556] = {**state.runs[555], "jobs": [
        {"id": 102, "name": "test (3.12)", "conclusion": "failure",
         "steps": state.runs[555]["jobs"][1]["steps"]}]}  # fmt: skip
    state.job_logs[102] = _log("1.5.0", "1.4.0")  # the same failure, other versions
    asked = len(llm.requests)
    second = _triage(tmp / "second", gh, later)
    assert second.returncode == 0, second.stderr
    assert len(llm.requests) == asked  # zero LLM calls
    assert second.outputs["decided-by"] == "pattern"
    assert second.outputs["category"] == "config_error"
    body = _bot(state)[0]["body"]  # the same comment, edited for the new run
    assert 'run_id":556' in body or '"run_id":556' in body
    assert re.findall(r"#step:\d+:\d+", body)[0] == anchors[0]  # the same key line
    assert "/repopilot learn" not in body  # nothing left to learn


def test_a_fork_pr_adding_a_pattern_file_changes_nothing(world):
    tmp, state, gh, llm = world
    facts = seed(state, fork=True)
    state.job_logs[101] = _log("1.4.0", "1.3.9")
    evil = (
        b"ecosystem: fork\npatterns:\n  - id: fork.says-fine\n    category: other\n"
        b"    source: 'learned from x.log:1'\n    regex: '^release-check: the versions differ'\n"
        b"    title: 'nothing to see'\n    priority: 100\n    examples:\n"
        b"      match: ['release-check: the versions differ; x']\n      no_match: ['y']\n"
    )
    head = state.refs[FORK]["feature"]
    files = {p: v for p, v in state.git.files(state.git.commits[head].tree).items()}
    files[f"{PATTERN_DIR}/evil.yaml"] = ("100644", evil)
    tree = state.git.tree_of_files(files)
    state.refs[FORK]["feature"] = state.git.put_commit(tree, [head], "teach the bot")
    llm.queue(_diagnosis())
    got = _triage(tmp / "fork", gh, facts, fork=True)
    assert got.returncode == 0, got.stderr
    assert got.outputs["decided-by"] == "llm"  # not the fork's pattern
    reads = [r.path for r in state.calls("GET", r".*/contents/.*")]
    assert reads and all("ref=feature" not in r for r in reads)
