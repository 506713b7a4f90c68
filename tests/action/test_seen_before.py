"""Seen before, across PRs and the default branch (issue 28 item 3, docs/MEMORY.md), end to end:
the real entry point and PyGithub against the loopback GitHub, whose contents API keeps
`seen.json` on the `repopilot-memory` branch with GitHub's blob-sha checks."""

from __future__ import annotations

import dataclasses
import json
import threading

import pytest

from repopilot.action.memory import stored_signature
from repopilot.github.seen_store import BRANCH
from tests.loopback.github_action import BOT, LOG, REPO, STEPS, Facts, run_action, run_event, seed
from tests.loopback.github_contents import repository_writes
from tests.loopback.github_server import Fault, GitHubServer, Request, State

pytestmark = pytest.mark.integration

CONTENTS = r"/repos/octo-org/octo-repo/contents/seen\.json"
JOB = "test (3.12)"


@pytest.fixture
def gh():
    state = State(bot=BOT)
    with GitHubServer(state) as server:
        yield server, seed(state)
    assert state.errors == []


def add_pr(state: State, facts: Facts, pr: int, run_id: int, branch: str) -> Facts:
    """Another PR (same repository) whose run `run_id` fails the same way as PR #7's."""
    head = state.git.put_commit(state.git.commits[facts.head_sha].tree, [facts.base_sha], branch)
    state.refs[REPO][branch] = head
    state.pulls[pr] = {
        "number": pr,
        "head_ref": branch,
        "head_sha": head,
        "head_repo": REPO,
        "base_ref": "main",
        "base_sha": facts.base_sha,
    }
    add_run(state, run_id, head)
    return dataclasses.replace(facts, pr=pr, run_id=run_id, head_sha=head, job_id=run_id * 10)


def add_run(state: State, run_id: int, head: str) -> None:
    """A failed run (not in the workflow's run listings) with the seeded failing job."""
    jobs = [
        {"id": run_id * 10 - 1, "name": "lint", "conclusion": "success"},
        {"id": run_id * 10, "name": JOB, "conclusion": "failure", "steps": STEPS},
    ]
    state.runs[run_id] = {"jobs": jobs, "head_sha": head, "zip": None}
    state.job_logs[run_id * 10] = LOG


def event(facts: Facts, branch: str = "feature", pr: bool = True) -> dict:
    ev = run_event(facts, prs=pr)
    run = ev["workflow_run"]
    run["head_branch"] = branch
    ev["repository"]["default_branch"] = "main"
    if pr:
        run["pull_requests"][0]["head"]["ref"] = branch
        run["pull_requests"][0]["base"].update(ref="main", sha=facts.base_sha)
    return ev


def act(tmp_path, server, facts, ev=None, **inputs):
    ev = ev or event(facts)
    run = run_action(tmp_path / str(facts.run_id), server.url, "workflow_run", ev, **inputs)
    assert run.returncode == 0, run.stderr
    assert "Traceback" not in run.stderr
    return run


def push_on_main(state: State, facts: Facts, run_id: int = 600) -> tuple[Facts, dict]:
    """A push run of the default branch failing the same way (no PR)."""
    add_run(state, run_id, facts.base_sha)
    main = dataclasses.replace(facts, run_id=run_id, head_sha=facts.base_sha, job_id=run_id * 10)
    return main, event(main, branch="main", pr=False)


def memory(state: State) -> list[dict]:
    head = state.refs[REPO][BRANCH]
    tree = state.git.commits[head].tree
    _mode, _kind, blob = state.git.trees[tree]["seen.json"]
    return json.loads(state.git.blobs[blob])["records"]


def comment(state: State, pr: int) -> str:
    [c] = [c for c in state.issue_comments(pr) if c["login"] == BOT]
    return c["body"]


def warnings(run) -> list[str]:
    return [line for line in run.stdout.splitlines() if line.startswith("::warning::")]


