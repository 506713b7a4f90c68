"""`repopilot learn --out DIR` where DIR exists but holds no pattern file yet (a directory the
user just made, or one holding only a README): the first pattern is written there, not refused
as "no patterns found"."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.paths import REPO_ROOT

pytestmark = pytest.mark.integration


def test_an_existing_directory_without_patterns_takes_the_first_one(tmp_path: Path):
    log = tmp_path / "build.log"
    log.write_text("$ ./zork-link all\nzork linker lost symbol at 0x1f in unit core\nexit 1\n")
    out = tmp_path / "patterns"
    out.mkdir()
    (out / "README.md").write_text("our learned patterns\n")
    got = subprocess.run(
        [sys.executable, "-m", "repopilot", "learn", str(log), "--line", "2", "--out", str(out)],
        capture_output=True, text=True, cwd=REPO_ROOT, timeout=300,
    )  # fmt: skip
    assert got.returncode == 0, got.stderr
    assert len(list(out.glob("*.yaml"))) == 1
