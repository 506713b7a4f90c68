"""The repository's memory store (issue 28, repopilot/github/seen_store.py): `seen.json` on the
`repopilot-memory` branch through the contents API, real PyGithub against the loopback GitHub,
whose contents PUT checks the blob sha as GitHub does (409 on a stale one)."""

from __future__ import annotations

import base64
import json
import threading

import pytest

from repopilot.github.client import ClientConfig, make_client
from repopilot.github.seen_keep import KEEP, READ, dump
from repopilot.github.seen_store import ATTEMPTS, BRANCH, BUDGET, SeenStore
from repopilot.run_records import SeenRecord
from tests.loopback.github_action import REPO
from tests.loopback.github_server import Fault, GitHubServer, State

pytestmark = pytest.mark.integration

CONTENTS = r"/repos/octo-org/octo-repo/contents/seen\.json"


def record(run_id: int, job: str = "test", signature: str = "python.pytest|test=t") -> SeenRecord:
    return SeenRecord(
        signature=signature,
        category="test_failure",
        decided_by="pattern",
        pr=run_id % 50 or None,
        branch="feature",
        on_default=False,
        run_id=run_id,
        run_url=f"https://github.com/{REPO}/actions/runs/{run_id}",
        job=job,
        head_sha="a" * 40,
        at=f"2026-11-{1 + run_id % 28:02d}T10:00:00Z",
    )


@pytest.fixture
def world():
    state = State()
    base = state.git.put_commit(state.git.tree_of_files({"README.md": b"hi\n"}), [], "base")
    state.refs[REPO] = {"main": base}
    with GitHubServer(state) as server:
        yield server
    assert state.errors == []


def store(server: GitHubServer, **kw) -> SeenStore:
    cfg = ClientConfig(token="ghs_test", api_url=server.url, timeout=3, max_wait=0.1, pace=0)
    return SeenStore(make_client(cfg).get_repo(REPO), **kw)


def file_at(state: State, commit: str) -> bytes:
    tree = state.git.commits[commit].tree
    _mode, _kind, blob = state.git.trees[tree]["seen.json"]
    return state.git.blobs[blob]


def put_file(state: State, data: bytes) -> None:
    """Someone else's commit of `data` as seen.json on the memory branch (made if missing)."""
    refs = state.refs[REPO]
    parents = [refs[BRANCH]] if BRANCH in refs else []
    tree = state.git.tree_of_files({"seen.json": data})
    refs[BRANCH] = state.git.put_commit(tree, parents, "by hand")


def test_the_first_write_makes_an_orphan_branch_holding_only_the_file(world):
    written = store(world).append([record(1)], "RepoPilot memory: run 1")
    assert written.warning is None and written.added == 1
    state = world.state
    head = state.refs[REPO][BRANCH]
    commit = state.git.commits[head]
    assert commit.parents == []  # no history of the code, no workflow files: pushes run nothing
    assert list(state.git.trees[commit.tree]) == ["seen.json"]
    data = json.loads(file_at(state, head))
    assert data["version"] == 1 and [r["run_id"] for r in data["records"]] == [1]
    loaded = store(world).read()
    assert loaded.warning is None and loaded.records == (record(1),)


def test_a_missing_memory_is_no_warning(world):
    loaded = store(world).read()
    assert loaded.records == () and loaded.warning is None


def test_writes_append_and_a_rerun_replaces_its_record(world):
    store(world).append([record(1), record(1, "lint")], "one")
    store(world).append([record(2)], "two")
    again = record(1).model_copy(update={"category": "network"})
    store(world).append([again], "rerun")
    records = store(world).read().records
    assert [(r.run_id, r.job) for r in records] == [(1, "lint"), (2, "test"), (1, "test")]
    assert records[-1].category == "network"
    # the file is one record per line, readable and diffable on the branch
    text = file_at(world.state, world.state.refs[REPO][BRANCH]).decode()
    assert text.count("\n") == 3 + 2 and text.startswith('{"version": 1, "records": [\n')


def test_a_stale_sha_is_read_again_and_merged(world):
    """Another run writes between this run's read and its PUT: the PUT gets 409, the file is
    read again and both runs' records are kept."""
    state = world.state
    store(world).append([record(1)], "first")

    def other_run(s: State) -> None:
        old = json.loads(file_at(s, s.refs[REPO][BRANCH]))
        old["records"].append(record(2).model_dump(mode="json"))
        put_file(s, json.dumps(old).encode())

    state.faults.append(Fault("PUT", CONTENTS, hook=other_run))  # runs before the PUT lands
    written = store(world).append([record(3)], "third")
    assert written.warning is None, written.warning
    assert [r.run_id for r in store(world).read().records] == [1, 2, 3]
    puts = state.calls("PUT", CONTENTS)
    assert len(puts) == 2
    assert puts[0].body["sha"] != puts[1].body["sha"]  # the second PUT carries the new sha


