"""Issue 22, item 5: the release workflow moves the major tag only for a tagged commit that is on
main and newer than the major tag. The workflow is checked as parsed YAML; its gate script runs
on temporary git repositories."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.paths import REPO_ROOT

pytestmark = pytest.mark.integration
WORKFLOW = REPO_ROOT / ".github" / "workflows" / "release.yml"
GATE = REPO_ROOT / ".github" / "scripts" / "release_gate.py"


def _jobs() -> dict:
    return yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))["jobs"]


def test_the_check_job_runs_the_gate_before_anything_is_published():
    jobs = _jobs()
    check = jobs["check"]["steps"]
    [checkout] = [s for s in check if str(s.get("uses", "")).startswith("actions/checkout@")]
    assert checkout["with"]["fetch-depth"] == 0  # main and the tags are in the clone
    assert checkout["with"]["persist-credentials"] is False
    [gate] = [s for s in check if "release_gate.py" in s.get("run", "")]
    assert gate["run"].split() == [
        "python",
        ".github/scripts/release_gate.py",
        '"$TAG"',
        "--main",
        "origin/main",
    ]
    assert gate["env"]["TAG"] == "${{ github.ref_name }}"  # no expression inside run:
    assert check.index(gate) < len(check) - 1  # before .ci/run
    assert jobs["publish"]["needs"] == "check"
    assert jobs["check"]["permissions"] == {"contents": "read"}
    publish = " ".join(s.get("run", "") for s in jobs["publish"]["steps"])
    assert "git/refs/tags/$major" in publish  # the only place the major tag moves


def test_releasing_documents_tag_protection():
    text = (REPO_ROOT / "docs" / "RELEASING.md").read_text(encoding="utf-8")
    assert "## Tag protection" in text and "ruleset" in text and "bypass" in text
    assert "release_gate.py" in text


def _git(repo: Path, *args: str) -> str:
    env = {
        "GIT_AUTHOR_NAME": "T",
        "GIT_AUTHOR_EMAIL": "t@example.com",
        "GIT_COMMITTER_NAME": "T",
        "GIT_COMMITTER_EMAIL": "t@example.com",
        "GIT_CONFIG_NOSYSTEM": "1",
        "HOME": str(repo),
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
    }
    done = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, env=env, check=True)
    return done.stdout.decode().strip()


def _commit(repo: Path, version: str, message: str) -> str:
    (repo / "pyproject.toml").write_text(f'[project]\nname = "x"\nversion = "{version}"\n')
    _git(repo, "add", "pyproject.toml")
    _git(repo, "commit", "-q", "-m", message)
    return _git(repo, "rev-parse", "HEAD")


def _gate(repo: Path, tag: str, main: str = "main") -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(GATE), tag, "--main", main, "--repo", str(repo)],
        capture_output=True,
        text=True,
    )


@pytest.fixture
def repo(tmp_path):
    """main: 0.1.0 (tagged, v0 on it) -> 0.2.0 (tagged) -> 0.3.0; a branch `evil` off 0.1.0."""
    r = tmp_path / "origin"
    r.mkdir()
    _git(r, "init", "-q", "-b", "main")
    first = _commit(r, "0.1.0", "one")
    _git(r, "tag", "v0.1.0", first)
    _git(r, "tag", "v0", first)
    _git(r, "tag", "v0.2.0", _commit(r, "0.2.0", "two"))
    _commit(r, "0.3.0", "three")
    _git(r, "checkout", "-q", "-b", "evil", first)
    _git(r, "tag", "v0.9.0", _commit(r, "0.9.0", "unreviewed"))
    _git(r, "checkout", "-q", "main")
    return r


def test_a_newer_tag_on_main_passes(repo):
    _git(repo, "tag", "v0.3.0", "main")
    done = _gate(repo, "v0.3.0")
    assert done.returncode == 0, done.stdout
    assert "newer than v0 (v0.1.0)" in done.stdout


def test_a_tag_off_main_is_refused(repo):
    done = _gate(repo, "v0.9.0")
    assert done.returncode == 1
    assert (
        done.stdout.startswith("::error::release gate: v0.9.0")
        and "is not a commit of main" in done.stdout
    )


def test_a_tag_not_newer_than_the_major_tag_is_refused(repo):
    _git(repo, "tag", "-f", "v0", "v0.2.0")
    _git(repo, "tag", "v0.1.5", "v0.1.0")  # an old commit of main, tagged later
    done = _gate(repo, "v0.1.5")
    assert done.returncode == 1
    assert "v0.1.5 is not newer than v0, which is v0.2.0" in done.stdout
    same = _gate(repo, "v0.2.0")  # v0 is already there: a re-run moves nothing
    assert same.returncode == 0 and "already points at v0.2.0" in same.stdout


def test_the_major_tag_without_a_version_tag_is_read_from_pyproject(repo):
    _git(repo, "tag", "-d", "v0.1.0")
    _git(repo, "tag", "-f", "v0", "v0.2.0")
    _git(repo, "tag", "-d", "v0.2.0")
    _git(repo, "tag", "v0.2.0-copy-not-a-version", "v0")
    _git(repo, "tag", "v0.1.9", "main~2")  # an older commit of main, tagged later
    done = _gate(repo, "v0.1.9")
    assert done.returncode == 1 and "which is v0.2.0" in done.stdout


def test_the_first_release_needs_only_main(repo):
    _git(repo, "tag", "-d", "v0")
    _git(repo, "tag", "v0.3.0", "main")
    done = _gate(repo, "v0.3.0")
    assert done.returncode == 0 and "v0 does not exist yet" in done.stdout


def test_in_a_clone_main_is_origin_main(repo, tmp_path):
    _git(repo, "tag", "v0.3.0", "main")
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", str(repo), str(clone)], check=True, capture_output=True)
    assert _gate(clone, "v0.3.0", "origin/main").returncode == 0
    assert _gate(clone, "v0.9.0", "origin/main").returncode == 1
    missing = _gate(clone, "v0.3.0", "origin/nothing")
    assert missing.returncode == 1 and "fetch-depth: 0" in missing.stdout


def test_a_bad_tag_gets_one_line(repo):
    done = _gate(repo, "v1.0")
    assert (
        done.returncode == 1 and done.stdout.count("\n") == 1 and "not a vX.Y.Z tag" in done.stdout
    )
    gone = _gate(repo, "v7.7.7")
    assert gone.returncode == 1 and "does not exist" in gone.stdout