def test_a_first_failed_run_records_its_failed_job(tmp_path, gh):
    server, facts = gh
    state = server.state
    run = act(tmp_path, server, facts)
    assert "Seen before" not in comment(state, 7)
    [rec] = memory(state)
    assert rec["pr"] == 7 and rec["branch"] == "feature" and rec["on_default"] is False
    assert rec["run_id"] == 555 and rec["job"] == JOB and rec["head_sha"] == facts.head_sha
    assert rec["run_url"] == f"https://github.com/{REPO}/actions/runs/555"
    assert rec["signature"] and rec["category"] == run.outputs["category"]
    assert rec["decided_by"] == run.outputs["decided-by"] and rec["at"].endswith("Z")
    assert not warnings(run)


def test_a_second_pr_failing_the_same_way_says_also_failed_on_pr(tmp_path, gh):
    server, facts = gh
    state = server.state
    act(tmp_path, server, facts)
    other = add_pr(state, facts, 8, 556, "other")
    act(tmp_path, server, other)
    body = comment(state, 8)
    run_url = f"https://github.com/{REPO}/actions/runs/555"
    assert f"**Seen before:** also failed on PR #7 ([run](<{run_url}>))." in body
    # PR #7's own re-run is not "seen before" by its own earlier record, but by PR #8's
    again = dataclasses.replace(facts, run_id=557, job_id=5570)
    add_run(state, 557, facts.head_sha)
    act(tmp_path, server, again)
    again_body = comment(state, 7)
    assert "also failed on PR #8" in again_body and "PR #7" not in again_body
    assert [r["run_id"] for r in memory(state)] == [555, 556, 557]


def test_the_default_branch_in_memory_makes_the_origin_base_branch(tmp_path, gh):
    server, facts = gh
    state = server.state
    main, ev = push_on_main(state, facts)
    first = act(tmp_path, server, main, ev)
    assert "no pull request" in first.summary
    [rec] = memory(state)
    assert rec["on_default"] is True and rec["pr"] is None and rec["branch"] == "main"
    # the control: the same PR run without the memory cannot tell
    control = act(tmp_path / "control", server, facts, memory="false")
    assert control.outputs["origin"] != "base_branch"
    state.comments.clear()
    run = act(tmp_path, server, facts)
    assert run.outputs["origin"] == "base_branch"
    body = comment(state, 7)
    url = f"https://github.com/{REPO}/actions/runs/600"
    assert f"on ` main ` since {rec['at'][:10]} ([run](<{url}>))" in body
    assert "**Origin: base branch**" in body


