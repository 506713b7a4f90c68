"""The Action reads the problem matchers a repository keeps under `.github/` (issue 21).

A failure no built-in pattern decides goes to the LLM; once the default branch holds a problem
matcher for the tool's output, the same failure is decided by the imported pattern with zero LLM
calls. A matcher file that is not JSON costs one `::warning::`, never the run; a pull request's
head is never read for matchers.
"""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from tests.adoption_logs import gha
from tests.loopback.github_action import BOT, REPO, run_action, run_event, seed
from tests.loopback.github_server import GitHubServer, State
from tests.loopback.llm_servers import OpenAIServer, Reply, openai_completion

pytestmark = pytest.mark.integration

# a made-up linter's matcher, in the format `::add-matcher::` takes (one single-line matcher,
# one multi-line matcher that is left out)
MATCHER = {
    "problemMatcher": [
        {
            "owner": "mylint",
            "pattern": [
                {
                    "regexp": r"^([^:\s]+):(\d+):(\d+): (error|warning) (ML\d{3}) (.+)$",
                    "file": 1,
                    "line": 2,
                    "column": 3,
                    "severity": 4,
                    "code": 5,
                    "message": 6,
                }
            ],
        },
        {
            "owner": "mylint-multi",
            "pattern": [
                {"regexp": r"^In (\S+):$", "file": 1},
                {"regexp": r"^  (\d+): (.+)$", "line": 1, "message": 2, "loop": True},
            ],
        },
    ]
}


def _log(code: str) -> bytes:
    out = [
        "mylint 3.1 checking 14 files",
        f"src/frob/core.py:41:7: error {code} frobnicator shadows the outer frobnicator",
        "mylint: 1 problem found",
    ]
    return gha([("pip install mylint", ["Successfully installed mylint-3.1"]), ("mylint src", out)])


def _diagnosis() -> Reply:
    args = {"diagnosis": "mylint found a problem.", "category": "lint", "confidence": 0.7}
    return Reply(body=openai_completion(tool_calls=[("c1", "propose_fix", json.dumps(args))]))


@pytest.fixture
def world(tmp_path, monkeypatch):
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "HTTP_PROXY", "HTTPS_PROXY"):
        monkeypatch.delenv(name, raising=False)
    state = State(bot=BOT)
    with GitHubServer(state) as gh, OpenAIServer() as llm:
        monkeypatch.setenv("OPENAI_BASE_URL", llm.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", "sk-loopback")
        yield tmp_path, state, gh, llm
    assert state.errors == []


def _commit(state, ref: str, extra: dict[str, bytes]) -> None:
    """The branch `ref` of REPO with `extra` files added in one commit."""
    head = state.refs[REPO][ref]
    files = dict(state.git.files(state.git.commits[head].tree))
    files.update({p: ("100644", data) for p, data in extra.items()})
    state.refs[REPO][ref] = state.git.put_commit(state.git.tree_of_files(files), [head], "add")


def _triage(tmp, gh, facts):
    return run_action(tmp, gh.url, "workflow_run", run_event(facts), llm="openai",
                      model="gpt-4o-mini", repo_path=str(tmp))  # fmt: skip


def _bot(state) -> list[dict]:
    return [c for c in state.comments.values() if c["login"] == BOT]


def test_a_matcher_on_the_default_branch_decides_the_failure(world):
    tmp, state, gh, llm = world
    facts = seed(state)
    state.job_logs[101] = _log("ML042")
    _commit(state, "feature", {".github/mylint-matcher.json": json.dumps(MATCHER).encode()})
    llm.queue(_diagnosis())
    before = _triage(tmp / "before", gh, facts)
    assert before.returncode == 0, before.stderr
    # the matcher on the PR head only: not read, so the LLM decided
    assert before.outputs["decided-by"] == "llm"
    assert len(llm.requests) >= 1
    reads = [r.path for r in state.calls("GET", r".*/contents/.*")]
    assert reads and all("ref=feature" not in r for r in reads)

    _commit(state, "main", {
        ".github/mylint-matcher.json": json.dumps(MATCHER).encode(),
        ".github/dependabot.json": b'{"version": 2}',  # other JSON: not a matcher, no warning
    })  # fmt: skip
    later = replace(facts, run_id=556, job_id=102)
    state.runs[556] = {**state.runs[555], "jobs": [
        {"id": 102, "name": "test (3.12)", "conclusion": "failure",
         "steps": state.runs[555]["jobs"][1]["steps"]}]}  # fmt: skip
    state.job_logs[102] = _log("ML007")
    asked = len(llm.requests)
    after = _triage(tmp / "after", gh, later)
    assert after.returncode == 0, after.stderr
    assert len(llm.requests) == asked  # zero LLM calls
    assert after.outputs["decided-by"] == "pattern", after.stdout
    assert "::warning::" not in after.stdout, after.stdout
    body = _bot(state)[0]["body"]
    assert "frobnicator shadows the outer frobnicator" in body, body
    assert "Decided by pattern ` matcher.mylint `" in body, body


def test_a_broken_matcher_file_is_one_warning_and_the_run_posts(world):
    tmp, state, gh, llm = world
    facts = seed(state)
    state.job_logs[101] = _log("ML042")
    _commit(state, "main", {".github/problem-matchers/broken.json": b'{"problemMatcher": [',
                            ".github/problem-matchers/mylint.json": json.dumps(MATCHER).encode()})  # fmt: skip
    got = _triage(tmp / "broken", gh, facts)
    assert got.returncode == 0, got.stderr
    warnings = [ln for ln in got.stdout.splitlines() if ln.startswith("::warning::")]
    assert len(warnings) == 1, got.stdout
    assert "main:.github/problem-matchers/broken.json" in warnings[0]
    assert got.outputs["decided-by"] == "pattern"  # the good file in the same folder still counts
    assert len(llm.requests) == 0
    assert len(_bot(state)) == 1
