"""Issue 23: the release users pin is the code the README describes. Every `uses:
OWNER/repopilot@<sha> # vX.Y.Z` in the README and the example workflows names one commit and one
version, that commit exists and its pyproject.toml has that version, and the version is the
CHANGELOG's top release and this checkout's pyproject.toml version (cutting a release updates all
four together; docs/RELEASING.md). Needs the git history: skipped with a reason without it."""

from __future__ import annotations

import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

import repopilot
from tests.paths import REPO_ROOT

pytestmark = pytest.mark.integration
PIN = re.compile(r"[\w.-]+/repopilot@([0-9a-f]{40}) # v(\d+\.\d+\.\d+)\b")
PINNED = [REPO_ROOT / "README.md", *sorted((REPO_ROOT / "examples" / "workflows").glob("*.yml"))]


def _pins() -> dict[Path, set[tuple[str, str]]]:
    return {path: set(PIN.findall(path.read_text(encoding="utf-8"))) for path in PINNED}


def _git(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["git", "-C", str(REPO_ROOT), *args], capture_output=True, text=True, timeout=30
    )


def changelog_top() -> str:
    text = (REPO_ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    versions = re.findall(r"^## \[(\d+\.\d+\.\d+)\]", text, re.M)
    assert versions, "CHANGELOG.md has no released section"
    return versions[0]


def test_every_file_pins_one_release() -> None:
    pins = _pins()
    for path, found in pins.items():
        assert found, f"{path.name} pins no release"
    assert len(set().union(*pins.values())) == 1, f"different pins: {pins}"


def test_pin_changelog_and_pyproject_agree() -> None:
    if shutil.which("git") is None or _git("rev-parse", "--git-dir").returncode != 0:
        pytest.skip("no git history here (a source archive): the pinned commit cannot be read")
    [(sha, version)] = set().union(*_pins().values())
    if _git("cat-file", "-e", f"{sha}^{{commit}}").returncode != 0:
        if _git("rev-parse", "--is-shallow-repository").stdout.strip() == "true":
            pytest.skip(f"shallow clone: the pinned commit {sha[:12]} is not in it")
        pytest.fail(f"the pinned commit {sha} does not exist in this repository")
    pinned = tomllib.loads(_git("show", f"{sha}:pyproject.toml").stdout)["project"]["version"]
    here = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert pinned == version, f"the pin says v{version}, its commit's pyproject.toml {pinned}"
    assert changelog_top() == version, "the CHANGELOG's top release is not the pinned one"
    assert here == version, f"pyproject.toml is {here}, the pinned release v{version}"
    assert repopilot.__version__ == version, "`repopilot --version` says another version"
    sections = _git("show", f"{sha}:CHANGELOG.md").stdout
    assert f"## [{version}]" in sections, "the pinned commit holds its own CHANGELOG section"