def test_two_runs_racing_lose_nothing(tmp_path, gh):
    """Two PRs' runs at once (processes), both appending to the same memory."""
    server, facts = gh
    state = server.state
    other = add_pr(state, facts, 8, 556, "other")
    runs: dict[int, object] = {}

    def go(f: Facts) -> None:
        runs[f.run_id] = run_action(
            tmp_path / str(f.run_id),
            server.url,
            "workflow_run",
            event(f, "feature" if f.pr == 7 else "other"),
        )

    threads = [threading.Thread(target=go, args=(f,)) for f in (facts, other)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for run in runs.values():
        assert run.returncode == 0, run.stderr
        assert not warnings(run), run.stdout
    assert sorted(r["run_id"] for r in memory(state)) == [555, 556]


@pytest.mark.parametrize("refused", ["GET", "PUT"])
def test_a_refused_store_costs_one_warning_and_the_comment_is_posted(tmp_path, gh, refused):
    server, facts = gh
    state = server.state
    body = {"message": "Resource not accessible by integration"}
    state.faults.append(Fault(refused, CONTENTS, status=403, body=body, times=20))
    if refused == "PUT":  # a read-only token may not make the branch either
        state.faults.append(Fault("POST", r".*/git/trees", status=403, body=body, times=20))
    run = act(tmp_path, server, facts)
    [line] = warnings(run)
    assert "RepoPilot's memory" in line and "403" in line
    assert "RepoPilot" in comment(state, 7) and run.outputs["comment-url"]
    assert BRANCH not in state.refs[REPO] or refused == "GET"


def test_a_corrupt_memory_is_one_warning_and_is_replaced_keeping_its_bytes(tmp_path, gh):
    server, facts = gh
    state = server.state
    tree = state.git.tree_of_files({"seen.json": b"[{oops"})
    bad = state.git.put_commit(tree, [], "by hand")
    state.refs[REPO][BRANCH] = bad
    run = act(tmp_path, server, facts)
    [line] = warnings(run)
    assert "repopilot-memory:seen.json is not a memory file" in line
    assert "RepoPilot" in comment(state, 7)
    assert [r["run_id"] for r in memory(state)] == [555]
    assert state.git.commits[state.refs[REPO][BRANCH]].parents == [bad]


def test_memory_false_reads_and_writes_nothing(tmp_path, gh):
    server, facts = gh
    state = server.state
    act(tmp_path, server, facts, memory="false")
    assert not [r for r in state.requests if "seen.json" in r.path or "/git/" in r.path]
    assert BRANCH not in state.refs[REPO]


def test_a_dry_run_reads_but_writes_nothing(tmp_path, gh):
    server, facts = gh
    state = server.state
    act(tmp_path, server, facts, dry_run="true")
    assert state.calls("GET", CONTENTS) and not state.calls("PUT", CONTENTS)
    assert BRANCH not in state.refs[REPO]


def test_analyze_reads_and_the_post_job_writes(tmp_path, gh):
    """The split workflow: the read-only job reads the memory and hands "seen before" on in the
    result file; the job with the write token renders it and appends the records."""
    server, facts = gh
    state = server.state
    act(tmp_path, server, add_pr(state, facts, 8, 556, "other"))
    result = str(tmp_path / "shared" / "result.json")
    before = len(state.calls("PUT", CONTENTS))
    act(tmp_path / "a", server, facts, mode="analyze", result_file=result)
    assert len(state.calls("PUT", CONTENTS)) == before  # analyze writes nothing
    with open(result, encoding="utf-8") as fh:
        [job] = json.load(fh)["jobs"]
    assert [r["pr"] for r in job["result"]["seen"]["prs"]] == [8]
    act(tmp_path / "p", server, facts, mode="post", result_file=result)
    assert "also failed on PR #8" in comment(state, 7)
    assert [r["run_id"] for r in memory(state)] == [556, 555]


def test_the_same_workflow_mode_remembers_a_push_to_main(tmp_path, gh):
    """RepoPilot as the last job of the CI workflow itself: a push to main that fails is
    remembered on the default branch, and the PR's own run then says so."""
    server, facts = gh
    state = server.state
    add_run(state, 600, facts.base_sha)
    repo = {
        "full_name": REPO,
        "name": "octo-repo",
        "owner": {"login": "octo-org"},
        "default_branch": "main",
    }
    push = {
        "ref": "refs/heads/main",
        "after": facts.base_sha,
        "repository": repo,
        "head_commit": {"id": facts.base_sha, "message": "merge"},
        "sender": {"login": "maint", "type": "User"},
    }
    env = {"GITHUB_RUN_ID": "600", "GITHUB_RUN_ATTEMPT": "1"}
    first = run_action(tmp_path / "push", server.url, "push", push, env=env)
    assert first.returncode == 0, first.stderr
    [rec] = memory(state)
    assert rec["on_default"] is True and rec["branch"] == "main" and rec["run_id"] == 600
    head = {"ref": "feature", "sha": facts.head_sha, "repo": repo}
    pull = {
        "action": "synchronize",
        "number": 7,
        "pull_request": {"number": 7, "head": head, "base": {**head, "ref": "main"}},
        "repository": repo,
        "sender": {"login": "contributor", "type": "User"},
    }
    env = {"GITHUB_RUN_ID": "555", "GITHUB_RUN_ATTEMPT": "1"}
    run = run_action(tmp_path / "pr", server.url, "pull_request", pull, env=env)
    assert run.returncode == 0, run.stderr
    assert f"on ` main ` since {rec['at'][:10]}" in comment(state, 7)
    assert [r["run_id"] for r in memory(state)] == [600, 555]


def test_the_memory_is_the_only_write_of_a_triage_run(tmp_path, gh):
    """What the fault tests' "no write to the repository" invariant now allows: the memory's own
    branch, and nothing else (a commit with a parent, a ref of the code, any other file)."""
    server, facts = gh
    state = server.state
    act(tmp_path, server, facts)
    assert state.calls("POST", r".*/git/refs") and state.calls("POST", r".*/git/commits")
    assert not repository_writes(state)
    fake = [
        ("PATCH", "/git/refs/heads/feature", {"sha": facts.head_sha}),
        ("POST", "/git/commits", {"message": "RepoPilot memory: x", "parents": [facts.head_sha]}),
        ("POST", "/git/refs", {"ref": "refs/heads/main", "sha": facts.head_sha}),
        ("PUT", "/contents/src/calc.py", {"branch": BRANCH, "content": ""}),
        ("PUT", "/contents/seen.json", {"branch": "main", "content": ""}),
    ]
    for method, path, body in fake:
        state.requests.append(Request("api", method, f"/repos/{REPO}{path}", {}, {}, body))
    assert len(repository_writes(state)) == len(fake)


def test_a_secret_in_the_failure_stays_out_of_the_memory(tmp_path, gh):
    """pytest puts parameter values in test ids: the signature and the title would carry a token
    into a branch as readable as the repository. The pipeline redacts captures already; the memory
    redacts what it stores once more (`stored_signature`), whatever reaches it."""
    server, facts = gh
    state = server.state
    token = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
    lines = [
        "##[group]Run pytest",
        "pytest -q",
        "##[endgroup]",
        f"FAILED tests/test_auth.py::test_login[{token}] - AssertionError: 401",
        "##[error]Process completed with exit code 1.",
    ]
    state.job_logs[facts.job_id] = "".join(
        f"2026-01-02T03:04:05.0000000Z {x}\n" for x in lines
    ).encode()
    act(tmp_path, server, facts, patterns="")
    [rec] = memory(state)
    assert "test_login" in rec["signature"] + rec["title"]
    stored = json.dumps(memory(state))
    assert token not in stored and token[:12] not in stored

    raw = f"python.pytest.failed-test|test=tests/test_auth.py::test_login[{token}]"
    assert token not in stored_signature(raw) and "[REDACTED:github-token]" in stored_signature(raw)
    assert stored_signature(raw) == stored_signature(raw)  # the same way every time: it compares


LEARNED = b"""ecosystem: repo
patterns:
  - id: repo.learned.calc-add
    category: test_failure
    source: 'learned from job 101 of run 500:15'
    regex: '^FAILED (?P<test>tests/test_calc\\.py::test_add) - assert 3 == 4$'
    title: 'add is broken again'
    examples:
      match: ['FAILED tests/test_calc.py::test_add - assert 3 == 4']
      no_match: ['FAILED tests/test_calc.py::test_sub - assert 3 == 4']
"""


def test_a_learned_pattern_that_decided_says_where_it_was_learned(tmp_path, gh):
    """The repository's own learned pattern (on the default branch) decides: the section says
    "seen before: learned pattern <id> (learned from ...)", and the memory records `learned`."""
    server, facts = gh
    state = server.state
    git = state.git
    files = git.files(git.commits[facts.base_sha].tree)
    files[".github/repopilot/patterns/learned.yaml"] = ("100644", LEARNED)
    main = git.put_commit(git.tree_of_files(files), [facts.base_sha], "learn")
    state.refs[REPO]["main"] = main
    run = act(tmp_path, server, facts, patterns="")
    body = comment(state, 7)
    assert "repo.learned.calc-add" in body, "the learned pattern did not decide"
    assert run.outputs["decided-by"] == "pattern"
    line = "**Seen before:** learned pattern ` repo.learned.calc-add ` (learned from job 101 of run"
    assert line in body
    [rec] = memory(state)
    assert rec["learned"] is True and rec["pattern_id"] == "repo.learned.calc-add"
