"""`/repopilot learn` keeps the repository's pattern directory loadable and truthful (Contract 6,
in the loopback world): the same failure learned again widens the learned pattern IN the file
the default branch keeps it in (no second file with its id), and a learned pattern the named
line contradicts is taken out by the same pull request."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from repopilot.commands.learn import lint_one
from repopilot.engine.learn.learner import LearnRequest, learn, to_yaml
from repopilot.engine.library.loader import load_library
from tests.adoption_logs import gha
from tests.loopback.github_action import BOT, REPO, comment_event, run_action, run_event, seed
from tests.loopback.github_server import GitHubServer, State

pytestmark = pytest.mark.integration

PATTERN_DIR = ".github/repopilot/patterns"
DIFFER = "release-check: the versions differ; add a {} entry for {} in the notes"
CAUSE = 17  # the physical line of DIFFER in `_log`'s output


def _log(version: str, top: str, notes: str) -> bytes:
    out = [
        "release-check: reading package.json",
        f"release-check: version {version}",
        "release-check: reading CHANGELOG.md",
        f"release-check: top entry is {top}",
        DIFFER.format(notes, version),
    ]
    return gha([("npm ci", ["added 12 packages in 2s"]), ("node scripts/release-check.js", out)])


def _learned(tmp: Path, log: bytes, line: int) -> str:
    """What `repopilot learn` made of `line` of `log` earlier (the real learner)."""
    path = tmp / "earlier.log"
    path.write_bytes(log)
    got = learn(LearnRequest(str(path), line, "config_error"), load_library(), lint_one)
    return to_yaml(got)


def _on_main(state: State, files: dict[str, str]) -> None:
    main = state.refs[REPO]["main"]
    have = dict(state.git.files(state.git.commits[main].tree))
    have.update({f"{PATTERN_DIR}/{n}": ("100644", t.encode()) for n, t in files.items()})
    state.refs[REPO]["main"] = state.git.put_commit(state.git.tree_of_files(have), [main], "p")


def _pull_files(state: State) -> dict[str, str]:
    [pull] = state.fork_pulls
    tree = state.git.commits[state.refs[REPO][pull["head"]]].tree
    return {p[len(PATTERN_DIR) + 1 :]: v[1].decode() for p, v in state.git.files(tree).items()
            if p.startswith(PATTERN_DIR + "/")}  # fmt: skip


def _loads(tmp: Path, files: dict[str, str]) -> list[str]:
    """The ids of the directory as the library loads it (it refuses a duplicate id)."""
    d = tmp / "dir"
    d.mkdir()
    for name, text in files.items():
        (d / name).write_text(text)
    return [p.id for p in load_library(d)]


@pytest.fixture
def world(tmp_path):
    state = State(bot=BOT, fork_accepts_pulls=True)
    with GitHubServer(state) as gh:
        yield tmp_path, state, gh
    assert state.errors == []


def _teach(tmp: Path, gh, state: State, facts, command: str) -> str:
    first = run_action(tmp / "triage", gh.url, "workflow_run", run_event(facts))
    assert first.returncode == 0, first.stderr
    taught = run_action(tmp / "learn", gh.url, "issue_comment",
                        comment_event(command, login="maint"))  # fmt: skip
    assert taught.returncode == 0, taught.stderr
    reply = [c for c in state.comments.values() if c["login"] == BOT][-1]["body"]
    assert len(state.fork_pulls) == 1, reply
    return reply


def test_the_same_failure_widens_the_pattern_in_its_own_file(world):
    tmp, state, gh = world
    facts = seed(state)
    earlier = _learned(tmp, _log("1.4.0", "1.3.9", "CHANGELOG"), CAUSE)
    [spec] = yaml.safe_load(earlier)["patterns"]
    hand = {"id": "team.release-tag", "category": "config_error",
            "source": "https://docs.npmjs.com/cli/v10/commands/npm-version",
            "regex": "^release-check: no git tag for \\S+$", "title": "no tag",
            "examples": {"match": ["release-check: no git tag for v1"], "no_match": ["x"]}}  # fmt: skip
    team = yaml.safe_dump({"ecosystem": "team", "patterns": [spec, hand]}, sort_keys=False)
    _on_main(state, {"team.yaml": team})
    state.job_logs[101] = _log("1.5.0", "1.4.0", "HISTORY")  # the same failure, another file
    _teach(tmp, gh, state, facts, f"/repopilot learn 101 L{CAUSE} config_error")
    files = _pull_files(state)
    assert sorted(files) == ["team.yaml"]  # widened where it stands, no second file
    assert _loads(tmp, files) == [spec["id"], "team.release-tag"]
    [widened] = [p for p in yaml.safe_load(files["team.yaml"])["patterns"] if p["id"] == spec["id"]]
    assert widened["regex"] != spec["regex"] and "job 101 of run 555" in widened["source"]


def test_a_contradicted_learned_pattern_is_taken_out(world):
    tmp, state, gh = world
    facts = seed(state)
    log = _log("1.4.0", "1.3.9", "CHANGELOG")
    wrong = _learned(tmp, log, CAUSE - 1)  # an earlier teaching: "top entry is ..." is the cause
    [old] = yaml.safe_load(wrong)["patterns"]
    _on_main(state, {"top-entry.yaml": wrong})
    state.job_logs[101] = log
    reply = _teach(tmp, gh, state, facts, f"/repopilot learn 101 L{CAUSE} config_error")
    files = _pull_files(state)
    assert "top-entry.yaml" not in files, reply
    [new] = _loads(tmp, files)
    assert new != old["id"]
    [pull] = state.fork_pulls
    assert f"removes `{old['id']}` from `top-entry.yaml`" in pull["body"]


def test_widening_after_the_first_pull_request_was_merged_opens_a_new_one(world):
    tmp, state, gh = world
    facts = seed(state)
    state.job_logs[101] = _log("1.4.0", "1.3.9", "CHANGELOG")
    _teach(tmp / "1", gh, state, facts, f"/repopilot learn 101 L{CAUSE} config_error")
    [first] = state.fork_pulls
    state.refs[REPO]["main"] = state.refs[REPO][first["head"]]  # merged; its branch stays
    state.job_logs[101] = _log("1.5.0", "1.4.0", "HISTORY")
    learned = run_action(tmp / "2", gh.url, "issue_comment",
                         comment_event(f"/repopilot learn 101 L{CAUSE} config_error",
                                       login="maint", cid=901))  # fmt: skip
    assert learned.returncode == 0, learned.stderr
    assert len(state.fork_pulls) == 2, [c["body"] for c in state.comments.values()][-1]
    second = state.fork_pulls[1]
    assert second["head"] != first["head"]
    tree = state.git.commits[state.refs[REPO][second["head"]]].tree
    names = [p for p in state.git.files(tree) if p.startswith(PATTERN_DIR + "/")]
    assert len(names) == 1  # the widened pattern replaced the merged one in its file


def test_learn_reads_the_log_again_under_the_configured_cap(world):
    """The job's log is read again cut where the triage's was (REPOPILOT_MAX_LOG_BYTES): a line
    past that cut was never in the comment, so it is not learned from."""
    tmp, state, gh = world
    facts = seed(state)
    log = _log("1.4.0", "1.3.9", "CHANGELOG")
    state.job_logs[101] = log
    cut = {"REPOPILOT_MAX_LOG_BYTES": str(len(b"".join(log.splitlines(True)[: CAUSE - 1])))}
    first = run_action(tmp / "triage", gh.url, "workflow_run", run_event(facts), env=cut)
    assert first.returncode == 0, first.stderr
    taught = run_action(tmp / "learn", gh.url, "issue_comment",
                        comment_event(f"/repopilot learn 101 L{CAUSE} config_error",
                                      login="maint"), env=cut)  # fmt: skip
    assert taught.returncode == 0, taught.stderr
    reply = [c for c in state.comments.values() if c["login"] == BOT][-1]["body"]
    assert state.fork_pulls == [], reply
    assert f"line {CAUSE}" in reply and "was not carried out" in reply, reply