def test_two_runs_racing_lose_nothing(world):
    """Two writers in threads, each appending its records one write at a time."""
    errors: list[str] = []

    def writer(first: int) -> None:
        for n in range(first, first + 4):
            written = store(world, budget=99, attempts=20).append([record(n)], f"run {n}")
            if written.warning:
                errors.append(written.warning)

    threads = [threading.Thread(target=writer, args=(k,)) for k in (100, 200)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    kept = {r.run_id for r in store(world).read().records}
    assert kept == set(range(100, 104)) | set(range(200, 204)), errors


def test_a_reader_uses_only_the_last_200_and_a_write_keeps_1000(world):
    state = world.state
    put_file(state, dump([record(n) for n in range(1, 1001)]).encode())
    loaded = store(world).read()
    assert len(loaded.records) == READ == 200
    assert [r.run_id for r in loaded.records] == list(range(801, 1001))
    store(world).append([record(5000)], "more")
    data = json.loads(file_at(state, state.refs[REPO][BRANCH]))
    ids = [r["run_id"] for r in data["records"]]
    assert len(ids) == KEEP and ids[0] == 2 and ids[-1] == 5000


@pytest.mark.parametrize("method", ["GET", "PUT"])
def test_a_refused_token_is_one_warning(world, method):
    state = world.state
    store(world).append([record(1)], "first")
    refused = {"message": "Resource not accessible by integration"}
    state.faults.append(Fault(method, CONTENTS, status=403, body=refused, times=5))
    s = store(world)
    result = s.read() if method == "GET" else s.append([record(2)], "second")
    assert result.warning is not None
    assert "repopilot-memory:seen.json" in result.warning and "403" in result.warning
    assert "read-only" in result.warning
    assert "\n" not in result.warning


def test_a_corrupt_file_is_one_warning_and_a_write_starts_a_new_list(world):
    state = world.state
    put_file(state, b"{not json at all")
    bad = state.refs[REPO][BRANCH]
    loaded = store(world).read()
    assert loaded.records == ()
    assert loaded.warning is not None and "repopilot-memory:seen.json" in loaded.warning
    assert "not a memory file" in loaded.warning
    written = store(world).append([record(7)], "after the corrupt one")
    assert written.added == 1 and written.warning == loaded.warning  # said once, the same way
    head = state.refs[REPO][BRANCH]
    assert state.git.commits[head].parents == [bad]  # the bad bytes stay in the history
    assert file_at(state, bad) == b"{not json at all"
    assert [r.run_id for r in store(world).read().records] == [7]


def test_a_file_of_another_shape_is_corrupt_too(world):
    put_file(world.state, json.dumps({"version": 2, "records": []}).encode())
    warning = store(world).read().warning
    assert warning is not None and "version" in warning


def test_conflicts_without_end_give_up_within_the_budget(world):
    state = world.state
    store(world).append([record(1)], "first")
    state.faults.append(Fault("PUT", CONTENTS, status=409, times=50))
    s = store(world, pause=lambda attempt: None)
    written = s.append([record(2)], "second")
    assert written.added == 0 and written.warning is not None
    assert f"{ATTEMPTS} attempts; the last answer: 409" in written.warning
    assert len(state.calls("PUT", CONTENTS)) == ATTEMPTS
    assert s.used <= BUDGET


def test_an_unreachable_api_is_one_warning(world):
    state = world.state
    state.faults.append(Fault("GET", CONTENTS, status=502, times=50))
    warning = store(world).read().warning
    assert warning is not None and "was not read" in warning


def test_the_contents_are_base64_of_the_file(world):
    """What goes over the wire is the file exactly as dump() writes it."""
    store(world).append([record(1)], "one")
    [put] = [r for r in world.state.requests if r.method == "POST" and r.path.endswith("/trees")]
    text = put.body["tree"][0]["content"]
    store(world).append([record(2)], "two")
    [update] = world.state.calls("PUT", CONTENTS)
    assert (
        json.loads(base64.b64decode(update.body["content"]))["records"][0]
        == json.loads(text)["records"][0]
    )


def test_an_odd_answer_is_one_warning(world):
    state = world.state
    state.faults.append(Fault("POST", r".*/git/trees", status=201, body={"no": "sha"}))
    written = store(world).append([record(1)], "one")
    assert written.added == 0 and "not understood (KeyError)" in (written.warning or "")
    state.faults.append(Fault("GET", CONTENTS, status=200, body={"sha": 5}))
    assert "did not describe a file" in (store(world).read().warning or "")
