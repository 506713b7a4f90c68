"""`SeenStore.read(limit=...)` and `repopilot report --repo` reading every record (issue 28): the
Action's comment path keeps the newest 200, the report reads all the file keeps (the newest 1000),
real PyGithub against the loopback GitHub."""

from __future__ import annotations

import json

import pytest

from repopilot.cli import main
from repopilot.github.client import ClientConfig, make_client
from repopilot.github.seen_keep import KEEP, READ, dump
from repopilot.github.seen_store import BRANCH, SeenStore
from repopilot.run_records import SeenRecord
from tests.loopback.github_action import REPO
from tests.loopback.github_server import GitHubServer, State

pytestmark = pytest.mark.integration

STORED = 450  # more than the Action's READ, fewer than KEEP


def _record(n: int) -> SeenRecord:
    return SeenRecord(
        signature=f"python.pytest.failed-test|test=tests/test_{n % 3}.py::test_x",
        category="test_failure",
        decided_by="pattern",
        pr=None if n % 5 == 0 else 100 + n % 4,
        branch="main" if n % 5 == 0 else f"feature-{n % 4}",
        on_default=n % 5 == 0,
        run_id=1000 + n,
        run_url=f"https://github.com/{REPO}/actions/runs/{1000 + n}",
        job="test",
        head_sha="b" * 40,
        at=f"2026-11-{1 + n % 28:02d}T10:00:00Z",
    )


@pytest.fixture
def server():
    state = State()
    base = state.git.put_commit(state.git.tree_of_files({"README.md": b"hi\n"}), [], "base")
    state.refs[REPO] = {"main": base}
    tree = state.git.tree_of_files(
        {"seen.json": dump([_record(n) for n in range(STORED)]).encode()}
    )
    state.refs[REPO][BRANCH] = state.git.put_commit(tree, [], "memory")
    with GitHubServer(state) as s:
        yield s
    assert state.errors == []


def _store(server: GitHubServer) -> SeenStore:
    cfg = ClientConfig(token="ghs_test", api_url=server.url, timeout=3, max_wait=0.1, pace=0)
    return SeenStore(make_client(cfg).get_repo(REPO))


def test_the_default_read_keeps_the_newest_200(server):
    loaded = _store(server).read()
    assert loaded.warning is None and READ == 200
    assert [r.run_id for r in loaded.records] == [1000 + n for n in range(STORED - READ, STORED)]


def test_a_limit_keeps_that_many_and_none_keeps_every_record(server):
    assert [r.run_id for r in _store(server).read(limit=3).records] == [1447, 1448, 1449]
    every = _store(server).read(limit=None).records
    assert len(every) == STORED < KEEP and every[0].run_id == 1000
    assert _store(server).read(limit=0).records == ()  # not "all": a slice of -0 would be


def test_the_report_through_the_api_counts_every_stored_record(server, capsys, monkeypatch):
    monkeypatch.setenv("GITHUB_API_URL", server.url)
    monkeypatch.setenv("GITHUB_TOKEN", "ghs_test")
    monkeypatch.setenv("REPOPILOT_GITHUB_PACE", "0")
    monkeypatch.setenv("REPOPILOT_GITHUB_TIMEOUT", "3")
    monkeypatch.setenv("REPOPILOT_GITHUB_MAX_WAIT", "0.1")
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    argv = ["report", "--repo", REPO, "--until", "2026-11-30", "--weeks", "8", "--format", "json"]
    assert main(argv) == 0
    out, err = capsys.readouterr()
    report = json.loads(out)
    assert report["failures"] == STORED
    assert err == ""  # no "only the newest 200" note any more
    assert sum(t["count"] for t in report["top"]) == STORED
